"""Printable listings (schedule tables, player cards, standings, finals
seating) as SVG pages: a title, a subtitle and a table of text rows,
continued over as many pages as needed. Sizes in mm, text never below 8 pt;
the same input gives the same bytes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import templates
from ..core.templates import MIN_FONT_MM, paper_size
from .canvas import Surface
from .page import add_path, add_rect, add_text, drawing, finish, fit, fit_lines, num

#: body text size (mm) of a listing row: 10 pt
ROW_TEXT_MM = 10 * 25.4 / 72


@dataclass(frozen=True, slots=True)
class Listing:
    """A titled table: ``columns`` (header words) with relative ``widths``
    (fractions of the text width, summing to about 1), and ``rows`` of
    cells. A row whose first cell starts with ``"## "`` is a section
    heading spanning the page. ``align`` gives each column's alignment,
    ``"l"`` (left, the default for a column not named) or ``"r"`` (right:
    every text of the column, its header included, ends at the same x,
    for numbers). ``rules_after`` names rows (0-based, over the whole
    listing) under which a heavy rule is drawn (e.g. the finals' cut in
    the standings)."""

    title: str
    subtitle: str
    columns: tuple[str, ...]
    widths: tuple[float, ...]
    rows: tuple[tuple[str, ...], ...]
    align: tuple[str, ...] = ()
    rules_after: tuple[int, ...] = ()

    def right(self, column: int) -> bool:
        """Whether column ``column`` (0-based) is right-aligned."""
        return column < len(self.align) and self.align[column] == "r"


#: space (mm) between a column's edge and its text: two neighbouring
#: columns' texts stay twice this apart
CELL_PAD = 1.2
#: most lines of a column header
HEAD_LINES = 2


def render_listing(listing: Listing, *, paper: str = "a4", footer: str = "") -> list[str]:
    """The listing as SVG pages (at least one). Raises :class:`SetupgenError`
    for an unknown paper."""
    w, h = paper_size(paper)
    st = templates.style()
    m = st.margin
    size = ROW_TEXT_MM
    rh = size * 1.6
    heads, head_size = head_lines(listing, w - 2 * m)
    top_block = st.mm("director_title") + size * 3.2 + (len(max(heads, key=len)) - 1) * head_size * 1.15
    per_page = max(1, int((h - 2 * m - top_block - size * 3) // rh) - 1)
    chunks = [listing.rows[i : i + per_page] for i in range(0, len(listing.rows), per_page)] or [()]
    pages = []
    for k, chunk in enumerate(chunks, start=1):
        dwg = drawing(w, h)
        sub = listing.subtitle + (f"  ·  {k}/{len(chunks)}" if len(chunks) > 1 else "")
        y = _head(dwg, listing, sub, m, w - 2 * m, st, (heads, head_size))
        for i, row in enumerate(chunk):
            _row(dwg, listing, row, i, y + i * rh, rh, m, w - 2 * m, st)
            if (k - 1) * per_page + i in listing.rules_after:
                add_path(
                    dwg,
                    f"M{num(m)},{num(y + (i + 1) * rh)} L{num(w - m)},{num(y + (i + 1) * rh)}",
                    stroke=st.colour["ink"],
                    width=0.5,
                )
        if footer:
            t, sz = fit(footer, w - 2 * m, templates.MIN_FONT_MM)
            add_text(dwg, t, m, h - m, sz, st, fill=st.colour["muted"], mono=True)
        pages.append(finish(dwg))
    return pages


def _columns(listing: Listing, x: float, cw: float) -> list[tuple[float, float]]:
    """Each column's ``(left x, width)`` in mm."""
    out = []
    for frac in listing.widths:
        out.append((x, cw * frac))
        x += cw * frac
    return out


