"""Number-token placement methods (``docs/rules.md`` section 2).

Each method lays a region's tokens on its hexes given in *placement order*
(reading order, desert and fixed-token hexes left out), respecting the
tokens already on the board (``fixed``, a mapping hex -> token). Hexes are
axial ``(q, r)``. Each returns a new dict hex -> token of the hexes it
filled. Draws come from an explicit ``random.Random`` through
:mod:`setupgen.core.rng`.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import hexgrid
from ..core import rng as rngmod
from ..core.errors import GenerationError
from ..core.hexgrid import Hex
from ..core.rules import RED_NUMBERS, RULE_EQUAL, RULE_RED, clash_table, clashes

#: restarts of the swap rule before giving up (docs/rules.md section 2, step 5)
SWAP_RESTARTS = 1000
#: whole-arrangement attempts of the uniform method before giving up
UNIFORM_ATTEMPTS = 500_000

Pick = Callable[[list[int]], int]
Adjacency = Mapping[Hex, tuple[Hex, ...]]


def swap(
    order: Sequence[Hex],
    tokens: Sequence[int],
    fixed: Mapping[Hex, int],
    rng: random.Random,
    *,
    layout_name: str = "layout",
    adjacency: Adjacency | None = None,
) -> dict[Hex, int]:
    """The tournament swap rule, drawing from ``rng``. See :func:`swap_with`."""
    return swap_with(order, tokens, fixed, rng, layout_name=layout_name, adjacency=adjacency)


def swap_with(
    order: Sequence[Hex],
    tokens: Sequence[int],
    fixed: Mapping[Hex, int],
    pick: Pick | random.Random,
    *,
    trace: list[tuple[Any, ...]] | None = None,
    layout_name: str = "layout",
    restarts: int = SWAP_RESTARTS,
    adjacency: Adjacency | None = None,
) -> dict[Hex, int]:
    """The tournament swap rule exactly as docs/rules.md section 2, steps 1-5.

    ``pick(bag)`` returns the index of the chip drawn from the list ``bag``
    (a ``random.Random`` stands for ``int(rng.random() * len(bag))``; the
    bag's list order is part of the reproducible stream: a drawn chip is
    removed with ``pop``; chips put aside return to the end of the bag once
    the hex is filled). ``trace``, if given, receives events as tuples:
    ``("place", p, c)``, ``("swap", p, j, c, d)`` (``c`` now on ``j``, ``d`` on
    ``p``), ``("aside", p, c)`` and ``("restart", n)``.

    Walking back for a swap goes over the hexes filled in this pass in
    placement order descending (the path reading of docs/rules.md section 2).

    ``adjacency`` (hex -> neighbours) only saves recomputing neighbours.

    Raises :class:`GenerationError` after ``restarts`` restarts (rule
    ``equal-adjacent``/``red-adjacent`` cannot be met on ``layout_name``).
    """
    n = len(order)  # a count of tokens other than n is refused by the cells' version
    # Indices instead of hexes on the hot path: hexes of the order are
    # cells 0..n-1, fixed hexes follow; 0 marks an empty hex.
    cells, near = _frame(tuple(order), tuple(fixed), adjacency)
    start = [0] * n + [fixed[h] for h in cells[n:]]
    placed = swap_cells(
        start,
        range(n),
        tokens,
        near,
        pick,
        cells=cells,
        trace=trace,
        restarts=restarts,
        feasible=lambda: check_feasible(order, tokens, adjacency, layout_name),
        layout_name=layout_name,
    )
    return dict(zip(order, placed))


def swap_cells(
    start: Sequence[int],
    walk: Sequence[int],
    tokens: Sequence[int],
    near: Sequence[Sequence[int]],
    pick: Pick | random.Random,
    *,
    feasible: Callable[[], None],
    layout_name: str = "layout",
    restarts: int = SWAP_RESTARTS,
    cells: Sequence[Hex] = (),
    trace: list[tuple[Any, ...]] | None = None,
    before: Sequence[Sequence[int]] | None = None,
) -> list[int]:
    """The swap rule over integer cells: ``start`` the token per cell (0:
    none; cells outside ``walk`` keep theirs), ``walk`` the cells to fill in
    placement order, ``near[cell]`` the cells next to it. ``pick``: as in
    :func:`swap_with`, or a ``random.Random`` to draw a chip uniformly
    from (``int(rng.random() * len(bag))``, as :func:`swap` does). Returns
    the token per cell (``start`` with ``walk`` filled). ``feasible()`` runs
    once the first pass has failed (it raises for an impossible layout);
    ``cells`` names each cell's hex for ``trace`` (:func:`swap_with`).
    ``before[cell]`` (default ``near``) may leave out neighbours that are
    certainly empty when ``cell`` is reached in a pass: cells later in
    ``walk`` (a pass fills the walk in order and trades only with cells
    already filled); a chip is first tried against those alone.

    Raises :class:`GenerationError` for a count of tokens other than
    ``walk``'s and after ``restarts`` restarts.
    """
    return swap_joint(
        start,
        (walk,),
        (tokens,),
        near,
        pick,
        feasible=feasible,
        layout_name=layout_name,
        restarts=restarts,
        cells=cells,
        trace=trace,
        before=before,
    )


def swap_joint(
    start: Sequence[int],
    walks: Sequence[Sequence[int]],
    tokens: Sequence[Sequence[int]],
    near: Sequence[Sequence[int]],
    pick: Pick | random.Random,
    *,
    feasible: Callable[[], None],
    layout_name: str = "layout",
    restarts: int = SWAP_RESTARTS,
    cells: Sequence[Hex] = (),
    trace: list[tuple[Any, ...]] | None = None,
    before: Sequence[Sequence[int]] | None = None,
) -> list[int]:
    """:func:`swap_cells` over several walks, each with its own tokens
    (token regions that touch, docs/rules.md section 2): a pass lays every
    walk in turn (a walk trades only within itself, each chip checked
    against every filled neighbour, the earlier walks' included), and a
    restart takes up the chips of all of them, so an earlier walk's
    arrangement that leaves a later one no room is not kept for good. One
    walk is exactly :func:`swap_cells`. Raises :class:`GenerationError` for
    a walk whose count of tokens differs and after ``restarts`` restarts."""
    _check_counts(walks, tokens, layout_name)
    random_, chooser = (pick.random, None) if isinstance(pick, random.Random) else (None, pick)
    ahead = near if before is None else before
    for attempt in range(restarts + 1):
        if attempt == 1:  # the first pass failed: an impossible layout fails here, not after all restarts
            feasible()
        if attempt and trace is not None:
            trace.append(("restart", attempt))
        placed = list(start)
        for walk, toks in zip(walks, tokens):
            if not _swap_pass(placed, list(toks), near, ahead, walk, chooser, random_, cells, trace):
                break
        else:
            return placed
    raise GenerationError(
        f"{layout_name}: number placement failed after {restarts} restarts: "
        f"the rules {RULE_EQUAL} and {RULE_RED} cannot be met"
    )


def _check_counts(walks: Sequence[Sequence[int]], tokens: Sequence[Sequence[int]], layout_name: str) -> None:
    """Raise :class:`GenerationError` for a walk whose count of tokens is not its count of cells."""
    for walk, toks in zip(walks, tokens):
        if len(toks) != len(walk):
            raise GenerationError(f"{layout_name}: {len(toks)} number tokens for {len(walk)} hexes")


def _swap_pass(
    placed: list[int],
    bag: list[int],
    near: Sequence[Sequence[int]],
    before: Sequence[Sequence[int]],
    walk: Sequence[int],
    pick: Pick | None,
    random_: Callable[[], float] | None,
    cells: Sequence[Hex],
    trace: list[tuple[Any, ...]] | None,
) -> bool:
    """One placement pass of the swap rule over the cells of ``walk``
    (``placed``: token per cell, 0 empty; filled in place), each chip
    drawn by ``pick(bag)``, or with ``pick`` None as
    ``int(random_() * len(bag))``, and checked against the neighbours in
    ``before`` (see :func:`swap_cells`). False when the bag runs dry (the
    caller restarts)."""
    bad = _clash_rows()  # bad[c][o]: the number rule forbids c beside o (0: empty)
    aside: list[int] = []  # chips put aside for the current hex
    for k, cell in enumerate(walk):
        nk = before[cell]
        while True:
            if not bag:
                return False
            c = bag.pop(int(random_() * len(bag)) if pick is None else pick(bag))  # type: ignore[misc]
            row = bad[c]
            for x in nk:
                if row[placed[x]]:
                    break
            else:
                placed[cell] = c
                if trace is not None:
                    trace.append(("place", cells[cell], c))
                break
            if _walk_back(placed, c, k, walk, near, bad, cells, trace):
                break
            aside.append(c)
            if trace is not None:
                trace.append(("aside", cells[cell], c))
        if aside:
            bag += aside
            aside.clear()
    return True


def _walk_back(
    placed: list[int],
    c: int,
    k: int,
    walk: Sequence[int],
    near: Sequence[Sequence[int]],
    bad: tuple[tuple[bool, ...], ...],
    cells: Sequence[Hex],
    trace: list[tuple[Any, ...]] | None,
) -> bool:
    """Trade chip ``c`` (which breaks a rule on the ``k``-th cell of the
    walk) with the chip on the nearest earlier cell along the placement
    path for which the trade breaks nothing; False when there is none."""
    row_c = bad[c]
    cell = walk[k]
    near_k = near[cell]
    for j in range(k - 1, -1, -1):
        other = walk[j]
        d = placed[other]
        placed[other] = c
        for x in near[other]:  # c on the earlier cell
            if row_c[placed[x]]:
                break
        else:
            row_d = bad[d]
            for x in near_k:  # d on this cell
                if row_d[placed[x]]:
                    break
            else:
                placed[cell] = d
                if trace is not None:
                    trace.append(("swap", cells[cell], cells[other], c, d))
                return True
        placed[other] = d
    return False


@functools.cache
def _clash_rows() -> tuple[tuple[bool, ...], ...]:
    """:func:`setupgen.core.rules.clash_table`, built once."""
    return clash_table()


def check_feasible(
    order: Sequence[Hex], tokens: Sequence[int], adjacency: Adjacency | None, layout_name: str = "layout"
) -> None:
    """Fail fast, before any draw, when the number rules cannot be met: the
    hexes are covered greedily by cliques (three mutually adjacent hexes,
    else two, else one); no two tokens that clash may share a clique, so
    more equal tokens, or more red ones, than cliques is impossible.
    Raises :class:`GenerationError` naming the rule. Verdicts are cached
    per (order, tokens, adjacency): a layout has few desert positions."""
    key = (tuple(order), tuple(tokens), id(adjacency))
    if key in _FEASIBLE and _FEASIBLE[key] is adjacency:
        return
    cliques = _clique_cover(tuple(order), adjacency)
    counts = {v: list(tokens).count(v) for v in set(tokens)}
    for value, count in sorted(counts.items()):
        if count > cliques:
            raise GenerationError(
                f"{layout_name}: {count} tokens {value} cannot lie apart on {len(order)} hexes (rule {RULE_EQUAL})"
            )
    reds = sum(c for v, c in counts.items() if v in RED_NUMBERS)
    if reds > cliques:
        raise GenerationError(
            f"{layout_name}: {reds} red tokens cannot lie apart on {len(order)} hexes (rule {RULE_RED})"
        )
    if len(_FEASIBLE) > 4096:
        _FEASIBLE.clear()
    _FEASIBLE[key] = adjacency


_FEASIBLE: dict[tuple[Any, ...], Any] = {}


def _clique_cover(order: tuple[Hex, ...], adjacency: Adjacency | None) -> int:
    """The size of a greedy cover of ``order`` by cliques of the hex graph
    (an upper bound of how many hexes can be pairwise apart)."""
    near = {h: set(hexgrid.neighbors(h) if adjacency is None else adjacency[h]) for h in order}
    left = set(order)
    count = 0
    for h in order:
        if h not in left:
            continue
        left.discard(h)
        count += 1
        mine = sorted(near[h] & left, key=lambda x: (x[1], x[0]))
        pair = next(((a, b) for i, a in enumerate(mine) for b in mine[i + 1 :] if b in near[a]), None)
        left.difference_update(pair if pair is not None else mine[:1])
    return count


_FRAMES: dict[tuple[Any, ...], Any] = {}


def _frame(
    order: tuple[Hex, ...], fixed: tuple[Hex, ...], adjacency: Adjacency | None
) -> tuple[tuple[Hex, ...], tuple[tuple[int, ...], ...]]:
    """The cells (order, then fixed hexes) and, per cell, the indices of
    its neighbours among the cells (none for a fixed cell). Cached per (order, fixed
    hexes, adjacency): a layout has few desert positions."""
    key = (order, fixed, id(adjacency))
    hit = _FRAMES.get(key)
    if hit is not None and hit[0] is adjacency:
        return hit[1], hit[2]
    neighbors_of = hexgrid.neighbors if adjacency is None else adjacency.__getitem__
    in_order = set(order)
    cells = order + tuple(h for h in fixed if h not in in_order)
    index = {h: k for k, h in enumerate(cells)}
    near = tuple(tuple(index[x] for x in neighbors_of(h) if x in index) for h in order)
    near += ((),) * (len(cells) - len(order))  # fixed cells are never filled
    if len(_FRAMES) > 4096:
        _FRAMES.clear()
    _FRAMES[key] = (adjacency, cells, near)
    return cells, near


def uniform(
    order: Sequence[Hex],
    tokens: Sequence[int],
    fixed: Mapping[Hex, int],
    rng: random.Random,
    *,
    layout_name: str = "layout",
    attempts: int = UNIFORM_ATTEMPTS,
    adjacency: Adjacency | None = None,
) -> dict[Hex, int]:
    """Every legal arrangement equally likely: each attempt draws a uniform
    random arrangement chip by chip along ``order`` and is abandoned at its
    first violation (rejection of whole arrangements, docs/rules.md section 2).

    Raises :class:`GenerationError` after ``attempts`` attempts.
    """
    n = len(order)  # a count of tokens other than n is refused by the cells' version
    cells, near = _frame(tuple(order), tuple(fixed), adjacency)
    start = [0] * n + [fixed[h] for h in cells[n:]]
    placed = uniform_cells(
        start,
        range(n),
        tokens,
        near,
        rng,
        attempts=attempts,
        layout_name=layout_name,
        feasible=lambda: check_feasible(order, tokens, adjacency, layout_name),
    )
    return dict(zip(order, placed))


def uniform_cells(
    start: Sequence[int],
    walk: Sequence[int],
    tokens: Sequence[int],
    near: Sequence[Sequence[int]],
    rng: random.Random,
    *,
    feasible: Callable[[], None],
    layout_name: str = "layout",
    attempts: int = UNIFORM_ATTEMPTS,
) -> list[int]:
    """:func:`uniform` over integer cells (the arguments of
    :func:`swap_cells`). An attempt fills the walk in order and never
    trades, so ``near`` may be :func:`swap_cells`' ``before``. Returns the
    token per cell (``start`` with ``walk`` filled). Raises
    :class:`GenerationError` for a count of tokens other than ``walk``'s
    and after ``attempts`` attempts."""
    return uniform_joint(
        start, (walk,), (tokens,), near, rng, feasible=feasible, layout_name=layout_name, attempts=attempts
    )


def uniform_joint(
    start: Sequence[int],
    walks: Sequence[Sequence[int]],
    tokens: Sequence[Sequence[int]],
    near: Sequence[Sequence[int]],
    rng: random.Random,
    *,
    feasible: Callable[[], None],
    layout_name: str = "layout",
    attempts: int = UNIFORM_ATTEMPTS,
) -> list[int]:
    """:func:`uniform_cells` over several walks at once, each with its own
    tokens (token regions that touch, docs/rules.md section 2): an attempt
    draws a uniform arrangement of every walk in turn, each chip checked
    against the cells filled before it (its own walk's and the earlier
    walks'), and is abandoned at its first violation; so every legal
    arrangement of the whole board is equally likely (not only of each
    walk given the ones before). One walk draws exactly as
    :func:`uniform_cells`. Raises :class:`GenerationError` for a walk
    whose count of tokens differs and after ``attempts`` attempts."""
    random_ = rng.random
    _check_counts(walks, tokens, layout_name)
    bad = _clash_rows()
    pairs = [(walk, toks, len(walk)) for walk, toks in zip(walks, tokens)]
    for attempt in range(attempts):  # inlined: the hot path of uniform boards (about 1,000 attempts on 5-6)
        if attempt == 1:
            feasible()
        placed = list(start)
        for walk, toks, n in pairs:
            bag = list(toks)
            for i, cell in enumerate(walk):
                c = bag.pop(int(random_() * (n - i)))  # rngmod.randbelow, inlined
                row = bad[c]
                for x in near[cell]:  # the number rule (setupgen.core.rules.clashes, as a table)
                    if row[placed[x]]:
                        break
                else:
                    placed[cell] = c
                    continue
                break  # a chip broke a rule: the attempt is abandoned
            else:
                continue
            break
        else:
            return placed
    raise GenerationError(
        f"{layout_name}: no legal number arrangement found in {attempts} attempts (rules {RULE_EQUAL}, {RULE_RED})"
    )


def spiral_path(hexes: Sequence[Hex], start: int) -> list[Hex]:
    """The spiral through ``hexes``: the outer layer from corner number
    ``start`` (corners are outer hexes with the fewest neighbours in the set,
    numbered in reading order), counter-clockwise as seen on the page, then
    each inner layer the same way, starting next to where the layer outside
    it started.

    Raises ``ValueError`` when ``start`` is not a corner number.
    """
    paths = _spiral_paths(tuple(hexgrid.row_order(hexes)))
    if not 0 <= start < len(paths):
        raise ValueError(f"corner {start!r} out of range 0-{len(paths) - 1}")
    return list(paths[start])


@functools.lru_cache(maxsize=64)
def _spiral_paths(hexes: tuple[Hex, ...]) -> tuple[tuple[Hex, ...], ...]:
    return tuple(tuple(_spiral_path(hexes, start)) for start in range(len(spiral_corners(hexes))))


def _spiral_path(hexes: Sequence[Hex], start: int) -> list[Hex]:
    peeled = hexgrid.layers(hexes)
    corners = spiral_corners(hexes)
    path: list[Hex] = []
    first = corners[start]
    for layer in peeled:
        if path:
            prev_start = first
            near = [h for h in layer if hexgrid.distance(h, prev_start) == 1]
            if not near:
                near = sorted(layer, key=lambda h: hexgrid.distance(h, prev_start))[:1]
            first = near[0]
        path.extend(_ccw_from(layer, first))
    return path


def spiral_corners(hexes: Sequence[Hex]) -> list[Hex]:
    """The corner hexes a spiral may start from, in reading order."""
    hexset = set(hexes)
    outer = hexgrid.layers(hexset)[0]
    degree = {h: sum(n in hexset for n in hexgrid.neighbors(h)) for h in outer}
    low = min(degree.values())
    return [h for h in outer if degree[h] == low]


def _ccw_from(layer: list[Hex], first: Hex) -> list[Hex]:
    if len(layer) == 1:
        return list(layer)
    pts = {h: hexgrid.center(h) for h in layer}
    cx = sum(x for x, _ in pts.values()) / len(pts)
    cy = sum(y for _, y in pts.values()) / len(pts)

    def angle(h: Hex) -> float:
        x, y = pts[h]
        return math.atan2(-(y - cy), x - cx)

    a0 = angle(first)
    return sorted(layer, key=lambda h: ((angle(h) - a0) % (2 * math.pi), h))


def spiral(
    land: Sequence[Hex],
    skip: frozenset[Hex],
    sequence: Sequence[int],
    rng: random.Random,
    *,
    layout_name: str = "layout",
    fixed: Mapping[Hex, int] | None = None,
) -> dict[Hex, int]:
    """The official lettered order: ``sequence`` laid along the spiral through
    ``land`` from a uniformly chosen corner, counter-clockwise, skipping the
    hexes in ``skip`` (deserts). Promises only the red rule (docs/rules.md
    section 2); equal neighbours are left for ``check`` to note.

    The official sequences never put red numbers side by side; should a
    layout's sequence do so from the chosen corner (against the tokens of
    ``fixed`` too), the next corners are tried in turn, so a spiral board
    always keeps the red rule.

    Raises :class:`GenerationError` when the layout has no spiral sequence,
    its length does not match, or no corner keeps the red rule.
    """
    paths = _spiral_paths(tuple(hexgrid.row_order(land)))
    if not sequence:
        raise GenerationError(f"{layout_name}: the layout has no spiral sequence")
    if len(sequence) != len(paths[0]) - len(skip):
        raise GenerationError(f"{layout_name}: spiral has {len(sequence)} tokens for {len(paths[0]) - len(skip)} hexes")
    start = rngmod.randbelow(rng, len(paths))
    for k in range(len(paths)):
        path = [h for h in paths[(start + k) % len(paths)] if h not in skip]
        laid = dict(zip(path, sequence))
        if not _red_pairs({**(fixed or {}), **laid}):
            return laid
    raise GenerationError(
        f"{layout_name}: the spiral sequence puts red numbers side by side from every corner (rule {RULE_RED})"
    )


def _red_pairs(numbers: Mapping[Hex, int]) -> bool:
    """Whether two tokens on neighbouring hexes break the red rule."""
    return any(
        RULE_RED in clashes(v, numbers[n]) for h, v in numbers.items() for n in hexgrid.neighbors(h) if n in numbers
    )
