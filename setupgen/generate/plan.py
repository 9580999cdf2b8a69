"""A layout compiled for the generator's hot path (issue 29).

:func:`plan` turns a :class:`~setupgen.core.layout.Layout` into integer
tables, once per layout: *cells* are the layout's hexes in its order (the
board's tile order), terrain is held as codes
(:data:`setupgen.core.board.TERRAIN_CODES`), each land cell has the cells of its
land neighbours, each region the cells it shuffles its pool onto, and
harbors are laid from tables of prepared :class:`Harbor` values and their
JSON. :mod:`.pipeline` draws a board over these tables; the draws, their
order and the board are exactly those of the rules in ``docs/rules.md``
sections 1-3 (the number rules are :mod:`.numbers`', the harbor rules
:mod:`.harbors`'): only the bookkeeping is precomputed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import balance, hexgrid
from ..core.board import TERRAIN_CODES, Harbor, TileTable, harbor_json, spot_order
from ..core.hexgrid import Hex
from ..core.layout import Layout
from ..core.rules import HARBOR_TYPES
from . import harbors as harbormod

#: the desert's terrain code (:data:`setupgen.core.board.TERRAIN_CODES`)
DESERT = TERRAIN_CODES["desert"]
#: the terrain codes of cells that take no number token: desert, and sea under a face-down hex
NUMBERLESS = frozenset({DESERT, TERRAIN_CODES["sea"]})
#: the sea's terrain code (a hex of a region open to the sea may be dealt it: The New World)
SEA = TERRAIN_CODES["sea"]


@dataclass(frozen=True, slots=True)
class RegionPlan:
    """One region: its ``cells`` (reading order), its terrain ``pool``
    (terrain codes, the layout's order), its number ``tokens`` and
    whether its hexes lie face down."""

    name: str
    cells: tuple[int, ...]
    pool: tuple[int, ...]
    tokens: tuple[int, ...]
    hidden: bool


@dataclass(frozen=True, slots=True)
class Plan:
    """A layout as integer tables (see the module doc).

    - ``terrain``: per cell its fixed terrain code (region cells: the
      code of the cell's spec terrain or 0; a board overwrites them);
    - ``numbers``: per cell its fixed number token, 0 for none;
    - ``near``: per cell the cells of its land neighbours (empty for sea
      and frame cells), the adjacency the number rules compare;
    - ``before``: per cell the neighbours that may hold a token when a
      number pass reaches the cell (``before`` of
      :func:`.numbers.swap_cells`): all but the later cells of its own
      region that carry no fixed token, which are still empty then;
    - ``land``: the land cells, reading order; ``land_pairs``: adjacent
      land hexes as pairs of indices into ``land``
      (:func:`setupgen.core.balance.land_pairs`);
    - ``place_order``: shuffled harbors: the harbor places (layout order)
      in board order (sorted by sea hex row, column, facing);
    - ``pool_types``: the harbor pool as indices into ``HARBOR_TYPES``;
    - ``place_harbors`` / ``edge_harbors``: per harbor place (shuffled) or
      coast edge (free, in ``layout.coast_edges`` order) and type index,
      the :class:`Harbor` and its one-line JSON;
    - ``conflicts`` / ``sea_hexes`` / ``edge_rank``: free harbors: per
      coast edge the edges it rules out, how many sea hexes the edges
      touch, and each edge's rank in board order;
    - ``regions_touch``: whether a cell of one region with number tokens
      lies next to a cell of another (swap and uniform then lay those
      regions' tokens together, docs/rules.md section 2);
    - ``red_barred``: the terrain codes no 6 or 8 may lie on (the layout's
      ``red_barred``; empty for most layouts);
    - ``capped``: ``(cell, most pips)`` of each hex whose token the layout
      caps (``max_pips``; empty for most layouts);
    - ``edge_cells``: per coast edge the cells of its sea hex and of the
      land hex it serves; ``open_sea``: whether a region lies open to the
      sea (The New World: the edges are those a board may have, and a
      board's own are those whose first cell it deals sea and second land).
    """

    layout: Layout
    table: TileTable
    terrain: tuple[int, ...]
    numbers: tuple[int, ...]
    near: tuple[tuple[int, ...], ...]
    before: tuple[tuple[int, ...], ...]
    land: tuple[int, ...]
    land_pairs: tuple[tuple[int, int], ...]
    regions: tuple[RegionPlan, ...]
    cell_of: dict[Hex, int]
    pool_types: tuple[int, ...]
    place_order: tuple[int, ...]
    place_harbors: tuple[tuple[tuple[Harbor, str], ...], ...]
    edge_harbors: tuple[tuple[tuple[Harbor, str], ...], ...]
    conflicts: tuple[frozenset[int], ...]
    sea_hexes: int
    edge_rank: tuple[int, ...]
    regions_touch: bool
    red_barred: frozenset[int]
    capped: tuple[tuple[int, int], ...]
    edge_cells: tuple[tuple[int, int], ...]
    open_sea: bool


def _build(layout: Layout) -> Plan:
    """The plan of ``layout`` (see :class:`Plan`)."""
    hexes = tuple(s.hex for s in layout.hexes)
    cell_of = {h: i for i, h in enumerate(hexes)}
    region_of = {r.name: r for r in layout.regions}
    hidden = tuple(s.region is not None and region_of[s.region].hidden for s in layout.hexes)
    table = TileTable(hexes, tuple(s.kind for s in layout.hexes), hidden)
    terrain = tuple(TERRAIN_CODES[s.terrain] if s.terrain is not None else 0 for s in layout.hexes)
    numbers = tuple(0 if s.number is None else s.number for s in layout.hexes)
    adjacency = layout.adjacency
    near = tuple(tuple(cell_of[n] for n in adjacency[h]) if h in adjacency else () for h in hexes)
    before = _before(layout, near, cell_of)
    land = tuple(cell_of[h] for h in layout.land())
    regions = tuple(
        RegionPlan(
            r.name,
            tuple(cell_of[h] for h in layout.region_hexes(r.name)),
            tuple(TERRAIN_CODES[t] for t in r.terrain_pool),
            r.number_tokens,
            r.hidden,
        )
        for r in layout.regions
    )
    pool_types = tuple(HARBOR_TYPES.index(t) for t in layout.harbor_pool)
    places = [(p.hex, p.facing) for p in layout.harbor_places]
    edges = list(layout.coast_edges)
    place_order = sorted(range(len(places)), key=lambda k: spot_order(*places[k]))
    edge_rank = [0] * len(edges)
    for rank, k in enumerate(sorted(range(len(edges)), key=lambda k: spot_order(*edges[k]))):
        edge_rank[k] = rank
    conflicts, sea_hexes = harbormod.conflicts(tuple(edges))
    return Plan(
        layout,
        table,
        terrain,
        numbers,
        near,
        before,
        land,
        balance.land_pairs(layout.land()),
        regions,
        cell_of,
        pool_types,
        tuple(place_order),
        _harbor_table(places),
        _harbor_table(edges),
        conflicts,
        sea_hexes,
        tuple(edge_rank),
        _regions_touch(regions, near),
        frozenset(TERRAIN_CODES[t] for t in layout.red_barred),
        tuple((i, s.max_pips) for i, s in enumerate(layout.hexes) if s.max_pips is not None),
        tuple((cell_of[h], cell_of[hexgrid.neighbor(h, d)]) for h, d in edges),
        any(r.open_sea for r in layout.regions),
    )


def _regions_touch(regions: tuple[RegionPlan, ...], near: tuple[tuple[int, ...], ...]) -> bool:
    """Whether a cell of a region with number tokens is next to a cell of
    another such region."""
    owner = {c: k for k, r in enumerate(regions) if r.tokens for c in r.cells}
    return any(owner.get(n, k) != k for c, k in owner.items() for n in near[c])


def _before(layout: Layout, near: tuple[tuple[int, ...], ...], cell_of: dict[Hex, int]) -> tuple[tuple[int, ...], ...]:
    """``Plan.before``: per cell its neighbours without the later cells of
    the same region (reading order) that carry no fixed token. A region's
    pass fills its cells in reading order (deserts and fixed tokens left
    out), so those are empty whenever the cell is being filled."""
    rank: dict[int, tuple[str, int]] = {}
    for region in layout.regions:
        for k, h in enumerate(layout.region_hexes(region.name)):
            if layout.spec(h).number is None:
                rank[cell_of[h]] = (region.name, k)
    out = []
    for cell, ns in enumerate(near):
        mine = rank.get(cell)
        out.append(
            tuple(n for n in ns if mine is None or n not in rank or rank[n][0] != mine[0] or rank[n][1] < mine[1])
        )
    return tuple(out)


def _harbor_table(spots: list[tuple[Hex, int]]) -> tuple[tuple[tuple[Harbor, str], ...], ...]:
    """Per spot (sea hex, facing) and harbor type index: the harbor and its JSON."""
    out = []
    for h, facing in spots:
        row = []
        for t in HARBOR_TYPES:
            harbor = Harbor(h, facing, t)
            row.append((harbor, harbor_json(harbor)))
        out.append(tuple(row))
    return tuple(out)


_PLANS: dict[int, Plan] = {}
#: plans kept at most (layouts loaded from files by a long-running process)
_PLANS_MAX = 64


def plan(layout: Layout) -> Plan:
    """The plan of ``layout``, made once per layout object and kept (up to
    :data:`_PLANS_MAX` layouts; the plan holds its layout, so the key
    stays its own)."""
    hit = _PLANS.get(id(layout))
    if hit is not None and hit.layout is layout:
        return hit
    made = _build(layout)
    if len(_PLANS) >= _PLANS_MAX:
        _PLANS.clear()
    _PLANS[id(layout)] = made
    return made


__all__ = ["Plan", "RegionPlan", "plan", "DESERT", "NUMBERLESS", "SEA"]
