"""Drawing helpers for the table sheet (:mod:`setupgen.sheet`): text metrics
and SVG primitives, the board picture, the legend and harbor numbering.

Every length is in mm (the SVG user unit). Coordinates are written with
two decimals by :func:`num`, so the same board gives the same bytes on any
machine; geometry uses only ``+ - * /`` and ``sqrt`` (no libm trigonometry).
Shapely picks free spots for harbor words (boolean tests on fixed
candidates, so the choice is stable).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from . import hexgrid
from .board import Board, Harbor, Tile
from .hexgrid import Hex
from .layout import Layout
from .rules import PIPS, RED_NUMBERS
from .templates import MIN_FONT_MM, Style, Texts

SQRT3 = math.sqrt(3.0)
#: corner offsets of a pointy-top hex of size 1, corner 0 first (as
#: :func:`setupgen.hexgrid.corner_point`, without trigonometry)
CORNERS: tuple[tuple[float, float], ...] = (
    (SQRT3 / 2, -0.5), (0.0, -1.0), (-SQRT3 / 2, -0.5),
    (-SQRT3 / 2, 0.5), (0.0, 1.0), (SQRT3 / 2, 0.5),
)
LAND_ORDER = ("forest", "pasture", "fields", "hills", "mountains", "desert", "gold")

# --------------------------------------------------------------------------
# numbers and text metrics

_CHARS = "".join(chr(c) for c in range(32, 127)) + "äöüÄÖÜß·–—…×→"
# advance widths of DejaVu Sans / DejaVu Sans Bold in 1/1000 em, per _CHARS
_W_REGULAR = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 "
    "636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 "
    "557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 "
    "635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 "
    "592 592 525 636 337 636 838 613 612 634 684 787 732 630 318 500 1000 1000 838 838")
_W_BOLD = (
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 "
    "696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 "
    "637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 "
    "716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 "
    "645 652 582 712 365 712 838 675 687 712 774 850 812 719 380 500 1000 1000 838 838")
_WIDTHS: dict[bool, dict[str, int]] = {}


def num(x: float) -> str:
    """A coordinate or length as text with two decimals (never ``-0.00``)."""
    s = f"{x:.2f}"
    return "0.00" if s == "-0.00" else s


def text_width(text: str, size: float, *, bold: bool = False, mono: bool = False) -> float:
    """Width in mm of ``text`` at font size ``size`` mm in DejaVu Sans (bold)
    or DejaVu Sans Mono; unknown characters count as wide ones."""
    if mono:
        return 0.602 * size * len(text)
    table = _WIDTHS.get(bold)
    if table is None:
        raw = _W_BOLD if bold else _W_REGULAR
        table = _WIDTHS[bold] = dict(zip(_CHARS, (int(v) for v in raw.split())))
    return sum(table.get(c, 1000) for c in text) * size / 1000.0


def fit(text: str, width: float, size: float, *, bold: bool = False, mono: bool = False) -> tuple[str, float]:
    """``(text, size)`` fitting ``width`` mm: the size shrinks down to 8 pt,
    then the text is cut and ends with ``…``."""
    if text_width(text, size, bold=bold, mono=mono) <= width:
        return text, size
    size2 = max(MIN_FONT_MM, size * width / text_width(text, size, bold=bold, mono=mono))
    if text_width(text, size2, bold=bold, mono=mono) <= width:
        return text, size2
    cut = text
    while cut and text_width(cut + "…", size2, bold=bold, mono=mono) > width:
        cut = cut[:-1]
    return cut + "…", size2


def wrap(text: str, width: float, size: float, *, bold: bool = False) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` mm (a
    single over-long word stays whole on its line)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        cand = f"{line} {word}" if line else word
        if line and text_width(cand, size, bold=bold) > width:
            lines.append(line)
            line = word
        else:
            line = cand
    if line:
        lines.append(line)
    return lines


# --------------------------------------------------------------------------
# SVG primitives (parent: an svgwrite container; dwg: the Drawing)

def add_text(dwg: Any, parent: Any, text: str, x: float, y: float, size: float, st: Style, *,
             bold: bool = False, anchor: str = "start", fill: str | None = None,
             mono: bool = False) -> None:
    """A text at baseline ``(x, y)`` mm, size ``size`` mm (at least 8 pt)."""
    attrs = {
        "font-size": num(max(size, MIN_FONT_MM)),
        "font-family": st.mono if mono else st.font,
        "fill": fill or st.colour["ink"],
    }
    if bold:
        attrs["font-weight"] = "bold"
    if anchor != "start":
        attrs["text-anchor"] = anchor
    el = dwg.text(text, insert=(num(x), num(y)))
    el.attribs.update(attrs)
    parent.add(el)


def add_path(dwg: Any, parent: Any, d: str, *, fill: str = "none", stroke: str | None = None,
             width: float = 0.0, dash: str | None = None, join: str | None = None) -> None:
    """A path with outline ``d`` (already formatted)."""
    el = dwg.path(d=d)
    el.attribs["fill"] = fill
    if stroke is not None:
        el.attribs["stroke"] = stroke
        el.attribs["stroke-width"] = num(width)
    if dash:
        el.attribs["stroke-dasharray"] = dash
    if join:
        el.attribs["stroke-linejoin"] = join
    parent.add(el)


def add_circle(dwg: Any, parent: Any, x: float, y: float, r: float, *, fill: str,
               stroke: str | None = None, width: float = 0.0) -> None:
    """A disc of radius ``r`` mm at ``(x, y)``."""
    el = dwg.circle(center=(num(x), num(y)), r=num(r))
    el.attribs["fill"] = fill
    if stroke is not None:
        el.attribs["stroke"] = stroke
        el.attribs["stroke-width"] = num(width)
    parent.add(el)


def add_rect(dwg: Any, parent: Any, x: float, y: float, w: float, h: float, *, fill: str = "none",
             stroke: str | None = None, width: float = 0.0, rx: float = 0.0) -> None:
    """A rectangle, top-left ``(x, y)``, size ``w`` x ``h`` mm, corner
    radius ``rx`` mm."""
    el = dwg.rect(insert=(num(x), num(y)), size=(num(w), num(h)))
    if rx:
        el.attribs["rx"] = num(rx)
    el.attribs["fill"] = fill
    if stroke is not None:
        el.attribs["stroke"] = stroke
        el.attribs["stroke-width"] = num(width)
    parent.add(el)


def poly_d(points: Iterable[tuple[float, float]], close: bool = True) -> str:
    """Path data through ``points``."""
    pts = [f"{num(x)},{num(y)}" for x, y in points]
    return "M" + " L".join(pts) + (" Z" if close else "")


def hex_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top hex of size ``s`` mm centred at ``(cx, cy)``."""
    return [(cx + dx * s, cy + dy * s) for dx, dy in CORNERS]


