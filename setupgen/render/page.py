"""SVG primitives and text metrics for the table sheet: numbers written
with two decimals, DejaVu Sans advance widths for fitting and wrapping
text, shapes and the sheet's symbols (number token, robber, pirate, oil
drop).

Every length is in mm (the SVG user unit); font sizes are in mm and never
below 8 pt (:data:`setupgen.core.templates.MIN_FONT_MM`). Geometry uses only
``+ - * /`` and ``sqrt`` (no libm trigonometry), so output bytes do not
depend on the machine.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..core import fonts
from ..core.rules import PIPS, RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style
from .canvas import Canvas, Surface

SQRT3 = math.sqrt(3.0)
#: corner offsets of a pointy-top hex of size 1, corner 0 first (as
#: :func:`setupgen.core.hexgrid.corner_point`, without trigonometry)
CORNERS: tuple[tuple[float, float], ...] = (
    (SQRT3 / 2, -0.5),
    (0.0, -1.0),
    (-SQRT3 / 2, -0.5),
    (-SQRT3 / 2, 0.5),
    (0.0, 1.0),
    (SQRT3 / 2, 0.5),
)

# --------------------------------------------------------------------------
# numbers and text metrics

_CHARS = "".join(chr(c) for c in range(32, 127)) + "äöüÄÖÜß·–—…×→"
# advance widths of DejaVu Sans / DejaVu Sans Bold in 1/1000 em, per _CHARS
_W_REGULAR = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 "
    "636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 "
    "557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 "
    "635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 "
    "592 592 525 636 337 636 838 613 612 634 684 787 732 630 318 500 1000 1000 838 838"
)
_W_BOLD = (
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 "
    "696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 "
    "637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 "
    "716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 "
    "645 652 582 712 365 712 838 675 687 712 774 850 812 719 380 500 1000 1000 838 838"
)
_WIDTHS: dict[bool, dict[str, int]] = {}
_UNITS: dict[tuple[str, bool], int] = {}  # text widths in 1/1000 em, memoised


def num(x: float) -> str:
    """A coordinate or length as text with two decimals (never ``-0.00``)."""
    s = f"{x:.2f}"
    return "0.00" if s == "-0.00" else s


def font_num(size: float) -> str:
    """A font size (mm) as text, at least 8 pt and rounded *up* to two
    decimals (so rounding never takes it below 8 pt)."""
    return f"{math.ceil(max(size, MIN_FONT_MM) * 100 - 1e-6) / 100:.2f}"


def text_width(text: str, size: float, *, bold: bool = False, mono: bool = False) -> float:
    """Width in mm of ``text`` at font size ``size`` mm in DejaVu Sans (bold)
    or DejaVu Sans Mono; unknown characters count as wide ones."""
    if mono:
        return 0.602 * size * len(text)
    key = (text, bold)
    units = _UNITS.get(key)
    if units is None:
        table = _WIDTHS.get(bold)
        if table is None:
            raw = _W_BOLD if bold else _W_REGULAR
            table = _WIDTHS[bold] = dict(zip(_CHARS, (int(v) for v in raw.split())))
        units = sum(table[c] if c in table else _other_units(c) for c in text)
        if len(_UNITS) > 20000:
            _UNITS.clear()
        _UNITS[key] = units
    return units * size / 1000.0


def _other_units(char: str) -> int:
    """A character outside the width table: its fallback font's width
    (:mod:`setupgen.core.fonts`), else as wide as a wide letter."""
    units = fonts.fallback_units(char)
    return 1000 if units is None else units


def fit(text: str, width: float, size: float, *, bold: bool = False, mono: bool = False) -> tuple[str, float]:
    """``(text, size)`` fitting ``width`` mm: the size shrinks down to 8 pt,
    then the text is cut and ends with ``…``."""
    if text_width(text, size, bold=bold, mono=mono) <= width:
        return text, size
    size2 = max(MIN_FONT_MM, size * width / text_width(text, size, bold=bold, mono=mono) * 0.9999)
    if text_width(text, size2, bold=bold, mono=mono) <= width:
        return text, size2
    cut = text
    while cut and text_width(cut + "…", size2, bold=bold, mono=mono) > width:
        cut = cut[:-1]
    return cut + "…", size2


def fit_lines(text: str, width: float, size: float, max_lines: int, *, bold: bool = False) -> tuple[list[str], float]:
    """``text`` wrapped into at most ``max_lines`` lines of ``width`` mm:
    the size shrinks (down to 8 pt) until it fits, else the last line is
    cut with ``…``."""
    sz = size
    while True:
        lines = wrap(text, width, sz, bold=bold)
        if len(lines) <= max_lines and all(text_width(x, sz, bold=bold) <= width for x in lines):
            return lines, sz
        if sz <= MIN_FONT_MM:
            break
        sz = max(MIN_FONT_MM, sz * 0.92)
    head = [fit(line, width, sz, bold=bold)[0] for line in lines[: max_lines - 1]]  # a word too long is cut too
    rest = " ".join(lines[max_lines - 1 :])
    if not rest:
        return head, sz
    last, _ = fit(rest + " …" if len(lines) > max_lines else rest, width, sz, bold=bold)
    return head + [last], sz


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
# the page description (a display list; see :mod:`setupgen.render.canvas`)


def add_text(
    dwg: Surface,
    text: str,
    x: float,
    y: float,
    size: float,
    st: Style,
    *,
    bold: bool = False,
    anchor: str = "start",
    fill: str | None = None,
    mono: bool = False,
) -> None:
    """A text at baseline ``(x, y)`` mm, size ``size`` mm (at least 8 pt)."""
    family = st.mono if mono else st.font
    sz = float(font_num(size))
    width = 0.0 if anchor == "start" else text_width(text, sz, bold=bold, mono=mono)
    dwg.text(text, x, y, sz, family, bold, anchor, st.colour["ink"] if fill is None else fill, mono, width)


def add_path(
    dwg: Surface,
    d: str,
    *,
    fill: str = "none",
    stroke: str | None = None,
    width: float = 0.0,
    dash: str | None = None,
    join: str | None = None,
    role: str | None = None,
) -> None:
    """A path with outline ``d`` (already formatted: ``M``, ``L`` and ``Z``
    commands only); ``role`` names a line the layout checks keep text off
    (``coast``, ``frame``)."""
    dwg.path(d, fill, stroke, width, dash, join, role)


def add_circle(
    dwg: Surface, x: float, y: float, r: float, *, fill: str, stroke: str | None = None, width: float = 0.0
) -> None:
    """A disc of radius ``r`` mm at ``(x, y)``."""
    dwg.circle(x, y, r, fill, stroke, width)


def add_rect(
    dwg: Surface,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str = "none",
    stroke: str | None = None,
    width: float = 0.0,
    rx: float = 0.0,
) -> None:
    """A rectangle, top-left ``(x, y)``, size ``w`` x ``h`` mm, corner
    radius ``rx`` mm."""
    dwg.rect(x, y, w, h, fill, stroke, width, rx)


def poly_d(points: Iterable[tuple[float, float]], close: bool = True) -> str:
    """Path data through ``points``."""
    pts = [f"{num(x)},{num(y)}" for x, y in points]
    return "M" + " L".join(pts) + (" Z" if close else "")


def hex_points(cx: float, cy: float, s: float) -> list[tuple[float, float]]:
    """Corners of a pointy-top hex of size ``s`` mm centred at ``(cx, cy)``."""
    return [(cx + dx * s, cy + dy * s) for dx, dy in CORNERS]


# --------------------------------------------------------------------------
# symbols (robber, pirate, oil drop, number token)


def draw_robber(dwg: Surface, x: float, y: float, h: float, st: Style) -> None:
    """A robber pawn ``h`` mm tall (``0.6 h`` wide), centred on ``(x, y)``;
    one item ``robber``."""
    c = st.colour["robber"]
    top = y - h / 2
    r = h * 0.2
    dwg.begin("robber")
    add_circle(dwg, x, top + r, r, fill=c, stroke="#ffffff", width=0.2)
    w = h * 0.3
    body = [(x - w * 0.45, top + 2 * r), (x + w * 0.45, top + 2 * r), (x + w, y + h / 2), (x - w, y + h / 2)]
    add_path(dwg, poly_d(body), fill=c, stroke="#ffffff", width=0.2, join="round")
    dwg.end()


def draw_pirate(dwg: Surface, x: float, y: float, h: float, st: Style) -> None:
    """A pirate ship ``h`` mm tall (``1.1 h`` wide), centred on ``(x, y)``;
    one item ``pirate``, on a white disc so it reads on any sea."""
    c = st.colour["ink"]
    dwg.begin("pirate")
    add_circle(dwg, x, y, h * 0.62, fill="#ffffff", stroke=c, width=0.3)
    hull = [
        (x - h * 0.5, y + h * 0.1),
        (x + h * 0.5, y + h * 0.1),
        (x + h * 0.32, y + h * 0.42),
        (x - h * 0.32, y + h * 0.42),
    ]
    add_path(dwg, poly_d(hull), fill=c)
    sail = [(x - h * 0.05, y - h * 0.45), (x - h * 0.05, y + h * 0.04), (x - h * 0.4, y + h * 0.04)]
    add_path(dwg, poly_d(sail), fill=c)
    sail2 = [(x + h * 0.05, y - h * 0.36), (x + h * 0.05, y + h * 0.04), (x + h * 0.36, y + h * 0.04)]
    add_path(dwg, poly_d(sail2), fill=c)
    dwg.end()


def draw_village(dwg: Surface, x: float, y: float, h: float, number: int | None, st: Style) -> None:
    """A village of Cloth for Catan: a house ``h`` mm tall (``0.9 h``
    wide) centred on ``(x, y)``, its number in bold in the walls; with 6
    or 8 inverted like a token (black house, white digits: nothing grey
    for 1-bit print). One item ``village``."""
    red = number in RED_NUMBERS
    ink = st.colour["ink"]
    w, eave = h * 0.45, y - h * 0.1
    house = [(x - w, eave), (x, y - h / 2), (x + w, eave), (x + w, y + h / 2), (x - w, y + h / 2)]
    dwg.begin("village")
    add_path(dwg, poly_d(house), fill=st.colour["red_disc"] if red else "#ffffff", stroke=ink, width=0.35, join="round")
    if number is not None:
        size = max(MIN_FONT_MM, h * 0.48)
        add_text(
            dwg,
            str(number),
            x,
            y + h * 0.2 + size * 0.36,
            size,
            st,
            bold=True,
            anchor="middle",
            fill="#ffffff" if red else ink,
        )
    dwg.end()


def draw_gift(dwg: Surface, kind: str, x: float, y: float, h: float, st: Style) -> None:
    """A gift of the forgotten tribe on an edge, ``h`` mm tall, centred on
    ``(x, y)``, drawn without words (the legend names it): ``vp``, a
    victory-point chit, a white disc with a black star; ``card``, a
    development card face down, a white card with a black ``?``. One item
    ``gift``."""
    ink = st.colour["ink"]
    dwg.begin("gift")
    if kind == "vp":
        r = h / 2
        add_circle(dwg, x, y, r, fill="#ffffff", stroke=ink, width=0.35)
        star = [
            (
                x + r * 0.78 * (1 if k % 2 == 0 else 0.42) * math.sin(math.radians(36 * k)),
                y - r * 0.78 * (1 if k % 2 == 0 else 0.42) * math.cos(math.radians(36 * k)),
            )
            for k in range(10)
        ]
        add_path(dwg, poly_d(star), fill=ink)
    else:
        w = h * 0.36
        add_rect(dwg, x - w, y - h / 2, 2 * w, h, fill="#ffffff", stroke=ink, width=0.35)
        size = max(MIN_FONT_MM, h * 0.62)
        add_text(dwg, "?", x, y + size * 0.36, size, st, bold=True, anchor="middle", fill=ink)
    dwg.end()


def draw_no_start(dwg: Surface, x: float, y: float, h: float, st: Style) -> None:
    """An intersection where no starting settlement may go: a white disc
    ``h`` mm across with a black cross, centred on ``(x, y)``. One item
    ``no-start``."""
    ink, r, a = st.colour["ink"], h / 2, h * 0.24
    dwg.begin("no-start")
    add_circle(dwg, x, y, r, fill="#ffffff", stroke=ink, width=0.35)
    add_path(dwg, f"M{num(x - a)},{num(y - a)} L{num(x + a)},{num(y + a)}", stroke=ink, width=0.45)
    add_path(dwg, f"M{num(x - a)},{num(y + a)} L{num(x + a)},{num(y - a)}", stroke=ink, width=0.45)
    dwg.end()


def draw_player_piece(dwg: Surface, kind: str, x: float, y: float, h: float, player: int, st: Style) -> None:
    """A piece of player set ``player`` (1-4) at the start of The Pirate
    Islands, ``h`` mm tall, centred on ``(x, y)``, the set's digit in bold:
    ``settlement``, a white house; ``lone-settlement``, the spot for one, a
    house outlined in dashes; ``fortress``, a black tower with battlements
    and a white digit; ``ship``, a white hull with a black mast line. One
    item of the kind's name."""
    ink, w = st.colour["ink"], h * 0.42
    dwg.begin(kind)
    size = max(MIN_FONT_MM, h * 0.5)
    digit, fill, text = str(player), "#ffffff", ink
    if kind == "fortress":
        top, step = y - h / 2, w / 2.5
        outline = [(x - w, y + h / 2), (x - w, top)]
        for k in range(5):  # battlements: up, across, down ...
            x0 = x - w + k * step
            outline += [(x0, top + (0 if k % 2 == 0 else h * 0.16)), (x0 + step, top + (0 if k % 2 == 0 else h * 0.16))]
        outline += [(x + w, top), (x + w, y + h / 2)]
        add_path(dwg, poly_d(outline), fill=ink, stroke=ink, width=0.3)
        fill, text = ink, "#ffffff"
    elif kind == "ship":
        hull = [
            (x - w * 1.2, y - h * 0.05),
            (x + w * 1.2, y - h * 0.05),
            (x + w * 0.8, y + h * 0.4),
            (x - w * 0.8, y + h * 0.4),
        ]
        add_path(dwg, poly_d(hull), fill="#ffffff", stroke=ink, width=0.35, join="round")
        add_path(dwg, f"M{num(x)},{num(y - h * 0.05)} L{num(x)},{num(y - h / 2)}", stroke=ink, width=0.35)
        add_text(dwg, digit, x, y + h * 0.32, max(MIN_FONT_MM, h * 0.38), st, bold=True, anchor="middle", fill=ink)
        dwg.end()
        return
    else:
        house = [(x - w, y - h * 0.08), (x, y - h / 2), (x + w, y - h * 0.08), (x + w, y + h / 2), (x - w, y + h / 2)]
        dash = "0.8,0.6" if kind == "lone-settlement" else None
        add_path(dwg, poly_d(house), fill=fill, stroke=ink, width=0.35, dash=dash, join="round")
    add_text(dwg, digit, x, y + h * 0.2 + size * 0.3, size, st, bold=True, anchor="middle", fill=text)
    dwg.end()


