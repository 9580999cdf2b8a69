"""The director's key: a separate page that reveals a board's face-down
hexes (``hidden`` tiles), as SVG text (``docs/sheet.md``,
``docs/rules.md`` section 4).

The table sheet (:mod:`setupgen.render.sheet`) shows a hidden hex only as ``?``
and its number; this page is for the director alone. It carries a black
banner saying so, the table's tournament, round, table number and
scenario, the board with every hidden hex revealed (its true terrain,
label and token) and marked by a thick dashed ring and a ``?`` badge
(legend: "face down at the table"), the list of the hidden hexes in the
build list's terms (row, and position in that row counted as the table
sheet's build list counts it: :func:`setupgen.render.board.land_rows`),
and the setup ID and seed at the foot.

Same conventions as the table sheet: one portrait page of ``paper``, 1 SVG
user unit = 1 mm, no text below 8 pt, coordinates with two decimals, no
ids or timestamps, so the same input gives the same bytes. Words come from
``templates/<lang>.toml`` (table ``[key]``), sizes from ``style.toml``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core.board import Board, Tile
from ..core.errors import SetupgenError
from ..core.layout import Layout
from ..core.rules import RED_NUMBERS
from .sheet import (
    MIN_HEX_MM, Page, SheetContext, footer, footer_height, heading_with_hint, scenario_title, table_box_and_rule,
)
from .board import (
    Box, Fit, legend_geometry, legend_lines, board_extent, draw_board, draw_legend, hex_size_for,
    land_rows, legend_entries, place,
)
from .page import (
    add_circle, add_path, add_rect, add_text, finish, fit, fit_lines, hex_points, poly_d, text_width, wrap,
)
from ..core.templates import MIN_FONT_MM, Style, Texts

#: dash pattern (mm) of the ring marking a face-down hex on the key
RING_DASH = "1.60,1.00"
#: the legend runs below the board in this many columns
LEGEND_COLUMNS = 3
#: the legend entry of the face-down mark (after the table sheet's entries)
KEY_ENTRY = "face-down"


def hidden_entries(board: Board) -> list[tuple[int, int, Tile]]:
    """``(row, position, tile)`` of every hidden tile, both counted from 1
    as the table sheet's build list counts them (rows of
    :func:`setupgen.render.board.land_rows`, each left to right with the sea
    between land hexes included), in reading order."""
    return [(i, j, t) for i, row in enumerate(land_rows(board), start=1)
            for j, t in enumerate(row, start=1) if t.hidden]


def revealed(board: Board) -> Board:
    """``board`` with every hidden tile turned face up."""
    return dataclasses.replace(board, tiles=tuple(
        dataclasses.replace(t, hidden=False) if t.hidden else t for t in board.tiles))


def render_key(board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4",
               context: SheetContext = SheetContext()) -> str:
    """The director's key of ``board`` as SVG text: one portrait page of
    ``paper`` (mm) revealing its face-down hexes (see the module doc). A
    board without hidden tiles still gets a key, saying it has none.

    Raises :class:`SetupgenError` for an unknown language or paper, or when
    the board cannot be drawn with hexes of at least
    :data:`setupgen.render.sheet.MIN_HEX_MM` mm.
    """
    pg = Page.start(paper, lang)
    h, tx, st, m, cw, gap, dwg = pg.h, pg.tx, pg.st, pg.m, pg.cw, pg.gap, pg.dwg
    y = _header(dwg, layout, context, m, cw, tx, st)

    entries = hidden_entries(board)
    shown = revealed(board)
    legend = legend_entries(shown) + ([KEY_ENTRY] if entries else [])
    col_w = (cw - 2 * gap) / LEGEND_COLUMNS
    columns = _legend_columns(legend, col_w, tx, st)
    legend_h = max(sum(_entry_height(e, col_w, tx, st) for e in col) for col in columns)
    list_h = _list_height(entries, cw, tx, st)
    foot_h = footer_height(board, cw, tx, st)
    available = h - m - foot_h - y - legend_h - list_h - 4 * gap
    s = hex_size_for(shown, cw, available)
    y0, y1 = board_extent(shown)[1::2]
    block_h = (y1 - y0) * s + 6.0
    if s < MIN_HEX_MM:
        raise SetupgenError(f"the director's key for {layout.name} does not fit on one {paper} page")

    y += gap
    fit_ = place(shown, Box(m, y, cw, block_h), s)
    draw_board(dwg, dwg, shown, fit_, tx, st)
    for _, _, t in entries:
        _mark_hidden(dwg, fit_, t, st)
    y += block_h + gap
    for i, col in enumerate(columns):
        lx = m + i * (col_w + gap)
        rest = [e for e in col if e != KEY_ENTRY]
        ly = draw_legend(dwg, dwg, rest, lx, y, col_w, tx, st)
        if KEY_ENTRY in col:
            _legend_extra(dwg, lx, ly, col_w, tx, st)
    y += legend_h + gap
    _hidden_list(dwg, entries, m, y, cw, tx, st)
    footer(dwg, board, m, h - m, cw, tx, st)
    return finish(dwg)


# -- header -------------------------------------------------------------------

def _header(dwg: Any, layout: Layout, ctx: SheetContext, m: float, cw: float, tx: Texts, st: Style) -> float:
    """The black "director's key" banner across the page, then tournament
    and round, scenario and the warning on the left, the table number in a
    box on the right; returns the y (mm) below the header rule."""
    bs = st.mm("key_banner")
    bh = bs * 2.0
    add_rect(dwg, dwg, m, m, cw, bh, fill=st.colour["ink"])
    t, sz = fit(tx.get("key.banner"), cw - 4.0, bs, bold=True)
    add_text(dwg, dwg, t, m + cw / 2, m + bh / 2 + sz * 0.36, sz, st, bold=True, anchor="middle", fill="#ffffff")
    top = m + bh + 2.0
    box_w = 32.0 if ctx.table is not None else 0.0
    text_w = cw - box_w - (4.0 if box_w else 0.0)
    round_text = None if ctx.round is None else tx.get("sheet.round", n=ctx.round)
    first = " · ".join(x for x in (ctx.tournament, round_text) if x)
    y = top
    if first:
        lines, size = fit_lines(first, text_w, st.mm("scenario"), 2, bold=True)
        for line in lines:
            y += size * 1.05
            add_text(dwg, dwg, line, m, y, size, st, bold=True)
            y += size * 0.3
    t, sz = fit(scenario_title(layout, tx), text_w, st.mm("scenario"), bold=not first)
    y += sz * 1.05
    add_text(dwg, dwg, t, m, y, sz, st, bold=not first)
    y += sz * 0.3
    small = st.mm("small")
    for line in wrap(tx.get("key.warning"), text_w, small, bold=True):
        y += small * 1.3
        add_text(dwg, dwg, line, m, y, small, st, bold=True)
    return table_box_and_rule(dwg, ctx.table if box_w else None, top, y + 0.8, m, cw, box_w, tx, st)


# -- the board's marks ----------------------------------------------------------

def _badge(dwg: Any, x: float, y: float, r: float, st: Style) -> None:
    """A black disc with a white ``?``, radius ``r`` mm, centred on ``(x, y)``."""
    add_circle(dwg, dwg, x, y, r, fill=st.colour["ink"], stroke="#ffffff", width=0.3)
    size = max(MIN_FONT_MM, r * 1.3)
    add_text(dwg, dwg, "?", x, y + size * 0.36, size, st, bold=True, anchor="middle", fill="#ffffff")


def _mark_hidden(dwg: Any, fit_: Fit, t: Tile, st: Style) -> None:
    """A thick dashed ring just inside a face-down hex and a ``?`` badge at
    its lower right (clear of the label above the token and of the robber
    at the left)."""
    s = fit_.s
    x, y = fit_.at(t.hex)
    add_path(dwg, dwg, poly_d(hex_points(x, y, s * 0.9)), stroke=st.colour["ink"],
             width=st.mm("key_ring"), dash=RING_DASH, join="round")
    r = max(s * 0.2, MIN_FONT_MM * 0.68)
    _badge(dwg, x + s * 0.6, y + s * 0.38, r, st)


def _entry_height(e: str, w: float, tx: Texts, st: Style) -> float:
    """Height (mm) of one legend entry in a column ``w`` mm wide."""
    size, lh, _, indent = legend_geometry(w, st)
    lines = wrap(tx.get("key.legend"), w - indent, size) if e == KEY_ENTRY else legend_lines(e, w, tx, st)
    return lh + (len(lines) - 1) * size * 1.2


def _legend_columns(entries: list[str], w: float, tx: Texts, st: Style) -> list[list[str]]:
    """The legend entries cut, in order, into :data:`LEGEND_COLUMNS`
    columns of about equal height."""
    heights = [_entry_height(e, w, tx, st) for e in entries]
    target = sum(heights) / LEGEND_COLUMNS
    cols: list[list[str]] = [[]]
    acc = 0.0
    for e, eh in zip(entries, heights):
        if cols[-1] and acc + eh / 2 > target * len(cols) and len(cols) < LEGEND_COLUMNS:
            cols.append([])
        cols[-1].append(e)
        acc += eh
    return cols


def _legend_extra(dwg: Any, x: float, y: float, w: float, tx: Texts, st: Style) -> float:
    """The legend entry of the face-down mark, below the sheet's legend;
    returns the y (mm) below it."""
    size, lh, sw, indent = legend_geometry(w, st)
    sx, cy = x + sw * 0.75, y + lh / 2
    add_path(dwg, dwg, poly_d(hex_points(sx, cy, sw * 0.62)), fill=st.fill["box"],
             stroke=st.colour["ink"], width=st.mm("key_ring") * 0.7, dash="0.80,0.50", join="round")
    add_text(dwg, dwg, "?", sx, cy + size * 0.36, size, st, bold=True, anchor="middle")
    lines = wrap(tx.get("key.legend"), w - indent, size)
    for i, line in enumerate(lines):
        add_text(dwg, dwg, line, x + indent, cy + size * 0.36 + i * size * 1.2, size, st)
    return y + lh + (len(lines) - 1) * size * 1.2


# -- the list of face-down hexes -------------------------------------------------

def _columns(entries: list) -> int:
    return 1 if len(entries) <= 4 else 2


def _list_height(entries: list[tuple[int, int, Tile]], w: float, tx: Texts, st: Style) -> float:
    body = st.mm("body")
    head = st.mm("heading") * 1.5
    if not entries:
        return head + body * 1.6
    per_col = -(-len(entries) // _columns(entries))
    return head + per_col * body * 1.6 + 1.0 + len(wrap(tx.get("key.lay"), w, body)) * body * 1.3


def _hidden_list(dwg: Any, entries: list[tuple[int, int, Tile]], x: float, y: float, w: float,
                 tx: Texts, st: Style) -> None:
    """Heading, then one line per face-down hex: ``Row 1, hex 1:``, a
    swatch, the terrain word and the number (6 and 8 red and bold); then
    how to lay them. Without face-down hexes, one line saying so."""
    head = f"{tx.get('key.title')} ({len(entries)})" if entries else tx.get("key.title")
    y = heading_with_hint(dwg, head, tx.get("key.hint"), x, y, w, st)
    body = st.mm("body")
    rh = body * 1.6
    if not entries:
        add_text(dwg, dwg, tx.get("key.none"), x, y + rh / 2 + body * 0.36, body, st, bold=True)
        return
    ncol = _columns(entries)
    per_col = -(-len(entries) // ncol)
    col_w = w / ncol
    pos_w = max(text_width(tx.get("key.position", row=r, pos=p), body) for r, p, _ in entries) + 1.5
    sw = body * 0.55
    for k, (row, pos, t) in enumerate(entries):
        cx = x + (k // per_col) * col_w
        top = y + (k % per_col) * rh
        if k % per_col % 2 == 0:
            add_rect(dwg, dwg, cx, top, col_w - (2.0 if ncol > 1 else 0.0), rh, fill=st.fill["header"])
        base = top + rh / 2 + body * 0.36
        add_text(dwg, dwg, tx.get("key.position", row=row, pos=pos), cx + 0.8, base, body, st)
        hx_ = cx + 0.8 + pos_w + sw
        add_path(dwg, dwg, poly_d(hex_points(hx_, top + rh / 2, sw)), fill=st.fill[t.terrain],
                 stroke=st.colour["line"], width=st.mm("hex_stroke"))
        wx = hx_ + sw + 1.2
        number = "" if t.number is None else str(t.number)
        room = col_w - (wx - cx) - text_width(" " + number, body, bold=True) - 2.5
        word, wsz = fit(tx.get(f"terrain.{t.terrain}"), room, body, bold=True)
        add_text(dwg, dwg, word, wx, base, wsz, st, bold=True)
        if number:
            red = t.number in RED_NUMBERS
            add_text(dwg, dwg, number, wx + text_width(word + " ", wsz, bold=True), base, body, st,
                     bold=True, fill=st.colour["red"] if red else None)
    y += per_col * rh + 1.0
    for line in wrap(tx.get("key.lay"), w, body):
        y += body * 1.3
        add_text(dwg, dwg, line, x, y, body, st, fill=st.colour["muted"])