# --------------------------------------------------------------------------
# symbols (robber, pirate, oil drop, number token)

def draw_robber(dwg: Any, parent: Any, x: float, y: float, h: float, st: Style) -> None:
    """A robber pawn ``h`` mm tall, centred on ``(x, y)``."""
    c = st.colour["robber"]
    top = y - h / 2
    r = h * 0.2
    add_circle(dwg, parent, x, top + r, r, fill=c, stroke="#ffffff", width=0.2)
    w = h * 0.3
    body = [(x - w * 0.45, top + 2 * r), (x + w * 0.45, top + 2 * r), (x + w, y + h / 2), (x - w, y + h / 2)]
    add_path(dwg, parent, poly_d(body), fill=c, stroke="#ffffff", width=0.2, join="round")


def draw_pirate(dwg: Any, parent: Any, x: float, y: float, h: float, st: Style) -> None:
    """A pirate ship ``h`` mm tall, centred on ``(x, y)``."""
    c = st.colour["ink"]
    hull = [(x - h * 0.55, y + h * 0.15), (x + h * 0.55, y + h * 0.15), (x + h * 0.35, y + h * 0.5), (x - h * 0.35, y + h * 0.5)]
    add_path(dwg, parent, poly_d(hull), fill=c)
    sail = [(x - h * 0.05, y - h * 0.5), (x - h * 0.05, y + h * 0.08), (x - h * 0.45, y + h * 0.08)]
    add_path(dwg, parent, poly_d(sail), fill=c)
    sail2 = [(x + h * 0.05, y - h * 0.4), (x + h * 0.05, y + h * 0.08), (x + h * 0.4, y + h * 0.08)]
    add_path(dwg, parent, poly_d(sail2), fill=c)


