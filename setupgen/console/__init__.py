"""The director's console (``setupgen serve``, docs/console.md): the tournament day on SQLite, in a browser."""
