"""Locale data from the Unicode CLDR, through Babel (a well-kept library,
instead of our own tables; issue 42): the decimal mark a language writes
numbers with and its abbreviated month names. The words themselves stay
in ``templates/<lang>.toml``.

A language is named as the tournament file and the templates name it
(``en``, ``de``, ``de-CH``). One CLDR does not know (a made-up ``xx``)
takes its ``inherits`` parent's, else CLDR's root (``.``; months ``M01``
to ``M12``). Lazy: Babel is imported on first use.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .templates import Texts

if TYPE_CHECKING:
    from babel import Locale

__all__: Sequence[str] = ("decimal_mark", "decimal", "month_names")


@functools.lru_cache(maxsize=32)
def _locale(lang: str, parent: str | None) -> Locale:
    """The Babel locale of ``lang``, else of ``parent``, else CLDR's root."""
    from babel import Locale, UnknownLocaleError

    for name in (lang, parent):
        if name is None:
            continue
        try:
            return Locale.parse(name, sep="-")
        except (UnknownLocaleError, ValueError):
            continue
    return Locale("root")


def _of(tx: Texts) -> Locale:
    parent = tx.data.get("inherits")
    return _locale(tx.lang, parent if isinstance(parent, str) else None)


@functools.lru_cache(maxsize=32)
def _symbols(locale: Locale) -> tuple[str, tuple[str, ...]]:
    """The decimal mark and the twelve abbreviated month names of ``locale``,
    looked up once (a standings page writes hundreds of figures)."""
    from babel.dates import get_month_names
    from babel.numbers import get_decimal_symbol

    names = get_month_names("abbreviated", context="format", locale=locale)
    return str(get_decimal_symbol(locale)), tuple(str(names[k]) for k in range(1, 13))


def decimal_mark(tx: Texts) -> str:
    """The decimal mark of ``tx``'s language in CLDR: ``.`` in ``en`` and
    ``de-CH``, ``,`` in ``de`` (one character)."""
    return _symbols(_of(tx))[0]


def month_names(tx: Texts) -> tuple[str, ...]:
    """The twelve abbreviated month names of ``tx``'s language in CLDR, as
    a date writes them (``Dec`` in ``en``, ``Dez.`` in ``de``)."""
    return _symbols(_of(tx))[1]


def decimal(text: str, tx: Texts) -> str:
    """A number written with ``.`` (``10.5``, ``107.78``, ``3``) in
    ``tx``'s language: its decimal mark from CLDR (``10,5`` in ``de``);
    the digits are kept as they are (the rounding is the caller's)."""
    return text.replace(".", decimal_mark(tx))
