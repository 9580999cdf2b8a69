"""Sheet words and sheet style, loaded from the top-level ``templates/``
folder: ``<lang>.toml`` (every word printed on a sheet) and ``style.toml``
(colours, fonts, sizes and paper sizes in mm).

A language is any ``<code>.toml`` beside ``style.toml``; the code is the
file name, a language tag such as ``en``, ``de`` or ``de-CH`` (Swiss
German). A language file may start with ``inherits = "<code>"``: it then
holds only the texts that differ, and every other text comes from the
named language (chains of any depth up to :data:`MAX_INHERITS`; a missing
parent or a cycle is an error). A ``[spelling]`` table rewrites every text
(``"ß" = "ss"``), inherited ones included: ``de-CH`` is ``de`` with ss for
ß, so a word added to ``de`` is right in ``de-CH`` with no second edit.

Files are read lazily on first use and cached; nothing happens at import
time. Every error is a :class:`setupgen.core.errors.SetupgenError` with a
one-line lowercase message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .data import data_dir, read_toml
from .errors import SetupgenError

#: 8 pt in mm (1 pt = 25.4 / 72 mm): the smallest text a sheet may carry
MIN_FONT_MM = 8 * 25.4 / 72
#: longest chain of ``inherits`` a language file may use
MAX_INHERITS = 8
#: (language, kind of positions) -> (the words it was made from, the words for those positions)
_POSITIONED: dict[tuple[str, str], tuple[Any, Texts]] = {}


def templates_dir() -> Path:
    """The folder of sheet templates (see :func:`setupgen.core.data.data_dir`)."""
    return data_dir("templates")


def languages() -> tuple[str, ...]:
    """The languages with a template file, sorted (e.g. ``("de", "en")``)."""
    return tuple(sorted(p.stem for p in templates_dir().glob("*.toml") if p.stem != "style"))


@dataclass(frozen=True, slots=True)
class Texts:
    """The words of one language. Keys are dotted paths into the TOML file
    (``"terrain.forest"``, ``"sheet.round"``)."""

    lang: str
    data: Mapping[str, Any] = field(repr=False)

    def has(self, key: str) -> bool:
        """Whether ``key`` names a text."""
        return isinstance(self._lookup(key), str)

    def for_positions(self, kind: str) -> Texts:
        """These words for a tournament whose positions are ``kind``:
        ``"start"`` (where a player starts: these words as they are) or
        ``"selection"`` (the order in which the players choose chair, colour
        and play order: the texts of ``[positions.selection]`` take the
        place of the texts at the same keys, e.g.
        ``[positions.selection.tournament] seat`` of ``tournament.seat``;
        docs/rules.md section 6, "Selection order"). Raises
        :class:`SetupgenError` for another kind."""
        if kind == "start":
            return self
        overlay = self._lookup(f"positions.{kind}")
        if kind != "selection" or not isinstance(overlay, Mapping):
            raise SetupgenError(f"unknown kind of positions {kind!r} (known: start, selection)")
        cached = _POSITIONED.get((self.lang, kind))
        if cached is not None and cached[0] is self.data:
            return cached[1]
        out = Texts(self.lang, MappingProxyType(_overlaid(self.data, overlay)))
        _POSITIONED[(self.lang, kind)] = (self.data, out)
        return out

    def get(self, key: str, **values: Any) -> str:
        """The text at ``key`` with ``{name}`` fields filled from ``values``.

        Raises :class:`SetupgenError` when the key is missing or a field is
        not supplied.
        """
        text = self._lookup(key)
        if not isinstance(text, str):
            raise SetupgenError(f"templates/{self.lang}.toml has no text {key!r}")
        if not values:
            return text
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError) as exc:
            raise SetupgenError(f"templates/{self.lang}.toml: text {key!r} cannot be filled: {exc}") from None

    def _lookup(self, key: str) -> Any:
        node: Any = self.data
        for part in key.split("."):
            if type(node) not in _TABLES and not isinstance(node, Mapping):
                return None
            if part not in node:
                return None
            node = node[part]
        return node


@dataclass(frozen=True, slots=True)
class Style:
    """Sheet style: ``margin`` and every size in mm; ``font`` and ``mono``
    are CSS font-family lists; ``fill`` maps a terrain (plus ``hidden``,
    ``frame``, ``token``) to a colour; ``colour`` maps other named colours
    (``red``, ``ink``, ``line``, ...); ``papers`` maps a paper name to its
    portrait (width, height) in mm."""

    margin: float
    font: str
    mono: str
    size: Mapping[str, float]
    fill: Mapping[str, str]
    colour: Mapping[str, str]
    papers: Mapping[str, tuple[float, float]]
    #: every table of style.toml by name (``pattern``, page geometry of a
    #: page kind, ...), read-only
    tables: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def table(self, name: str) -> Mapping[str, Any]:
        """The style.toml table ``name`` (empty if absent)."""
        value = self.tables.get(name)
        return _EMPTY if value is None else value

    def mm(self, name: str) -> float:
        """The size ``name`` in mm. Raises :class:`SetupgenError` if unknown."""
        try:
            return float(self.size[name])
        except KeyError:
            raise SetupgenError(f"templates/style.toml has no size {name!r}") from None


_TEXTS: dict[str, Texts] = {}
_EMPTY: Mapping[str, Any] = MappingProxyType({})
_TABLES = (dict, MappingProxyType)  # fast path of the Mapping test
_STYLE: list[Style] = []


def _overlaid(data: Mapping[str, Any], overlay: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with every text of ``overlay`` put in at the same key,
    tables merged table by table."""
    out = dict(data)
    for key, value in overlay.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _overlaid(out[key], value)
        else:
            out[key] = value
    return out


