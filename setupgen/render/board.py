"""The board picture, legend and harbor numbering of the table sheet
(:mod:`setupgen.render.sheet`).

Every length is in mm (the SVG user unit). Coordinates are written with
two decimals (:func:`setupgen.render.page.num`), so the same board gives the
same bytes on any machine. Shapely picks free spots for harbor words and
the pirate (boolean tests on a fixed lattice of candidates, nearest first,
so the choice is stable). Every label and marker is one item of the canvas
(:mod:`setupgen.render.canvas`); ``docs/sheet.md`` says what may not
overlap.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..core import hexgrid
from ..core.board import Board, Harbor, Tile
from ..core.errors import SetupgenError
from ..core.hexgrid import Hex
from ..core.rules import LAND_TERRAINS, RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style, Texts
from .canvas import Canvas
from .page import (
    CORNERS,
    SQRT3,
    add_circle,
    add_path,
    add_rect,
    add_text,
    draw_oil,
    draw_pirate,
    draw_robber,
    draw_token,
    fit,
    hex_points,
    num,
    poly_d,
    text_width,
    wrap,
)
from .patterns import pattern_of

# --------------------------------------------------------------------------
# harbor numbering


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

    def key(h: Harbor) -> tuple:
        cx, cy = hexgrid.center(h.hex)
        return (round(clock(cx - mx, cy - my), 6), h.hex[1], h.hex[0], h.facing)

    return tuple(sorted(board.harbors, key=key))


def harbor_words(htype: str, tx: Texts) -> tuple[str, str]:
    """``(ratio, resource word)`` of a harbor type; the word is empty for
    3:1."""
    if htype == "3:1":
        return tx.get("sheet.ratio_generic"), ""
    return tx.get("sheet.ratio_special"), tx.get(f"resource.{htype}")


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


# --------------------------------------------------------------------------
# the board picture


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


def _half_directions(corners: tuple[int, ...]) -> tuple[int, ...]:
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


def draw_board(dwg: Canvas, board: Board, fit_: Fit, tx: Texts, st: Style) -> None:
    """The board picture: sea and frame (a frame hex as its half inside the
    board's rectangle) and land hexes, each with its fill and pattern; the
    outline (straight along the frame's cut, class ``frame``) and the
    coastline (class ``coast``); land labels, tokens, oil springs and the
    robber; harbors and their words, the pirate, and the row numbers of
    the build list left of the board. Every label and marker is an item of
    the canvas and none overlaps another or crosses the coast or frame
    line (harbor words and the pirate are placed on free sea)."""
    halves = frame_halves(board)
    _draw_tiles(dwg, board, fit_, halves, st)
    _draw_outline(dwg, board, fit_, st, halves)
    marks = [box for t in board.tiles if t.kind == "land" for box in _draw_land_marks(dwg, board, t, fit_, tx, st)]
    free = _FreeSea(board, fit_, halves, marks)
    for box in _draw_row_numbers(dwg, board, fit_, st):
        free.take(*box)
    _draw_harbors(dwg, board, fit_, free, tx, st)


def tile_key(t: Tile) -> str:
    """The style key of a tile's fill and pattern: its terrain, ``hidden``,
    ``sea`` or ``frame``."""
    if t.kind == "frame":
        return "frame"
    if t.kind == "sea":
        return "sea"
    return "hidden" if t.hidden else str(t.terrain)


def draw_swatch(
    dwg: Canvas,
    pts: Sequence[tuple[float, float]],
    key: str,
    st: Style,
    *,
    stroke: str | None = None,
    dash: str | None = None,
    role: str | None = None,
    patterns_drawn: bool = False,
) -> None:
    """A convex polygon ``pts`` (mm) filled as ``key`` (a terrain,
    ``hidden``, ``sea``, ``frame``): the fill colour, the pattern of
    ``[pattern]`` in style.toml on top (unless ``patterns_drawn``), then
    the outline."""
    d = poly_d(pts)
    add_path(dwg, d, fill=st.fill[key], role=role)
    if not patterns_drawn:
        pat = pattern_of(st.table("pattern"), key)
        if pat is not None:
            dwg.pattern(d, key, pat)
    if stroke is not None:
        add_path(dwg, poly_d(pts), stroke=stroke, width=st.mm("hex_stroke"), dash=dash)


def _tile_points(t: Tile, fit_: Fit, half: tuple[int, ...] | None) -> list[tuple[float, float]]:
    pts = hex_points(*fit_.at(t.hex), fit_.s)
    return pts if half is None else [pts[i] for i in half]


def _draw_tiles(dwg: Canvas, board: Board, fit_: Fit, halves: dict[Hex, tuple[int, ...]], st: Style) -> None:
    """Every hex (a frame hex as its half ``halves``): one shape per fill
    (class ``hex KEY``, a sub-path per hex, in reading order), then each
    terrain's pattern over all its hexes at once, then the hex edges (sea
    and frame in the sea line colour, frame dashed; land in the line
    colour)."""
    polys: dict[str, list[str]] = {}
    edges: dict[str, list[str]] = {"sea": [], "frame": [], "land": []}
    for t in board.tiles:
        d = poly_d(_tile_points(t, fit_, halves.get(t.hex)))
        polys.setdefault(tile_key(t), []).append(d)
        edges[t.kind if t.kind in edges else "land"].append(d)
    for key in sorted(polys):
        add_path(dwg, " ".join(polys[key]), fill=st.fill[key], role=f"hex {key}")
    table = st.table("pattern")
    for key in table:
        pat = pattern_of(table, key) if key in polys else None
        if pat is not None:
            dwg.pattern(" ".join(polys[key]), key, pat)
    width = st.mm("hex_stroke")
    for kind, colour, dash in (("sea", "sea_line", None), ("frame", "sea_line", "1.00,0.80"), ("land", "line", None)):
        if edges[kind]:
            add_path(
                dwg, " ".join(edges[kind]), stroke=st.colour[colour], width=width, dash=dash
            )  # miter joins: a third cheaper in cairo than round ones


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
        dirs = range(6) if half is None else _half_directions(half)
        for d in dirs:
            n = hexgrid.neighbor(h, d)
            if n in hexes and (n not in halves or (d + 3) % 6 in _half_directions(halves[n])):
                continue
            segs.append(_edge(x, y, fit_.s, (d - 1) % 6, d))
        if half is not None:
            segs.append(_edge(x, y, fit_.s, 1, 4))
    return segs


def _segments_d(segs: Sequence[Segment]) -> str:
    return " ".join(f"M{num(a[0])},{num(a[1])} L{num(b[0])},{num(b[1])}" for a, b in segs)


def _draw_outline(dwg: Canvas, board: Board, fit_: Fit, st: Style, halves: dict[Hex, tuple[int, ...]]) -> None:
    """The board's outer boundary (heavy; along the straight cut of frame
    half hexes, so a framed board is a rectangle left and right) and the
    coastline of the land."""
    everything = frozenset(t.hex for t in board.tiles)
    add_path(
        dwg,
        _segments_d(boundary_segments(everything, fit_, halves)),
        stroke=st.colour["ink"],
        width=st.mm("frame_stroke"),
        role="frame",
    )
    land = frozenset(t.hex for t in board.tiles if t.kind == "land")
    if land:
        add_path(
            dwg,
            _segments_d(boundary_segments(land, fit_)),
            stroke=st.colour["ink"],
            width=st.mm("coast_stroke"),
            role="coast",
        )


def token_radius(s: float) -> float:
    """Number token radius (mm) on a hex of size ``s`` mm (never so small
    that an 8 pt number and its pips no longer fit)."""
    return max(s * TOKEN_RATIO, 2.3)


#: token radius as a share of the hex size; the token's centre sits this
#: share of the hex size below the hex centre
TOKEN_RATIO = 0.42
TOKEN_DROP = 0.15


#: a label box reaches this share of the font size above and below the baseline
LABEL_ASCENT = 0.86
LABEL_DESCENT = 0.26


def _label_box(dwg: Canvas, text: str, x: float, base: float, size: float, st: Style, kind: str) -> None:
    """Bold ``text`` centred on ``x`` at baseline ``base`` on a white
    rounded box; one item ``kind``."""
    w = text_width(text, size, bold=True)
    dwg.begin(kind)
    add_rect(
        dwg,
        x - w / 2 - 0.5,
        base - size * LABEL_ASCENT,
        w + 1.0,
        size * (LABEL_ASCENT + LABEL_DESCENT),
        fill=st.fill["box"],
        rx=0.5,
    )
    add_text(dwg, text, x, base, size, st, bold=True, anchor="middle")
    dwg.end()


def _draw_land_marks(
    dwg: Canvas, board: Board, t: Tile, fit_: Fit, tx: Texts, st: Style
) -> list[tuple[float, float, float, float]]:
    """Label (or ``?``) above the token, the token, the oil drop left of
    the token (the legend names it), the robber (on a hex without token
    in its middle, else left of the token, right of it on an oil
    spring). Returns the boxes ``(x0, y0, x1, y1)`` (mm) of what it drew."""
    s = fit_.s
    x, y = fit_.at(t.hex)
    r = token_radius(s)
    ty = y + s * TOKEN_DROP
    if t.hidden:
        label, size = tx.get("label.hidden"), min(st.mm("hidden_label"), s * 0.42)
    else:
        label, size = tx.get(f"label.{t.terrain}"), min(st.mm("hex_label") * 1.25, s * 0.31)
    # the box's top corners stay inside the hex: at height v above the
    # centre (v > s / 2) the hex is 2 * sqrt(3) * (s - v) wide
    top = r - s * TOKEN_DROP + max(0.4, s * 0.04) + size * (LABEL_ASCENT + LABEL_DESCENT)
    room = 2 * SQRT3 * (s - max(top, s / 2)) - 2.2
    size = max(MIN_FONT_MM, min(size, room / max(0.1, text_width(label, 1.0, bold=True))))
    base = ty - r - size * LABEL_DESCENT - max(0.4, s * 0.04)
    # a label too wide for its height at 8 pt comes down to where the hex is wide enough: alone, or
    # with the token below it as far as the token still fits the hex
    v_max = s - (text_width(label, size, bold=True) + 1.0 + 2.2) / (2 * SQRT3)  # highest the box top may be
    highest = y - v_max + size * LABEL_ASCENT  # the baseline of a box there
    if t.number is None:
        base = max(base, y - min(v_max, s / 2) + size * LABEL_ASCENT)
    elif base < highest:
        drop = max(0.0, min(highest - base, y + s - r / (SQRT3 / 2) - 0.3 - ty))
        ty, base = ty + drop, base + drop
    _label_box(dwg, label, x, base, size, st, "label")
    half = text_width(label, size, bold=True) / 2 + 0.5
    boxes = [(x - half, base - size * LABEL_ASCENT, x + half, base + size * LABEL_DESCENT)]
    if t.number is not None:
        draw_token(dwg, x, ty, r, t.number, st)
        boxes.append((x - r, ty - r, x + r, ty + r))
    if t.oil_spring:
        dwg.begin("oil")
        draw_oil(dwg, x - s * 0.62, ty, s * 0.42, st)
        dwg.end()
        boxes.append((x - s * 0.62 - s * 0.13, ty - s * 0.21, x - s * 0.62 + s * 0.13, ty + s * 0.21))
    if board.robber == t.hex:
        h, rx, ry = s * 0.42, x + (s * 0.62 if t.oil_spring else -s * 0.62), ty
        if t.number is None:  # in the middle, below the label
            bottom = ty + s * 0.35
            h = min(s * 0.7, bottom - (base + size * LABEL_DESCENT + 0.4))
            rx, ry = x, bottom - h / 2
        draw_robber(dwg, rx, ry, h, st)
        boxes.append((rx - h * 0.3, ry - h / 2, rx + h * 0.3, ry + h / 2))
    return boxes


def _draw_row_numbers(dwg: Canvas, board: Board, fit_: Fit, st: Style) -> list[tuple[float, float, float, float]]:
    """Row numbers of the build list in one right-aligned column left of
    the board, level with each row's centre; returns their boxes as
    ``(x, y, half width, half height)`` mm."""
    size = max(MIN_FONT_MM, st.mm("row_label"))
    x = fit_.ox + board_extent(board)[0] * fit_.s - 1.5
    out = []
    for i, row in enumerate(build_rows(board), start=1):
        y = fit_.at(row.tiles[0].hex)[1]
        add_text(dwg, str(i), x, y + size * 0.36, size, st, bold=True, anchor="end", fill=st.colour["muted"])
        w = text_width(str(i), size, bold=True)
        out.append((x - w / 2, y, w / 2 + 1.5, size * 0.6))
    return out


# --------------------------------------------------------------------------
# harbors and pirate: placed on free sea


def _draw_harbors(dwg: Canvas, board: Board, fit_: Fit, free: _FreeSea, tx: Texts, st: Style) -> None:
    """Harbors: piers to the served edge's corners and a numbered marker
    (item ``harbor``); the pirate ship (item ``pirate``) on its sea hex;
    then each harbor's label, its number, ratio and resource word ("7 · 2:1
    brick", item ``harbor-words``), inside its own sea hex beside the
    marker, or where that hex has no room on free sea nearby, joined to
    the marker by a leader line (class ``leader``)."""
    s = fit_.s
    r = max(s * 0.22, MIN_FONT_MM * 0.75)
    marks = []
    areas = _sea_areas(board, fit_)
    for n, h in enumerate(harbor_order(board), start=1):
        cx, cy = fit_.at(h.hex)
        a, b = CORNERS[(h.facing - 1) % 6], CORNERS[h.facing]
        e1, e2 = (cx + a[0] * s, cy + a[1] * s), (cx + b[0] * s, cy + b[1] * s)
        mx, my = (e1[0] + e2[0]) / 2, (e1[1] + e2[1]) / 2
        apothem = s * SQRT3 / 2
        reach = (r + st.mm("token_stroke")) * (abs(mx - cx) + abs(my - cy)) / apothem  # the ring's box
        out = min(MARKER_OUT, 1.0 - (reach + 0.4) / apothem)
        p = (cx + (mx - cx) * out, cy + (my - cy) * out)
        marks.append(HarborMark(n, h, (cx, cy), p, r, areas.get(h.hex)))
        free.block_pier(e1, p, e2, r)
        d = f"M{num(e1[0])},{num(e1[1])} L{num(p[0])},{num(p[1])} L{num(e2[0])},{num(e2[1])}"
        add_path(dwg, d, stroke=st.colour["ink"], width=st.mm("pier"), join="round")
    for m in marks:
        dwg.begin("harbor")
        add_circle(
            dwg, m.p[0], m.p[1], r, fill=st.fill["harbor"], stroke=st.colour["ink"], width=st.mm("token_stroke") * 1.6
        )
        size = max(MIN_FONT_MM, min(st.mm("harbor_index"), r * 1.2))
        add_text(dwg, str(m.n), m.p[0], m.p[1] + size * 0.36, size, st, bold=True, anchor="middle")
        dwg.end()
    free.prepare()
    pirate, spots = _place_pirate_and_words(board, fit_, marks, free, areas, tx, st)
    if pirate is not None:
        draw_pirate(dwg, pirate[0], pirate[1], pirate[2], st)
    for m, spot in zip(marks, spots):
        _draw_words(dwg, m, spot, st)


#: where a harbor's marker sits: this share of the way from its hex's
#: centre to the middle of the served edge, or nearer the centre so that
#: the box round its ring keeps 0.4 mm off the coast (the rest of the hex
#: holds its label)
MARKER_OUT = 0.7
#: a harbor label's box is this much wider (mm) than its widest line
LABEL_PAD = 0.5


@dataclass(frozen=True, slots=True)
class HarborMark:
    """Harbor ``n`` (its list number) on the page: its hex centre ``c`` and
    marker centre ``p`` (mm), the marker's radius ``r`` (mm) and the
    corners (mm) of its sea hex as drawn (a frame hex: its half), None
    when the harbor's hex is not a sea or frame hex of the board."""

    n: int
    harbor: Harbor
    c: tuple[float, float]
    p: tuple[float, float]
    r: float
    area: tuple[tuple[float, float], ...] | None


