"""The harbors' list numbers and the build list's rows and positions of
the table sheet (docs/sheet.md, "Build list" and "Harbors"): the same
board gives the same numbers on every page that names a harbor or a hex.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import hexgrid
from ..core.board import Board, Harbor, Tile
from ..core.hexgrid import Hex
from ..core.templates import Texts
from .fitting import frame_halves, per_board

__all__ = ["BuildRow", "clock", "harbor_order", "harbor_words", "build_rows", "positions"]


def clock(dx: float, dy: float) -> float:
    """A pseudo-angle of the vector ``(dx, dy)`` (y down): 0 north, growing
    clockwise, 1 east, 2 south, 3 west (monotonic in the true angle; no
    trigonometry, so the order is the same on every machine)."""
    if dx == 0 and dy == 0:
        return 0.0
    if dx >= 0 and dy < 0:
        return dx / (dx - dy)
    if dx > 0 and dy >= 0:
        return 1 + dy / (dx + dy)
    if dx <= 0 and dy > 0:
        return 2 + (-dx) / (dy - dx)
    return 3 + (-dy) / (-dx - dy)


def harbor_order(board: Board) -> tuple[Harbor, ...]:
    """The board's harbors numbered clockwise from the top (12 o'clock)
    around the centre of the land hexes; ties by hex and facing."""
    land = [hexgrid.center(t.hex) for t in board.tiles if t.kind == "land"] or [(0.0, 0.0)]
    mx = sum(p[0] for p in land) / len(land)
    my = sum(p[1] for p in land) / len(land)

    def key(h: Harbor) -> tuple[float, int, int, int]:
        cx, cy = hexgrid.center(h.hex)
        return (round(clock(cx - mx, cy - my), 6), h.hex[1], h.hex[0], h.facing)

    return tuple(sorted(board.harbors, key=key))


def harbor_words(htype: str, tx: Texts) -> tuple[str, str]:
    """``(ratio, resource word)`` of a harbor type; the word is empty for
    3:1."""
    if htype == "3:1":
        return tx.get("sheet.ratio_generic"), ""
    return tx.get("sheet.ratio_special"), tx.get(f"resource.{htype}")


@dataclass(frozen=True, slots=True)
class BuildRow:
    """One row of the build list: its hexes left to right (sea included,
    frame half hexes left out) and ``indent``, how many half hex widths
    its first hex starts right of the board's left edge."""

    tiles: tuple[Tile, ...]
    indent: int


@per_board
def build_rows(board: Board) -> list[BuildRow]:
    """The build list's rows, top to bottom (``docs/sheet.md``, "Build
    list"): every row holding a hex that is not frame, each with every
    such hex in order and its indent from the board's left edge (a frame
    half hex counts half a hex)."""
    halves = frame_halves(board)
    left = min(2 * t.hex[0] + t.hex[1] + (1 if t.hex in halves else 0) for t in board.tiles)
    by_row: dict[int, list[Tile]] = {}
    for t in board.tiles:
        if t.kind != "frame":
            by_row.setdefault(t.hex[1], []).append(t)
    out = []
    for r in sorted(by_row):
        row = tuple(sorted(by_row[r], key=lambda t: t.hex[0]))
        out.append(BuildRow(row, 2 * row[0].hex[0] + r - left))
    return out


@per_board
def positions(board: Board) -> dict[Hex, tuple[int, int]]:
    """Hex -> ``(row, position)`` in the build list, both from 1."""
    return {t.hex: (i, j) for i, row in enumerate(build_rows(board), start=1) for j, t in enumerate(row.tiles, start=1)}
