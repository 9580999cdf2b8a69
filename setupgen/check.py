"""Checking a board against its layout's rules.

:func:`check` returns every :class:`Violation` (errors and notes);
:func:`validate` raises :class:`IllegalBoardError` when any error is found.
Rules: ``docs/rules.md`` sections 1-5 and ``docs/format.md`` (``check``
applies the rules the board's methods promise: a ``spiral`` board is held to
the red rule only and equal neighbours are reported as notes). ``check``
shares nothing with the generators but the rule definitions of
:mod:`setupgen.core`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .core import hexgrid, setupid
from .core import layout as layoutmod
from .core.board import Board, Piece, Tile, read_board, spot_order
from .core.errors import IllegalBoardError, SetupgenError
from .core.frames import frame_problems, layout_for
from .core.hexgrid import Hex
from .core.layout import Layout
from .core.oil import OIL_TERRAINS, FixedSpring, desert_assignments, explain, fixed_spring_hex
from .core.rules import (
    PIPS,
    RULE_COAST,
    RULE_CORNERS,
    RULE_EQUAL,
    RULE_FIXED_BOARD,
    RULE_HARBOR_METHOD,
    RULE_HARBOR_PLACE,
    RULE_HARBOR_POOL,
    RULE_HEX_EXTRA,
    RULE_HEX_HIDDEN,
    RULE_HEX_KIND,
    RULE_HEX_MISSING,
    RULE_HEX_TERRAIN,
    RULE_NUMBER_FIXED,
    RULE_NUMBER_MISSING,
    RULE_NUMBER_ON_DESERT,
    RULE_NUMBER_ON_SEA,
    RULE_NUMBER_POOL,
    RULE_OIL_ADJACENT,
    RULE_OIL_DESERT,
    RULE_OIL_LEVELS,
    RULE_OIL_SPRING,
    RULE_ONE_PER_SEA,
    RULE_PIECES,
    RULE_PIPS_CAP,
    RULE_PIRATE,
    RULE_RED_BARRED,
    RULE_ROBBER,
    RULE_SETUP_ID,
    RULE_TERRAIN_POOL,
    clashes,
    coast_edge,
    harbor_conflict,
    red_barred,
)

ERROR = "error"
NOTE = "note"


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule. ``severity`` is ``"error"`` (the board is illegal) or
    ``"note"`` (reported, not failing); ``hexes`` are the axial hexes
    involved."""

    rule: str
    message: str
    hexes: tuple[Hex, ...] = ()
    severity: str = ERROR

    def __str__(self) -> str:
        return f"{self.severity}: {self.rule}: {self.message}"


def check(board: Board, layout: Layout | None = None) -> list[Violation]:
    """Every violation of ``board`` against ``layout`` (default: the shipped
    layout named by ``board.scenario``), errors and notes, in a stable order.

    Raises :class:`UnknownScenarioError` when no layout is given and the
    scenario is unknown.
    """
    if layout is None:
        layout = layout_for(board)
    out: list[Violation] = []
    out += _check_hexes(board, layout)
    out += _check_numbers(board, layout)
    out += _check_harbors(board, layout)
    out += _check_pieces(board, layout)
    out += check_oil(board, layout)
    out += _check_setup_id(board, layout)
    return out


def check_file(path: str | Path, layout_file: str | Path | None = None) -> list[Violation]:
    """:func:`check` of a board file (``docs/format.md`` JSON, UTF-8, a byte-order
    mark allowed), against ``layout_file`` if given, else the shipped layout
    of its scenario. Raises :class:`SetupgenError` for an unreadable or
    malformed file or layout."""
    board = read_board(path)
    layout = None if layout_file is None else Layout.from_file(layout_file)
    if layout is not None and layout.name != board.scenario:
        raise SetupgenError(f"the board is of scenario {board.scenario!r}, the layout file is {layout.name!r}")
    return check(board, layout)