def draw_oil(dwg: Any, parent: Any, x: float, y: float, h: float, st: Style) -> None:
    """An oil drop ``h`` mm tall, centred on ``(x, y)``."""
    r = h * 0.3
    cy = y + h / 2 - r
    d = (f"M{num(x)},{num(y - h / 2)} L{num(x + r * 0.95)},{num(cy - r * 0.3)} "
         f"A{num(r)},{num(r)} 0 1 1 {num(x - r * 0.95)},{num(cy - r * 0.3)} Z")
    add_path(dwg, parent, d, fill=st.colour["oil"], stroke="#ffffff", width=0.2)


def draw_token(dwg: Any, parent: Any, x: float, y: float, r: float, number: int, st: Style) -> None:
    """A number token: disc of radius ``r`` mm, the number, and its pips;
    6 and 8 red, bold and with a thicker ring."""
    red = number in RED_NUMBERS
    ink = st.colour["red"] if red else st.colour["ink"]
    ring = st.mm("red_ring") if red else st.mm("token_stroke")
    add_circle(dwg, parent, x, y, r, fill=st.fill["token"], stroke=ink, width=ring)
    size = max(MIN_FONT_MM, r * (1.22 if red else 1.12))
    add_text(dwg, parent, str(number), x, y + size * 0.3, size, st, bold=red, anchor="middle", fill=ink)
    pips = PIPS[number]
    pr = max(0.22, r * 0.09)
    step = pr * 2.6
    x0 = x - step * (pips - 1) / 2
    py = y + r * 0.62
    for i in range(pips):
        add_circle(dwg, parent, x0 + i * step, py, pr, fill=ink)


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
    """Where the board goes: hex size ``s`` mm and the page position of the
    size-1 point ``(0, 0)`` (``ox``, ``oy``)."""

    s: float
    ox: float
    oy: float

    def at(self, h: Hex) -> tuple[float, float]:
        """Page position (mm) of the centre of hex ``h``."""
        cx, cy = hexgrid.center(h)
        return (self.ox + cx * self.s, self.oy + cy * self.s)


ROW_LABEL_W = 7.0  # mm left of the board for row numbers
PAD = 3.0  # mm around the board for harbor words


def board_extent(board: Board) -> tuple[float, float, float, float]:
    """Bounds ``(minx, miny, maxx, maxy)`` of the board at hex size 1."""
    cs = [hexgrid.center(t.hex) for t in board.tiles]
    return (min(c[0] for c in cs) - SQRT3 / 2, min(c[1] for c in cs) - 1.0,
            max(c[0] for c in cs) + SQRT3 / 2, max(c[1] for c in cs) + 1.0)


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
    return Fit(s, left - x0 * s, top - y0 * s)


