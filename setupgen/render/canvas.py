"""A page description (display list) with two backends: SVG text and cairo
(PDF pages and PNG images drawn straight onto a cairo surface, without
parsing SVG).

Every length is in mm; the SVG's user unit is 1 mm (``viewBox`` in mm) and
coordinates are written with two decimals (:func:`setupgen.render.page.num`),
so the same page gives the same bytes on any machine. The drawing
operations are plain tuples, so a page description can be built in one
process and drawn in another.

Items: operations between :meth:`Canvas.begin` and :meth:`Canvas.end` form
one object on the page (a number token, a harbor's words, a legend entry);
the SVG writes it as ``<g class="mark KIND">``, so layout tests can compute
every object's box from the drawing. Paths may carry a ``role``
(``coast``, ``frame``) written as their ``class``: the lines no text may
cross. :meth:`Canvas.reserve` keeps an empty box free for content a later
version draws there (an invisible ``<rect class="reserved KIND">``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from ..core import fonts

__all__ = ["Canvas", "MeasureCanvas", "Surface", "SvgPage", "draw_cairo", "SVG_START"]

#: how every SVG page setupgen writes begins
SVG_START = '<?xml version="1.0" encoding="utf-8"?>\n<svg baseProfile="full"'
_PATH_TOKENS = re.compile(r"[MLZ]|-?\d+(?:\.\d+)?")


def _escape(text: str) -> str:
    """``text`` safe inside an XML element or a double-quoted attribute."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _n(x: float) -> str:
    s = f"{x:.2f}"
    return "0.00" if s == "-0.00" else s


class SvgPage(str):
    """SVG text of one page that keeps its :class:`Canvas` (``.canvas``),
    so the PDF and PNG backends can draw it without parsing the text."""

    canvas: Canvas

    def __new__(cls, text: str, canvas: Canvas) -> SvgPage:
        obj = super().__new__(cls, text)
        obj.canvas = canvas
        return obj

    def __reduce__(self) -> tuple[type[SvgPage], tuple[str, Canvas]]:
        return (SvgPage, (str(self), self.canvas))


class Surface(Protocol):
    """What drawing code draws on (:class:`Canvas` and
    :class:`MeasureCanvas`): a page ``w`` x ``h`` mm taking drawing
    operations in order, items between :meth:`begin` and :meth:`end`.
    Lengths in mm; ``measuring`` is true when nothing is drawn, only
    measured."""

    w: float
    h: float
    measuring: bool

    def text(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        family: str,
        bold: bool,
        anchor: str,
        fill: str,
        mono: bool,
        width: float,
    ) -> None: ...

    def path(
        self,
        d: str,
        fill: str,
        stroke: str | None,
        width: float,
        dash: str | None,
        join: str | None,
        role: str | None = None,
    ) -> None: ...

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str | None, width: float) -> None: ...

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None, width: float, rx: float = 0.0
    ) -> None: ...

    def discs(self, points: Sequence[tuple[float, float]], r: float, fill: str) -> None: ...

    def pattern(self, d: str, key: str, pattern: Any) -> None: ...

    def begin(self, kind: str) -> None: ...

    def end(self) -> None: ...

    def reserve(self, kind: str, x: float, y: float, w: float, h: float) -> None: ...