def _cell(
    dwg: Surface, listing: Listing, j: int, text: str, col: tuple[float, float], y: float, st: Any, bold: bool
) -> None:
    """One cell's text, fitted to its column: from the left edge, or for a
    right-aligned column ending at the right edge."""
    x, width = col
    t, sz = fit(text, width - 2 * CELL_PAD, ROW_TEXT_MM, bold=bold)
    if listing.right(j):
        add_text(dwg, t, x + width - CELL_PAD, y, sz, st, bold=bold, anchor="end")
    else:
        add_text(dwg, t, x + CELL_PAD, y, sz, st, bold=bold)


def head_lines(listing: Listing, cw: float) -> tuple[list[list[str]], float]:
    """The column headers, each on at most :data:`HEAD_LINES` lines inside
    its column (less :data:`CELL_PAD` each side), all at one size: the
    largest from 10 pt down to 8 pt at which every header fits (then any
    still too long is shortened with ``…``). Returns the lines and the size (mm)."""
    cols = _columns(listing, 0.0, cw)
    size = ROW_TEXT_MM
    while True:
        out = [
            fit_lines(word, col[1] - 2 * CELL_PAD, size, HEAD_LINES, bold=True)
            for word, col in zip(listing.columns, cols)
        ]
        if all(sz >= size for _, sz in out) or size <= MIN_FONT_MM:
            return [lines for lines, _ in out], size
        size = max(MIN_FONT_MM, min(sz for _, sz in out))


def _head(
    dwg: Surface, listing: Listing, subtitle: str, m: float, cw: float, st: Any, heads: tuple[list[list[str]], float]
) -> float:
    """Title, subtitle and the column headers (:func:`head_lines`, on a
    common last baseline) with their rule; returns the y (mm) of the rule,
    where the rows start."""
    size = ROW_TEXT_MM
    y = m + st.mm("director_title")
    t, sz = fit(listing.title, cw, st.mm("director_title"), bold=True)
    add_text(dwg, t, m, y, sz, st, bold=True)
    y += size * 1.7
    t, sz = fit(subtitle, cw, size)
    add_text(dwg, t, m, y, sz, st, fill=st.colour["muted"])
    lines, hsz = heads
    extra = (max(len(x) for x in lines) - 1) * hsz * 1.15 if lines else 0.0
    y += size * 2.5 + extra
    for j, (words, col) in enumerate(zip(lines, _columns(listing, m, cw))):
        for i, word in enumerate(words):
            x, width = col
            ly = y - (len(words) - 1 - i) * hsz * 1.15
            if listing.right(j):
                add_text(dwg, word, x + width - CELL_PAD, ly, hsz, st, bold=True, anchor="end")
            else:
                add_text(dwg, word, x + CELL_PAD, ly, hsz, st, bold=True)
    y += size * 0.5
    add_path(dwg, f"M{num(m)},{num(y)} L{num(m + cw)},{num(y)}", stroke=st.colour["ink"], width=0.3)
    return y


def _row(
    dwg: Surface, listing: Listing, row: Sequence[str], i: int, top: float, rh: float, m: float, cw: float, st: Any
) -> None:
    """Row ``i`` of a page (a section heading, or cells on a band shaded
    every second row); the first cell bold."""
    base = top + rh / 2 + ROW_TEXT_MM * 0.36
    if row and row[0].startswith("## "):
        t, sz = fit(row[0][3:], cw, ROW_TEXT_MM, bold=True)
        add_text(dwg, t, m + CELL_PAD, base, sz, st, bold=True)
        return
    if i % 2 == 1:
        add_rect(dwg, m, top, cw, rh, fill=st.fill["header"])
    for j, (cell, col) in enumerate(zip(row, _columns(listing, m, cw))):
        _cell(dwg, listing, j, cell, col, base, st, j == 0)


def listing_pages(listings: Sequence[Listing], *, paper: str = "a4", footer: str = "") -> list[str]:
    """Several listings, each starting on a new page."""
    out: list[str] = []
    for item in listings:
        out.extend(render_listing(item, paper=paper, footer=footer))
    return out