def texts(lang: str) -> Texts:
    """The words for language ``lang`` (``"en"``, ``"de"``, ``"de-CH"``),
    its ``inherits`` chain resolved.

    Raises :class:`SetupgenError` for an unknown language or a malformed
    file.
    """
    cached = _TEXTS.get(lang)
    if cached is not None:
        return cached
    known = languages()
    if lang not in known:
        raise SetupgenError(f"unknown language {lang!r} (known: {', '.join(known)})", field="lang")
    data = _resolve_inherits(lang, known)
    out = _TEXTS[lang] = Texts(lang, MappingProxyType(data))
    return out


def _resolve_inherits(lang: str, known: tuple[str, ...]) -> dict[str, Any]:
    """The texts of ``lang`` with its ``inherits`` chain merged in: each
    file's texts replace its parent's, table by table (a child's
    ``[sheet]`` keeps the parent's other ``[sheet]`` texts), and each
    file's ``[spelling]`` rules rewrite every text merged so far and below
    it. Raises :class:`SetupgenError` for an unknown parent, a cycle, a
    chain longer than :data:`MAX_INHERITS` or a malformed ``[spelling]``."""
    chain = [lang]
    levels = [_read(templates_dir() / f"{lang}.toml")]
    while "inherits" in levels[-1]:
        parent = levels[-1]["inherits"]
        where = f"templates/{chain[-1]}.toml: inherits"
        if not isinstance(parent, str) or parent not in known:
            raise SetupgenError(f"{where}: no language {parent!r} (known: {', '.join(known)})")
        if parent in chain:
            raise SetupgenError(f"{where}: inheritance cycle: {' -> '.join([*chain, parent])}")
        if len(chain) > MAX_INHERITS:
            raise SetupgenError(f"{where}: more than {MAX_INHERITS} levels of inheritance")
        chain.append(parent)
        levels.append(_read(templates_dir() / f"{parent}.toml"))
    merged: dict[str, Any] = {}
    rules: list[tuple[str, str]] = []
    for name, data in zip(reversed(chain), reversed(levels)):
        _merge(merged, {k: v for k, v in data.items() if k not in ("inherits", "spelling")})
        rules += _spelling(name, data.get("spelling", {}))
        if rules:
            _respell(merged, rules)
    return merged


def _spelling(lang: str, table: Any) -> list[tuple[str, str]]:
    """A file's ``[spelling]`` rules, ``"ß" = "ss"``: (old, new) pairs."""
    if not isinstance(table, Mapping) or not all(
        isinstance(k, str) and k and isinstance(v, str) for k, v in table.items()
    ):
        raise SetupgenError(f'templates/{lang}.toml: spelling: expected a table of texts, such as "ß" = "ss"')
    return list(table.items())


def _respell(node: dict[str, Any], rules: list[tuple[str, str]]) -> None:
    """Apply spelling rules to every text in ``node``, in place."""
    for k, v in node.items():
        if isinstance(v, dict):
            _respell(v, rules)
        elif isinstance(v, str):
            for old, new in rules:
                v = v.replace(old, new)
            node[k] = v


def _merge(into: dict[str, Any], data: Mapping[str, Any]) -> None:
    """Merge ``data`` into ``into``: tables key by key, anything else replaced."""
    for k, v in data.items():
        if isinstance(v, Mapping):
            if not isinstance(into.get(k), dict):
                into[k] = {}
            _merge(into[k], v)
        else:
            into[k] = v


def style() -> Style:
    """The sheet style from ``templates/style.toml``.

    Raises :class:`SetupgenError` for a missing or malformed file.
    """
    if _STYLE:
        return _STYLE[0]
    data = _read(templates_dir() / "style.toml")
    try:
        st = Style(
            margin=float(data["page"]["margin"]),
            font=str(data["fonts"]["family"]),
            mono=str(data["fonts"]["mono"]),
            size=MappingProxyType({str(k): float(v) for k, v in data["size"].items()}),
            fill=MappingProxyType({str(k): str(v) for k, v in data["fill"].items()}),
            colour=MappingProxyType({str(k): str(v) for k, v in data["colour"].items()}),
            papers=MappingProxyType({str(k): (float(v[0]), float(v[1])) for k, v in data["paper"].items()}),
            tables=MappingProxyType({str(k): MappingProxyType(v) for k, v in data.items() if isinstance(v, dict)}),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise SetupgenError(f"templates/style.toml: missing or malformed entry {exc}") from None
    if st.margin < 10:
        raise SetupgenError("templates/style.toml: page.margin must be at least 10 mm")
    _STYLE.append(st)
    return st


def paper_size(paper: str) -> tuple[float, float]:
    """``(width, height)`` in mm of a paper name (``a4``, ``letter``; the
    ``[paper]`` table of ``templates/style.toml``).

    Raises :class:`SetupgenError` for an unknown paper.
    """
    papers = style().papers
    if not isinstance(paper, str) or paper not in papers:
        raise SetupgenError(f"unknown paper {paper!r} (known: {', '.join(papers)})", field="paper")
    return papers[paper]


def _read(path: Path) -> dict[str, Any]:
    """The template file ``path`` (:func:`.data.read_toml`)."""
    return read_toml(path, "template file")