def errors(board: Board, layout: Layout | None = None) -> list[Violation]:
    """Only the violations of severity ``error``."""
    return [v for v in check(board, layout) if v.severity == ERROR]


def validate(board: Board, layout: Layout | None = None) -> None:
    """Raise :class:`IllegalBoardError` (listing the errors) unless the board
    is legal."""
    found = errors(board, layout)
    if found:
        raise IllegalBoardError(found)


def _fmt(h: Hex) -> str:
    return f"({h[0]}, {h[1]})"


def _check_hexes(board: Board, layout: Layout) -> list[Violation]:
    out = []
    want = {s.hex for s in layout.hexes}
    have = {t.hex for t in board.tiles}
    for h in hexgrid.row_order(want - have):
        out.append(Violation(RULE_HEX_MISSING, f"hex {_fmt(h)} of the layout is missing", (h,)))
    for h in hexgrid.row_order(have - want):
        out.append(Violation(RULE_HEX_EXTRA, f"hex {_fmt(h)} is not part of the layout", (h,)))
    by_region: dict[str, list[str]] = {r.name: [] for r in layout.regions}
    hidden_of = {r.name: r.hidden for r in layout.regions}
    sea_of = {r.name: r.hides_sea for r in layout.regions}
    open_of = {r.name: r.open_sea for r in layout.regions}
    for t in board.tiles:
        if t.hex not in want:
            continue
        spec = layout.spec(t.hex)
        if t.kind == "sea" and spec.kind == "land" and spec.region is not None and open_of[spec.region]:
            by_region[spec.region].append(t.terrain)
            out += _dealt_sea(t)
            continue
        if t.kind != spec.kind:
            out.append(
                Violation(RULE_HEX_KIND, f"hex {_fmt(t.hex)} is {t.kind}, the layout says {spec.kind}", (t.hex,))
            )
            continue
        if spec.kind != "land":
            if t.hidden or t.oil_spring:
                out.append(
                    Violation(
                        RULE_HEX_KIND,
                        f"{spec.kind} hex {_fmt(t.hex)} cannot lie face down or carry an oil spring",
                        (t.hex,),
                    )
                )
            if t.terrain != "sea":
                out.append(
                    Violation(RULE_HEX_TERRAIN, f"{spec.kind} hex {_fmt(t.hex)} has terrain {t.terrain}", (t.hex,))
                )
            if t.number is not None:
                out.append(Violation(RULE_NUMBER_ON_SEA, f"{spec.kind} hex {_fmt(t.hex)} has a number token", (t.hex,)))
            continue
        if t.terrain == "sea" and not (t.hidden and spec.region is not None and sea_of[spec.region]):
            out.append(Violation(RULE_HEX_TERRAIN, f"land hex {_fmt(t.hex)} has terrain sea", (t.hex,)))
        if spec.region is None:
            if t.terrain != spec.terrain:
                out.append(
                    Violation(RULE_HEX_TERRAIN, f"hex {_fmt(t.hex)} must be {spec.terrain}, not {t.terrain}", (t.hex,))
                )
        else:
            by_region[spec.region].append(t.terrain)
        want_hidden = spec.region is not None and hidden_of[spec.region]
        if t.hidden != want_hidden:
            out.append(
                Violation(
                    RULE_HEX_HIDDEN, f"hex {_fmt(t.hex)} must {'' if want_hidden else 'not '}lie face down", (t.hex,)
                )
            )
    return out + _terrain_pools(layout, by_region)


def _terrain_pools(layout: Layout, by_region: dict[str, list[str]]) -> list[Violation]:
    """Each region's dealt terrains (``by_region``) against its pool."""
    out = []
    for region in layout.regions:
        got, pool = Counter(by_region[region.name]), Counter(region.terrain_pool)
        if got != pool:
            diff = _counter_diff(pool, got)
            out.append(Violation(RULE_TERRAIN_POOL, f"region {region.name}: terrain differs from the pool ({diff})"))
    return out


