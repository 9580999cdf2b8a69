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
from typing import Any, Iterable

from ..core.errors import SetupgenError
from ..core.rules import PIPS, RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style

SQRT3 = math.sqrt(3.0)
#: corner offsets of a pointy-top hex of size 1, corner 0 first (as
#: :func:`setupgen.core.hexgrid.corner_point`, without trigonometry)
CORNERS: tuple[tuple[float, float], ...] = (
    (SQRT3 / 2, -0.5), (0.0, -1.0), (-SQRT3 / 2, -0.5),
    (-SQRT3 / 2, 0.5), (0.0, 1.0), (SQRT3 / 2, 0.5),
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


def font_num(size: float) -> str:
    """A font size (mm) as text, at least 8 pt and rounded *up* to two
    decimals (so rounding never takes it below 8 pt)."""
    return f"{math.ceil(max(size, MIN_FONT_MM) * 100 - 1e-6) / 100:.2f}"


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
    head = lines[:max_lines - 1]
    rest = " ".join(lines[max_lines - 1:])
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
# SVG primitives (parent: an svgwrite container; dwg: the Drawing)

def add_text(dwg: Any, parent: Any, text: str, x: float, y: float, size: float, st: Style, *,
             bold: bool = False, anchor: str = "start", fill: str | None = None,
             mono: bool = False) -> None:
    """A text at baseline ``(x, y)`` mm, size ``size`` mm (at least 8 pt)."""
    attrs = {
        "font-size": font_num(size),
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
# pages

def drawing(w: float, h: float) -> Any:
    """A new svgwrite drawing of ``w`` x ``h`` mm (viewBox in mm) on a white page."""
    import svgwrite

    dwg = svgwrite.Drawing(size=(f"{num(w)}mm", f"{num(h)}mm"), profile="full", debug=False)
    dwg.attribs["viewBox"] = f"0 0 {num(w)} {num(h)}"
    add_rect(dwg, dwg, 0, 0, w, h, fill="#ffffff")
    return dwg


def finish(dwg: Any) -> str:
    """The drawing as SVG text with a fixed XML declaration and a final newline."""
    text = dwg.tostring()
    if text.startswith("<?xml"):
        text = text[text.index("?>") + 2:].lstrip()
    return '<?xml version="1.0" encoding="utf-8"?>\n' + text + "\n"
