"""The board picture, legend and harbor numbering of the table sheet
(:mod:`setupgen.render.sheet`).

Every length is in mm (the SVG user unit). Coordinates are written with
two decimals (:func:`setupgen.render.page.num`), so the same board gives the
same bytes on any machine. Shapely picks free spots for harbor words
(boolean and area tests on fixed candidates, rounded, so the choice is
stable).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..core import hexgrid
from ..core.board import Board, Harbor, Tile
from ..core.errors import SetupgenError
from ..core.hexgrid import Hex
from ..core.rules import LAND_TERRAINS, RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style, Texts
from .page import (
    CORNERS, SQRT3, add_circle, add_path, add_rect, add_text, draw_oil, draw_pirate, draw_robber,
    draw_token, fit, hex_points, num, poly_d, text_width, wrap,
)

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


def land_rows(board: Board) -> list[list[Tile]]:
    """Rows of the build list, top to bottom: for each row holding land, the
    hexes from its first to its last land hex (sea between them included),
    left to right."""
    by_row: dict[int, list[Tile]] = {}
    for t in board.tiles:
        by_row.setdefault(t.hex[1], []).append(t)
    out = []
    for r in sorted(by_row):
        row = sorted(by_row[r], key=lambda t: t.hex[0])
        idx = [i for i, t in enumerate(row) if t.kind == "land"]
        if idx:
            out.append(row[idx[0]: idx[-1] + 1])
    return out


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
    size-1 point ``(0, 0)`` (``ox``, ``oy``), and the leftmost x (mm) the
    row numbers may use."""

    s: float
    ox: float
    oy: float
    min_x: float = 0.0

    def at(self, h: Hex) -> tuple[float, float]:
        """Page position (mm) of the centre of hex ``h``."""
        cx, cy = hexgrid.center(h)
        return (self.ox + cx * self.s, self.oy + cy * self.s)


ROW_LABEL_W = 7.0  # mm left of the board for row numbers
PAD = 3.0  # mm around the board for harbor words


#: corners (see :data:`setupgen.render.page.CORNERS`) of the half of a frame
#: hex that lies inside the board, split by the vertical line through the
#: hex centre: the right half (a frame hex at the left end of a row) and
#: the left half (at the right end)
RIGHT_HALF = (1, 0, 5, 4)
LEFT_HALF = (1, 2, 3, 4)


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


def board_extent(board: Board) -> tuple[float, float, float, float]:
    """Bounds ``(minx, miny, maxx, maxy)`` of the board at hex size 1 (a
    frame hex counts with its half inside the board only)."""
    cs = [hexgrid.center(t.hex) for t in board.tiles]
    if not cs:
        raise SetupgenError("the board has no hexes to draw")
    halves = frame_halves(board)
    if not halves:
        return (min(c[0] for c in cs) - SQRT3 / 2, min(c[1] for c in cs) - 1.0,
                max(c[0] for c in cs) + SQRT3 / 2, max(c[1] for c in cs) + 1.0)
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
    return Fit(s, left - x0 * s, top - y0 * s, box.x)


def draw_board(dwg: Any, parent: Any, board: Board, fit_: Fit, tx: Texts, st: Style) -> None:
    """The board picture: sea and frame (a frame hex as its half inside the
    board's rectangle), land hexes with label and token, the outline
    (straight along the frame's cut) and coastline, harbors, robber,
    pirate, oil springs and row numbers."""
    s = fit_.s
    g = dwg.g()
    parent.add(g)
    halves = frame_halves(board)
    for t in board.tiles:
        if t.kind != "land":
            _draw_water(dwg, g, t, fit_, st, halves.get(t.hex))
    for t in board.tiles:
        if t.kind == "land":
            add_path(dwg, g, poly_d(hex_points(*fit_.at(t.hex), s)), fill=_fill(t, st),
                     stroke=st.colour["line"], width=st.mm("hex_stroke"), join="round")
    _draw_outline(dwg, g, board, fit_, st, halves)
    for t in board.tiles:
        if t.kind == "land":
            _draw_land_marks(dwg, g, board, t, fit_, tx, st)
    words, ship = _draw_harbors(dwg, g, board, fit_, tx, st)
    if ship is not None:
        draw_pirate(dwg, g, *ship, st)
    _draw_row_numbers(dwg, g, board, fit_, words, st)


