"""Where the board goes on a page: the box it is fitted into, the hex
size, the page position of every hex, the half of a frame hex inside the
board's rectangle, and the outline segments (:mod:`setupgen.render.board`
draws with them, :mod:`setupgen.render.labels` keeps labels off them).

Every length is in mm (the SVG user unit); hexes are axial ``(q, r)``
(:mod:`setupgen.core.hexgrid`). docs/sheet.md, "Board".
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from ..core import hexgrid
from ..core.board import Board, Tile
from ..core.errors import SetupgenError
from ..core.hexgrid import Hex
from .page import CORNERS, SQRT3, hex_points

__all__ = [
    "Box",
    "Fit",
    "Segment",
    "PAD",
    "ROW_LABEL_W",
    "LEFT_HALF",
    "RIGHT_HALF",
    "per_board",
    "frame_halves",
    "half_directions",
    "board_extent",
    "hex_size_for",
    "place",
    "tile_points",
    "boundary_segments",
    "sea_areas",
]


T = TypeVar("T")


def per_board(fn: Callable[[Board], T]) -> Callable[[Board], T]:
    """``fn`` remembering its value for the last board it was given (the
    same board object: a page asks for its rows, extent and frame halves
    many times)."""
    last: list[tuple[Board, T]] = []

    @functools.wraps(fn)
    def wrapper(board: Board) -> T:
        if last and last[0][0] is board:
            return last[0][1]
        value = fn(board)
        last[:] = [(board, value)]
        return value

    return wrapper


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on the page: top-left ``(x, y)``, size ``w`` x ``h``, mm."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class Fit:
    """Where the board goes: hex size ``s`` mm, the page position of the
    size-1 point ``(0, 0)`` (``ox``, ``oy``), the leftmost x (mm) the row
    numbers may use, and the block (mm) harbor words and the pirate must
    stay inside (None: the board's own bounds)."""

    s: float
    ox: float
    oy: float
    min_x: float = 0.0
    limit: Box | None = None

    def at(self, h: Hex) -> tuple[float, float]:
        """Page position (mm) of the centre of hex ``h``."""
        cx, cy = hexgrid.center(h)
        return (self.ox + cx * self.s, self.oy + cy * self.s)


ROW_LABEL_W = 7.0  # mm left of the board for row numbers
PAD = 1.5  # mm around the board


#: corners (see :data:`setupgen.render.page.CORNERS`) of the half of a frame
#: hex that lies inside the board, split by the vertical line through the
#: hex centre: the right half (a frame hex at the left end of a row) and
#: the left half (at the right end)
RIGHT_HALF = (1, 0, 5, 4)
LEFT_HALF = (1, 2, 3, 4)


@per_board
def frame_halves(board: Board) -> dict[Hex, tuple[int, ...]]:
    """Frame hex -> the corners of its half inside the board's rectangle:
    the half towards the board's centre (:data:`RIGHT_HALF` left of the
    centre, :data:`LEFT_HALF` right of it). Empty for boards without frame
    tiles."""
    frames = [t.hex for t in board.tiles if t.kind == "frame"]
    if not frames:
        return {}
    xs = [hexgrid.center(t.hex)[0] for t in board.tiles]
    mid = (min(xs) + max(xs)) / 2
    return {h: RIGHT_HALF if hexgrid.center(h)[0] <= mid else LEFT_HALF for h in frames}


def half_directions(corners: tuple[int, ...]) -> tuple[int, ...]:
    """The directions whose edge (corners ``d - 1`` and ``d``) a half hex keeps."""
    return tuple(d for d in range(6) if (d - 1) % 6 in corners and d in corners)


@per_board
def board_extent(board: Board) -> tuple[float, float, float, float]:
    """Bounds ``(minx, miny, maxx, maxy)`` of the board at hex size 1 (a
    frame hex counts with its half inside the board only)."""
    cs = [hexgrid.center(t.hex) for t in board.tiles]
    if not cs:
        raise SetupgenError("the board has no hexes to draw")
    halves = frame_halves(board)
    if not halves:
        return (
            min(c[0] for c in cs) - SQRT3 / 2,
            min(c[1] for c in cs) - 1.0,
            max(c[0] for c in cs) + SQRT3 / 2,
            max(c[1] for c in cs) + 1.0,
        )
    lo, hi = [], []
    for t, c in zip(board.tiles, cs):
        half = halves.get(t.hex)
        lo.append(c[0] if half == RIGHT_HALF else c[0] - SQRT3 / 2)
        hi.append(c[0] if half == LEFT_HALF else c[0] + SQRT3 / 2)
    return (min(lo), min(c[1] for c in cs) - 1.0, max(hi), max(c[1] for c in cs) + 1.0)


def hex_size_for(board: Board, w: float, h: float) -> float:
    """The hex size (mm) that fits the board, row numbers and padding into
    ``w`` x ``h`` mm."""
    x0, y0, x1, y1 = board_extent(board)
    return min((w - ROW_LABEL_W - 2 * PAD) / (x1 - x0), (h - 2 * PAD) / (y1 - y0))


def place(board: Board, box: Box, s: float) -> Fit:
    """Centre the board (hex size ``s`` mm) in ``box``, row numbers left."""
    x0, y0, x1, y1 = board_extent(board)
    bw, bh = (x1 - x0) * s + ROW_LABEL_W, (y1 - y0) * s
    left = box.x + (box.w - bw) / 2 + ROW_LABEL_W
    top = box.y + (box.h - bh) / 2
    return Fit(s, left - x0 * s, top - y0 * s, box.x, box)


def tile_points(t: Tile, fit_: Fit, half: tuple[int, ...] | None) -> list[tuple[float, float]]:
    pts = hex_points(*fit_.at(t.hex), fit_.s)
    return pts if half is None else [pts[i] for i in half]


Segment = tuple[tuple[float, float], tuple[float, float]]


def _edge(x: float, y: float, s: float, i: int, j: int) -> Segment:
    a, b = CORNERS[i], CORNERS[j]
    return ((x + a[0] * s, y + a[1] * s), (x + b[0] * s, y + b[1] * s))


def boundary_segments(
    hexes: frozenset[Hex], fit_: Fit, halves: dict[Hex, tuple[int, ...]] | None = None
) -> list[Segment]:
    """Every edge (page points, mm) of ``hexes`` that borders a hex outside
    the set (reading order of hexes, then direction). A hex in ``halves``
    is only the half with those corners: its kept edges, then its straight
    cut (corner 1 to corner 4); an edge towards the dropped half of such a
    neighbour counts as outside."""
    halves = halves or {}
    segs = []
    for h in hexgrid.row_order(hexes):
        x, y = fit_.at(h)
        half = halves.get(h)
        dirs = range(6) if half is None else half_directions(half)
        for d in dirs:
            n = hexgrid.neighbor(h, d)
            if n in hexes and (n not in halves or (d + 3) % 6 in half_directions(halves[n])):
                continue
            segs.append(_edge(x, y, fit_.s, (d - 1) % 6, d))
        if half is not None:
            segs.append(_edge(x, y, fit_.s, 1, 4))
    return segs


def sea_areas(board: Board, fit_: Fit) -> dict[Hex, tuple[tuple[float, float], ...]]:
    """Sea and frame hex -> its corners (mm) as drawn (a frame hex: its half)."""
    halves = frame_halves(board)
    return {t.hex: tuple(tile_points(t, fit_, halves.get(t.hex))) for t in board.tiles if t.kind in ("sea", "frame")}