@dataclass(frozen=True, slots=True)
class WordSpot:
    """A harbor label: its lines (the first bold) at font ``size`` (mm),
    centred on ``(x, y)``, ``w`` x ``h`` mm; ``own`` when it lies in the
    harbor's own sea hex (else a leader line joins it to the marker)."""

    lines: tuple[str, ...]
    x: float
    y: float
    w: float
    h: float
    size: float
    own: bool
    #: False for a label that found no free spot (at its wanted spot, where the layout test flags it)
    found: bool = True


def _sea_areas(board: Board, fit_: Fit) -> dict[Hex, tuple[tuple[float, float], ...]]:
    """Sea and frame hex -> its corners (mm) as drawn (a frame hex: its half)."""
    halves = frame_halves(board)
    return {t.hex: tuple(_tile_points(t, fit_, halves.get(t.hex))) for t in board.tiles if t.kind in ("sea", "frame")}


#: the pirate ship's heights (x hex size), largest first
PIRATE_SIZES = (0.75, 0.65, 0.55, 0.45)


def _place_pirate_and_words(
    board: Board,
    fit_: Fit,
    marks: list[HarborMark],
    free: _FreeSea,
    areas: dict[Hex, tuple[tuple[float, float], ...]],
    tx: Texts,
    st: Style,
) -> tuple[tuple[float, float, float] | None, list[WordSpot]]:
    """The pirate ship (``(x, y, height)`` mm, None without one) and every
    harbor's label: the pirate first, at its largest; when a label finds
    no room, again with the smallest pirate, then with no label on one
    long line, then with the labels first and the pirate after them in
    what its hex has left. The try with the fewest misses wins (the
    first of them on a tie)."""
    base = free.snapshot()
    best: tuple[int, Any, list[WordSpot]] | None = None
    for sizes, compact, first in (
        (PIRATE_SIZES, False, True),
        (PIRATE_SIZES[-1:], False, True),
        (PIRATE_SIZES[-1:], True, True),
        (PIRATE_SIZES, False, False),
    ):
        if board.pirate is None and not first:
            break
        free.restore(base)
        pirate, lost = _place_pirate(board, fit_, free, sizes) if board.pirate is not None and first else (None, False)
        spots, missed = _place_words(marks, fit_.s, free, tx, st, compact)
        if not first and board.pirate is not None:
            pirate, lost = _place_pirate(board, fit_, free, sizes, areas.get(board.pirate))
        missed += lost
        if best is None or missed < best[0]:
            best = (missed, pirate, spots)
        if not missed:
            break
    assert best is not None
    return best[1], best[2]