def _fill(t: Tile, st: Style) -> str:
    if t.hidden:
        return st.fill["hidden"]
    return st.fill[t.terrain]


def _draw_water(dwg: Any, g: Any, t: Tile, fit_: Fit, st: Style, half: tuple[int, ...] | None = None) -> None:
    """A sea hex, or a frame hex (dashed, frame fill): only the corners
    ``half`` of it when given."""
    fill = st.fill["frame"] if t.kind == "frame" else st.fill["sea"]
    dash = "1.00,0.80" if t.kind == "frame" else None
    pts = hex_points(*fit_.at(t.hex), fit_.s)
    if half is not None:
        pts = [pts[i] for i in half]
    add_path(dwg, g, poly_d(pts), fill=fill,
             stroke=st.colour["sea_line"], width=st.mm("hex_stroke"), dash=dash, join="round")


def _segment(x: float, y: float, s: float, i: int, j: int) -> str:
    a, b = CORNERS[i], CORNERS[j]
    return f"M{num(x + a[0] * s)},{num(y + a[1] * s)} L{num(x + b[0] * s)},{num(y + b[1] * s)}"


def _boundary(hexes: frozenset[Hex], fit_: Fit, halves: dict[Hex, tuple[int, ...]] | None = None) -> str:
    """Path data of every edge of ``hexes`` that borders a hex outside the
    set (reading order of hexes, then direction). A hex in ``halves`` is
    only the half with those corners: its kept edges, then its straight
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
            segs.append(_segment(x, y, fit_.s, (d - 1) % 6, d))
        if half is not None:
            segs.append(_segment(x, y, fit_.s, 1, 4))
    return " ".join(segs)


def _draw_outline(dwg: Any, g: Any, board: Board, fit_: Fit, st: Style,
                  halves: dict[Hex, tuple[int, ...]] | None = None) -> None:
    """The board's outer boundary (heavy; along the straight cut of frame
    half hexes, so a framed board is a rectangle left and right) and the
    coastline of the land."""
    everything = frozenset(t.hex for t in board.tiles)
    add_path(dwg, g, _boundary(everything, fit_, halves), stroke=st.colour["ink"], width=st.mm("frame_stroke"))
    land = frozenset(t.hex for t in board.tiles if t.kind == "land")
    if land:
        add_path(dwg, g, _boundary(land, fit_), stroke=st.colour["ink"], width=st.mm("coast_stroke"))


def token_radius(s: float) -> float:
    """Number token radius (mm) on a hex of size ``s`` mm (never so small
    that an 8 pt number and its pips no longer fit)."""
    return max(s * 0.36, 2.3)


def _draw_land_marks(dwg: Any, g: Any, board: Board, t: Tile, fit_: Fit, tx: Texts, st: Style) -> None:
    """Label (or ``?``) just above the token, the token, oil drop, robber."""
    s = fit_.s
    x, y = fit_.at(t.hex)
    r = token_radius(s)
    ty = y + s * 0.15
    base = ty - r - max(0.5, s * 0.08)
    if t.hidden:
        size = max(MIN_FONT_MM, min(st.mm("hidden_label"), s * 0.5))
        add_text(dwg, g, tx.get("label.hidden"), x, base, size, st, bold=True, anchor="middle")
    else:
        size = max(MIN_FONT_MM, min(st.mm("hex_label") * 1.25, s * 0.31))
        add_text(dwg, g, tx.get(f"label.{t.terrain}"), x, base, size, st, bold=True, anchor="middle")
    if t.number is not None:
        draw_token(dwg, g, x, ty, r, t.number, st)
    if t.oil_spring:
        draw_oil(dwg, g, x + s * 0.6, ty, s * 0.4, st)
        # a word too, so the mark survives any printer (between token and the hex's lower corner)
        add_text(dwg, g, tx.get("label.oil"), x, ty + r + MIN_FONT_MM * 1.05, MIN_FONT_MM, st, bold=True,
                 anchor="middle")
    if board.robber == t.hex:
        if t.number is None:
            draw_robber(dwg, g, x, ty + s * 0.05, s * 0.7, st)
        else:
            draw_robber(dwg, g, x - s * 0.58, ty, s * 0.5, st)


def _draw_harbors(dwg: Any, g: Any, board: Board, fit_: Fit, tx: Texts, st: Style
                  ) -> tuple[list[tuple[float, float, float, float]], tuple[float, float, float] | None]:
    """Harbors: piers to the served edge's corners, a numbered marker, and
    the ratio and resource word; returns the boxes ``(x0, y0, x1, y1)`` mm
    of the words and where the pirate ship goes (``(x, y, height)`` mm,
    None without a pirate): clear of the piers and markers when the
    pirate's sea hex holds a harbor, and the words keep clear of it."""
    from shapely.geometry import Point, Polygon, box as sbox
    from shapely.ops import unary_union

    s = fit_.s
    land = [Polygon(hex_points(*fit_.at(t.hex), s)) for t in board.tiles if t.kind == "land"]
    blocked = [unary_union(land)] if land else []
    r = max(s * 0.24, MIN_FONT_MM * 0.8)
    marks = []
    for n, h in enumerate(harbor_order(board), start=1):
        cx, cy = fit_.at(h.hex)
        a, b = CORNERS[(h.facing - 1) % 6], CORNERS[h.facing]
        e1 = (cx + a[0] * s, cy + a[1] * s)
        e2 = (cx + b[0] * s, cy + b[1] * s)
        mx, my = (e1[0] + e2[0]) / 2, (e1[1] + e2[1]) / 2
        p = (cx + (mx - cx) * 0.45, cy + (my - cy) * 0.45)
        marks.append((n, h, (cx, cy), (mx, my), p, e1, e2))
        blocked.append(Polygon([e1, p, e2]).buffer(0.6))
        blocked.append(Point(p).buffer(r + 0.4))
    ship = None
    if board.pirate is not None:
        x, y = fit_.at(board.pirate)
        if any(h.hex == board.pirate for h in board.harbors):
            here = [(h, c, m) for _, h, c, m, _, _, _ in marks if h.hex == board.pirate]
            ship = _pirate_spot(x, y, s, blocked, here, tx, st)
            blocked.append(_ship_box(*ship))
        else:
            ship = (x, y + s * 0.05, s * 0.8)
            blocked.append(sbox(x - s * 0.45, y - s * 0.4, x + s * 0.45, y + s * 0.45))
    for _, _, _, _, p, e1, e2 in marks:
        d = f"M{num(e1[0])},{num(e1[1])} L{num(p[0])},{num(p[1])} L{num(e2[0])},{num(e2[1])}"
        add_path(dwg, g, d, stroke=st.colour["ink"], width=st.mm("pier"), join="round")
    for n, h, c, m, p, _, _ in marks:
        add_circle(dwg, g, p[0], p[1], r, fill=st.fill["harbor"], stroke=st.colour["ink"],
                   width=st.mm("token_stroke") * 1.6)
        size = max(MIN_FONT_MM, min(st.mm("harbor_index"), r * 1.2))
        add_text(dwg, g, str(n), p[0], p[1] + size * 0.36, size, st, bold=True, anchor="middle")
    return [_harbor_label(dwg, g, h, c, m, s, blocked, tx, st) for _, h, c, m, _, _, _ in marks], ship