def draw_path_step(dwg: Surface, x: float, y: float, size: float, order: int, st: Style) -> None:
    """A step of the pirate fleet's path: its number ``order`` in bold in a
    white rounded box with a dashed black border, text ``size`` mm, centred
    on ``(x, y)``. One item ``path``."""
    ink = st.colour["ink"]
    w = text_width(str(order), size, bold=True) / 2 + size * 0.35
    dwg.begin("path")
    add_rect(dwg, x - w, y - size * 0.7, 2 * w, size * 1.4, fill="#ffffff", stroke=ink, width=0.3, rx=size * 0.3)
    add_text(dwg, str(order), x, y + size * 0.36, size, st, bold=True, anchor="middle", fill=ink)
    dwg.end()


def draw_oil(dwg: Surface, x: float, y: float, h: float, st: Style) -> None:
    """An oil drop ``h`` mm tall (``0.6 h`` wide), centred on ``(x, y)``: a
    point on a disc, drawn with straight lines only."""
    r = h * 0.3
    cy = y + h / 2 - r
    add_circle(dwg, x, cy, r, fill=st.colour["oil"], stroke="#ffffff", width=0.15)
    tip = [(x, y - h / 2), (x + r * 0.97, cy - r * 0.25), (x - r * 0.97, cy - r * 0.25)]
    add_path(dwg, poly_d(tip), fill=st.colour["oil"])


