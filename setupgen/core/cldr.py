"""Locale data from the Unicode CLDR, through Babel (a well-kept library,
instead of our own tables; issue 42): the decimal mark a language writes
numbers with. The words themselves stay in ``templates/<lang>.toml``.

A language is named as the tournament file and the templates name it
(``en``, ``de``, ``de-CH``). One CLDR does not know (a made-up ``xx``)
takes its ``inherits`` parent's, else CLDR's root (``.``). Lazy: Babel is
imported on first use.
"""

from __future__ import annotations

import functools
from typing import Sequence

from .templates import Texts

__all__: Sequence[str] = ("decimal_mark", "decimal")


@functools.lru_cache(maxsize=32)
def _mark(lang: str, parent: str | None) -> str:
    from babel import Locale, UnknownLocaleError
    from babel.numbers import get_decimal_symbol

    for name in (lang, parent):
        if name is None:
            continue
        try:
            return str(get_decimal_symbol(Locale.parse(name, sep="-")))
        except (UnknownLocaleError, ValueError):
            continue
    return "."


def decimal_mark(tx: Texts) -> str:
    """The decimal mark of ``tx``'s language in CLDR: ``.`` in ``en`` and
    ``de-CH``, ``,`` in ``de`` (one character)."""
    parent = tx.data.get("inherits")
    return _mark(tx.lang, parent if isinstance(parent, str) else None)


def decimal(text: str, tx: Texts) -> str:
    """A number written with ``.`` (``10.5``, ``107.78``, ``3``) in
    ``tx``'s language: its decimal mark from CLDR (``10,5`` in ``de``);
    the digits are kept as they are (the rounding is the caller's)."""
    return text.replace(".", decimal_mark(tx))