#: candidate spots of the pirate ship on a sea hex holding a harbor:
#: ``(k, distance from the centre)`` in hex sizes, towards corner ``k`` of
#: :data:`CORNERS` (``k`` < 6) or the middle of edge ``k - 6`` (between
#: corners ``k - 6`` and ``k - 5``), the centre first; ship heights tried
#: at each spot, in hex sizes, largest first
_SHIP_SPOTS = ((None, 0.0),) + tuple((k, r) for r in (0.3, 0.45) for k in range(12))
_SHIP_HEIGHTS = (0.8, 0.7, 0.6, 0.5)


def _ship_box(x: float, y: float, h: float) -> Any:
    """The box (shapely) a pirate ship ``h`` mm tall centred on ``(x, y)`` covers, with a margin."""
    from shapely.geometry import box as sbox

    return sbox(x - h * 0.58, y - h * 0.53, x + h * 0.58, y + h * 0.53)


def _pirate_spot(x: float, y: float, s: float, blocked: list, here: list, tx: Texts,
                 st: Style) -> tuple[float, float, float]:
    """``(x, y, height)`` mm of the pirate ship on its sea hex centred at
    ``(x, y)`` when that hex holds the harbors ``here`` (``(harbor, hex
    centre, edge middle)``): of fixed candidate spots and sizes, the one
    overlapping least with what is drawn (land, piers, harbor markers),
    then sticking out of the hex least, then leaving the best spot for the
    harbors' words (:func:`_label_spot`), then the largest ship nearest the
    centre. Areas are rounded, so the choice is stable."""
    from shapely.geometry import Polygon, box as sbox

    own = Polygon(hex_points(x, y, s))
    near = sbox(x - s * 2.2, y - s * 2.2, x + s * 2.2, y + s * 2.2)
    local = [b for b in blocked if b.intersects(near)]
    best = None
    for k, r in _SHIP_SPOTS:
        if k is None:
            dx, dy = 0.0, 0.05
        elif k < 6:
            dx, dy = CORNERS[k][0] * r, CORNERS[k][1] * r
        else:
            a, b = CORNERS[k - 6], CORNERS[(k - 5) % 6]
            dx, dy = (a[0] + b[0]) * r / SQRT3, (a[1] + b[1]) * r / SQRT3
        cx, cy = x + dx * s, y + dy * s
        for hf in _SHIP_HEIGHTS:
            rect = _ship_box(cx, cy, s * hf)
            clash = round(sum(b.intersection(rect).area for b in local), 2)
            outside = round(rect.difference(own).area, 2)
            if best is not None and (clash, outside) > best[0][:2]:
                continue
            words = (0.0, 0.0)
            for h, c, m in here:
                sc = _label_spot(h, c, m, s, local + [rect], tx, st)[0]
                words = (round(words[0] + sc[0], 2), round(words[1] + sc[1], 2))
            score = (clash, outside) + words + (-hf, r)
            if best is None or score < best[0]:
                best = (score, cx, cy, s * hf)
    assert best is not None  # _SHIP_SPOTS is not empty
    _, cx, cy, h = best
    return cx, cy, h


