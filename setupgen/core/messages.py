"""Refusals as messages with a key (issue 42): the English line the
command line prints comes from ``templates/en.toml`` ``[messages]``; a
front end in another language words the same key from its own file
(``setupgen.console.words.Words.said``), never by matching English text."""

from __future__ import annotations

from typing import Sequence, TypeVar

from .errors import SetupgenError
from .templates import texts

__all__: Sequence[str] = ("keyed",)

E = TypeVar("E", bound=SetupgenError)


def keyed(cls: type[E], key: str, *, field: str | None = None, remedy: str | None = None, **values: object) -> E:
    """The error ``cls`` worded by text ``key`` of ``templates/en.toml``
    ``[messages]`` filled with ``values`` (its ``str()``, as the command
    line prints it), carrying ``key`` and ``values`` for a page to word in
    its language. Raises :class:`SetupgenError` for a missing text or
    value."""
    return cls(texts("en").get(f"messages.{key}", **values), field=field, remedy=remedy, key=key, values=values)
