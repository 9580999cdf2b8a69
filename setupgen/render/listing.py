"""Printable listings (schedule tables, player cards, standings, finals
seating) as SVG pages: a title, a subtitle and a table of text rows,
continued over as many pages as needed. Sizes in mm, text never below 8 pt;
the same input gives the same bytes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..core import templates
from ..core.templates import paper_size
from .page import add_path, add_rect, add_text, drawing, finish, fit, num

#: body text size (mm) of a listing row: 10 pt
ROW_TEXT_MM = 10 * 25.4 / 72


@dataclass(frozen=True, slots=True)
class Listing:
    """A titled table: ``columns`` (header words) with relative ``widths``
    (fractions of the text width, summing to about 1), and ``rows`` of
    cells. A row whose first cell starts with ``"## "`` is a section
    heading spanning the page."""

    title: str
    subtitle: str
    columns: tuple[str, ...]
    widths: tuple[float, ...]
    rows: tuple[tuple[str, ...], ...]


def render_listing(listing: Listing, *, paper: str = "a4", footer: str = "") -> list[str]:
    """The listing as SVG pages (at least one). Raises :class:`SetupgenError`
    for an unknown paper."""
    w, h = paper_size(paper)
    st = templates.style()
    m = st.margin
    cw = w - 2 * m
    size = ROW_TEXT_MM
    rh = size * 1.6
    top_block = st.mm("director_title") + size * 3.2
    per_page = max(1, int((h - 2 * m - top_block - size * 3) // rh) - 1)
    chunks = [listing.rows[i:i + per_page] for i in range(0, len(listing.rows), per_page)] or [()]
    pages = []
    for k, chunk in enumerate(chunks, start=1):
        dwg = drawing(w, h)
        y = m + st.mm("director_title")
        t, sz = fit(listing.title, cw, st.mm("director_title"), bold=True)
        add_text(dwg, dwg, t, m, y, sz, st, bold=True)
        y += size * 1.7
        sub = listing.subtitle + (f"  ·  {k}/{len(chunks)}" if len(chunks) > 1 else "")
        t, sz = fit(sub, cw, size)
        add_text(dwg, dwg, t, m, y, sz, st, fill=st.colour["muted"])
        y += size * 1.5
        xs = [m]
        for frac in listing.widths[:-1]:
            xs.append(xs[-1] + cw * frac)
        y += size
        for word, frac, x in zip(listing.columns, listing.widths, xs):
            t, sz = fit(word, cw * frac - 1.5, size, bold=True)
            add_text(dwg, dwg, t, x + 0.8, y, sz, st, bold=True)
        y += size * 0.5
        add_path(dwg, dwg, f"M{num(m)},{num(y)} L{num(m + cw)},{num(y)}", stroke=st.colour["ink"], width=0.3)
        for i, row in enumerate(chunk):
            top = y + i * rh
            base = top + rh / 2 + size * 0.36
            if row and row[0].startswith("## "):
                t, sz = fit(row[0][3:], cw, size, bold=True)
                add_text(dwg, dwg, t, m + 0.8, base, sz, st, bold=True)
                continue
            if i % 2 == 1:
                add_rect(dwg, dwg, m, top, cw, rh, fill=st.fill["header"])
            for j, (cell, frac, x) in enumerate(zip(row, listing.widths, xs)):
                t, sz = fit(cell, cw * frac - 1.6, size, bold=(j == 0))
                add_text(dwg, dwg, t, x + 0.8, base, sz, st, bold=(j == 0))
        if footer:
            t, sz = fit(footer, cw, templates.MIN_FONT_MM)
            add_text(dwg, dwg, t, m, h - m, sz, st, fill=st.colour["muted"], mono=True)
        pages.append(finish(dwg))
    return pages


def listing_pages(listings: Sequence[Listing], *, paper: str = "a4", footer: str = "") -> list[str]:
    """Several listings, each starting on a new page."""
    out: list[str] = []
    for item in listings:
        out.extend(render_listing(item, paper=paper, footer=footer))
    return out