class Canvas:
    """A page ``w`` x ``h`` mm and its drawing operations, in order."""

    __slots__ = ("w", "h", "ops", "_depth")
    #: true for a canvas that only measures (drawing code may skip work
    #: that changes no size, such as patterns)
    measuring = False

    def __init__(self, w: float, h: float) -> None:
        self.w = w
        self.h = h
        self.ops: list[tuple] = []
        self._depth = 0

    def __repr__(self) -> str:
        return f"<Canvas {_n(self.w)} x {_n(self.h)} mm, {len(self.ops)} operations>"

    def __getstate__(self) -> tuple:
        return (self.w, self.h, self.ops)

    def __setstate__(self, state: tuple) -> None:
        self.w, self.h, self.ops = state
        self._depth = 0

    # -- recording -------------------------------------------------------------

    def text(
        self,
        text: str,
        x: float,
        y: float,
        size: float,
        family: str,
        bold: bool,
        anchor: str,
        fill: str,
        mono: bool,
        width: float,
    ) -> None:
        """A text at baseline ``(x, y)`` mm, font size ``size`` mm, ``width``
        mm wide (its advance; anchors other than ``start`` use it)."""
        self.ops.append(("t", text, x, y, size, family, bold, anchor, fill, mono, width))

    def path(
        self,
        d: str,
        fill: str,
        stroke: str | None,
        width: float,
        dash: str | None,
        join: str | None,
        role: str | None = None,
    ) -> None:
        """A path (``M``/``L``/``Z`` data, coordinates in mm)."""
        self.ops.append(("p", d, fill, stroke, width, dash, join, role))

    def circle(self, x: float, y: float, r: float, fill: str, stroke: str | None, width: float) -> None:
        """A disc of radius ``r`` mm centred on ``(x, y)``."""
        self.ops.append(("c", x, y, r, fill, stroke, width))

    def rect(
        self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None, width: float, rx: float = 0.0
    ) -> None:
        """A rectangle, top-left ``(x, y)``, ``w`` x ``h`` mm, corner radius ``rx``."""
        self.ops.append(("r", x, y, w, h, fill, stroke, width, rx))

    def discs(self, points: Sequence[tuple[float, float]], r: float, fill: str) -> None:
        """Discs of radius ``r`` mm centred on ``points`` (mm), filled as one shape."""
        self.ops.append(("d", tuple(points), r, fill))

    def pattern(self, d: str, key: str, pattern: Any) -> None:
        """Fill the path ``d`` with ``pattern``
        (:class:`setupgen.render.patterns.Pattern`), named ``key``."""
        self.ops.append(("f", d, key, pattern))

    def begin(self, kind: str) -> None:
        """Start an item of ``kind`` (items do not nest: a nested begin is ignored)."""
        self._depth += 1
        if self._depth == 1:
            self.ops.append(("g", kind))

    def end(self) -> None:
        """End the item :meth:`begin` started."""
        self._depth -= 1
        if self._depth == 0:
            self.ops.append(("/g",))

    def reserve(self, kind: str, x: float, y: float, w: float, h: float) -> None:
        """Keep the box ``(x, y, w, h)`` mm free for ``kind`` (drawn empty)."""
        self.ops.append(("g", f"reserved {kind}"))
        self.ops.append(("r", x, y, w, h, "none", None, 0.0, 0.0))
        self.ops.append(("/g",))

    # -- backends ------------------------------------------------------------------

    def page(self) -> SvgPage:
        """The page as SVG text that keeps this canvas."""
        return SvgPage(self.svg(), self)

    def svg(self) -> str:
        """The page as SVG text: fixed XML declaration, final newline."""
        w, h = _n(self.w), _n(self.h)
        out = [
            f'{SVG_START} xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">'
        ]
        defs = {op[2]: op[3] for op in self.ops if op[0] == "f"}
        if defs:
            out.append("<defs>" + "".join(_svg_pattern(k, defs[k]) for k in sorted(defs)) + "</defs>")
        for op in self.ops:
            out.append(_SVG[op[0]](op))
        out.append("</svg>\n")
        return "\n".join(out)


class _Nowhere(list):
    """A list that keeps nothing (a measuring canvas's operations)."""

    def append(self, _op: Any) -> None:
        pass


class MeasureCanvas(Canvas):
    """A canvas that records nothing: sections draw onto it to measure
    their height with the same code that draws them."""

    __slots__ = ()
    measuring = True

    def __init__(self, w: float, h: float) -> None:
        super().__init__(w, h)
        self.ops = _Nowhere()


def _paint(fill: str, stroke: str | None, width: float) -> str:
    s = f' fill="{fill}"'
    if stroke is not None:
        s += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return s


def _svg_text(op: tuple) -> str:
    _, text, x, y, size, family, bold, anchor, fill, _mono, _width = op
    fallbacks = [f for _, f in fonts.runs(text) if f is not None]
    if fallbacks:  # a viewer falls back glyph by glyph along the list
        family = ", ".join(
            [family.split(",")[0], *dict.fromkeys(fallbacks), *(f.strip() for f in family.split(",")[1:])]
        )
    attrs = f' font-size="{size:.2f}" font-family="{_escape(family)}" fill="{fill}"'
    if bold:
        attrs += ' font-weight="bold"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    return f'<text x="{_n(x)}" y="{_n(y)}"{attrs}>{_escape(text)}</text>'


def _svg_path(op: tuple) -> str:
    _, d, fill, stroke, width, dash, join, role = op
    extra = f' class="{role}"' if role else ""
    if dash:
        extra += f' stroke-dasharray="{dash}"'
    if join:
        extra += f' stroke-linejoin="{join}"'
    return f'<path d="{d}"{_paint(fill, stroke, width)}{extra}/>'


def _svg_circle(op: tuple) -> str:
    _, x, y, r, fill, stroke, width = op
    return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"{_paint(fill, stroke, width)}/>'


def _svg_rect(op: tuple) -> str:
    _, x, y, w, h, fill, stroke, width, rx = op
    corner = f' rx="{_n(rx)}"' if rx else ""
    return f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{corner}{_paint(fill, stroke, width)}/>'