def _dealt_sea(t: Tile) -> list[Violation]:
    """A hex of a region open to the sea dealt sea (The New World,
    docs/rules.md section 4b): face up, terrain sea, no token, no oil."""
    out = []
    if t.hidden or t.oil_spring:
        out.append(
            Violation(RULE_HEX_KIND, f"sea hex {_fmt(t.hex)} cannot lie face down or carry an oil spring", (t.hex,))
        )
    if t.terrain != "sea":
        out.append(Violation(RULE_HEX_TERRAIN, f"sea hex {_fmt(t.hex)} has terrain {t.terrain}", (t.hex,)))
    if t.number is not None:
        out.append(Violation(RULE_NUMBER_ON_SEA, f"sea hex {_fmt(t.hex)} has a number token", (t.hex,)))
    return out


def _counter_diff(want: Counter[Any], got: Counter[Any]) -> str:
    parts = []
    for key in sorted(set(want) | set(got), key=str):
        if want[key] != got[key]:
            parts.append(f"{key} {got[key]} instead of {want[key]}")
    return ", ".join(parts)


def _check_numbers(board: Board, layout: Layout) -> list[Violation]:
    out = []
    want = {s.hex for s in layout.hexes}
    land = [t for t in board.tiles if t.kind == "land" and t.hex in want]
    per_region: dict[str, list[int]] = {r.name: [] for r in layout.regions}
    sea_regions = {r.name for r in layout.regions if r.hides_sea}
    for t in land:
        spec = layout.spec(t.hex)
        if spec.kind != "land":
            continue
        if spec.tokenless:
            if t.number is not None:
                out.append(Violation(RULE_NUMBER_FIXED, f"hex {_fmt(t.hex)} takes no number token", (t.hex,)))
            continue
        if spec.number is not None:
            if t.number != spec.number:
                out.append(
                    Violation(
                        RULE_NUMBER_FIXED, f"hex {_fmt(t.hex)} must carry the fixed token {spec.number}", (t.hex,)
                    )
                )
            continue
        if t.terrain == "sea" and spec.region in sea_regions:  # a fog hex hiding sea (its face down: _check_hexes)
            if t.number is not None:
                out.append(
                    Violation(RULE_NUMBER_ON_SEA, f"hex {_fmt(t.hex)} hides sea but has a number token", (t.hex,))
                )
            continue
        if t.terrain == "desert":
            if t.number is not None and not (layout.oil is not None and t.oil_spring):
                out.append(Violation(RULE_NUMBER_ON_DESERT, f"desert {_fmt(t.hex)} carries a number token", (t.hex,)))
            continue
        if t.number is None:
            out.append(Violation(RULE_NUMBER_MISSING, f"hex {_fmt(t.hex)} has no number token", (t.hex,)))
        elif spec.region is not None:
            per_region[spec.region].append(t.number)
    for region in layout.regions:
        if region.number_tokens and Counter(per_region[region.name]) != Counter(region.number_tokens):
            diff = _counter_diff(Counter(region.number_tokens), Counter(per_region[region.name]))
            out.append(
                Violation(RULE_NUMBER_POOL, f"region {region.name}: number tokens differ from the pool ({diff})")
            )
    return out + _number_rules(board, layout) + _red_barred_rule(board, layout) + _pips_caps(board, layout)


def _pips_caps(board: Board, layout: Layout) -> list[Violation]:
    """A token with more pips than the layout allows on its hex
    (``max_pips``, docs/rules.md section 4b): an error per such hex."""
    caps = {s.hex: s.max_pips for s in layout.hexes if s.max_pips is not None}
    out = []
    for t in board.tiles:
        cap = caps.get(t.hex)
        if cap is not None and t.number is not None and PIPS[t.number] > cap:
            out.append(
                Violation(
                    RULE_PIPS_CAP,
                    f"hex {_fmt(t.hex)} may carry at most {cap} pips, not {t.number} ({PIPS[t.number]})",
                    (t.hex,),
                )
            )
    return out


