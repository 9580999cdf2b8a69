"""Sheet words and sheet style, loaded from the top-level ``templates/``
folder: ``<lang>.toml`` (every word printed on a sheet) and ``style.toml``
(colours, fonts, sizes and paper sizes in mm).

Files are read lazily on first use and cached; nothing happens at import
time. Every error is a :class:`setupgen.core.errors.SetupgenError` with a
one-line lowercase message.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .data import data_dir
from .errors import SetupgenError

#: 8 pt in mm (1 pt = 25.4 / 72 mm): the smallest text a sheet may carry
MIN_FONT_MM = 8 * 25.4 / 72


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
            if not isinstance(node, Mapping) or part not in node:
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

    def mm(self, name: str) -> float:
        """The size ``name`` in mm. Raises :class:`SetupgenError` if unknown."""
        try:
            return float(self.size[name])
        except KeyError:
            raise SetupgenError(f"templates/style.toml has no size {name!r}") from None


_TEXTS: dict[str, Texts] = {}
_STYLE: list[Style] = []


def texts(lang: str) -> Texts:
    """The words for language ``lang`` (``"en"``, ``"de"``).

    Raises :class:`SetupgenError` for an unknown language or a malformed
    file.
    """
    cached = _TEXTS.get(lang)
    if cached is not None:
        return cached
    known = languages()
    if lang not in known:
        raise SetupgenError(f"unknown language {lang!r} (known: {', '.join(known)})", field="lang")
    data = _read(templates_dir() / f"{lang}.toml")
    out = _TEXTS[lang] = Texts(lang, MappingProxyType(data))
    return out


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
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise SetupgenError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SetupgenError(f"{path}: {str(exc).lower()}") from None
