"""Free text in the CSV files setupgen writes, safe to open in a
spreadsheet (OWASP, "CSV Injection"): a cell that starts with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return would be read as a
formula, so :func:`to_csv` writes it with a leading ``'`` and
:func:`from_csv` drops that ``'`` again when setupgen reads the file
back, so a name reads back as it was typed. Only such cells change: a
name that starts with ``'`` and then anything else is written and read
as it is.

Player ids never start with one of these characters (they are refused
where a player is made, :func:`setupgen.tournament.model.player_problem`).
"""

from __future__ import annotations

__all__ = ["FORMULA_START", "to_csv", "from_csv"]

#: first characters a spreadsheet takes for a formula (or that hide one)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def to_csv(text: str) -> str:
    """``text`` as a CSV cell: with a leading ``'`` when it starts with
    one of :data:`FORMULA_START` (``=HYPERLINK(…)`` -> ``'=HYPERLINK(…)``),
    else unchanged."""
    return f"'{text}" if text.startswith(FORMULA_START) else text


def from_csv(text: str) -> str:
    """A CSV cell as setupgen wrote it, back to its text: the leading
    ``'`` of :func:`to_csv` dropped (only before one of
    :data:`FORMULA_START`)."""
    return text[1:] if text.startswith("'") and text[1:].startswith(FORMULA_START) else text
