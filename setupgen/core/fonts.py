"""Fonts for names in any common script (issue 42, point 3; docs/sheet.md,
"Names in any script").

Every text is set in the style's font (DejaVu Sans). A character that font
lacks is set in the first fallback font of ``templates/style.toml``
``[[fonts.fallback]]`` that has it (Droid Sans Fallback: Chinese, Japanese,
Korean; Symbola: monochrome symbols and emoji), found by fontconfig on this
machine; cairo embeds the glyphs used as a subset of each font. A text is
cut into *runs*, each set in one font (:func:`runs`); a run in a fallback
font is measured from that font's advance widths (:func:`fallback_units`).

A character no font here has, or one of a script that needs shaping or
right-to-left layout (``[[fonts.shaping]]``: the page layout places glyphs
one after the other and cannot do either), makes a name unprintable:
:func:`unprintable` names the first such character, and the players file
and a late entry refuse that name (``setupgen.tournament.model.
player_problem``).

Without fontconfig (``fc-match``) the coverage of the fonts cannot be
known: every character then counts as the style font's, as before issue 42,
and only the shaping scripts are refused.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from . import templates

__all__: Sequence[str] = (
    "Unprintable",
    "runs",
    "fallback_units",
    "unprintable",
    "fallback_families",
    "family_of",
    "forget",
)

#: characters the page's width table covers (ASCII, German letters, a few signs): always the style font's
_PLAIN = frozenset("".join(chr(c) for c in range(32, 127)) + "äöüÄÖÜß·–—…×→")


@dataclass(frozen=True, slots=True)
class Unprintable:
    """Why a text cannot be printed: its character ``char`` and either the
    ``script`` that needs shaping or right-to-left layout, or (``script``
    None) no font having it; ``packages`` the Debian font packages that
    would add the fallback fonts missing on this machine."""

    char: str
    script: str | None = None
    packages: tuple[str, ...] = ()

    @property
    def code(self) -> str:
        """The character's code point, ``U+4E2D``."""
        return f"U+{ord(self.char):04X}"


def fallback_families() -> tuple[tuple[str, str], ...]:
    """The fallback fonts in order: (family, Debian package) per font."""
    return tuple((f["family"], f["package"]) for f in templates.style().table("fonts").get("fallback", ()))


def _primary() -> str:
    """The style font's family (its first name): ``DejaVu Sans``."""
    return templates.style().font.split(",")[0].strip()


@functools.cache
def _font_file(family: str) -> Path | None:
    """The file fontconfig gives for ``family`` when it is that family (a
    different family means it is not installed); None without
    fontconfig."""
    fc = shutil.which("fc-match")
    if fc is None:
        return None
    try:
        found = subprocess.run(
            [fc, "-f", "%{family}\t%{file}", family], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    names, _, file = found.partition("\t")
    return Path(file) if family.lower() in (n.strip().lower() for n in names.split(",")) and file else None


@functools.cache
def _metrics(path: Path) -> tuple[dict[int, int], int]:
    """A font file's advance width per code point (font units) and its
    units per em."""
    from fontTools.ttLib import TTFont

    with TTFont(str(path), lazy=True) as font:
        cmap = font.getBestCmap() or {}
        hmtx = font["hmtx"].metrics
        per_em = font["head"].unitsPerEm
        return {cp: hmtx[name][0] for cp, name in cmap.items() if name in hmtx}, per_em


def _has(family: str, char: str) -> bool | None:
    """Whether ``family``'s font has ``char`` (None: the font is not on
    this machine, or there is no fontconfig to ask)."""
    path = _font_file(family)
    return None if path is None else ord(char) in _metrics(path)[0]


@functools.lru_cache(maxsize=4096)
def family_of(char: str) -> str | None:
    """The family that sets ``char``: the style font's when it has it (or
    when that cannot be known), else the first fallback font having it;
    None when no font here has it."""
    if char in _PLAIN:
        return _primary()
    primary = _has(_primary(), char)
    if primary is None or primary:
        return _primary()
    for family, _package in fallback_families():
        if _has(family, char):
            return family
    return None


def runs(text: str) -> list[tuple[str, str | None]]:
    """``text`` cut into runs, each with the fallback family that sets it
    (None: the style font), in order; one run ``(text, None)`` for a text
    the style font sets whole."""
    if _PLAIN.issuperset(text):
        return [(text, None)]
    primary = _primary()
    out: list[tuple[str, str | None]] = []
    for char in text:
        family = family_of(char)
        key = None if family in (None, primary) else family
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + char, key)
        else:
            out.append((char, key))
    return out


def fallback_units(char: str) -> int | None:
    """The advance width of ``char`` in 1/1000 em when a fallback font sets
    it, else None (the style font's width table measures it)."""
    family = family_of(char)
    if family is None or family == _primary():
        return None
    path = _font_file(family)
    if path is None:
        return None
    widths, per_em = _metrics(path)
    return round(widths[ord(char)] * 1000 / per_em)


def unprintable(text: str) -> Unprintable | None:
    """The first character of ``text`` the sheets cannot print as written
    (a script needing shaping or right-to-left layout, a combining mark,
    or no font having it), or None."""
    if _PLAIN.issuperset(text):
        return None
    shaping = templates.style().table("fonts").get("shaping", ())
    for char in text:
        if char in _PLAIN:
            continue
        code = ord(char)
        for block in shaping:
            if block["first"] <= code <= block["last"]:
                return Unprintable(char, block["script"])
        if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Mc", "Me"):
            return Unprintable(char, "a combining mark")
        if unicodedata.bidirectional(char) in ("R", "AL"):
            return Unprintable(char, "a right-to-left script")
        if family_of(char) is None:
            missing = tuple(package for family, package in fallback_families() if _font_file(family) is None)
            return Unprintable(char, None, missing)
    return None


def forget() -> None:
    """Forget what fontconfig said (after fonts were installed while this
    process runs)."""
    _font_file.cache_clear()
    _metrics.cache_clear()
    family_of.cache_clear()