def draw_token(dwg: Surface, x: float, y: float, r: float, number: int, st: Style) -> None:
    """A number token: disc of radius ``r`` mm, the number, and its pips;
    one item ``token``. 6 and 8 are inverted: a solid black disc (no grey,
    so nothing dithers in 1-bit print) with white bold digits and pips,
    inside a thin red ring for colour (docs/sheet.md, "6 and 8")."""
    red = number in RED_NUMBERS
    ink = "#ffffff" if red else st.colour["ink"]
    dwg.begin("token")
    if red:
        add_circle(dwg, x, y, r, fill=st.colour["red_disc"], stroke=st.colour["red"], width=st.mm("red_ring"))
    else:
        add_circle(dwg, x, y, r, fill=st.fill["token"], stroke=st.colour["ink"], width=st.mm("token_stroke"))
    size = max(MIN_FONT_MM, r * (1.05 if red else 0.95))
    add_text(dwg, str(number), x, y + size * 0.22, size, st, bold=True, anchor="middle", fill=ink)
    pips = PIPS[number]
    pr = max(0.25, r * 0.1)
    step = pr * 2.5
    x0 = x - step * (pips - 1) / 2
    py = y + r * 0.6
    dwg.discs([(x0 + i * step, py) for i in range(pips)], pr, ink)
    dwg.end()


def draw_red_number(
    dwg: Surface, x: float, base: float, size: float, number: int, st: Style, anchor: str = "start"
) -> None:
    """6 or 8 in a list, marked by shape as on the board: white bold digits
    on a black disc (red ring) of radius ``0.62 size`` mm, its left edge
    (``anchor`` ``start``) or right edge (``end``) at ``x``, the digits on
    baseline ``base`` (mm)."""
    r = size * 0.62
    cx = x + r if anchor == "start" else x - r
    cy = base - size * 0.36
    add_circle(dwg, cx, cy, r, fill=st.colour["red_disc"], stroke=st.colour["red"], width=size * 0.08)
    add_text(dwg, str(number), cx, base, size, st, bold=True, anchor="middle", fill="#ffffff")


# --------------------------------------------------------------------------
# pages


def drawing(w: float, h: float) -> Canvas:
    """A new page description of ``w`` x ``h`` mm on a white page."""
    cv = Canvas(w, h)
    add_rect(cv, 0, 0, w, h, fill="#ffffff")
    return cv


def finish(dwg: Canvas) -> Any:
    """The page as SVG text (:class:`setupgen.render.canvas.SvgPage`, a
    ``str`` that keeps its page description for the PDF and PNG backends)."""
    return dwg.page()