def _red_barred_rule(board: Board, layout: Layout) -> list[Violation]:
    """A 6 or 8 on a terrain the layout bars from them (``red_barred``,
    docs/rules.md section 4b): an error per such hex."""
    return [
        Violation(RULE_RED_BARRED, f"{t.terrain} {_fmt(t.hex)} carries the red number {t.number}", (t.hex,))
        for t in board.tiles
        if t.kind == "land" and red_barred(t.number, t.terrain, layout.red_barred)
    ]


def _number_rules(board: Board, layout: Layout) -> list[Violation]:
    """Adjacent tokens (docs/rules.md section 2): every rule a pair breaks, a
    6 beside a 6 both. Equal numbers are notes on ``spiral`` boards and
    beside a desert's oil-spring number; red numbers are always errors."""
    out = []
    numbers = board.numbers()
    oil_deserts = {t.hex for t in board.tiles if t.terrain == "desert" and t.oil_spring} if layout.oil else set()
    for h, n in hexgrid.adjacent_pairs(numbers):
        oil_desert = h in oil_deserts or n in oil_deserts
        for rule in clashes(numbers[h], numbers[n]):
            note = rule == RULE_EQUAL and (board.number_method == "spiral" or oil_desert)
            what = "equal numbers" if rule == RULE_EQUAL else "red numbers"
            if oil_desert and rule == RULE_EQUAL:
                what = "the desert's oil-spring number and an equal number (allowed)"
            out.append(
                Violation(
                    rule,
                    f"{what} {numbers[h]} at {_fmt(h)} and {numbers[n]} at {_fmt(n)} are adjacent",
                    (h, n),
                    NOTE if note else ERROR,
                )
            )
    return out


def _check_harbors(board: Board, layout: Layout) -> list[Violation]:
    out = []
    method = board.harbor_method
    if method == "players":
        if board.harbors:
            out.append(Violation(RULE_HARBOR_METHOD, "harbor method players lays no harbors, but the board has some"))
        return out
    types = Counter(h.type for h in board.harbors)
    if types != Counter(layout.harbor_pool):
        out.append(
            Violation(
                RULE_HARBOR_POOL, f"harbors differ from the pool ({_counter_diff(Counter(layout.harbor_pool), types)})"
            )
        )
    if method == "fixed" and all(pl.type for pl in layout.harbor_places):
        want = Counter((pl.hex, pl.facing, pl.type or "") for pl in layout.harbor_places)
        got = Counter((h.hex, h.facing, h.type) for h in board.harbors)
        for (where, facing, htype), _n in sorted((got - want).items(), key=lambda kv: spot_order(kv[0][0], kv[0][1])):
            out.append(
                Violation(
                    RULE_HARBOR_PLACE,
                    f"{htype} harbor at {_fmt(where)} facing {facing} is not in the fixed layout",
                    (where,),
                )
            )
        for (where, facing, htype), _n in sorted((want - got).items(), key=lambda kv: spot_order(kv[0][0], kv[0][1])):
            out.append(
                Violation(
                    RULE_HARBOR_PLACE, f"the fixed {htype} harbor at {_fmt(where)} facing {facing} is missing", (where,)
                )
            )
        return out
    if method in ("shuffled", "fixed") and layout.harbor_places:
        places = {(p.hex, p.facing) for p in layout.harbor_places}
        used: Counter[tuple[Hex, int]] = Counter((h.hex, h.facing) for h in board.harbors)
        for h in board.harbors:
            if (h.hex, h.facing) not in places:
                out.append(
                    Violation(
                        RULE_HARBOR_PLACE,
                        f"harbor at {_fmt(h.hex)} facing {h.facing} is not a harbor place of the layout",
                        (h.hex,),
                    )
                )
        for (where, facing), n in sorted(used.items(), key=lambda kv: spot_order(kv[0][0], kv[0][1])):
            if n > 1:
                out.append(
                    Violation(
                        RULE_ONE_PER_SEA, f"harbor place {_fmt(where)} facing {facing} holds {n} harbors", (where,)
                    )
                )
        for p in layout.harbor_places:
            if (p.hex, p.facing) not in used:
                out.append(
                    Violation(RULE_HARBOR_PLACE, f"harbor place {_fmt(p.hex)} facing {p.facing} is empty", (p.hex,))
                )
        return out
    return out + _free_harbor_rules(board)