def _place_pirate(
    board: Board,
    fit_: Fit,
    free: _FreeSea,
    sizes: Sequence[float] = PIRATE_SIZES,
    area: Sequence[tuple[float, float]] | None = None,
) -> tuple[tuple[float, float, float], bool]:
    """Where the pirate ship goes on its sea hex, ``(x, y, height)`` mm:
    the largest of ``sizes`` (x hex size) at the free spot nearest the
    hex centre (with ``area``, the hex's corners: inside it); the spot is
    taken. Also whether no free spot was found (it then takes the
    centre)."""
    assert board.pirate is not None
    x, y = fit_.at(board.pirate)
    s = fit_.s
    for hf in sizes:
        h = s * hf
        half_w, half_h = h * 0.65, h * 0.65
        found = free.find(x, y, half_w, half_h, s * 0.9, area=area)
        if found is not None:
            break
    spot = (x, y) if found is None else found
    free.take(spot[0], spot[1], h * 0.65, h * 0.65)
    return (spot[0], spot[1], h), found is None


def _place_words(
    marks: list[HarborMark], s: float, free: _FreeSea, tx: Texts, st: Style, compact: bool = False
) -> tuple[list[WordSpot], int]:
    """Where each harbor's label goes (in the harbors' order), placed one by
    one in turn; when some find no free spot, the placing starts again
    with every label that missed so far first, the latest first (at most
    :data:`PLACING_TRIES` tries, then :func:`_repair`), and the try with
    the fewest misses, then fewest labels outside their own hex, wins (a
    miss goes to its wanted spot, where the layout test would flag it).
    The free sea is left as the winning try took it. Returns the spots
    and the number of misses."""
    base = free.snapshot()
    others = [_others(marks, i) for i in range(len(marks))]
    order = list(range(len(marks)))
    ever: list[int] = []  # every label that missed in a try, the latest first
    best: tuple[tuple[int, int], list[WordSpot]] | None = None
    for _ in range(PLACING_TRIES):
        free.restore(base)
        placed, score = _place_in_order(marks, order, others, s, free, tx, st, compact)
        if best is None or score < best[0]:
            best = (score, placed)
        if not score[0]:
            break
        missed = [i for i in order if not placed[i].found]
        ever = missed + [i for i in ever if i not in missed]
        order = ever + [i for i in order if i not in ever]
    assert best is not None
    if best[0][0]:
        best = _repair(marks, others, s, free, tx, st, compact, best, base)
    free.restore(base)
    for m, spot in zip(marks, best[1]):
        _take(free, m, spot)
    return best[1], best[0][0]


