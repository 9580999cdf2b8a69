"""Harbor placement methods (``docs/rules.md`` sections 1 and 3).

A harbor lies on a sea hex and serves the edge towards one land neighbour
(``facing``, direction index 0-5). Hexes are axial ``(q, r)``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TypeVar

from ..core import rng as rngmod
from ..core.board import Harbor, spot_order
from ..core.errors import GenerationError
from ..core.hexgrid import Hex
from ..core.rules import RULE_CORNERS, RULE_ONE_PER_SEA, harbor_conflict

#: restarts of the free harbor step before giving up
FREE_RESTARTS = 1000

T = TypeVar("T")


def shuffled(places: Sequence[tuple[Hex, int]], pool: Sequence[str], rng: random.Random) -> tuple[Harbor, ...]:
    """The harbor pool shuffled onto the layout's fixed places (in the
    layout's order). Raises :class:`GenerationError` when the counts differ."""
    types = shuffled_pool(len(places), pool, rng)
    return tuple(Harbor(h, facing, t) for (h, facing), t in zip(places, types))


def shuffled_pool(places: int, pool: Sequence[T], rng: random.Random) -> list[T]:
    """The draw of :func:`shuffled`: the pool (any values) shuffled, one
    for each of ``places`` places in the layout's order. Raises
    :class:`GenerationError` when the counts differ."""
    if places != len(pool):
        raise GenerationError(f"{len(pool)} harbors for {places} harbor places")
    types = list(pool)
    rngmod.shuffle(rng, types)
    return types


def free(
    edges: Sequence[tuple[Hex, int]],
    pool: Sequence[str],
    rng: random.Random,
    *,
    layout_name: str = "layout",
    restarts: int = FREE_RESTARTS,
) -> tuple[Harbor, ...]:
    """Harbors drawn in random order, each laid on a uniformly chosen legal
    edge among ``edges`` (docs/rules.md section 3): at most one harbor per sea
    hex, no intersection shared by two harbors. The legal edges keep the
    order of ``edges``. A dead end restarts the whole harbor step
    (continuing the stream).

    Raises :class:`GenerationError` naming the rule after ``restarts``.
    """
    edges = tuple(edges)
    blocks, sea_hexes = conflicts(edges)
    laid = free_draw(blocks, sea_hexes, list(pool), rng, layout_name=layout_name, restarts=restarts)
    return tuple(sorted((Harbor(*edges[k], htype) for k, htype in laid), key=lambda x: spot_order(x.hex, x.facing)))


def free_draw(
    blocks: Sequence[frozenset[int]],
    sea_hexes: int,
    pool: list[T],
    rng: random.Random,
    *,
    layout_name: str = "layout",
    restarts: int = FREE_RESTARTS,
) -> list[tuple[int, T]]:
    """The draws of :func:`free` over edge indices: ``blocks[k]`` the edges
    edge ``k`` rules out and ``sea_hexes`` the sea hexes the edges touch
    (:func:`conflicts`), ``pool`` the harbors (any values; shuffled as a
    copy). Returns (edge index, harbor) in the order laid. Raises
    :class:`GenerationError` naming the rule for more harbors than sea
    hexes (before any draw) and after ``restarts``."""
    if len(pool) > sea_hexes:  # at most one harbor per sea hex
        raise GenerationError(
            f"{layout_name}: {len(pool)} harbors but only {sea_hexes} sea hexes touch land (rule {RULE_ONE_PER_SEA})"
        )
    random_ = rng.random
    for _ in range(restarts + 1):
        order = pool[:]
        rngmod.shuffle(rng, order)
        legal: Sequence[int] = range(len(blocks))
        out: list[tuple[int, T]] = []
        for htype in order:
            if not legal:
                break
            k = legal[int(random_() * len(legal))]  # rngmod.randbelow, inlined
            out.append((k, htype))
            blocked = blocks[k]
            legal = [x for x in legal if x not in blocked]
        else:
            return out
    raise GenerationError(
        f"{layout_name}: cannot lay {len(pool)} harbors after {restarts} restarts: "
        f"rules {RULE_ONE_PER_SEA} and {RULE_CORNERS} leave too few coast edges"
    )


@functools.lru_cache(maxsize=64)
def conflicts(edges: tuple[tuple[Hex, int], ...]) -> tuple[tuple[frozenset[int], ...], int]:
    """For each edge (by index), the edges it rules out once it holds a
    harbor: itself, every edge of the same sea hex, every edge sharing an
    intersection with it (:func:`setupgen.core.rules.harbor_conflict`);
    and how many sea hexes the edges touch."""
    return (
        tuple(frozenset(j for j, f in enumerate(edges) if harbor_conflict(e, f)) for e in edges),
        len({h for h, _ in edges}),
    )