def _free_harbor_rules(board: Board) -> list[Violation]:
    """Harbors on any coast edge (docs/rules.md section 3): each on a coast
    edge, at most one per sea hex, no intersection shared by two."""
    out = []
    kinds = {t.hex: t.kind for t in board.tiles}
    for h in board.harbors:
        if kinds.get(h.hex) != "sea":
            out.append(Violation(RULE_COAST, f"harbor at {_fmt(h.hex)} is not on a playable sea hex", (h.hex,)))
        elif not coast_edge(kinds, h.hex, h.facing):
            out.append(
                Violation(
                    RULE_COAST, f"harbor at {_fmt(h.hex)} facing {h.facing} does not serve a coast edge", (h.hex,)
                )
            )
    stacked: dict[Hex, set[int]] = {}
    for (i, a), (j, b) in itertools.combinations(enumerate(board.harbors), 2):
        rule = harbor_conflict((a.hex, a.facing), (b.hex, b.facing))
        if rule == RULE_CORNERS:
            out.append(
                Violation(
                    RULE_CORNERS, f"harbors at {_fmt(a.hex)} and {_fmt(b.hex)} share an intersection", (a.hex, b.hex)
                )
            )
        elif rule == RULE_ONE_PER_SEA:
            stacked.setdefault(a.hex, set()).update((i, j))
    for sea_hex in hexgrid.row_order(stacked):
        out.append(
            Violation(RULE_ONE_PER_SEA, f"sea hex {_fmt(sea_hex)} holds {len(stacked[sea_hex])} harbors", (sea_hex,))
        )
    return out


def _check_pieces(board: Board, layout: Layout) -> list[Violation]:
    out = []
    tiles = {t.hex: t for t in board.tiles}
    if layout.robber == "desert":
        t = tiles.get(board.robber) if board.robber is not None else None
        if t is None or t.terrain != "desert":
            out.append(Violation(RULE_ROBBER, "the robber must start on a desert"))
    elif board.robber != layout.robber:
        where = "off the board" if not isinstance(layout.robber, tuple) else f"on {_fmt(layout.robber)}"
        out.append(Violation(RULE_ROBBER, f"the robber must start {where}"))
    if board.pirate != layout.pirate:
        where = "not be used" if layout.pirate is None else f"start on {_fmt(layout.pirate)}"
        out.append(Violation(RULE_PIRATE, f"the pirate must {where}"))
    return out + _map_pieces(board, layout)


def _map_pieces(board: Board, layout: Layout) -> list[Violation]:
    """The scenario's pieces (villages ...; docs/rules.md section 4b): each
    the layout's, on its intersection, edge or hex, with its number, count,
    player set and step; one error per piece too many (a second copy of a
    piece: "twice") and per piece missing, in board order."""
    want = Counter(_piece_key(p) for p in layout.pieces)
    got = Counter(_piece_key(p) for p in board.pieces)
    out = []
    seen: Counter[tuple[Any, ...]] = Counter()
    for p in board.pieces:
        key = _piece_key(p)
        seen[key] += 1
        if seen[key] <= want[key]:
            continue
        where = "is on the board twice" if want[key] else "is not in the layout"
        out.append(Violation(RULE_PIECES, f"{_piece_words(p)} {where}", (p.hex,)))
    for p in layout.pieces:
        key = _piece_key(p)
        if got[key] > 0:
            got[key] -= 1
            continue
        out.append(Violation(RULE_PIECES, f"{_piece_words(p)} of the layout is missing", (p.hex,)))
    return out


def _piece_key(p: Piece) -> tuple[Any, ...]:
    """What makes two pieces the same: kind, place (whichever hex names it)
    and every field."""
    return (p.kind, p.spot, p.number, p.count, p.player, p.order)