#: candidate spots for a harbor's words: (distance back from the served
#: edge, sideways offset), in hex sizes from the sea hex centre
_LABEL_SPOTS = ((0.25, 0.0), (0.4, 0.0), (0.1, 0.0), (0.25, 0.35), (0.25, -0.35),
                (0.55, 0.0), (0.7, 0.0), (0.45, 0.45), (0.45, -0.45), (0.85, 0.0),
                (0.85, 0.4), (0.85, -0.4), (1.05, 0.0))


def _label_lines(h: Harbor, tx: Texts, st: Style) -> tuple[list[str], float, float, float]:
    """``(lines, font size, width, line height)`` (mm) of a harbor's words."""
    ratio, word = harbor_words(h.type, tx)
    size = max(MIN_FONT_MM, st.mm("harbor_text"))
    lines = [ratio] + ([word] if word else [])
    return lines, size, max(text_width(x, size, bold=True) for x in lines), size * 1.15


def _label_spot(h: Harbor, c: tuple[float, float], m: tuple[float, float], s: float, blocked: list,
                tx: Texts, st: Style) -> tuple[tuple[float, float], float, float, Any]:
    """``(score, x, y, box)``: the centre (mm) of a harbor's words at the
    candidate spot overlapping least with ``blocked``, then sticking out of
    its own hex least; ``score`` is ``(overlap, outside)`` in mm²."""
    from shapely.geometry import Polygon, box as sbox

    lines, size, w, lh = _label_lines(h, tx, st)
    th = lh * len(lines)
    own = Polygon(hex_points(c[0], c[1], s))
    ux, uy = (m[0] - c[0]) / (s * SQRT3 / 2), (m[1] - c[1]) / (s * SQRT3 / 2)
    best = None
    for k, side in _LABEL_SPOTS:
        x = c[0] - ux * s * k - uy * s * side
        y = c[1] - uy * s * k + ux * s * side
        rect = sbox(x - w / 2 - 0.3, y - th / 2 - 0.3, x + w / 2 + 0.3, y + th / 2 + 0.3)
        clash = round(sum(b.intersection(rect).area for b in blocked), 2)
        outside = round(rect.difference(own).area, 2)
        score = (clash, outside)
        if best is None or score < best[0]:
            best = (score, x, y, rect)
    assert best is not None  # _LABEL_SPOTS is not empty
    return best


