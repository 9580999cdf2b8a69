"""Board generation: terrain, number tokens, harbors, robber and pirate.

:func:`generate` is a pure function of a layout and an explicit
``random.Random``; :func:`from_seed` and :func:`from_setup_id` derive the
stream (``setupgen.core.rng``) and stamp the seed and setup ID on the board.
Draw order (part of the reproducible stream): terrain per region (regions
sorted by name), number tokens per region, oil springs (Oil Springs
scenarios; may redo numbers or terrain), harbors.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Sequence

from ..core import balance, setupid
from ..core import layout as layoutmod
from ..core import rng as rngmod
from ..core.balance import Limits
from ..core.board import CODE_OIL, CODE_TERRAIN, BalanceRecord, Board, Harbor
from ..core.errors import GenerationError, SetupgenError, SetupIdError, UnknownScenarioError, quoted
from ..core.hexgrid import Hex
from ..core.layout import Layout
from ..core.limits import check_text
from ..core.rules import (
    HARBOR_METHODS,
    HARBOR_TYPES,
    NUMBER_METHODS,
    PIPS,
    RED_NUMBERS,
    RULE_PIPS_CAP,
    RULE_RED_BARRED,
    TERRAINS,
)
from ..core.setupid import SetupId
from . import harbors as harbormod
from . import numbers as numbermod
from . import oil as oilmod
from . import plan as planmod
from .plan import DESERT, NUMBERLESS


def generate(layout: Layout, rng: random.Random, numbers: str | None = None, harbors: str | None = None) -> Board:
    """A random legal board of ``layout``.

    ``numbers``: ``swap`` | ``spiral`` | ``uniform`` (None: the layout's
    default); ``harbors``: ``shuffled`` | ``free`` | ``players`` (None: the
    layout's default). The board's ``seed`` is None and ``setup_id`` empty;
    :func:`from_seed` fills them.

    Raises :class:`SetupgenError` for an unknown method and
    :class:`GenerationError` when bounded retries run out.
    """
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    return _generate(layout, rng, number_method, harbor_method, None, "")


def _generate(
    layout: Layout,
    rng: random.Random,
    number_method: str,
    harbor_method: str,
    seed: str | None,
    setup_id: SetupId | tuple[str, str, str, int] | str,
) -> Board:
    """:func:`generate` with resolved methods, stamping ``seed`` and
    ``setup_id`` (its text made when first read) on the board. The draws
    run over the layout's integer tables (:mod:`.plan`)."""
    board = _draw(layout, rng, number_method, harbor_method, seed, setup_id)
    assert board is not None  # only a cluster limit abandons a board
    return board


def _draw(
    layout: Layout,
    rng: random.Random,
    number_method: str,
    harbor_method: str,
    seed: str | None,
    setup_id: SetupId | tuple[str, str, str, int] | str,
    cluster_limit: int | None = None,
) -> Board | None:
    """:func:`_generate`; with ``cluster_limit`` (layouts without oil
    springs only) None, without drawing numbers or harbors, when the
    terrain's largest group of one terrain is larger."""
    pl = planmod.plan(layout)
    land = _land(pl, number_method, rng, cluster_limit)
    if land is None:
        return None
    terrain, placed, oil_springs = land
    harbors, harbors_json = _harbors(pl, harbor_method, rng, terrain)
    robber: Hex | None
    if isinstance(layout.robber, str):  # "desert": the first desert in the layout's order
        try:
            robber = pl.table.hexes[terrain.index(DESERT)]
        except ValueError:  # no desert
            robber = None
    else:
        robber = layout.robber  # a fixed hex or None (off the board)
    codes = list(map(operator.add, terrain, placed))  # the tile codes of the TileTable
    for c in oil_springs:
        codes[c] += CODE_OIL
    return Board.from_generated(
        layout.name,
        seed,
        setup_id,
        number_method,
        harbor_method,
        pl.table,
        codes,
        harbors,
        harbors_json,
        robber,
        layout.pirate,
        pieces=layout.pieces,
    )


def _harbors(
    pl: planmod.Plan, method: str, rng: random.Random, terrain: Sequence[int]
) -> tuple[tuple[Harbor, ...], str]:
    """The harbors by ``method`` (docs/rules.md sections 1 and 3) in board
    order, and their one-line JSON items joined by commas; ``terrain`` (code
    per cell) gives the coast where a region lies open to the sea."""
    layout = pl.layout
    if method == "fixed":  # every place typed (resolve_methods)
        laid = [pl.place_harbors[k][HARBOR_TYPES.index(layout.harbor_places[k].type or "")] for k in pl.place_order]
    elif method == "shuffled":
        types = harbormod.shuffled_pool(len(layout.harbor_places), pl.pool_types, rng)
        table = pl.place_harbors
        laid = [table[k][types[k]] for k in pl.place_order]  # board order
    elif method == "free":
        drawn = _free_harbors(pl, rng, terrain)
        rank = pl.edge_rank
        laid = [pl.edge_harbors[k][t] for _, k, t in sorted([(rank[k], k, t) for k, t in drawn])]
    else:
        return (), ""
    if not laid:
        return (), ""
    harbors, items = zip(*laid)
    return harbors, ",".join(items)


def _free_harbors(pl: planmod.Plan, rng: random.Random, terrain: Sequence[int]) -> list[tuple[int, int]]:
    """The free method's draws (:func:`.harbors.free_draw`) as (coast edge
    index of the plan, harbor type index). Where a region lies open to the
    sea, over this board's coast edges alone (those whose sea cell is
    dealt sea and whose land cell land, in the plan's order): the free
    method on the board's own coast."""
    layout = pl.layout
    if not pl.open_sea:
        return harbormod.free_draw(pl.conflicts, pl.sea_hexes, list(pl.pool_types), rng, layout_name=layout.name)
    sea = planmod.SEA
    cells = pl.edge_cells
    present = [k for k, (a, b) in enumerate(cells) if terrain[a] == sea and terrain[b] != sea]
    pos = {k: i for i, k in enumerate(present)}
    blocks = [frozenset(pos[j] for j in pl.conflicts[k] if j in pos) for k in present]
    sea_hexes = len({cells[k][0] for k in present})
    drawn = harbormod.free_draw(blocks, sea_hexes, list(pl.pool_types), rng, layout_name=layout.name)
    return [(present[i], t) for i, t in drawn]


#: number placements tried per terrain before the terrain is redone (Oil Springs)
OIL_NUMBER_REDOS = 100
#: terrain placements tried before an Oil Springs board gives up
OIL_TERRAIN_REDOS = 100


def _land(
    pl: planmod.Plan, number_method: str, rng: random.Random, cluster_limit: int | None = None
) -> tuple[list[int], list[int], frozenset[int] | tuple[()]] | None:
    """Terrain (code per cell), number tokens (per cell, 0 none) and the
    cells with an oil spring. Without oil springs: one pass (None, before
    any number is drawn, when the terrain's largest group exceeds
    ``cluster_limit``). With them (docs/rules.md section 5): the oil step
    may ask to redo the numbers (at most :data:`OIL_NUMBER_REDOS` times per
    terrain) or the terrain (at most :data:`OIL_TERRAIN_REDOS` times), all
    continuing the same stream, so a terrain is not final when drawn and
    ``cluster_limit`` must be None."""
    layout = pl.layout
    if layout.oil is None:
        terrain = _terrain(pl, rng)
        if cluster_limit is not None and largest_group(pl, terrain) > cluster_limit:
            return None
        return terrain, _numbers(pl, terrain, number_method, rng), ()
    assert cluster_limit is None, "an Oil Springs terrain may be redrawn: no early rejection"
    for _ in range(OIL_TERRAIN_REDOS + 1):
        terrain = _terrain(pl, rng)
        for _ in range(OIL_NUMBER_REDOS + 1):
            placed = _numbers(pl, terrain, number_method, rng)
            result = _oil(pl, terrain, placed, rng)
            if result == oilmod.REDO_TERRAIN:
                break
            if isinstance(result, tuple):
                return terrain, *result
    raise GenerationError(
        f"{layout.name}: no oil-spring placement found after {OIL_TERRAIN_REDOS} terrain "
        f"and {OIL_NUMBER_REDOS} number redos each (rule: no two oil springs adjacent)"
    )


#: the terrain codes no group of one terrain counts (docs/balance.md): the desert (and sea under a face-down hex)
_UNGROUPED = NUMBERLESS


def largest_group(pl: planmod.Plan, terrain: list[int]) -> int:
    """The largest connected group of one terrain (desert not counted) of a
    drawn terrain (code per cell): the ``max_terrain_cluster`` measure of
    :func:`setupgen.core.balance.terrain_groups`, on the board to be."""
    return balance.terrain_groups([terrain[c] for c in pl.land], pl.land_pairs, _UNGROUPED)[0]


def _oil(
    pl: planmod.Plan, terrain: list[int], placed: list[int], rng: random.Random
) -> tuple[list[int], frozenset[int]] | str:
    """The oil step (:func:`.oil.place`) over the cells: the numbers after
    it and the oil-spring cells, or what it asks to redo."""
    hexes = pl.table.hexes
    land = [hexes[c] for c in pl.land]
    assert pl.layout.oil is not None  # only an Oil Springs layout comes here
    result = oilmod.place(
        land,
        {hexes[c]: TERRAINS[terrain[c] // CODE_TERRAIN] for c in pl.land},
        {hexes[c]: placed[c] for c in pl.land if placed[c]},
        pl.layout.oil,
        pl.layout.adjacency,
        rng,
    )
    if not isinstance(result, oilmod.OilResult):
        return result
    numbers = [0] * len(placed)
    for h, v in result.numbers.items():
        numbers[pl.cell_of[h]] = v
    return numbers, frozenset(pl.cell_of[h] for h in result.oil_springs)


def _terrain(pl: planmod.Plan, rng: random.Random) -> list[int]:
    """Each region's pool shuffled onto its cells (regions sorted by name),
    fixed terrain elsewhere: the terrain code per cell."""
    terrain = list(pl.terrain)
    shuffle = rngmod.shuffle
    for region in pl.regions:
        pool = list(region.pool)
        shuffle(rng, pool)
        for c, t in zip(region.cells, pool):
            terrain[c] = t
    return terrain


#: number layings tried on one terrain before a layout with ``red_barred``
#: terrains or ``max_pips`` hexes gives up (a token where they bar it redoes the numbers)
RED_BARRED_REDOS = 1000


def _numbers(pl: planmod.Plan, terrain: list[int], number_method: str, rng: random.Random) -> list[int]:
    """The tokens per cell (0: none) by :func:`_lay_numbers`. Where the
    layout bars 6 and 8 from some terrains (``red_barred``) or caps the
    pips on some hexes (``max_pips``; docs/rules.md section 4b), a laying
    that breaks one is drawn again from the same stream, the terrain kept:
    the numbers are then those of the method given those rules. Raises
    :class:`GenerationError` after :data:`RED_BARRED_REDOS` layings."""
    if not pl.red_barred and not pl.capped:
        return _lay_numbers(pl, terrain, number_method, rng)
    barred = [c for c in pl.land if terrain[c] in pl.red_barred]
    for _ in range(RED_BARRED_REDOS):
        placed = _lay_numbers(pl, terrain, number_method, rng)
        if not any(placed[c] in RED_NUMBERS for c in barred) and all(PIPS.get(placed[c], 0) <= m for c, m in pl.capped):
            return placed
    rules = [RULE_RED_BARRED] if barred else []
    raise GenerationError(
        f"{pl.layout.name}: no number laying kept the tokens where the layout allows them "
        f"in {RED_BARRED_REDOS} tries (rules: {', '.join(rules + ([RULE_PIPS_CAP] if pl.capped else []))})"
    )


def _lay_numbers(pl: planmod.Plan, terrain: list[int], number_method: str, rng: random.Random) -> list[int]:
    """Fixed tokens, then each region's tokens by the number method: the
    token per cell (0: none). Regions whose tokens touch are laid together
    (:func:`.numbers.swap_joint`, :func:`.numbers.uniform_joint`): a
    restart takes up all their chips, and ``uniform`` is uniform over the
    whole board's legal arrangements."""
    layout = pl.layout
    placed: Sequence[int] = pl.numbers  # copied by the first number method
    walks = [
        (region, [c for c in region.cells if terrain[c] not in NUMBERLESS and not pl.numbers[c]])
        for region in pl.regions
        if region.tokens
    ]
    if number_method != "spiral" and pl.regions_touch:
        return _numbers_together(pl, walks, number_method, rng)
    for region, walk in walks:
        if number_method == "spiral":
            placed = list(placed)
            _spiral(pl, region, terrain, placed, rng)
            continue
        feasible = functools.partial(_feasible, pl, walk, region)
        if number_method == "swap":
            placed = numbermod.swap_joint(
                placed,
                (walk,),
                (region.tokens,),
                pl.near,
                rng,
                feasible=feasible,
                layout_name=layout.name,
                before=pl.before,
            )  # one walk: swap_cells
        else:
            placed = numbermod.uniform_cells(
                placed, walk, region.tokens, pl.before, rng, feasible=feasible, layout_name=layout.name
            )
    if type(placed) is not list:  # no region has tokens
        placed = list(placed)
    return placed


def _numbers_together(
    pl: planmod.Plan, walks: list[tuple[planmod.RegionPlan, list[int]]], number_method: str, rng: random.Random
) -> list[int]:
    """Swap or uniform over every region's walk at once, for regions whose
    tokens touch (:func:`.numbers.swap_joint`, :func:`.numbers.uniform_joint`)."""
    cells, tokens = [w for _r, w in walks], [r.tokens for r, _w in walks]

    def feasible() -> None:
        for region, walk in walks:
            _feasible(pl, walk, region)

    if number_method == "uniform":
        return numbermod.uniform_joint(
            pl.numbers, cells, tokens, pl.before, rng, feasible=feasible, layout_name=pl.layout.name
        )
    return numbermod.swap_joint(
        pl.numbers, cells, tokens, pl.near, rng, feasible=feasible, layout_name=pl.layout.name, before=pl.before
    )


def _feasible(pl: planmod.Plan, walk: list[int], region: planmod.RegionPlan) -> None:
    """:func:`.numbers.check_feasible` of one region's walk (raises when its
    tokens cannot meet the number rules)."""
    numbermod.check_feasible([pl.table.hexes[c] for c in walk], region.tokens, pl.layout.adjacency, pl.layout.name)


def _spiral(
    pl: planmod.Plan, region: planmod.RegionPlan, terrain: list[int], placed: list[int], rng: random.Random
) -> None:
    """The spiral method (:func:`.numbers.spiral`) on one region, into ``placed``."""
    hexes = pl.table.hexes
    members = [hexes[c] for c in region.cells]
    skip = frozenset(hexes[c] for c in region.cells if terrain[c] in NUMBERLESS or placed[c])
    fixed = {hexes[c]: v for c, v in enumerate(placed) if v}
    laid = numbermod.spiral(members, skip, pl.layout.spiral, rng, layout_name=pl.layout.name, fixed=fixed)
    for h, v in laid.items():
        placed[pl.cell_of[h]] = v


def resolve_methods(layout: Layout, numbers: str | None, harbors: str | None) -> tuple[str, str]:
    """The (number, harbor) methods a generation of ``layout`` will use: the
    given ones, or the layout's defaults for None. Raises
    :class:`SetupgenError` for an unknown method or one the layout cannot
    use."""
    if layout.source == "board-file":
        raise SetupgenError(f"scenario {layout.name!r} takes its board from a board file", field="scenario")
    number_method = layout.default_numbers if numbers is None else numbers
    harbor_method = layout.default_harbors if harbors is None else harbors
    if number_method not in NUMBER_METHODS:
        raise SetupgenError(
            f"unknown number method {number_method!r} (known: {', '.join(NUMBER_METHODS)})", field="numbers"
        )
    if harbor_method not in HARBOR_METHODS:
        raise SetupgenError(
            f"unknown harbor method {harbor_method!r} (known: {', '.join(HARBOR_METHODS)})", field="harbors"
        )
    if harbor_method not in layout.harbor_methods:
        raise SetupgenError(
            f"scenario {layout.name!r} does not offer harbor method {harbor_method}; "
            f"use {' or '.join(layout.harbor_methods)}",
            field="harbors",
        )
    if harbor_method == "fixed" and not (layout.harbor_places and all(pl.type for pl in layout.harbor_places)):
        raise SetupgenError(
            f"scenario {layout.name!r} does not fix its harbors; use shuffled, free or players", field="harbors"
        )
    if harbor_method == "shuffled" and not layout.harbor_places:
        raise SetupgenError(
            f"scenario {layout.name!r} has no fixed harbor places; use free or players", field="harbors"
        )
    if number_method == "spiral" and not layout.spiral:
        raise SetupgenError(f"scenario {layout.name!r} has no spiral order; use swap or uniform", field="numbers")
    return number_method, harbor_method


def setup_id_layout(text: str) -> Layout:
    """The shipped layout a setup ID's scenario code names. Raises
    :class:`SetupIdError` for an unreadable ID or an unknown code."""
    sid = setupid.decode(text)
    try:
        return layoutmod.by_code(sid.code)
    except UnknownScenarioError:
        raise SetupIdError(
            f"setup id {quoted(text, 40)}: no scenario has the code {sid.code!r}", field="setup_id"
        ) from None


def _unusable_methods(shown: str, sid: SetupId, error: SetupgenError) -> str:
    """The message for a readable setup ID whose method letter (or scenario)
    its layout cannot use: the letter and what it means, then the layout's
    reason without the advice meant for a chosen method."""
    reason = str(error).split("; use ")[0]
    if error.field == "harbors":
        return (
            f"setup id {shown}: its harbor letter {setupid.HARBOR_CODES[sid.harbor_method]} "
            f"({sid.harbor_method}) does not fit: {reason}"
        )
    if error.field == "numbers":
        return (
            f"setup id {shown}: its number letter {setupid.NUMBER_CODES[sid.number_method]} "
            f"({sid.number_method}) does not fit: {reason}"
        )
    return f"setup id {shown} names no board: {reason}"


def from_seed(scenario: str | Layout, seed: str, numbers: str | None = None, harbors: str | None = None) -> Board:
    """The board of a scenario (name or layout) for seed text ``seed``: the
    stream is seeded from :func:`setupgen.core.rng.digest` of the seed, and the
    board carries the seed and its setup ID.

    Raises :class:`UnknownScenarioError`, :class:`SetupgenError` (also for a
    seed over 200 characters or holding a control character),
    :class:`GenerationError`.
    """
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    check_text(seed, "the seed", field="seed")
    digest = rngmod.digest(seed)
    return _generate(
        layout,
        rngmod.stream(digest),
        number_method,
        harbor_method,
        seed,
        (layout.code, number_method, harbor_method, digest),
    )


#: attempts a board under balance limits may take, per number method, so that
#: impossible limits end within about 5 s on the slowest layout (swap and
#: spiral: under 1 ms a board; uniform on 5-6 boards: 8-10 ms)
ATTEMPTS = {"swap": 2000, "spiral": 2000, "uniform": 400}


def from_seed_within(
    scenario: str | Layout, seed: str, limits: Limits, numbers: str | None = None, harbors: str | None = None
) -> Board:
    """The board of ``seed`` that meets balance ``limits`` (docs/balance.md):
    the first board of the seed's attempt stream (attempt 0 is
    :func:`from_seed`'s board, attempt k seeded by
    :func:`setupgen.core.rng.attempt_digest`) that meets every limit, each
    drawn whole by the number and harbor method, so an accepted board is
    one the table procedure could have produced (its odds are those of
    the procedure given the limits). The board records the limits and the
    attempt (``Board.balance``); its setup ID regenerates it alone. An
    attempt whose terrain already breaks ``max_terrain_cluster`` is
    abandoned before its numbers and harbors are drawn (not on Oil
    Springs layouts, whose oil step may redraw the terrain): every attempt
    has a stream of its own, so the outcome is the same.

    A layout's own ``[balance]`` limits hold too (``limits`` taking their
    place where both set one). Without limits this is :func:`from_seed`.
    Raises what :func:`from_seed` raises, and :class:`GenerationError`
    naming the limit failing most when :data:`ATTEMPTS` of the method run
    out."""
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    if layout.balance is not None:
        limits = layout.balance.merged(limits)
    if not limits:
        return from_seed(layout, seed, numbers, harbors)
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    check_text(seed, "the seed", field="seed")
    first = rngmod.digest(seed)
    budget = ATTEMPTS[number_method]
    # an attempt whose terrain breaks the cluster limit is abandoned before
    # its numbers and harbors: each attempt has a stream of its own, so the
    # accepted attempt and its board are those of drawing every attempt whole
    early = limits.max_terrain_cluster if layout.oil is None else None
    failed: dict[str, int] = {}
    for attempt in range(budget):
        d = rngmod.attempt_digest(first, attempt)
        sid = (layout.code, number_method, harbor_method, d)
        try:
            board = _draw(layout, rngmod.stream(d), number_method, harbor_method, seed, sid, early)
        except GenerationError:  # this attempt's stream found no legal board (Oil Springs redos): the next
            failed["generation"] = failed.get("generation", 0) + 1
            continue
        failing = (
            "max_terrain_cluster"
            if board is None
            else balance.first_failure(board, limits, start_barred=layout.start_barred)
        )
        if failing is None:
            assert board is not None
            return board.with_balance(BalanceRecord(limits, attempt))
        failed[failing] = failed.get(failing, 0) + 1
    worst = max(failed, key=lambda k: (failed[k], k))
    raise GenerationError(
        f"no {layout.name} board met the balance limits in {budget} attempts (none accepted); "
        f"the limit failing most: {worst.replace('_', ' ')} ({failed[worst]} of {budget} "
        f"attempts); loosen it"
    )


def from_setup_id(text: str, layout: Layout | None = None) -> Board:
    """Regenerate the board a setup ID names (its ``seed`` field is None: the
    seed text cannot be recovered from the ID). ``layout``: the layout the
    ID was made with, when it is not a shipped one.

    Raises :class:`SetupIdError` for an unreadable ID or one of another
    layout, and :class:`UnknownScenarioError` for an unknown scenario code.
    """
    sid = setupid.decode(text)
    shown = quoted(text, 40)
    if layout is None:
        layout = setup_id_layout(text)
    elif layout.code != sid.code:
        raise SetupIdError(
            f"setup id {shown} is for scenario code {sid.code}, not {layout.code} ({layout.name})", field="setup_id"
        )
    try:
        number_method, harbor_method = resolve_methods(layout, sid.number_method, sid.harbor_method)
    except SetupgenError as e:  # the ID's own letters name a method its scenario cannot use
        raise SetupIdError(_unusable_methods(shown, sid, e), field="setup_id") from None
    return _generate(layout, rngmod.stream(sid.digest), number_method, harbor_method, None, sid)