def _piece_words(p: Piece) -> str:
    """``village at (1, 4) corner 1, number 10, 5 chits``; ``ship at (6, 1)
    edge 4, set 2``; ``path at (2, 7), step 1``."""
    place = f"corner {p.corner}" if p.corner is not None else f"edge {p.facing}" if p.facing is not None else ""
    words = f"{p.kind} at {_fmt(p.hex)}" + (f" {place}" if place else "")
    for value, text in ((p.number, "number {}"), (p.count, "{} chits"), (p.player, "set {}"), (p.order, "step {}")):
        if value is not None:
            words += ", " + text.format(value)
    return words


def check_oil(board: Board, layout: Layout) -> list[Violation]:
    """Oil springs (docs/rules.md section 5): every desert carries a numbered
    oil spring whose number is the best choice, exactly one pasture and one
    forest carry one, on the level the rules pick, and no two oil springs
    are adjacent. Notes report the levels computed."""
    tiles = [t for t in board.tiles if t.kind == "land"]
    springs = [t for t in tiles if t.oil_spring]
    if layout.oil is None:
        return [
            Violation(RULE_OIL_SPRING, f"hex {_fmt(t.hex)} carries an oil spring, the scenario has none", (t.hex,))
            for t in springs
        ]
    if layout.oil.fixed:
        return _check_oil_fixed(board, layout)
    out = _oil_deserts(tiles, layout)
    land = [t.hex for t in tiles]
    terrain = {t.hex: t.terrain for t in tiles}
    numbers = {t.hex: t.number for t in tiles if t.number is not None}
    for name, levels, level, on_level in explain(land, terrain, numbers):
        mine = [t for t in springs if t.terrain == name]
        pips = ", ".join(map(str, levels))
        chosen = ", ".join(f"{_fmt(t.hex)} ({t.number})" for t in mine) or "none"
        out.append(
            Violation(
                RULE_OIL_LEVELS,
                f"{name}: pip levels {pips}; the oil spring goes on level {level}; oil spring on {chosen}",
                tuple(t.hex for t in mine),
                NOTE,
            )
        )
        if len(mine) != 1:
            out.append(Violation(RULE_OIL_SPRING, f"exactly one {name} must carry an oil spring, found {len(mine)}"))
        elif mine[0].hex not in on_level:
            out.append(
                Violation(
                    RULE_OIL_SPRING,
                    f"the {name} oil spring at {_fmt(mine[0].hex)} is not on level {level}",
                    (mine[0].hex,),
                )
            )
    for t in springs:
        if t.terrain not in OIL_TERRAINS:
            out.append(Violation(RULE_OIL_SPRING, f"{t.terrain} {_fmt(t.hex)} may not carry an oil spring", (t.hex,)))
    return out + _oil_adjacent({t.hex for t in springs}, layout, ERROR, "")


def _oil_deserts(tiles: list[Tile], layout: Layout) -> list[Violation]:
    """Step 1: every desert carries its own numbered tile, the best choice."""
    assert layout.oil is not None
    out = []
    numbered = layout.oil.numbered
    deserts = [t for t in tiles if t.terrain == "desert"]
    for t in deserts:
        if not t.oil_spring or t.number not in numbered:
            out.append(
                Violation(
                    RULE_OIL_DESERT,
                    f"desert {_fmt(t.hex)} must carry a numbered oil spring ({' or '.join(map(str, numbered))})",
                    (t.hex,),
                )
            )
    if not deserts:
        return out
    if sorted(t.number or 0 for t in deserts) not in [
        sorted(a) for a in itertools.permutations(numbered, len(deserts))
    ]:
        out.append(Violation(RULE_OIL_DESERT, "the deserts' oil-spring numbers must be different numbered tiles"))
        return out
    desert_hexes = [d.hex for d in deserts]
    if any(h not in layout.adjacency for h in desert_hexes):
        return out  # a desert off the layout: the hex check reports it, step 1 cannot be judged
    others = {t.hex: t.number for t in tiles if t.number is not None and t.hex not in desert_hexes}
    best = desert_assignments(desert_hexes, others, numbered, layout.adjacency)
    if best and tuple(d.number for d in deserts) not in best:
        out.append(
            Violation(
                RULE_OIL_DESERT,
                "a desert's oil-spring number appears next to it although another numbered tile would not",
                tuple(desert_hexes),
            )
        )
    return out


