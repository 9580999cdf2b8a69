"""The one typed reader of parsed data files: board JSON
(``docs/format.md``), layouts, tournament files and almanac data (TOML).

A :class:`Fields` checks the values of one document as the loaders need
them (a key present and of its type, no unknown keys, a table, a whole
number in a range, a list of texts) and words every problem the same way:
``<where>: <problem>``, ``where`` the dotted key (``rounds[2].scenario``),
the document's own error type and prefix (file name) supplied by the
loader. Type names are Python's (``expected int, got str``) or, for JSON
documents, JSON's (``expected an integer, got a string``). A ``bool`` is
never taken for a number.

Pure: no files read here (:func:`setupgen.core.data.read_toml` reads them).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, NoReturn

__all__ = ["Fields", "MISSING", "PYTHON_NAMES", "JSON_NAMES"]

#: "no default": :meth:`Fields.get` raises for a missing key
MISSING: Any = ...

PYTHON_NAMES: Mapping[type, str] = {}
JSON_NAMES: Mapping[type, str] = {
    str: "a string",
    int: "an integer",
    bool: "true/false",
    list: "a list",
    dict: "an object",
    type(None): "null",
    float: "a fraction",
}


class Fields:
    """Typed access to one parsed document. ``error(where, problem)``
    makes the exception a problem raises (its type and wording are the
    document's: e.g. ``LayoutError(path, where, problem)``); ``names``
    names types in messages (:data:`PYTHON_NAMES`: ``int``;
    :data:`JSON_NAMES`: ``an integer``); ``unknown`` is the word for an
    unknown key (``key``, ``field``)."""

    __slots__ = ("error", "names", "unknown")

    def __init__(
        self, error: Callable[[str, str], Exception], *, names: Mapping[type, str] = PYTHON_NAMES, unknown: str = "key"
    ) -> None:
        self.error = error
        self.names = names
        self.unknown = unknown

    def fail(self, where: str, problem: str) -> NoReturn:
        """Raise the document's error for ``where`` (a dotted key)."""
        raise self.error(where, problem)

    def name(self, typ: type) -> str:
        """The name of ``typ`` in this document's messages."""
        return self.names.get(typ, typ.__name__)

    def get(
        self, table: Mapping[str, Any], key: str, typ: type | tuple[type, ...], default: Any = MISSING, where: str = ""
    ) -> Any:
        """``table[key]`` checked to be a ``typ`` (a type or a tuple of
        types; a ``bool`` only when ``bool`` is named); ``default`` when
        the key is missing, or the error ``<where><key>: missing`` when
        there is no default (``where`` ends with ``.``: ``final.``).
        Raises the document's error: ``expected int, got str``."""
        if key not in table:
            if default is MISSING:
                self.fail(f"{where}{key}", "missing")
            return default
        value = table[key]
        types = typ if isinstance(typ, tuple) else (typ,)
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            want = " or ".join(self.name(t) for t in types)
            self.fail(f"{where}{key}", f"expected {want}, got {self.name(type(value))}")
        return value

    def known(self, table: Mapping[str, Any], keys: Collection[str], where: str = "") -> None:
        """Raise for the first key (sorted) of ``table`` not in ``keys``:
        ``<where><key>: unknown key (known: a, b, c)`` (``where`` ends
        with ``.``, or is empty at the top; the known keys in the order
        given when ``keys`` is a list or tuple, else sorted)."""
        extra = sorted(set(table) - set(keys))
        if extra:
            listed = keys if isinstance(keys, (list, tuple)) else sorted(keys)
            self.fail(f"{where}{extra[0]}", f"unknown {self.unknown} (known: {', '.join(listed)})")

    def table(self, value: Any, where: str, problem: str = "expected a table") -> dict[str, Any]:
        """``value`` when it is a table (TOML) or object (JSON), else the error ``<where>: <problem>``."""
        if not isinstance(value, dict):
            self.fail(where, problem)
        return value

    def items(self, value: Any, where: str, problem: str, *, empty: bool = True) -> list[Any]:
        """``value`` when it is a list (non-empty unless ``empty``), else
        the error ``<where>: <problem>``."""
        if not isinstance(value, list) or not (empty or value):
            self.fail(where, problem)
        return value

    def texts(self, value: Any, where: str, problem: str, *, empty: bool = True) -> list[str]:
        """``value`` when it is a list of texts (non-empty unless
        ``empty``), else the error ``<where>: <problem>``."""
        if not isinstance(value, list) or not (empty or value) or not all(isinstance(v, str) for v in value):
            self.fail(where, problem)
        return value

    def whole(self, value: Any, where: str, low: int, high: int) -> int:
        """``value`` when it is a whole number ``low``..``high`` (not a
        ``bool``), else the error ``<where>: expected a whole number low-high``."""
        if type(value) is not int or not low <= value <= high:
            self.fail(where, f"expected a whole number {low}-{high}")
        return value