def draw_board(dwg: Any, parent: Any, board: Board, fit_: Fit, tx: Texts, st: Style) -> None:
    """The board picture: sea and frame, land hexes with label and token,
    coastline, harbors, robber, pirate, oil springs and row numbers."""
    s = fit_.s
    g = dwg.g()
    parent.add(g)
    for t in board.tiles:
        if t.kind != "land":
            _draw_water(dwg, g, t, fit_, st)
    for t in board.tiles:
        if t.kind == "land":
            add_path(dwg, g, poly_d(hex_points(*fit_.at(t.hex), s)), fill=_fill(t, st),
                     stroke=st.colour["line"], width=st.mm("hex_stroke"), join="round")
    _draw_outline(dwg, g, board, fit_, st)
    for t in board.tiles:
        if t.kind == "land":
            _draw_land_marks(dwg, g, board, t, fit_, tx, st)
    _draw_harbors(dwg, g, board, fit_, tx, st)
    if board.pirate is not None:
        x, y = fit_.at(board.pirate)
        draw_pirate(dwg, g, x, y + s * 0.05, s * 0.8, st)
    _draw_row_numbers(dwg, g, board, fit_, st)


def _fill(t: Tile, st: Style) -> str:
    if t.hidden:
        return st.fill["hidden"]
    return st.fill[t.terrain]


def _draw_water(dwg: Any, g: Any, t: Tile, fit_: Fit, st: Style) -> None:
    fill = st.fill["frame"] if t.kind == "frame" else st.fill["sea"]
    dash = "1.00,0.80" if t.kind == "frame" else None
    add_path(dwg, g, poly_d(hex_points(*fit_.at(t.hex), fit_.s)), fill=fill,
             stroke=st.colour["sea_line"], width=st.mm("hex_stroke"), dash=dash, join="round")


def _boundary(hexes: frozenset[Hex], fit_: Fit) -> str:
    """Path data of every edge of ``hexes`` that borders a hex outside the
    set (reading order of hexes, then direction)."""
    segs = []
    for h in hexgrid.row_order(hexes):
        x, y = fit_.at(h)
        for d in range(6):
            if hexgrid.neighbor(h, d) in hexes:
                continue
            a, b = CORNERS[(d - 1) % 6], CORNERS[d]
            segs.append(f"M{num(x + a[0] * fit_.s)},{num(y + a[1] * fit_.s)} "
                        f"L{num(x + b[0] * fit_.s)},{num(y + b[1] * fit_.s)}")
    return " ".join(segs)


def _draw_outline(dwg: Any, g: Any, board: Board, fit_: Fit, st: Style) -> None:
    everything = frozenset(t.hex for t in board.tiles)
    add_path(dwg, g, _boundary(everything, fit_), stroke=st.colour["ink"], width=st.mm("frame_stroke"))
    land = frozenset(t.hex for t in board.tiles if t.kind == "land")
    if land:
        add_path(dwg, g, _boundary(land, fit_), stroke=st.colour["ink"], width=st.mm("coast_stroke"))


def token_radius(s: float) -> float:
    """Number token radius (mm) on a hex of size ``s`` mm."""
    return max(s * 0.36, MIN_FONT_MM * 0.95)


def _draw_land_marks(dwg: Any, g: Any, board: Board, t: Tile, fit_: Fit, tx: Texts, st: Style) -> None:
    s = fit_.s
    x, y = fit_.at(t.hex)
    if t.hidden:
        size = max(MIN_FONT_MM, min(st.mm("hidden_label"), s * 0.5))
        add_text(dwg, g, tx.get("label.hidden"), x, y - s * 0.40, size, st, bold=True, anchor="middle")
    else:
        size = max(MIN_FONT_MM, min(st.mm("hex_label") * 1.25, s * 0.31))
        add_text(dwg, g, tx.get(f"label.{t.terrain}"), x, y - s * 0.45, size, st, bold=True, anchor="middle")
    if t.number is not None:
        draw_token(dwg, g, x, y + s * 0.12, token_radius(s), t.number, st)
    if t.oil_spring:
        draw_oil(dwg, g, x + s * 0.52, y + s * 0.12, s * 0.42, st)
    if board.robber == t.hex:
        if t.number is None:
            draw_robber(dwg, g, x, y + s * 0.18, s * 0.7, st)
        else:
            draw_robber(dwg, g, x - s * 0.55, y + s * 0.12, s * 0.5, st)


