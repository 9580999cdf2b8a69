"""Oil Springs: placing the oil springs of a variable setup by number
probability (``docs/rules.md`` section 5).

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

The rule definitions (levels, the deserts' best tiles) live in
:mod:`setupgen.core.oil`, shared with ``check``; hexes are axial ``(q, r)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core import rng as rngmod
from ..core.hexgrid import Hex
from ..core.oil import TERRAIN_RULES, OilSetup, chosen_level, desert_assignments
from ..core.rules import PIPS, fits

REDO_NUMBERS = "redo-numbers"
REDO_TERRAIN = "redo-terrain"


@dataclass(frozen=True, slots=True)
class OilResult:
    """The numbers after the oil step (desert numbers included; traded
    tokens moved), the oil-spring hexes, and whether a token trade was
    needed."""

    numbers: Mapping[Hex, int]
    oil_springs: frozenset[Hex]
    swapped: bool


def place(
    land: Sequence[Hex],
    terrain: Mapping[Hex, str],
    numbers: Mapping[Hex, int],
    setup: OilSetup,
    adjacency: Mapping[Hex, tuple[Hex, ...]],
    rng: random.Random,
) -> OilResult | str:
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
        pairs = _trades(candidates, hexes, level, numbers, oil, deserts, setup, adjacency)
        if not pairs:
            return REDO_NUMBERS
        x, y = rngmod.choice(rng, pairs)
        numbers[x], numbers[y] = numbers[y], numbers[x]
        oil.add(y)
        swapped = True
    return OilResult(numbers, frozenset(oil), swapped)


def _trades(
    candidates: Sequence[Hex],
    hexes: Sequence[Hex],
    level: int,
    numbers: Mapping[Hex, int],
    oil: set[Hex],
    deserts: Sequence[Hex],
    setup: OilSetup,
    adjacency: Mapping[Hex, tuple[Hex, ...]],
) -> list[tuple[Hex, Hex]]:
    """The token trades (X, Y) that free a hex on ``level``: X a candidate,
    Y another hex of the terrain off the level and touching no oil spring,
    with every number rule kept (the deserts' numbers exempt from the
    equal-number rule) and the deserts' numbers still a best choice."""
    pairs = []
    for x in candidates:
        for y in hexes:
            if y == x or PIPS[numbers[y]] == level or any(n in oil for n in adjacency[y]):
                continue
            trial = dict(numbers)
            trial[x], trial[y] = numbers[y], numbers[x]
            if (
                fits(trial[x], x, trial, adjacency, equal_exempt=deserts)
                and fits(trial[y], y, trial, adjacency, equal_exempt=deserts)
                and _desert_choice_holds(deserts, trial, setup, adjacency)
            ):
                pairs.append((x, y))
    return pairs


def _desert_choice_holds(
    deserts: Sequence[Hex], numbers: Mapping[Hex, int], setup: OilSetup, adjacency: Mapping[Hex, tuple[Hex, ...]]
) -> bool:
    """Whether the deserts' numbers are still a best choice (step 1) after a
    trade: a trade may not bring a desert's number next to it when another
    numbered tile would then be better."""
    if not deserts:
        return True
    others = {h: v for h, v in numbers.items() if h not in deserts}
    return tuple(numbers[d] for d in deserts) in desert_assignments(deserts, others, setup.numbered, adjacency)


__all__ = ["OilResult", "place", "REDO_NUMBERS", "REDO_TERRAIN"]
