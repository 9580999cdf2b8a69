"""Refusals as messages with a key (issue 42): the English line the
command line prints comes from ``templates/en.toml`` ``[messages]``; a
front end in another language words the same key from its own file
(``setupgen.console.words.Words.said``), never by matching English text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .errors import SetupgenError
from .templates import texts

__all__: Sequence[str] = ("keyed", "Problem")

E = TypeVar("E", bound=SetupgenError)


def keyed(cls: type[E], key: str, *, field: str | None = None, remedy: str | None = None, **values: object) -> E:
    """The error ``cls`` worded by text ``key`` of ``templates/en.toml``
    ``[messages]`` filled with ``values`` (its ``str()``, as the command
    line prints it), carrying ``key`` and ``values`` for a page to word in
    its language. Raises :class:`SetupgenError` for a missing text or
    value."""
    return cls(texts("en").get(f"messages.{key}", **values), field=field, remedy=remedy, key=key, values=values)


@dataclass(frozen=True)
class Problem:
    """A problem found before it becomes an error (a players-file line's,
    a late entry's): text ``key`` of ``[messages]`` and its ``values``;
    ``str()`` is the English line."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return texts("en").get(f"messages.{self.key}", **self.values)

    def error(self, cls: type[E], *, field: str | None = None) -> E:
        """The problem as error ``cls`` with its key (:func:`keyed`)."""
        return keyed(cls, self.key, field=field, **self.values)
