"""Oil Springs rule definitions (``docs/rules.md`` section 5): a layout's
oil settings, probability levels, the deserts' best numbered tiles, and
where a fixed setup's oil springs go. Shared by the generator
(:mod:`setupgen.generate.oil`, :mod:`setupgen.generate.fixed`) and
:mod:`setupgen.check`. Hexes are axial ``(q, r)``.

Worked example of the levels (pastures with 6, 9, 4, 3 -> pips 5, 4, 3,
2): levels 5 > 4 > 3 > 2, the second-highest is 4, so the pasture with 9;
if two pastures carry 5 and 9 (both 4 pips) and the others 6 and 6, the
levels are 5 > 4 and both the 5 and the 9 pasture are candidates.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import hexgrid
from .errors import SetupgenError
from .hexgrid import Hex
from .rules import PIPS

#: which level each oil-spring terrain takes (docs/rules.md section 5, steps 2-3)
TERRAIN_RULES: tuple[tuple[str, str], ...] = (("pasture", "second-highest"), ("forest", "second-lowest"))
#: the terrains that may carry an oil spring
OIL_TERRAINS: tuple[str, ...] = ("desert",) + tuple(name for name, _ in TERRAIN_RULES)


@dataclass(frozen=True, slots=True)
class FixedSpring:
    """An oil spring of a fixed setup (docs/rules.md section 5): on the hex
    of ``terrain`` bearing ``number`` (the one farthest north-east if
    several), or with ``east``, on the hex east of the one bearing
    ``number``; with ``turn``, that hex is first turned into ``terrain``."""

    terrain: str
    number: int
    east: bool = False
    turn: bool = False


@dataclass(frozen=True, slots=True)
class OilSetup:
    """A layout's oil-spring settings: the numbers on the numbered oil-spring
    tiles (one per desert is used), the oil a player may hold, and for a
    fixed setup the pasture/forest springs (``fixed``; empty: variable
    setup, placed by probability)."""

    numbered: tuple[int, ...] = (5, 9)
    limit: int = 4
    fixed: tuple[FixedSpring, ...] = ()


def levels(values: Sequence[int]) -> list[int]:
    """Distinct pip counts of number tokens, highest first."""
    return sorted({PIPS[v] for v in values}, reverse=True)


def chosen_level(values: Sequence[int], rule: str) -> int:
    """The pip level a terrain's oil spring goes on: ``second-highest`` or
    ``second-lowest`` of :func:`levels` (the only level if there is one).
    Raises ``ValueError`` for an empty terrain or unknown rule."""
    found = levels(values)
    if not found:
        raise ValueError("no numbered hexes of this terrain")
    if rule == "second-lowest":
        found = found[::-1]
    elif rule != "second-highest":
        raise ValueError(f"unknown level rule {rule!r}")
    return found[1] if len(found) > 1 else found[0]


def desert_assignments(
    deserts: Sequence[Hex],
    numbers: Mapping[Hex, int],
    numbered: Sequence[int],
    adjacency: Mapping[Hex, tuple[Hex, ...]],
) -> list[tuple[int, ...]]:
    """The best assignments of numbered tiles to ``deserts`` (in order): those
    giving the most deserts a number absent from their neighbours (step 1)."""

    def score(assign: tuple[int, ...]) -> int:
        return sum(all(numbers.get(n) != v for n in adjacency[d]) for d, v in zip(deserts, assign))

    options = sorted(set(itertools.permutations(numbered, len(deserts))))
    if not options:
        return []
    best = max(score(a) for a in options)
    return [a for a in options if score(a) == best]


def explain(
    land: Sequence[Hex], terrain: Mapping[Hex, str], numbers: Mapping[Hex, int]
) -> list[tuple[str, list[int], int, list[Hex]]]:
    """For each oil-spring terrain (steps 2-3): (terrain, its pip levels, the
    chosen level, the hexes on that level), ``land`` in reading order."""
    out = []
    for name, rule in TERRAIN_RULES:
        hexes = [h for h in land if terrain.get(h) == name and h in numbers]
        if not hexes:
            continue
        level = chosen_level([numbers[h] for h in hexes], rule)
        out.append((name, levels([numbers[h] for h in hexes]), level, [h for h in hexes if PIPS[numbers[h]] == level]))
    return out


def fixed_spring_hex(spring: FixedSpring, land: Sequence[tuple[Hex, str, int | None]], kinds: Mapping[Hex, str]) -> Hex:
    """The hex a fixed oil spring goes on. ``land``: (hex, terrain, number)
    of every land hex; ``kinds``: hex -> kind of every hex of the board.
    Several hexes match: the one farthest north-east (largest ``x - y`` of
    its centre, then the northern one). Raises :class:`SetupgenError` when
    no hex matches or the hex east of the match is not land."""

    def north_east(item: tuple[Hex, str, int | None]) -> tuple[float, int, int]:
        x, y = hexgrid.center(item[0])
        return (round(x - y, 9), -item[0][1], item[0][0])

    by_number = spring.turn or spring.east
    bearing = [t for t in land if t[2] == spring.number and (by_number or t[1] == spring.terrain)]
    what = f"hex bearing {spring.number}" if by_number else f"{spring.terrain} with {spring.number}"
    if not bearing:
        raise SetupgenError(f"the board has no {what} for the {spring.terrain} oil spring")
    best = max(bearing, key=north_east)[0]
    if not spring.east:
        return best
    east = hexgrid.neighbor(best, 0)
    if kinds.get(east) != "land":
        raise SetupgenError(f"the hex east of ({best[0]}, {best[1]}) (bearing {spring.number}) is not land")
    return east


__all__ = [
    "FixedSpring",
    "OilSetup",
    "TERRAIN_RULES",
    "OIL_TERRAINS",
    "levels",
    "chosen_level",
    "desert_assignments",
    "explain",
    "fixed_spring_hex",
]
