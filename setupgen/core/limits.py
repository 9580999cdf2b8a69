"""Limits on what a request may hold, checked before any work so that a
mistake fails at once with one clear line (docs/rules.md has none of
these: they guard the tool, not the game)."""

from __future__ import annotations

from .errors import SetupgenError, quoted

#: longest seed, title, tournament or player name, in characters
MAX_TEXT = 200
#: highest round number and most rounds in a tournament
MAX_ROUND = 1000
MAX_ROUNDS = 50
#: most digits a number in a CSV cell may have
MAX_DIGITS = 6
#: the plausible win thresholds (victory points) of a layout or a round
MIN_VP = 3
MAX_VP = 30


def nfc(text: str) -> str:
    """``text`` in Unicode normal form C, the one form player ids and names
    are compared in (issue 46: "é" typed as one code point or as "e" and a
    combining accent is one player; README, "Interpretations")."""
    import unicodedata

    return unicodedata.normalize("NFC", text)


def check_text(value: str, what: str, *, field: str | None = None, limit: int = MAX_TEXT) -> str:
    """``value`` if it is printable text of at most ``limit`` characters.
    Raises :class:`SetupgenError` naming ``what`` (e.g. "the seed")."""
    if len(value) > limit:
        raise SetupgenError(f"{what} is {len(value)} characters long; at most {limit}", field=field)
    if not value.isprintable():
        raise SetupgenError(f"{what} {quoted(value)} holds a control character (a tab, line break, ...)", field=field)
    return value


__all__ = ["MAX_TEXT", "MAX_ROUND", "MAX_ROUNDS", "MAX_DIGITS", "MIN_VP", "MAX_VP", "check_text"]