def _draw_harbors(dwg: Any, g: Any, board: Board, fit_: Fit, tx: Texts, st: Style) -> None:
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
    if board.pirate is not None:
        x, y = fit_.at(board.pirate)
        blocked.append(sbox(x - s * 0.45, y - s * 0.4, x + s * 0.45, y + s * 0.45))
    for _, _, _, _, p, e1, e2 in marks:
        d = f"M{num(e1[0])},{num(e1[1])} L{num(p[0])},{num(p[1])} L{num(e2[0])},{num(e2[1])}"
        add_path(dwg, g, d, stroke=st.colour["ink"], width=st.mm("pier"), join="round")
    for n, h, c, m, p, _, _ in marks:
        add_circle(dwg, g, p[0], p[1], r, fill=st.fill["harbor"], stroke=st.colour["ink"],
                   width=st.mm("token_stroke") * 1.6)
        size = max(MIN_FONT_MM, min(st.mm("harbor_index"), r * 1.2))
        add_text(dwg, g, str(n), p[0], p[1] + size * 0.36, size, st, bold=True, anchor="middle")
    for n, h, c, m, p, _, _ in marks:
        _harbor_label(dwg, g, h, c, m, s, blocked, tx, st)


#: candidate spots for a harbor's words: (distance back from the served
#: edge, sideways offset), in hex sizes from the sea hex centre
_LABEL_SPOTS = ((0.25, 0.0), (0.4, 0.0), (0.1, 0.0), (0.25, 0.35), (0.25, -0.35),
                (0.55, 0.0), (0.7, 0.0), (0.45, 0.45), (0.45, -0.45))


def _harbor_label(dwg: Any, g: Any, h: Harbor, c: tuple[float, float], m: tuple[float, float],
                  s: float, blocked: list, tx: Texts, st: Style) -> None:
    """Ratio and resource word on the harbor's sea hex, away from its edge:
    the candidate spot overlapping least with what is drawn (land, piers,
    markers, other words), then sticking out of its own hex least."""
    from shapely.geometry import Polygon, box as sbox

    ratio, word = harbor_words(h.type, tx)
    size = max(MIN_FONT_MM, st.mm("harbor_text"))
    lines = [ratio] + ([word] if word else [])
    w = max(text_width(x, size, bold=True) for x in lines)
    lh = size * 1.15
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
    _, x, y, rect = best
    blocked.append(rect)
    top = y - th / 2
    add_rect(dwg, g, x - w / 2 - 0.4, top - 0.1, w + 0.8, th + 0.4, fill=st.fill["harbor"], rx=0.6)
    for i, line in enumerate(lines):
        add_text(dwg, g, line, x, top + lh * i + size * 0.85, size, st, bold=(i == 0), anchor="middle")


def _draw_row_numbers(dwg: Any, g: Any, board: Board, fit_: Fit, st: Style) -> None:
    x0 = board_extent(board)[0]
    size = max(MIN_FONT_MM, st.mm("row_label"))
    for i, row in enumerate(land_rows(board), start=1):
        _, y = fit_.at(row[0].hex)
        add_text(dwg, g, str(i), fit_.ox + x0 * fit_.s - 1.5, y + size * 0.36, size, st,
                 bold=True, anchor="end", fill=st.colour["muted"])


# --------------------------------------------------------------------------
# legend

_LEGEND_KEYS = {"token": "sheet.number_token", "red": "sheet.red_number", "robber": "sheet.robber",
                "pirate": "sheet.pirate", "hidden": "sheet.hidden", "oil": "sheet.oil",
                "harbor": "sheet.harbor", "row": "sheet.row_numbers"}


def legend_entries(board: Board) -> list[str]:
    """What the legend explains, in order: visible land terrains, then
    ``token``, ``red``, ``robber``, ``pirate``, ``hidden``, ``oil``,
    ``harbor``, ``row`` as they occur."""
    visible = {t.terrain for t in board.tiles if t.kind == "land" and not t.hidden}
    out = [t for t in LAND_ORDER if t in visible]
    tokens = [t.number for t in board.tiles if t.number is not None]
    if tokens:
        out.append("token")
    if any(n in RED_NUMBERS for n in tokens):
        out.append("red")
    if board.robber is not None:
        out.append("robber")
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