def _oil_adjacent(springs: set[Hex], layout: Layout, severity: str, why: str) -> list[Violation]:
    """No two oil springs side by side (each pair once, in reading order)."""
    return [
        Violation(RULE_OIL_ADJACENT, f"oil springs at {_fmt(h)} and {_fmt(n)} are adjacent{why}", (h, n), severity)
        for h, n in hexgrid.adjacent_pairs(springs)
        if h in layout.adjacency and n in layout.adjacency
    ]


def _check_oil_fixed(board: Board, layout: Layout) -> list[Violation]:
    """A fixed Oil Springs setup: the deserts and the hexes the setup names
    carry the oil springs, nothing else does."""
    assert layout.oil is not None
    out: list[Violation] = []
    meta = layoutmod.load(layout.name)
    if meta.frame is not None:
        # turning hexes into forest/pasture changes the terrain counts: then only the hexes are compared
        turned = any(s.turn for s in layout.oil.fixed)
        for problem in frame_problems(board, layoutmod.load(meta.frame), pools=not turned):
            out.append(Violation(RULE_FIXED_BOARD, f"not a {meta.frame} board: {problem}"))
    land = [t for t in board.tiles if t.kind == "land"]
    want = {t.hex for t in land if t.terrain == "desert"}
    if not want:
        out.append(Violation(RULE_OIL_DESERT, "a fixed oil-springs board needs a desert for the numbered oil spring"))
    for t in land:
        if t.terrain == "desert" and t.number not in layout.oil.numbered:
            out.append(Violation(RULE_OIL_DESERT, f"desert {_fmt(t.hex)} must carry a numbered oil spring", (t.hex,)))
    cells = [(t.hex, t.terrain, t.number) for t in land]
    kinds = {t.hex: t.kind for t in board.tiles}
    for spring in layout.oil.fixed:
        # after the setup is applied, the spring's hex has the spring's terrain
        applied = spring if spring.east else FixedSpring(spring.terrain, spring.number, spring.east, False)
        try:
            want.add(fixed_spring_hex(applied, cells, kinds))
        except SetupgenError as exc:
            out.append(Violation(RULE_OIL_SPRING, str(exc)))
    have = {t.hex for t in land if t.oil_spring}
    for h in hexgrid.row_order(want - have):
        out.append(Violation(RULE_OIL_SPRING, f"hex {_fmt(h)} must carry an oil spring", (h,)))
    for h in hexgrid.row_order(have - want):
        out.append(
            Violation(RULE_OIL_SPRING, f"hex {_fmt(h)} carries an oil spring the fixed setup does not name", (h,))
        )
    return out + _oil_adjacent(have, layout, NOTE, " (as the fixed map has them)")


def _check_setup_id(board: Board, layout: Layout) -> list[Violation]:
    try:
        sid = setupid.decode(board.setup_id)
    except SetupgenError as exc:
        return [Violation(RULE_SETUP_ID, str(exc), (), NOTE)]
    out = []
    if sid.code != layout.code:
        out.append(Violation(RULE_SETUP_ID, f"setup id is for scenario code {sid.code}, not {layout.code}", (), NOTE))
    if (sid.number_method, sid.harbor_method) != (board.number_method, board.harbor_method):
        out.append(Violation(RULE_SETUP_ID, "setup id names other methods than the board", (), NOTE))
    return out


__all__ = ["Violation", "check", "check_file", "check_oil", "errors", "validate", "ERROR", "NOTE"]