def _place_in_order(
    marks: list[HarborMark],
    order: Sequence[int],
    others: Sequence[tuple],
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool,
) -> tuple[list[WordSpot], tuple[int, int]]:
    """Every label placed in ``order`` (:func:`_word_spot`; ``others[i]``
    the hexes label ``i`` keeps out of first): the spots in the harbors'
    order, and the try's score ``(misses, labels away from their hex)``."""
    spots: dict[int, WordSpot] = {}
    for i in order:
        spots[i] = _word_spot(marks[i], s, free, tx, st, compact, others[i])
    placed = [spots[i] for i in range(len(marks))]
    return placed, (sum(not p.found for p in placed), sum(p.found and not p.own for p in placed))


def _repair(
    marks: list[HarborMark],
    others: Sequence[tuple],
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool,
    best: tuple[tuple[int, int], list[WordSpot]],
    base: tuple[int, int],
) -> tuple[tuple[int, int], list[WordSpot]]:
    """Labels that find no room though placed first: each such label first
    again, with one of its four nearest neighbours (by their markers)
    placed last, so that the neighbour looks for room where the others
    leave it (each try from ``base``, the free sea before any label); the
    try with the fewest misses wins."""
    missed = [i for i, spot in enumerate(best[1]) if not spot.found]
    for i in missed:
        near = sorted(
            (j for j in range(len(marks)) if j != i),
            key=lambda j: (marks[j].p[0] - marks[i].p[0]) ** 2 + (marks[j].p[1] - marks[i].p[1]) ** 2,
        )
        for j in near[:4]:
            free.restore(base)
            order = [i] + [k for k in range(len(marks)) if k not in (i, j)] + [j]
            placed, score = _place_in_order(marks, order, others, s, free, tx, st, compact)
            if score < best[0]:
                best = (score, placed)
            if not score[0]:
                return best
    return best