def draw_legend(dwg: Any, parent: Any, entries: Sequence[str], x: float, y: float, w: float,
                tx: Texts, st: Style) -> float:
    """The legend at top-left ``(x, y)`` in a column ``w`` mm wide; returns
    the y (mm) below it."""
    size = max(MIN_FONT_MM, st.mm("small"))
    lh = max(st.mm("swatch") + 0.4, size * 1.45)
    sw = st.mm("swatch")
    for e in entries:
        cy = y + lh / 2
        tx_ = x + sw * 1.5 + 1.5
        if e in LAND_ORDER:
            add_path(dwg, parent, poly_d(hex_points(x + sw * 0.75, cy, sw * 0.62)), fill=st.fill[e],
                     stroke=st.colour["line"], width=st.mm("hex_stroke"))
            label = tx.get(f"label.{e}")
            add_text(dwg, parent, label, tx_, cy + size * 0.36, size, st, bold=True)
            lw = text_width(label + " ", size, bold=True)
            word, size2 = fit(tx.get(f"terrain.{e}"), w - (tx_ - x) - lw, size)
            add_text(dwg, parent, word, tx_ + lw, cy + size * 0.36, size2, st)
            y += lh
            continue
        if e == "token":
            draw_token(dwg, parent, x + sw * 0.75, cy, sw * 0.55, 5, st)
        elif e == "red":
            draw_token(dwg, parent, x + sw * 0.75, cy, sw * 0.55, 8, st)
        elif e == "robber":
            draw_robber(dwg, parent, x + sw * 0.75, cy, sw * 0.95, st)
        elif e == "pirate":
            draw_pirate(dwg, parent, x + sw * 0.75, cy, sw * 0.95, st)
        elif e == "hidden":
            add_path(dwg, parent, poly_d(hex_points(x + sw * 0.75, cy, sw * 0.62)), fill=st.fill["hidden"],
                     stroke=st.colour["line"], width=st.mm("hex_stroke"))
            add_text(dwg, parent, tx.get("label.hidden"), x + sw * 0.75, cy + size * 0.36, size, st,
                     bold=True, anchor="middle")
        elif e == "oil":
            draw_oil(dwg, parent, x + sw * 0.75, cy, sw * 0.9, st)
        elif e == "harbor":
            add_circle(dwg, parent, x + sw * 0.75, cy, sw * 0.45, fill=st.fill["harbor"],
                       stroke=st.colour["ink"], width=st.mm("token_stroke") * 1.6)
            add_text(dwg, parent, "1", x + sw * 0.75, cy + size * 0.36, size, st, bold=True, anchor="middle")
        elif e == "row":
            add_text(dwg, parent, "1", x + sw * 0.75, cy + size * 0.36, size, st, bold=True,
                     anchor="middle", fill=st.colour["muted"])
        lines = wrap(tx.get(_LEGEND_KEYS[e]), w - (tx_ - x), size)
        for i, line in enumerate(lines):
            add_text(dwg, parent, line, tx_, cy + size * 0.36 + i * size * 1.2, size, st)
        y += lh + (len(lines) - 1) * size * 1.2
    return y


def legend_height(board: Board, w: float, tx: Texts, st: Style) -> float:
    """Height (mm) :func:`draw_legend` needs for ``board`` in width ``w``."""
    size = max(MIN_FONT_MM, st.mm("small"))
    lh = max(st.mm("swatch") + 0.4, size * 1.45)
    tx_off = st.mm("swatch") * 1.5 + 1.5
    total = 0.0
    for e in legend_entries(board):
        extra = 0
        if e in _LEGEND_KEYS:
            extra = len(wrap(tx.get(_LEGEND_KEYS[e]), w - tx_off, size)) - 1
        total += lh + extra * size * 1.2
    return total