def _harbor_label(dwg: Any, g: Any, h: Harbor, c: tuple[float, float], m: tuple[float, float],
                  s: float, blocked: list, tx: Texts, st: Style) -> tuple[float, float, float, float]:
    """Ratio and resource word on the harbor's sea hex, away from its edge:
    the candidate spot overlapping least with what is drawn (land, piers,
    markers, other words), then sticking out of its own hex least. Returns
    the box of the words (mm)."""
    lines, size, w, lh = _label_lines(h, tx, st)
    th = lh * len(lines)
    _, x, y, rect = _label_spot(h, c, m, s, blocked, tx, st)
    blocked.append(rect)
    top = y - th / 2
    add_rect(dwg, g, x - w / 2 - 0.4, top - 0.1, w + 0.8, th + 0.4, fill=st.fill["harbor"], rx=0.6)
    for i, line in enumerate(lines):
        add_text(dwg, g, line, x, top + lh * i + size * 0.85, size, st, bold=(i == 0), anchor="middle")
    return rect.bounds


def _draw_row_numbers(dwg: Any, g: Any, board: Board, fit_: Fit,
                      avoid: Sequence[tuple[float, float, float, float]], st: Style) -> None:
    """Row numbers of the build list in one right-aligned column left of the
    board, moved further left (not past ``fit_.min_x``) to clear any box in
    ``avoid`` (harbor words) reaching into it."""
    size = max(MIN_FONT_MM, st.mm("row_label"))
    rows = land_rows(board)
    ys = [fit_.at(row[0].hex)[1] for row in rows]
    x = fit_.ox + board_extent(board)[0] * fit_.s - 1.5
    for x0, y0, x1, y1 in avoid:
        if x0 < x + 0.5 and any(y0 < y + size * 0.5 and y - size * 0.5 < y1 for y in ys):
            x = min(x, x0 - 1.0)
    x = max(x, fit_.min_x + text_width(str(len(rows)), size, bold=True))
    for i, y in enumerate(ys, start=1):
        add_text(dwg, g, str(i), x, y + size * 0.36, size, st, bold=True, anchor="end", fill=st.colour["muted"])


# --------------------------------------------------------------------------
# legend

_LEGEND_KEYS = {"token": "sheet.number_token", "red": "sheet.red_number", "robber": "sheet.robber",
                "robber-off": "sheet.robber_off",
                "pirate": "sheet.pirate", "hidden": "sheet.hidden", "oil": "sheet.oil",
                "harbor": "sheet.harbor", "row": "sheet.row_numbers"}


