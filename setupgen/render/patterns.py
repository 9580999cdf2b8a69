"""Terrain patterns that carry the terrain when a sheet is printed in black
and white (``docs/sheet.md``, "Legible without colour"): parallel lines
(hatching, one or two directions) or dots, as a repeating tile fixed to
the page, so neighbouring hexes of one terrain continue each other's
lines. The SVG backend writes a tile as a ``<pattern>``, the cairo backend
as a repeating surface pattern; both draw the same tile.

The patterns themselves (directions, spacing and line width or dot radius
in mm, ink) are data in ``templates/style.toml``, ``[pattern]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ..core.errors import SetupgenError

__all__ = ["Pattern", "DIRECTIONS", "pattern_of"]

#: line directions by name
DIRECTIONS = ("horizontal", "vertical", "rising", "falling")

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Pattern:
    """One terrain's pattern: line ``directions`` (of :data:`DIRECTIONS`),
    or dots when ``dots`` is true; ``spacing`` between lines or dot
    centres (mm), line width or dot radius ``size`` (mm), and the ``ink``
    colour. :meth:`tile` gives the repeating tile."""

    directions: tuple[str, ...] = ()
    dots: bool = False
    spacing: float = 2.0
    size: float = 0.3
    ink: str = "#000000"

    @classmethod
    def from_dict(cls, name: str, data: Any) -> Pattern:
        """A pattern from its ``[pattern]`` table in style.toml.

        Raises :class:`SetupgenError` naming the terrain when a value is
        missing or wrong."""
        if not isinstance(data, dict) and not hasattr(data, "get"):
            raise SetupgenError(f"style pattern {name!r} must be a table")
        try:
            dirs = tuple(str(d) for d in data.get("lines", ()))
            pat = cls(
                dirs,
                bool(data.get("dots", False)),
                float(data["spacing"]),
                float(data["size"]),
                str(data.get("ink", "#000000")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupgenError(f"style pattern {name!r}: missing or wrong value ({exc})") from None
        if any(d not in DIRECTIONS for d in dirs) or not 0 < pat.size < pat.spacing or not (dirs or pat.dots):
            raise SetupgenError(
                f"style pattern {name!r}: give lines or dots, known directions, "
                f"and a size above 0 and below the spacing"
            )
        return pat

    def tile(self) -> tuple[float, float, list[tuple[Point, Point]], list[Point]]:
        """``(width, height, segments, dot centres)`` of the repeating tile
        (mm, tile origin top-left): lines are ``spacing`` apart, diagonal
        ones measured across the lines; dots on a staggered lattice."""
        sp = self.spacing
        if self.dots:
            return sp, 2 * sp, [], [(sp / 2, sp / 2), (0.0, 1.5 * sp), (sp, 1.5 * sp)]
        diagonal = any(d in ("rising", "falling") for d in self.directions)
        side = sp * math.sqrt(2.0) if diagonal else sp
        e = self.size  # overshoot, so strokes meet across tile edges
        segs: list[tuple[Point, Point]] = []
        for d in self.directions:
            if d == "horizontal":
                segs.append(((-e, side / 2), (side + e, side / 2)))
            elif d == "vertical":
                segs.append(((side / 2, -e), (side / 2, side + e)))
            elif d == "rising":
                segs += [
                    ((-e, side + e), (side + e, -e)),
                    ((-e, e), (e, -e)),
                    ((side - e, side + e), (side + e, side - e)),
                ]
            else:
                segs += [
                    ((-e, -e), (side + e, side + e)),
                    ((side - e, -e), (side + e, e)),
                    ((-e, side - e), (e, side + e)),
                ]
        return side, side, segs, []


_CACHE: dict[tuple[int, str], tuple[Any, Pattern]] = {}


def pattern_of(patterns: Any, key: str) -> Pattern | None:
    """The pattern of ``key`` in the style's ``[pattern]`` table, or None
    (read once per table)."""
    data = patterns.get(key)
    if data is None:
        return None
    hit = _CACHE.get((id(patterns), key))
    if hit is not None and hit[0] is patterns:
        return hit[1]
    pat = Pattern.from_dict(key, data)
    _CACHE[(id(patterns), key)] = (patterns, pat)
    return pat