def _svg_pattern(key: str, pat: Any) -> str:
    w, h, segs, dots = pat.tile()
    body = ""
    if segs:
        d = " ".join(f"M{_n(a[0])},{_n(a[1])} L{_n(b[0])},{_n(b[1])}" for a, b in segs)
        body += f'<path d="{d}" fill="none" stroke="{pat.ink}" stroke-width="{_n(pat.size)}"/>'
    body += "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(pat.size)}" fill="{pat.ink}"/>' for x, y in dots)
    return (
        f'<pattern id="pattern-{key}" patternUnits="userSpaceOnUse" width="{_n(w)}" height="{_n(h)}">{body}</pattern>'
    )


def _svg_discs(op: tuple) -> str:
    _, points, r, fill = op
    rr = _n(r)
    return "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{rr}" fill="{fill}"/>' for x, y in points)


def _svg_fill_pattern(op: tuple) -> str:
    return f'<path class="pattern" d="{op[1]}" fill="url(#pattern-{op[2]})"/>'


_SVG = {
    "t": _svg_text,
    "f": _svg_fill_pattern,
    "d": _svg_discs,
    "p": _svg_path,
    "c": _svg_circle,
    "r": _svg_rect,
    "g": lambda op: f'<g class="mark {op[1]}">' if not op[1].startswith("reserved") else f'<g class="{op[1]}">',
    "/g": lambda op: "</g>",
}


# --------------------------------------------------------------------------
# cairo

_RGB: dict[str, tuple[float, float, float]] = {}


def _rgb(colour: str) -> tuple[float, float, float]:
    rgb = _RGB.get(colour)
    if rgb is None:
        v = int(colour[1:7], 16)
        rgb = _RGB[colour] = ((v >> 16) / 255.0, ((v >> 8) & 255) / 255.0, (v & 255) / 255.0)
    return rgb


class _Painter:
    """Draws operations onto a cairo context through cairocffi's C-level
    API (``cairocffi.cairo`` on the context's documented ``_pointer``:
    one status check a page instead of one a call), setting colour, line
    width, dash, join and font only when they change."""

    def __init__(self, ctx: Any, patterns: dict) -> None:
        import cairocffi

        self.ctx = ctx
        self.c = cairocffi.cairo
        self.ffi = cairocffi.ffi
        self.p = ctx._pointer
        self.patterns = patterns
        self.colour: Any = None
        self.line: Any = None
        self.dash: Any = None
        self.join: Any = None
        self.font: Any = None
        self.size: Any = None

    def check(self) -> None:
        """Raise cairo's error, if any, after a page."""
        status = self.c.cairo_status(self.p)
        if status:
            import cairocffi

            raise cairocffi.CairoError(self.ffi.string(self.c.cairo_status_to_string(status)).decode(), status)

    def source(self, colour: str) -> None:
        if colour != self.colour:
            self.c.cairo_set_source_rgb(self.p, *_rgb(colour))
            self.colour = colour

    def shape(self, fill: str, stroke: str | None, width: float, dash: str | None = None) -> None:
        """Fill and stroke the current path; the stroke dashed by ``dash``
        (``"0.8,0.6"``, mm) or solid: cairo keeps its dash until it is set
        again, so every stroke sets its own (a dashed outline must not leak
        into the next circle or box)."""
        c, p = self.c, self.p
        if fill != "none":
            self.source(fill)
            (c.cairo_fill_preserve if stroke is not None else c.cairo_fill)(p)
        if stroke is not None:
            if dash != self.dash:
                values = [float(v) for v in dash.split(",")] if dash else []
                c.cairo_set_dash(p, self.ffi.new("double[]", values), len(values), 0)
                self.dash = dash
            self.source(stroke)
            if width != self.line:
                c.cairo_set_line_width(p, width)
                self.line = width
            c.cairo_stroke(p)
        else:
            c.cairo_new_path(p)

    def trace(self, d: str) -> None:
        c, p = self.c, self.p
        move, line = c.cairo_move_to, c.cairo_line_to
        tokens = _PATH_TOKENS.findall(d)
        i = 0
        n = len(tokens)
        while i < n:
            t = tokens[i]
            if t == "Z":
                c.cairo_close_path(p)
                i += 1
            else:
                (move if t == "M" else line)(p, float(tokens[i + 1]), float(tokens[i + 2]))
                i += 3

    def path(self, op: tuple) -> None:
        _, d, fill, stroke, width, dash, join, _role = op
        self.trace(d)
        if stroke is not None and join != self.join:
            self.c.cairo_set_line_join(self.p, 1 if join == "round" else 0)  # 0 miter, 1 round
            self.join = join
        self.shape(fill, stroke, width, dash)

    def text(self, op: tuple) -> None:
        _, text, x, y, size, family, bold, anchor, fill, _mono, w = op
        c, p = self.c, self.p
        if anchor != "start":
            x -= w / 2 if anchor == "middle" else w
        self.source(fill)
        c.cairo_move_to(p, x, y)
        for run, fallback in fonts.runs(text):  # each run in its font; cairo moves the point along
            self.face(fallback or family, bold, size)
            c.cairo_show_text(p, run.encode("utf-8"))

    def face(self, family: str, bold: bool, size: float) -> None:
        """Set the font (family, weight) and size unless they are set."""
        c, p = self.c, self.p
        if self.font != (family, bold):
            c.cairo_set_font_face(p, _font_face(c, family, bold))
            self.font = (family, bold)
            self.size = None
        if self.size != size:
            c.cairo_set_font_size(p, size)
            self.size = size

    def rect(self, op: tuple) -> None:
        _, x, y, w, h, fill, stroke, width, rx = op
        if fill == "none" and stroke is None:
            return
        c, p = self.c, self.p
        if rx:
            rx = min(rx, w / 2, h / 2)
            c.cairo_new_sub_path(p)
            c.cairo_arc(p, x + w - rx, y + rx, rx, -1.5707963267948966, 0)
            c.cairo_arc(p, x + w - rx, y + h - rx, rx, 0, 1.5707963267948966)
            c.cairo_arc(p, x + rx, y + h - rx, rx, 1.5707963267948966, 3.141592653589793)
            c.cairo_arc(p, x + rx, y + rx, rx, 3.141592653589793, 4.71238898038469)
            c.cairo_close_path(p)
        else:
            c.cairo_rectangle(p, x, y, w, h)
        self.shape(fill, stroke, width)

    def circle(self, op: tuple) -> None:
        _, x, y, r, fill, stroke, width = op
        self.c.cairo_new_sub_path(self.p)
        self.c.cairo_arc(self.p, x, y, r, 0, 6.283185307179586)
        self.shape(fill, stroke, width)

    def discs(self, op: tuple) -> None:
        _, points, r, fill = op
        c, p = self.c, self.p
        for x, y in points:
            c.cairo_new_sub_path(p)
            c.cairo_arc(p, x, y, r, 0, 6.283185307179586)
        self.shape(fill, None, 0.0)

    def fill_pattern(self, op: tuple) -> None:
        self.trace(op[1])
        self.c.cairo_set_source(self.p, _cairo_pattern(op[3], self.patterns)._pointer)
        self.colour = None
        self.c.cairo_fill(self.p)


