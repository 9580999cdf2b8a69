"""Oil Springs: placing the oil springs of a variable setup by number
probability (``../shared/RULES.md`` section 5, seed 003).

Steps, in this order, each seeing the oil springs already placed:

1. every desert gets a *numbered* oil-spring tile (numbers from the layout,
   default 5 and 9): choose the assignment that gives as many deserts as
   possible a number that does not appear on a neighbouring hex; several
   equally good: at random. This number is exempt from the equal-number rule
   (``check`` notes a clash);
2. the pasture whose number lies on the *second-highest probability level*
   among the pastures: levels are the distinct pip counts of the pastures'
   numbers, highest first; the second of them (if all pastures share one
   level, that level). Its number chip stays on it;
3. the forest on the *second-lowest* level, likewise (levels lowest first).

Ties (several hexes on the level): prefer one not next to an oil spring,
then at random. If every one on the level touches an oil spring, take the
pairs (X, Y) of such a candidate X and another hex Y of the same terrain that
touches no oil spring and whose number token can trade places with X's with
every number rule kept (our reading: step 1's choice counts as a rule too,
so a trade may not bring a desert's number next to it when the other
numbered tile would then have been the better choice); pick a pair uniformly, trade the tokens, and put the
oil spring on Y (the terrain's levels are unchanged by the trade, so Y is now
on the chosen level). No such pair: the caller redoes the number placement
(:data:`REDO_NUMBERS`); two deserts side by side: the caller redoes the
terrain (:data:`REDO_TERRAIN`). The redo slightly changes the odds against a
pure table procedure, which would swap chips by hand instead.

Worked example (pastures with 6, 9, 4, 3 -> pips 5, 4, 3, 2): levels
5 > 4 > 3 > 2, the second-highest is 4, so the pasture with 9; if two
pastures carry 5 and 9 (both 4 pips) and the others 6 and 6, the levels
are 5 > 4 and both the 5 and the 9 pasture are candidates.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from . import rng as rngmod
from .hexgrid import Hex
from .rules import PIPS, RED_NUMBERS

REDO_NUMBERS = "redo-numbers"
REDO_TERRAIN = "redo-terrain"
#: which level each oil-spring terrain takes (RULES.md section 5, steps 2-3)
TERRAIN_RULES: tuple[tuple[str, str], ...] = (("pasture", "second-highest"), ("forest", "second-lowest"))


@dataclass(frozen=True, slots=True)
class FixedSpring:
    """An oil spring of a fixed setup (RULES.md section 5): on the hex of
    ``terrain`` bearing ``number`` (the one farthest north-east if several),
    or with ``east``, on the hex east of the one bearing ``number``; with
    ``turn``, that hex is first turned into ``terrain``."""

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


@dataclass(frozen=True, slots=True)
class OilResult:
    """The numbers after the oil step (desert numbers included; traded
    tokens moved), the oil-spring hexes, and whether a token trade was
    needed."""

    numbers: Mapping[Hex, int]
    oil_springs: frozenset[Hex]
    swapped: bool


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


def fits_with_oil(number: int, h: Hex, numbers: Mapping[Hex, int], oil_deserts: frozenset[Hex],
                  adjacency: Mapping[Hex, tuple[Hex, ...]]) -> bool:
    """The number rules for ``number`` on ``h``, with the deserts' oil-spring
    numbers exempt from the equal-number rule (RULES.md section 5)."""
    for n in adjacency[h]:
        other = numbers.get(n)
        if other is None:
            continue
        if number in RED_NUMBERS and other in RED_NUMBERS:
            return False
        if other == number and n not in oil_deserts:
            return False
    return True


def desert_assignments(deserts: Sequence[Hex], numbers: Mapping[Hex, int], numbered: Sequence[int],
                       adjacency: Mapping[Hex, tuple[Hex, ...]]) -> list[tuple[int, ...]]:
    """The best assignments of numbered tiles to ``deserts`` (in order): those
    giving the most deserts a number absent from their neighbours."""
    def score(assign: tuple[int, ...]) -> int:
        return sum(all(numbers.get(n) != v for n in adjacency[d]) for d, v in zip(deserts, assign))

    options = sorted(set(itertools.permutations(numbered, len(deserts))))
    if not options:
        return []
    best = max(score(a) for a in options)
    return [a for a in options if score(a) == best]


def place(land: Sequence[Hex], terrain: Mapping[Hex, str], numbers: Mapping[Hex, int], setup: OilSetup,
          adjacency: Mapping[Hex, tuple[Hex, ...]], rng: random.Random) -> OilResult | str:
    """Run the oil steps on a board whose terrain and numbers are laid.

    ``land`` in reading order. Returns the :class:`OilResult`, or
    :data:`REDO_TERRAIN` (deserts side by side, or more deserts than
    numbered tiles) or :data:`REDO_NUMBERS` (no candidate and no legal
    trade)."""
    deserts = [h for h in land if terrain[h] == "desert"]
    if len(deserts) > len(setup.numbered) or any(b in adjacency[a] for a in deserts for b in deserts):
        return REDO_TERRAIN
    numbers = dict(numbers)
    oil: set[Hex] = set()
    options = desert_assignments(deserts, numbers, setup.numbered, adjacency)
    if deserts:
        for d, v in zip(deserts, rngmod.choice(rng, options)):
            numbers[d] = v
            oil.add(d)
    oil_deserts = frozenset(deserts)
    swapped = False
    for name, rule in TERRAIN_RULES:
        hexes = [h for h in land if terrain[h] == name and h in numbers]
        if not hexes:
            continue
        level = chosen_level([numbers[h] for h in hexes], rule)
        candidates = [h for h in hexes if PIPS[numbers[h]] == level]
        clear = [h for h in candidates if not any(n in oil for n in adjacency[h])]
        if clear:
            oil.add(rngmod.choice(rng, clear))
            continue
        pairs = []
        for x in candidates:
            for y in hexes:
                if y == x or PIPS[numbers[y]] == level or any(n in oil for n in adjacency[y]):
                    continue
                trial = dict(numbers)
                trial[x], trial[y] = numbers[y], numbers[x]
                if (fits_with_oil(trial[x], x, trial, oil_deserts, adjacency)
                        and fits_with_oil(trial[y], y, trial, oil_deserts, adjacency)
                        and _desert_choice_holds(deserts, trial, setup, adjacency)):
                    pairs.append((x, y))
        if not pairs:
            return REDO_NUMBERS
        x, y = rngmod.choice(rng, pairs)
        numbers[x], numbers[y] = numbers[y], numbers[x]
        oil.add(y)
        swapped = True
    return OilResult(numbers, frozenset(oil), swapped)


def _desert_choice_holds(deserts: Sequence[Hex], numbers: Mapping[Hex, int], setup: OilSetup,
                         adjacency: Mapping[Hex, tuple[Hex, ...]]) -> bool:
    """Whether the deserts' numbers are still a best choice (step 1) after a
    trade: a trade may not bring a desert's number next to it when another
    numbered tile would then be better."""
    if not deserts:
        return True
    others = {h: v for h, v in numbers.items() if h not in deserts}
    return tuple(numbers[d] for d in deserts) in desert_assignments(deserts, others, setup.numbered, adjacency)


def explain(land: Sequence[Hex], terrain: Mapping[Hex, str], numbers: Mapping[Hex, int]) -> list[tuple[str, list[int], int, list[Hex]]]:
    """For each oil-spring terrain: (terrain, its pip levels, the chosen
    level, the hexes on that level) — what ``check`` reports."""
    out = []
    for name, rule in TERRAIN_RULES:
        hexes = [h for h in land if terrain.get(h) == name and h in numbers]
        if not hexes:
            continue
        level = chosen_level([numbers[h] for h in hexes], rule)
        out.append((name, levels([numbers[h] for h in hexes]), level,
                    [h for h in hexes if PIPS[numbers[h]] == level]))
    return out


__all__ = ["FixedSpring", "OilSetup", "OilResult", "place", "levels", "chosen_level", "desert_assignments",
           "fits_with_oil", "explain", "REDO_NUMBERS", "REDO_TERRAIN"]