#: how many times the labels are placed when some find no room
PLACING_TRIES = 5


def _others(marks: list[HarborMark], i: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The sea hexes (corners, mm) of every harbor but ``marks[i]`` and
    those sharing its hex: where its label goes only when nothing else is
    free."""
    own = marks[i].area
    return tuple(dict.fromkeys(m.area for j, m in enumerate(marks) if j != i and m.area is not None and m.area != own))


#: how far (hex sizes) a harbor label may go from its harbor when its own
#: hex has no room (it is then joined to the marker by a leader line)
_REACHES = (1.2, 1.8, 2.6, 4.0, 6.0)


def _word_spot(
    m: HarborMark,
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool = False,
    others: Sequence[Sequence[tuple[float, float]]] = (),
) -> WordSpot:
    """The label of harbor ``m`` at the free spot nearest the point
    opposite the marker in its own hex (inside that hex: on two lines,
    else on one, at the style's size, then at 8 pt), else on free sea ever
    further away (first outside ``others``, the other harbors' hexes),
    its leader over sea, else (at 8 pt, on up to three lines) over land
    clear of what land hexes show; ``compact``: never on one long line
    (room for its neighbours); the spot is taken (:attr:`WordSpot.found`
    says whether it is free). The label starts with the harbor's number
    and ratio ("7 · 2:1"), then the resource word ("brick")."""
    ratio, word = harbor_words(m.harbor.type, tx)
    head = f"{m.n} · {ratio}"
    forms = [(head, word), (f"{head} {word}",)] if word else [(head,)]
    narrow = (str(m.n), ratio, word) if word else (str(m.n), ratio)
    if compact:  # never one long line
        forms = [forms[0], narrow]
    px, py = m.c[0] - (m.p[0] - m.c[0]) * 0.3, m.c[1] - (m.p[1] - m.c[1]) * 0.3
    sizes = sorted({max(MIN_FONT_MM, st.mm("harbor_text")), MIN_FONT_MM}, reverse=True)
    Areas = Sequence[Sequence[tuple[float, float]]]
    tries: list[tuple[float, tuple[str, ...], float, bool, bool, Areas]] = (
        [(size, lines, s, True, False, ()) for size in sizes for lines in forms + [narrow]] if m.area else []
    )
    for avoid in ([others] if others else []) + [()]:
        tries += [(sizes[0], lines, k * s, False, False, avoid) for k in _REACHES for lines in forms]
    for avoid in ([others] if others else []) + [()]:
        tries += [(sizes[-1], lines, k * s, False, True, avoid) for k in _REACHES for lines in forms + [narrow]]
    for size, lines, reach, own, land, avoid in tries:
        w, th = _words_size(lines, size)
        tether = None if own else (m.p[0], m.p[1], m.r)
        spot = free.find(
            px,
            py,
            w / 2 + 0.2,
            th / 2 + 0.2,
            reach,
            area=m.area if own else None,
            tether=tether,
            over_land=land,
            avoid=avoid,
        )
        if spot is not None:
            placed = WordSpot(lines, spot[0], spot[1], w, th, size, own)
            _take(free, m, placed)
            return placed
    missed = WordSpot(lines, px, py, w, th, size, False, found=False)
    _take(free, m, missed)
    return missed


def _take(free: _FreeSea, m: HarborMark, spot: WordSpot) -> None:
    """Mark a label's box (with 0.2 mm round it) and, away from its hex,
    its leader line as used."""
    free.take(spot.x, spot.y, spot.w / 2 + 0.2, spot.h / 2 + 0.2)
    if not spot.own and spot.found:
        free.take_leader(leader(m.p[0], m.p[1], m.r, spot.x, spot.y, spot.w / 2, spot.h / 2))


def _words_size(lines: tuple[str, ...], size: float) -> tuple[float, float]:
    """Width and height (mm) of a label's box: the first line bold."""
    w = max(text_width(x, size, bold=(i == 0)) for i, x in enumerate(lines)) + LABEL_PAD
    return w, size * 1.12 * len(lines) + 0.3


def _draw_words(dwg: Canvas, m: HarborMark, spot: WordSpot, st: Style) -> None:
    """The label on a white box (item ``harbor-words``): number and ratio
    bold, the resource word plain; away from its hex, a leader line
    (class ``leader``) from the marker's ring to the box's nearest point."""
    lh = spot.size * 1.12
    x0, top = spot.x - spot.w / 2, spot.y - spot.h / 2
    if not spot.own:
        a, b = leader(m.p[0], m.p[1], m.r, spot.x, spot.y, spot.w / 2, spot.h / 2)
        add_path(
            dwg,
            f"M{num(a[0])},{num(a[1])} L{num(b[0])},{num(b[1])}",
            stroke=st.colour["ink"],
            width=st.mm("pier") * 0.6,
            role="leader",
        )
    dwg.begin("harbor-words")
    add_rect(dwg, x0, top, spot.w, spot.h, fill=st.fill["harbor"], rx=0.6)
    for i, line in enumerate(spot.lines):
        add_text(
            dwg, line, spot.x, top + 0.15 + lh * i + spot.size * 0.86, spot.size, st, bold=(i == 0), anchor="middle"
        )
    dwg.end()


class _FreeSea:
    """Where words and the pirate may go: inside the board block (the
    fit's limit), at least :data:`CLEAR` mm off the board's outline, the
    land, piers, harbor markers, leader lines and what was placed before.
    Candidate spots lie on a lattice of 1/9 hex size (1/18 inside one
    hex), tried nearest first; the fixed obstacles are tested with a
    shapely STRtree (vectorised), placed boxes with box arithmetic, so the
    choice is the same on every machine. A spot joined to its marker by
    a leader line is free only when that line crosses no land, marker,
    pier or placed box (it may cross the board's outline)."""

    CLEAR = 0.4

    def __init__(
        self,
        board: Board,
        fit_: Fit,
        halves: dict[Hex, tuple[int, ...]],
        marks: Sequence[tuple[float, float, float, float]] = (),
    ) -> None:
        import shapely

        self.s = fit_.s
        lim = fit_.limit
        if lim is None:
            x0, y0, x1, y1 = board_extent(board)
            lim = Box(fit_.ox + x0 * fit_.s, fit_.oy + y0 * fit_.s, (x1 - x0) * fit_.s, (y1 - y0) * fit_.s)
        self._limit = lim
        land = [hex_points(*fit_.at(t.hex), fit_.s) for t in board.tiles if t.kind == "land"]
        outline = boundary_segments(frozenset(t.hex for t in board.tiles), fit_, halves)
        self._geoms: list = list(shapely.polygons(land)) if land else []
        self._land = len(self._geoms)
        self._lines = (len(self._geoms), len(self._geoms) + len(outline))
        #: what the land hexes show (label, token, oil drop, robber; boxes, mm): a leader may cross land,
        #: never these
        grown = [(x0 - 0.3, y0 - 0.3, x1 + 0.3, y1 + 0.3) for x0, y0, x1, y1 in marks]
        self._marks: Any = shapely.STRtree(list(shapely.box(*zip(*grown)))) if grown else None
        self._geoms += list(shapely.linestrings(outline)) if outline else []
        self._taken: list[tuple[float, float, float, float]] = []
        self._leaders: list = []
        self._tree: Any = None
        self._own: dict[tuple[float, float], tuple[int, int]] = {}

    def block_pier(self, e1: tuple[float, float], p: tuple[float, float], e2: tuple[float, float], r: float) -> None:
        """Keep clear of a harbor's piers and the box of its marker of
        radius ``r`` at ``p`` (ring included)."""
        import shapely

        self._own[p] = (len(self._geoms), len(self._geoms) + 1)
        self._geoms.append(shapely.polygons([e1, p, e2]))
        self._geoms.append(shapely.box(p[0] - r - 0.3, p[1] - r - 0.3, p[0] + r + 0.3, p[1] + r + 0.3))

    def prepare(self) -> None:
        """Freeze the fixed obstacles (call once, after the last pier)."""
        from shapely import STRtree

        self._tree = STRtree(self._geoms)

    def find(
        self,
        x: float,
        y: float,
        hw: float,
        hh: float,
        reach: float,
        area: Sequence[tuple[float, float]] | None = None,
        tether: tuple[float, float, float] | None = None,
        over_land: bool = False,
        avoid: Sequence[Sequence[tuple[float, float]]] = (),
    ) -> tuple[float, float] | None:
        """The free centre nearest ``(x, y)`` (within ``reach`` mm) of a
        box ``2 hw`` x ``2 hh`` mm, or None; with ``area`` (the corners
        of a convex polygon, mm) only a box inside it; with ``tether``
        (a marker's centre and radius, mm) only a box whose leader line
        (:func:`leader`) is free too: over sea only, or with ``over_land``
        over land clear of what its hexes show; never a box centred in one
        of the convex polygons ``avoid``."""
        import numpy as np

        cx, cy = _lattice(x, y, self.s / (9 if area is None else 18), reach)
        lim = self._limit
        ok = (cx - hw >= lim.x) & (cx + hw <= lim.x + lim.w) & (cy - hh >= lim.y) & (cy + hh <= lim.y + lim.h)
        if area is not None:
            ok &= _box_inside(cx, cy, hw, hh, area)
        for other in avoid:
            ok &= ~_box_inside(cx, cy, 0.0, 0.0, other)
        if self._taken:
            t = np.asarray(self._taken)[:, :, None]
            ok &= ~np.any((cx - hw < t[:, 2]) & (cx + hw > t[:, 0]) & (cy - hh < t[:, 3]) & (cy + hh > t[:, 1]), axis=0)
        idx = np.flatnonzero(ok)
        start, size = 0, 16
        while start < len(idx):
            chunk = idx[start : start + size]
            free = self._free(cx[chunk], cy[chunk], hw, hh, tether, over_land)
            if len(free):
                i = chunk[free[0]]
                return float(cx[i]), float(cy[i])
            start, size = start + size, size * 4
        return None

    def _free(
        self, cx: Any, cy: Any, hw: float, hh: float, tether: tuple[float, float, float] | None, over_land: bool = False
    ) -> Any:
        """Indices of the boxes centred on ``(cx, cy)`` (numpy arrays) clear
        of the fixed obstacles and the leader lines (and, with ``tether``,
        whose own leader line is clear)."""
        import numpy as np
        import shapely

        c = self.CLEAR
        boxes = shapely.box(cx - hw - c, cy - hh - c, cx + hw + c, cy + hh + c)
        hit = np.zeros(len(cx), dtype=bool)
        hit[self._tree.query(boxes, predicate="intersects")[0]] = True
        for line in self._leaders:
            hit |= shapely.intersects(boxes, line)
        if tether is not None:
            px, py, r = tether
            own = self._own.get((px, py), ())
            bx, by = np.clip(px, cx - hw, cx + hw), np.clip(py, cy - hh, cy + hh)
            d = np.maximum(np.hypot(bx - px, by - py), 1e-9)
            ax, ay = px + (bx - px) / d * r, py + (by - py) / d * r
            lines = shapely.linestrings(np.stack([np.stack([ax, ay], -1), np.stack([bx, by], -1)], 1))
            pairs = self._tree.query(lines, predicate="intersects")
            crossed = ~np.isin(pairs[1], own) & ((pairs[1] < self._lines[0]) | (pairs[1] >= self._lines[1]))
            if over_land:
                crossed &= pairs[1] >= self._land
                if self._marks is not None:
                    hit[self._marks.query(lines, predicate="intersects")[0]] = True
            hit[pairs[0][crossed]] = True
            if self._taken:
                taken = shapely.box(*np.asarray(self._taken).T)
                hit |= shapely.intersects(lines[:, None], taken[None, :]).any(axis=1)
        return np.flatnonzero(~hit)

    def take(self, x: float, y: float, hw: float, hh: float) -> None:
        """Mark the box centred on ``(x, y)`` as used."""
        self._taken.append((x - hw, y - hh, x + hw, y + hh))

    def take_leader(self, line: tuple[tuple[float, float], tuple[float, float]]) -> None:
        """Keep later boxes off a leader line (two points, mm)."""
        import shapely

        self._leaders.append(shapely.linestrings([line[0], line[1]]))

    def snapshot(self) -> tuple[int, int]:
        """A mark to :meth:`restore` to (the boxes and leaders taken so far)."""
        return len(self._taken), len(self._leaders)

    def restore(self, mark: tuple[int, int]) -> None:
        """Forget the boxes and leaders taken since :meth:`snapshot` gave ``mark``."""
        del self._taken[mark[0] :]
        del self._leaders[mark[1] :]


def leader(
    px: float, py: float, r: float, x: float, y: float, hw: float, hh: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The leader line (two points, mm) from the ring of a marker of radius
    ``r`` at ``(px, py)`` to the nearest point of the box ``2 hw`` x ``2 hh``
    centred on ``(x, y)``, pointing at that point."""
    bx, by = min(max(px, x - hw), x + hw), min(max(py, y - hh), y + hh)
    dx, dy = bx - px, by - py
    d = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    return (px + dx / d * r, py + dy / d * r), (bx, by)


def _box_inside(cx: Any, cy: Any, hw: float, hh: float, area: Sequence[tuple[float, float]]) -> Any:
    """Which boxes ``2 hw`` x ``2 hh`` mm centred on ``(cx, cy)`` (numpy
    arrays, mm) lie inside the convex polygon ``area`` (corners in order,
    either way round): the centre at least the box's reach (``hw |nx| +
    hh |ny|``) on the inner side of every edge (inward normal ``n``)."""
    import numpy as np

    nx, ny, offset = _inward_edges(tuple(area))
    need = hw * np.abs(nx) + hh * np.abs(ny) + offset
    return np.all(nx[:, None] * cx + ny[:, None] * cy >= need[:, None], axis=0)


@functools.lru_cache(maxsize=64)
def _inward_edges(area: tuple[tuple[float, float], ...]) -> tuple[Any, Any, Any]:
    """The unit inward normals ``(nx, ny)`` of a convex polygon's edges and
    each edge's offset ``n · corner`` (numpy arrays), for :func:`_box_inside`."""
    import numpy as np

    pts = np.asarray(area, dtype=float)
    nxt = np.roll(pts, -1, axis=0)
    e = nxt - pts
    turn = float(np.sum(pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1]))
    normal = np.stack([-e[:, 1], e[:, 0]], 1) * (1.0 if turn > 0 else -1.0)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    return normal[:, 0].copy(), normal[:, 1].copy(), np.sum(normal * pts, 1)


_LATTICE: dict[tuple[float, float], tuple[Any, Any]] = {}


def _lattice(x: float, y: float, step: float, reach: float) -> tuple[Any, Any]:
    """Candidate centres (numpy arrays, mm) around ``(x, y)`` within
    ``reach`` mm, nearest first (ties by y, then x): a square lattice of
    ``step`` mm out to 4 steps, of 2 steps beyond (a spot far from the
    wanted one need not be exact, and a quarter of the candidates is
    quicker to test)."""
    import numpy as np

    key = (round(step, 6), round(reach, 6))
    offsets = _LATTICE.get(key)
    if offsets is None:
        k = int(reach / step)
        grid = np.arange(-k, k + 1) * step
        gx, gy = (a.ravel() for a in np.meshgrid(grid, grid))
        idx = np.arange(-k, k + 1)
        ix, iy = (a.ravel() for a in np.meshgrid(idx, idx))
        near = ix * ix + iy * iy <= 16
        keep_grid = near | ((ix % 2 == 0) & (iy % 2 == 0))
        gx, gy = gx[keep_grid], gy[keep_grid]
        d2 = np.round(gx * gx + gy * gy, 6)
        order = np.lexsort((gx, gy, d2))
        keep = d2[order] <= reach * reach + 1e-9
        offsets = _LATTICE[key] = (gx[order][keep], gy[order][keep])
        if len(_LATTICE) > 64:
            _LATTICE.pop(next(iter(_LATTICE)))
    return x + offsets[0], y + offsets[1]


# --------------------------------------------------------------------------
# legend

_LEGEND_KEYS = {
    "token": "sheet.number_token",
    "red": "sheet.red_number",
    "robber": "sheet.robber",
    "robber-off": "sheet.robber_off",
    "pirate": "sheet.pirate",
    "hidden": "sheet.hidden",
    "oil": "sheet.oil",
    "harbor": "sheet.harbor",
    "row": "sheet.row_numbers",
}


def legend_entries(board: Board) -> list[str]:
    """What the legend explains, in order: visible land terrains, then
    ``token``, ``red``, ``robber``, ``pirate``, ``hidden``, ``oil``,
    ``harbor``, ``row`` as they occur (oil springs are explained here, so
    no note repeats it)."""
    visible = {t.terrain for t in board.tiles if t.kind == "land" and not t.hidden}
    out = [t for t in LAND_TERRAINS if t in visible]
    tokens = [t.number for t in board.tiles if t.number is not None]
    if tokens:
        out.append("token")
    if any(n in RED_NUMBERS for n in tokens):
        out.append("red")
    if board.robber is not None:
        out.append("robber")  # a robber off the board is a note, not a legend entry
    if board.pirate is not None:
        out.append("pirate")
    if any(t.hidden for t in board.tiles):
        out.append("hidden")
    if any(t.oil_spring for t in board.tiles):
        out.append("oil")
    if board.harbors:
        out.append("harbor")
    out.append("row")
    return out


def legend_geometry(w: float, st: Style) -> tuple[float, float, float, float]:
    """``(text size, line height, swatch size, text indent)`` in mm."""
    size = max(MIN_FONT_MM, st.mm("small"))
    sw = st.mm("swatch")
    return size, max(sw + 1.0, size * 1.45), sw, sw * 1.5 + 1.5


def legend_lines(e: str, w: float, tx: Texts, st: Style) -> list[str]:
    """The text lines of one legend entry (a terrain entry is one line)."""
    if e in LAND_TERRAINS:
        return [""]
    size, _, _, indent = legend_geometry(w, st)
    return wrap(tx.get(_LEGEND_KEYS[e]), w - indent, size)


def draw_legend(dwg: Canvas, entries: Sequence[str], x: float, y: float, w: float, tx: Texts, st: Style) -> float:
    """The legend at top-left ``(x, y)`` in a column ``w`` mm wide, each
    entry one item ``legend`` (a terrain shows its fill and pattern);
    returns the y (mm) below it."""
    size, lh, sw, indent = legend_geometry(w, st)
    sx, tx_ = x + sw * 0.75, x + indent
    for e in entries:
        cy = y + lh / 2
        base = cy + size * 0.36
        dwg.begin("legend")
        if e in LAND_TERRAINS:
            draw_swatch(dwg, hex_points(sx, cy, sw * 0.55), e, st, stroke=st.colour["line"])
            label = tx.get(f"label.{e}")
            add_text(dwg, label, tx_, base, size, st, bold=True)
            lw = text_width(label + " ", size, bold=True)
            word, size2 = fit(tx.get(f"terrain.{e}"), w - indent - lw, size)
            add_text(dwg, word, tx_ + lw, base, size2, st)
            dwg.end()
            y += lh
            continue
        _legend_symbol(dwg, e, sx, cy, sw, size, tx, st)
        lines = legend_lines(e, w, tx, st)
        for i, line in enumerate(lines):
            add_text(dwg, line, tx_, base + i * size * 1.2, size, st)
        dwg.end()
        y += lh + (len(lines) - 1) * size * 1.2
    return y


def _legend_symbol(dwg: Canvas, e: str, x: float, y: float, sw: float, size: float, tx: Texts, st: Style) -> None:
    """The symbol of legend entry ``e`` centred on ``(x, y)``."""
    if e in ("token", "red"):
        draw_token(dwg, x, y, sw * 0.5, 5 if e == "token" else 8, st)
    elif e == "robber":
        draw_robber(dwg, x, y, sw * 0.95, st)
    elif e == "pirate":
        draw_pirate(dwg, x, y, sw * 0.8, st)
    elif e == "hidden":
        draw_swatch(dwg, hex_points(x, y, sw * 0.55), "hidden", st, stroke=st.colour["line"])
        add_text(dwg, tx.get("label.hidden"), x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "oil":
        draw_oil(dwg, x, y, sw * 0.9, st)
    elif e == "harbor":
        add_circle(
            dwg, x, y, sw * 0.45, fill=st.fill["harbor"], stroke=st.colour["ink"], width=st.mm("token_stroke") * 1.6
        )
        add_text(dwg, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "row":
        add_text(dwg, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle", fill=st.colour["muted"])