_FACES: dict[tuple[str, bool], Any] = {}


def _font_face(c: Any, family: str, bold: bool) -> Any:
    """The cairo toy font face of ``family`` (its first name) and weight,
    made once per process (as ``cairo_select_font_face`` would make it,
    without the lookup on every switch of font)."""
    face = _FACES.get((family, bold))
    if face is None:
        face = _FACES[(family, bold)] = c.cairo_toy_font_face_create(
            family.split(",")[0].strip().encode("utf-8"), 0, 1 if bold else 0
        )
    return face


def _cairo_pattern(pat: Any, cache: dict) -> Any:
    """The repeating cairo pattern of a :class:`Pattern` (one per document)."""
    found = cache.get(pat)
    if found is None:
        import cairocffi

        w, h, segs, dots = pat.tile()
        tile = cairocffi.RecordingSurface(cairocffi.CONTENT_COLOR_ALPHA, (0, 0, w, h))
        tc = cairocffi.Context(tile)
        tc.set_source_rgb(*_rgb(pat.ink))
        for a, b in segs:
            tc.move_to(*a)
            tc.line_to(*b)
        if segs:
            tc.set_line_width(pat.size)
            tc.stroke()
        for x, y in dots:
            tc.new_sub_path()
            tc.arc(x, y, pat.size, 0, 6.283185307179586)
        tc.fill()
        found = cache[pat] = cairocffi.SurfacePattern(tile)
        found.set_extend(cairocffi.EXTEND_REPEAT)
    return found


def draw_cairo(ctx: Any, ops: Iterable[tuple], patterns: dict | None = None) -> None:
    """Draw the operations onto a cairo context whose user unit is 1 mm;
    ``patterns`` caches the cairo patterns across the pages of one
    document."""
    painter = _Painter(ctx, {} if patterns is None else patterns)
    table = {
        "p": painter.path,
        "t": painter.text,
        "c": painter.circle,
        "r": painter.rect,
        "f": painter.fill_pattern,
        "d": painter.discs,
    }
    for op in ops:
        draw = table.get(op[0])
        if draw is not None:
            draw(op)
    painter.check()
