"""Layouts made from boards: the layout a board is checked against, a layout
with every hex of a board fixed, and how a board differs from the frame of
a scenario (``docs/rules.md`` sections 1 and 5). Hexes are axial ``(q, r)``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from . import layout as layoutmod
from .board import Board
from .errors import UnknownScenarioError
from .layout import HarborPlace, HexSpec, Layout


def layout_for(board: Board) -> Layout:
    """The layout to check ``board`` against: its shipped scenario, or for a
    board-file scenario that scenario joined with the board's own hexes.
    Raises :class:`~setupgen.core.errors.UnknownScenarioError`."""
    try:
        meta = layoutmod.load(board.scenario)
    except UnknownScenarioError as exc:  # a value of the file, not of the request
        raise UnknownScenarioError(f"the board's {exc}") from None
    return meta if meta.source != "board-file" else layout_of_board(board, meta)


def layout_of_board(board: Board, meta: Layout) -> Layout:
    """A layout in which every hex of ``board`` is fixed (terrain, number
    token, harbors with their types), carrying the name, code, victory
    points, notes, robber rule and oil settings of ``meta``."""
    specs = tuple(HexSpec(t.hex, t.kind, None, t.terrain if t.kind == "land" else "sea", t.number) for t in board.tiles)
    places = tuple(HarborPlace(h.hex, h.facing, h.type) for h in board.harbors)
    return dataclasses.replace(
        meta,
        hexes=specs,
        harbor_places=places,
        harbor_pool=tuple(h.type for h in board.harbors),
        default_harbors="fixed" if places else "players",
        source="map",
    )


def frame_problems(board: Board, frame: Layout, *, pools: bool) -> list[str]:
    """How ``board`` differs from the hexes of ``frame`` (and with ``pools``
    from its terrain, number-token and harbor pools; docs/rules.md
    section 1), as lowercase phrases; empty when it fits."""
    out = []
    want = {s.hex: s.kind for s in frame.hexes}
    have = {t.hex: t.kind for t in board.tiles}
    if want != have:
        missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
        wrong = sorted(h for h in set(want) & set(have) if want[h] != have[h])
        what = (
            f"hex {missing[0]} is missing"
            if missing
            else f"hex {extra[0]} is not part of it"
            if extra
            else f"hex {wrong[0]} is {have[wrong[0]]}, not {want[wrong[0]]}"
        )
        out.append(what)
    if not pools:
        return out
    terrain = Counter(t.terrain for t in board.tiles if t.kind == "land")
    pool = Counter(t for r in frame.regions for t in r.terrain_pool) + Counter(
        s.terrain for s in frame.hexes if s.kind == "land" and s.region is None and s.terrain is not None
    )
    if terrain != pool:
        diff = ", ".join(
            f"{k} {terrain[k]} instead of {pool[k]}" for k in sorted(set(terrain) | set(pool)) if terrain[k] != pool[k]
        )
        out.append(f"terrain differs from the set ({diff})")
    tokens = Counter(
        t.number for t in board.tiles if t.kind == "land" and t.terrain != "desert" and t.number is not None
    )
    token_pool = Counter(n for r in frame.regions for n in r.number_tokens)
    if tokens != token_pool:
        out.append("number tokens differ from the set")
    if board.harbors and Counter(h.type for h in board.harbors) != Counter(frame.harbor_pool):
        out.append(f"{len(board.harbors)} harbors differ from the set of {len(frame.harbor_pool)}")
    return out


__all__ = ["layout_for", "layout_of_board", "frame_problems"]