def legend_entries(board: Board) -> list[str]:
    """What the legend explains, in order: visible land terrains, then
    ``token``, ``red``, ``robber``, ``pirate``, ``hidden``, ``oil``,
    ``harbor``, ``row`` as they occur."""
    visible = {t.terrain for t in board.tiles if t.kind == "land" and not t.hidden}
    out = [t for t in LAND_TERRAINS if t in visible]
    tokens = [t.number for t in board.tiles if t.number is not None]
    if tokens:
        out.append("token")
    if any(n in RED_NUMBERS for n in tokens):
        out.append("red")
    if board.robber is not None:
        out.append("robber")
    elif any(t.kind == "land" for t in board.tiles):
        out.append("robber-off")  # shown beside the board: it starts off it
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
    return size, max(sw + 0.4, size * 1.45), sw, sw * 1.5 + 1.5


def legend_lines(e: str, w: float, tx: Texts, st: Style) -> list[str]:
    """The text lines of one legend entry (a terrain entry is one line)."""
    if e in LAND_TERRAINS:
        return [""]
    size, _, _, indent = legend_geometry(w, st)
    return wrap(tx.get(_LEGEND_KEYS[e]), w - indent, size)


def legend_height(board: Board, w: float, tx: Texts, st: Style) -> float:
    """Height (mm) :func:`draw_legend` needs for ``board`` in width ``w``."""
    size, lh, _, _ = legend_geometry(w, st)
    return sum(lh + (len(legend_lines(e, w, tx, st)) - 1) * size * 1.2 for e in legend_entries(board))


def draw_legend(dwg: Any, parent: Any, entries: Sequence[str], x: float, y: float, w: float,
                tx: Texts, st: Style) -> float:
    """The legend at top-left ``(x, y)`` in a column ``w`` mm wide; returns
    the y (mm) below it."""
    size, lh, sw, indent = legend_geometry(w, st)
    sx, tx_ = x + sw * 0.75, x + indent
    for e in entries:
        cy = y + lh / 2
        base = cy + size * 0.36
        if e in LAND_TERRAINS:
            add_path(dwg, parent, poly_d(hex_points(sx, cy, sw * 0.62)), fill=st.fill[e],
                     stroke=st.colour["line"], width=st.mm("hex_stroke"))
            label = tx.get(f"label.{e}")
            add_text(dwg, parent, label, tx_, base, size, st, bold=True)
            lw = text_width(label + " ", size, bold=True)
            word, size2 = fit(tx.get(f"terrain.{e}"), w - indent - lw, size)
            add_text(dwg, parent, word, tx_ + lw, base, size2, st)
            y += lh
            continue
        _legend_symbol(dwg, parent, e, sx, cy, sw, size, tx, st)
        lines = legend_lines(e, w, tx, st)
        for i, line in enumerate(lines):
            add_text(dwg, parent, line, tx_, base + i * size * 1.2, size, st)
        y += lh + (len(lines) - 1) * size * 1.2
    return y


def _legend_symbol(dwg: Any, parent: Any, e: str, x: float, y: float, sw: float, size: float,
                   tx: Texts, st: Style) -> None:
    """The symbol of legend entry ``e`` centred on ``(x, y)``."""
    if e in ("token", "red"):
        draw_token(dwg, parent, x, y, sw * 0.55, 5 if e == "token" else 8, st)
    elif e in ("robber", "robber-off"):
        draw_robber(dwg, parent, x, y, sw * 0.95, st)
    elif e == "pirate":
        draw_pirate(dwg, parent, x, y, sw * 0.95, st)
    elif e == "hidden":
        add_path(dwg, parent, poly_d(hex_points(x, y, sw * 0.62)), fill=st.fill["hidden"],
                 stroke=st.colour["line"], width=st.mm("hex_stroke"))
        add_text(dwg, parent, tx.get("label.hidden"), x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "oil":
        draw_oil(dwg, parent, x, y, sw * 0.9, st)
    elif e == "harbor":
        add_circle(dwg, parent, x, y, sw * 0.45, fill=st.fill["harbor"], stroke=st.colour["ink"],
                   width=st.mm("token_stroke") * 1.6)
        add_text(dwg, parent, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "row":
        add_text(dwg, parent, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle",
                 fill=st.colour["muted"])
