"""The board picture of the table sheet (:mod:`setupgen.render.sheet`):
hexes, outline and coast, land labels, tokens, oil springs and the robber,
harbors and their labels, the pirate, and the build list's row numbers.

Where things go comes from the modules beside it: :mod:`.fitting` (hex
size and page positions), :mod:`.numbering` (harbor and row numbers),
:mod:`.labels` (harbor labels and the pirate on free sea); the legend is
:mod:`.legend`. Every length is in mm (the SVG user unit). Coordinates are
written with two decimals (:func:`setupgen.render.page.num`), so the same
board gives the same bytes on any machine. Every label and marker is one
item of the canvas (:mod:`setupgen.render.canvas`); ``docs/sheet.md`` says
what may not overlap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..core.board import Board, Piece, Tile
from ..core.hexgrid import Hex, neighbor
from ..core.templates import MIN_FONT_MM, Style, Texts
from .canvas import Surface
from .fitting import Fit, Segment, board_extent, boundary_segments, frame_halves, sea_areas, tile_points
from .labels import HarborMark, Obstacles, PirateHex, WordSpot, harbor_marks, leader, place_labels
from .numbering import build_rows
from .page import (
    SQRT3,
    add_circle,
    add_path,
    add_rect,
    add_text,
    draw_gift,
    draw_no_start,
    draw_oil,
    draw_path_step,
    draw_pirate,
    draw_player_piece,
    draw_robber,
    draw_token,
    draw_village,
    num,
    poly_d,
    text_width,
)
from .patterns import pattern_of

__all__ = ["draw_board", "draw_swatch", "tile_key", "token_radius", "TOKEN_RATIO", "TOKEN_DROP"]


def draw_board(dwg: Surface, board: Board, fit_: Fit, tx: Texts, st: Style) -> None:
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
    shown = [box for t in board.tiles if t.kind == "land" for box in _draw_land_marks(dwg, board, t, fit_, tx, st)]
    pieces = _draw_pieces(dwg, board, fit_, st)
    shown += pieces
    row_numbers = _draw_row_numbers(dwg, board, fit_, st)
    areas = sea_areas(board, fit_)
    marks = harbor_marks(board, fit_, st, areas)
    _draw_harbor_marks(dwg, marks, st)
    # the pieces stand on the coast and the sea too: taken there like the row numbers (centre, half sizes)
    taken = [*row_numbers, *(((a + c) / 2, (b + d) / 2, (c - a) / 2, (d - b) / 2) for a, b, c, d in pieces)]
    obstacles = Obstacles.from_board(board, fit_, halves, marks, shown, taken)
    pirate = None if board.pirate is None else PirateHex(fit_.at(board.pirate), areas.get(board.pirate))
    placed = place_labels(obstacles, marks, pirate, fit_.s, tx, st)
    if placed.pirate is not None:
        draw_pirate(dwg, placed.pirate[0], placed.pirate[1], placed.pirate[2], st)
    for m, spot in zip(marks, placed.words):
        _draw_words(dwg, m, spot, st)


def tile_key(t: Tile) -> str:
    """The style key of a tile's fill and pattern: its terrain, ``hidden``,
    ``sea`` or ``frame``."""
    if t.kind == "frame":
        return "frame"
    if t.kind == "sea":
        return "sea"
    return "hidden" if t.hidden else str(t.terrain)


def draw_swatch(
    dwg: Surface,
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


def _draw_tiles(dwg: Surface, board: Board, fit_: Fit, halves: dict[Hex, tuple[int, ...]], st: Style) -> None:
    """Every hex (a frame hex as its half ``halves``): one shape per fill
    (class ``hex KEY``, a sub-path per hex, in reading order), then each
    terrain's pattern over all its hexes at once, then the hex edges (sea
    and frame in the sea line colour, frame dashed; land in the line
    colour)."""
    polys: dict[str, list[str]] = {}
    edges: dict[str, list[str]] = {"sea": [], "frame": [], "land": []}
    for t in board.tiles:
        d = poly_d(tile_points(t, fit_, halves.get(t.hex)))
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


def _segments_d(segs: Sequence[Segment]) -> str:
    return " ".join(f"M{num(a[0])},{num(a[1])} L{num(b[0])},{num(b[1])}" for a, b in segs)


def _draw_outline(dwg: Surface, board: Board, fit_: Fit, st: Style, halves: dict[Hex, tuple[int, ...]]) -> None:
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


def _label_box(dwg: Surface, text: str, x: float, base: float, size: float, st: Style, kind: str) -> None:
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
    dwg: Surface, board: Board, t: Tile, fit_: Fit, tx: Texts, st: Style
) -> list[tuple[float, float, float, float]]:
    """Label (or ``?``) above the token, the token, the oil drop left of
    the token (the legend names it), the robber (on a hex without token
    in its middle, else left of the token, right of it on an oil
    spring). Returns the boxes ``(x0, y0, x1, y1)`` (mm) of what it drew."""
    s = fit_.s
    x, y = fit_.at(t.hex)
    number = board.table_number(t)
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
    if number is None:
        base = max(base, y - min(v_max, s / 2) + size * LABEL_ASCENT)
    elif base < highest:
        drop = max(0.0, min(highest - base, y + s - r / (SQRT3 / 2) - 0.3 - ty))
        ty, base = ty + drop, base + drop
    _label_box(dwg, label, x, base, size, st, "label")
    half = text_width(label, size, bold=True) / 2 + 0.5
    boxes = [(x - half, base - size * LABEL_ASCENT, x + half, base + size * LABEL_DESCENT)]
    if number is not None:
        draw_token(dwg, x, ty, r, number, st)
        boxes.append((x - r, ty - r, x + r, ty + r))
    if t.oil_spring:
        dwg.begin("oil")
        draw_oil(dwg, x - s * 0.62, ty, s * 0.42, st)
        dwg.end()
        boxes.append((x - s * 0.62 - s * 0.13, ty - s * 0.21, x - s * 0.62 + s * 0.13, ty + s * 0.21))
    if board.robber == t.hex:
        h, rx, ry = s * 0.42, x + (s * 0.62 if t.oil_spring else -s * 0.62), ty
        if number is None:  # in the middle, below the label
            bottom = ty + s * 0.35
            h = min(s * 0.7, bottom - (base + size * LABEL_DESCENT + 0.4))
            rx, ry = x, bottom - h / 2
        draw_robber(dwg, rx, ry, h, st)
        boxes.append((rx - h * 0.3, ry - h / 2, rx + h * 0.3, ry + h / 2))
    return boxes


def _draw_pieces(dwg: Surface, board: Board, fit_: Fit, st: Style) -> list[tuple[float, float, float, float]]:
    """The scenario's pieces where they stand (docs/sheet.md): on an
    intersection a village (a house with its number, as tall as a token is
    wide), a no-start mark (half as wide) or a player set's settlement,
    fortress or lone-settlement spot (three quarters as tall); at the middle
    of an edge a gift (``vp``, ``card``) or a set's ship (two thirds as
    tall); a step of the pirate fleet's path in its sea hex, below the
    centre (none for step 1 under the pirate, which marks it). Returns
    their boxes (mm)."""
    s = fit_.s
    h = 2 * token_radius(s) * 0.95
    boxes = []
    for p in board.pieces:
        if p.kind == "path" and p.order == 1 and p.hex == board.pirate:
            continue  # the pirate itself marks the path's start
        x, y = _drawn_point(p, board, fit_)
        if p.kind == "village":
            draw_village(dwg, x, y, h, p.number, st)
            half_w, half_h = h * 0.45, h / 2
        elif p.kind == "no-start":
            draw_no_start(dwg, x, y, h * 0.5, st)
            half_w = half_h = h * 0.25
        elif p.kind in ("vp", "card"):
            draw_gift(dwg, p.kind, x, y, h * 0.56, st)
            half_w = half_h = h * 0.28
        elif p.kind == "path":
            size = max(MIN_FONT_MM, s * 0.26)
            y = _path_step_y(p, board, fit_, y)
            draw_path_step(dwg, x, y, size, p.order or 0, st)
            half_w, half_h = size * 1.2, size * 0.7
        else:  # a player set's settlement, lone-settlement spot, fortress or ship: a ship at its edge's middle
            g = h * (0.5 if p.kind == "ship" else 0.6)  # small enough that a ship and its settlement keep apart
            draw_player_piece(dwg, p.kind, x, y, g, p.player or 0, st)
            half_w, half_h = g * 0.5, g / 2
        pad = PIECE_PAD  # the outline's stroke, outside the shape
        boxes.append((x - half_w - pad, y - half_h - pad, x + half_w + pad, y + half_h + pad))
    return boxes


#: room (mm) round a piece's shape that its box keeps for the outline's stroke
PIECE_PAD = 0.3


def _path_step_y(p: Piece, board: Board, fit_: Fit, y: float) -> float:
    """Where a path step's box goes in its sea hex centred at height ``y``
    (mm): half a hex below the centre, or above it when another piece
    stands nearer than that to the spot below (a ship on the hex's edge)."""
    below = (fit_.at(p.hex)[0], y + fit_.s * 0.5)
    for other in board.pieces:
        if other is not p and other.kind != "path":
            ox, oy = _drawn_point(other, board, fit_)
            if math.hypot(ox - below[0], oy - below[1]) < fit_.s * 0.6:
                return y - fit_.s * 0.5
    return below[1]


#: the pieces drawn off their edge, a share of the hex size towards the sea hex beside it: clear of the
#: land hex's label and token (a gift) and of the settlement at the edge's end (a ship)
OFF_EDGE = {"vp": 0.25, "card": 0.25, "ship": 0.3}


def _drawn_point(p: Piece, board: Board, fit_: Fit) -> tuple[float, float]:
    """Where piece ``p`` is drawn (mm): :func:`_piece_point`, moved off its
    edge towards the sea (:data:`OFF_EDGE`); a gift on a land hex's lower
    edge (facing south-west or south-east) instead a little into that hex,
    whose lower half holds no label (the sea below is left to harbor
    words)."""
    x, y = _piece_point(p, fit_)
    if p.kind in ("vp", "card") and p.facing in (4, 5):
        t = board.tile(p.hex)
        if t is not None and t.kind == "land":
            cx, cy = fit_.at(p.hex)
            return x + (cx - x) * 0.15, y + (cy - y) * 0.15
    if p.kind in OFF_EDGE:
        return _towards_sea(p, board, fit_, x, y, OFF_EDGE[p.kind])
    return x, y


def _towards_sea(p: Piece, board: Board, fit_: Fit, x: float, y: float, share: float) -> tuple[float, float]:
    """A point ``share`` of the hex size from ``(x, y)`` (mm) towards the
    centre of the sea hex beside edge piece ``p`` (``(x, y)`` itself when
    neither side is sea)."""
    for h in sorted(p.spot):
        t = board.tile(h)
        if t is not None and t.kind == "sea":
            sx, sy = fit_.at(h)
            d = math.hypot(sx - x, sy - y) or 1.0
            return x + (sx - x) / d * fit_.s * share, y + (sy - y) / d * fit_.s * share
    return x, y


def _piece_point(p: Piece, fit_: Fit) -> tuple[float, float]:
    """Where a piece is drawn (mm): its intersection's corner point, its
    edge's middle, or its hex's centre."""
    cx, cy = fit_.at(p.hex)
    if p.corner is not None:
        angle = math.radians(30 + 60 * p.corner)
        return cx + fit_.s * math.cos(angle), cy - fit_.s * math.sin(angle)
    if p.facing is not None:
        nx, ny = fit_.at(neighbor(p.hex, p.facing))
        return (cx + nx) / 2, (cy + ny) / 2
    return cx, cy


def _draw_row_numbers(dwg: Surface, board: Board, fit_: Fit, st: Style) -> list[tuple[float, float, float, float]]:
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


def _draw_harbor_marks(dwg: Surface, marks: Sequence[HarborMark], st: Style) -> None:
    """Each harbor's piers to the served edge's corners, then each
    numbered marker (item ``harbor``); :func:`draw_board` then draws the
    pirate ship (item ``pirate``) and each harbor's label (item
    ``harbor-words``) where :func:`.labels.place_labels` put them."""
    for m in marks:
        (e1, e2), p = m.pier_ends, m.p
        d = f"M{num(e1[0])},{num(e1[1])} L{num(p[0])},{num(p[1])} L{num(e2[0])},{num(e2[1])}"
        add_path(dwg, d, stroke=st.colour["ink"], width=st.mm("pier"), join="round")
    for m in marks:
        dwg.begin("harbor")
        add_circle(
            dwg, m.p[0], m.p[1], m.r, fill=st.fill["harbor"], stroke=st.colour["ink"], width=st.mm("token_stroke") * 1.6
        )
        size = max(MIN_FONT_MM, min(st.mm("harbor_index"), m.r * 1.2))
        add_text(dwg, str(m.n), m.p[0], m.p[1] + size * 0.36, size, st, bold=True, anchor="middle")
        dwg.end()


def _draw_words(dwg: Surface, m: HarborMark, spot: WordSpot, st: Style) -> None:
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
