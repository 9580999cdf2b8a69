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
sheet's build list counts it: :func:`setupgen.render.numbering.build_rows`),
and the setup ID and seed at the foot.

Same conventions as the table sheet: one portrait page of ``paper``, 1 SVG
user unit = 1 mm, no text below 8 pt, coordinates with two decimals, no
ids or timestamps, so the same input gives the same bytes. Words come from
``templates/<lang>.toml`` (table ``[key]``), sizes from ``style.toml``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import templates
from ..core.board import Board, Tile, hides_sea
from ..core.errors import SetupgenError
from ..core.layout import Layout
from ..core.rules import RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style, Texts, paper_size
from .board import draw_board
from .canvas import Surface
from .director import Sizes, sizes
from .fitting import Box, Fit, board_extent, hex_size_for, place
from .legend import draw_legend, legend_entries, legend_geometry, legend_lines
from .numbering import build_rows
from .page import (
    add_circle,
    add_path,
    add_rect,
    add_text,
    draw_red_number,
    drawing,
    finish,
    fit,
    fit_lines,
    hex_points,
    num,
    poly_d,
    text_width,
    wrap,
)
from .sheet import (
    MIN_HEX_MM,
    Page,
    SheetContext,
    footer,
    footer_height,
    heading_with_hint,
    scenario_title,
    table_box_and_rule,
)

#: dash pattern (mm) of the ring marking a face-down hex on the key
RING_DASH = "1.60,1.00"
#: the legend runs below the board in this many columns
LEGEND_COLUMNS = 3
#: the legend entry of the face-down mark (after the table sheet's entries)
KEY_ENTRY = "face-down"
#: the inset (mm) of a summary line's texts and the space between them
SUMMARY_PAD = 1.2


def hidden_entries(board: Board) -> list[tuple[int, int, Tile]]:
    """``(row, position, tile)`` of every hidden tile, both counted from 1
    as the table sheet's build list counts them
    (:func:`setupgen.render.numbering.build_rows`: every hex but frame half
    hexes, sea included), in reading order."""
    return [
        (i, j, t)
        for i, row in enumerate(build_rows(board), start=1)
        for j, t in enumerate(row.tiles, start=1)
        if t.hidden
    ]


def revealed(board: Board) -> Board:
    """``board`` with every hidden tile turned face up (one that hides sea
    drawn as sea)."""
    return dataclasses.replace(
        board,
        tiles=tuple(
            dataclasses.replace(t, hidden=False, kind="sea" if t.terrain == "sea" else t.kind) if t.hidden else t
            for t in board.tiles
        ),
    )


def render_key(
    board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4", context: SheetContext = SheetContext()
) -> str:
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
    draw_board(dwg, shown, fit_, tx, st)
    for _, _, t in entries:
        _mark_hidden(dwg, fit_, t, st)
    y += block_h + gap
    for i, col in enumerate(columns):
        lx = m + i * (col_w + gap)
        rest = [e for e in col if e != KEY_ENTRY]
        ly = draw_legend(dwg, rest, lx, y, col_w, tx, st)
        if KEY_ENTRY in col:
            _legend_extra(dwg, lx, ly, col_w, tx, st)
    y += legend_h + gap
    _hidden_list(dwg, entries, m, y, cw, tx, st)
    footer(dwg, board, m, h - m, cw, tx, st)
    return finish(dwg)


# -- header -------------------------------------------------------------------


def _header(dwg: Surface, layout: Layout, ctx: SheetContext, m: float, cw: float, tx: Texts, st: Style) -> float:
    """The black "director's key" banner across the page, then tournament
    and round, scenario and the warning on the left, the table number in a
    box on the right; returns the y (mm) below the header rule."""
    bs = st.mm("key_banner")
    bh = bs * 2.0
    add_rect(dwg, m, m, cw, bh, fill=st.colour["ink"])
    t, sz = fit(tx.get("key.banner"), cw - 4.0, bs, bold=True)
    add_text(dwg, t, m + cw / 2, m + bh / 2 + sz * 0.36, sz, st, bold=True, anchor="middle", fill="#ffffff")
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
            add_text(dwg, line, m, y, size, st, bold=True)
            y += size * 0.3
    t, sz = fit(scenario_title(layout, tx), text_w, st.mm("scenario"), bold=not first)
    y += sz * 1.05
    add_text(dwg, t, m, y, sz, st, bold=not first)
    y += sz * 0.3
    small = st.mm("small")
    for line in wrap(tx.get("key.warning"), text_w, small, bold=True):
        y += small * 1.3
        add_text(dwg, line, m, y, small, st, bold=True)
    for note in (tx.get("note.reconstruction"),) if layout.reconstruction else ():
        for line in wrap(f"{tx.get('director.note')} {note}", text_w, small):
            y += small * 1.3
            add_text(dwg, line, m, y, small, st, fill=st.colour["muted"])
    return table_box_and_rule(dwg, ctx.table if box_w else None, top, y + 0.8, m, cw, box_w, tx, st)


# -- the board's marks ----------------------------------------------------------


def _badge(dwg: Surface, x: float, y: float, r: float, st: Style) -> None:
    """A black disc with a white ``?``, radius ``r`` mm, centred on ``(x, y)``."""
    add_circle(dwg, x, y, r, fill=st.colour["ink"], stroke="#ffffff", width=0.3)
    size = max(MIN_FONT_MM, r * 1.3)
    add_text(dwg, "?", x, y + size * 0.36, size, st, bold=True, anchor="middle", fill="#ffffff")


def _mark_hidden(dwg: Surface, fit_: Fit, t: Tile, st: Style) -> None:
    """A thick dashed ring just inside a face-down hex and a ``?`` badge at
    its lower right (clear of the label above the token and of the robber
    at the left)."""
    s = fit_.s
    x, y = fit_.at(t.hex)
    add_path(
        dwg,
        poly_d(hex_points(x, y, s * 0.9)),
        stroke=st.colour["ink"],
        width=st.mm("key_ring"),
        dash=RING_DASH,
        join="round",
    )
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


def _legend_extra(dwg: Surface, x: float, y: float, w: float, tx: Texts, st: Style) -> float:
    """The legend entry of the face-down mark, below the sheet's legend;
    returns the y (mm) below it."""
    size, lh, sw, indent = legend_geometry(w, st)
    sx, cy = x + sw * 0.75, y + lh / 2
    add_path(
        dwg,
        poly_d(hex_points(sx, cy, sw * 0.62)),
        fill=st.fill["box"],
        stroke=st.colour["ink"],
        width=st.mm("key_ring") * 0.7,
        dash="0.80,0.50",
        join="round",
    )
    add_text(dwg, "?", sx, cy + size * 0.36, size, st, bold=True, anchor="middle")
    lines = wrap(tx.get("key.legend"), w - indent, size)
    for i, line in enumerate(lines):
        add_text(dwg, line, x + indent, cy + size * 0.36 + i * size * 1.2, size, st)
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
    return head + per_col * body * 1.6 + 1.0 + len(wrap(tx.get(_lay(entries)), w, body)) * body * 1.3


def _lay(entries: list[tuple[int, int, Tile]]) -> str:
    """The text key of how to lay the face-down hexes: their tokens as on
    the table sheet, or face down too where one hides sea
    (:attr:`Board.numbers_covered`)."""
    return "key.lay_covered" if hides_sea(t for _, _, t in entries) else "key.lay"


def _hidden_list(
    dwg: Surface, entries: list[tuple[int, int, Tile]], x: float, y: float, w: float, tx: Texts, st: Style
) -> None:
    """Heading, then one line per face-down hex: ``Row 1, hex 1:``, a
    swatch, the terrain word and the number (6 and 8 white on a black
    disc, as on the board); then
    how to lay them. Without face-down hexes, one line saying so."""
    head = f"{tx.get('key.title')} ({len(entries)})" if entries else tx.get("key.title")
    y = heading_with_hint(dwg, head, tx.get("key.hint"), x, y, w, st)
    body = st.mm("body")
    rh = body * 1.6
    if not entries:
        add_text(dwg, tx.get("key.none"), x, y + rh / 2 + body * 0.36, body, st, bold=True)
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
            add_rect(dwg, cx, top, col_w - (2.0 if ncol > 1 else 0.0), rh, fill=st.fill["header"])
        base = top + rh / 2 + body * 0.36
        add_text(dwg, tx.get("key.position", row=row, pos=pos), cx + 0.8, base, body, st)
        hx_ = cx + 0.8 + pos_w + sw
        add_path(
            dwg,
            poly_d(hex_points(hx_, top + rh / 2, sw)),
            fill=st.fill[t.terrain],
            stroke=st.colour["line"],
            width=st.mm("hex_stroke"),
        )
        wx = hx_ + sw + 1.2
        number = "" if t.number is None else str(t.number)
        room = col_w - (wx - cx) - text_width(" " + number, body, bold=True) - 2.5
        word, wsz = fit(tx.get(f"terrain.{t.terrain}"), room, body, bold=True)
        add_text(dwg, word, wx, base, wsz, st, bold=True)
        if number and t.number in RED_NUMBERS:  # 6 and 8 marked by shape, as on the board
            draw_red_number(dwg, wx + text_width(word + " ", wsz, bold=True), base, body, t.number, st)
        elif number:
            add_text(dwg, number, wx + text_width(word + " ", wsz, bold=True), base, body, st, bold=True)
    y += per_col * rh + 1.0
    for line in wrap(tx.get(_lay(entries)), w, body):
        y += body * 1.3
        add_text(dwg, line, x, y, body, st, fill=st.colour["muted"])


# -- the summary of every table at the front of key.pdf ----------------------------


@dataclass(frozen=True, slots=True)
class _Summary:
    """What every summary page shares: paper, words, style, the
    ``[key_summary]`` sizes, the columns' count and width, the width of
    the position texts (all mm)."""

    w: float
    h: float
    tx: Texts
    st: Style
    g: Sizes
    ncol: int
    col_w: float
    pos_w: float


def render_key_summary(
    tables: Sequence[tuple[int, Board]],
    *,
    lang: str = "en",
    paper: str = "a4",
    title: str | None = None,
    round: int | None = None,
    seed: str | None = None,
    notes: Sequence[str] = (),
) -> list[str]:
    """The summary of every table's face-down hexes as SVG texts, for the
    front of ``key.pdf``: the key's banner and warning, then per table
    (``(table number, board)``, in the order given) its number and setup ID
    and one line per hidden hex (row and position as
    :func:`hidden_entries` counts them, terrain, number), in as many
    columns as fit the page at 8 pt, as many tables a page as fit (a
    table's block is never split), "page i of n" at the foot. ``notes``:
    director-only notes, in words.

    Raises :class:`SetupgenError` for an unknown language or paper."""
    w, h = paper_size(paper)
    tx, st, g = templates.texts(lang), templates.style(), sizes("key_summary")
    blocks = [(t, b.setup_id, hidden_entries(b)) for t, b in tables]
    plan = _summary_plan(blocks, w, h, tx, st, g)
    head = (title, round, seed, len(blocks), tuple(notes))
    top = _summary_header(drawing(w, h), plan, *head)
    bottom = h - st.margin - g("size") * 1.2 - g("block_gap")
    pages = _summary_pages(blocks, plan, bottom - top)
    out = []
    for i, columns in enumerate(pages, start=1):
        dwg = drawing(w, h)
        y0 = _summary_header(dwg, plan, *head)
        for c, column in enumerate(columns):
            y = y0
            for block in column:
                y = _summary_block(dwg, plan, block, st.margin + c * (plan.col_w + g("column_gap")), y)
        add_text(
            dwg,
            tx.get("key.summary_page", i=i, n=len(pages)),
            w - st.margin,
            h - st.margin,
            g("size"),
            st,
            anchor="end",
            fill=st.colour["muted"],
        )
        out.append(finish(dwg))
    return out


def _summary_pages(blocks: list[tuple[int, str, list]], plan: _Summary, room: float) -> list[list[list]]:
    """The blocks cut into pages of columns, in order, each column at most
    ``room`` mm high (a block never split); the last page's blocks spread
    evenly over its columns when they fit that way."""
    g = plan.g
    pages: list[list[list]] = [[[]]]
    y = 0.0
    for block in blocks:
        bh = _block_height(block) * g("line")
        if pages[-1][-1] and y + bh > room:
            if len(pages[-1]) == plan.ncol:
                pages.append([])
            pages[-1].append([])
            y = 0.0
        pages[-1][-1].append(block)
        y += bh + g("block_gap")
    last = [b for col in pages[-1] for b in col]
    per = -(-len(last) // plan.ncol)
    even = [last[i : i + per] for i in range(0, len(last), per)]
    if all(sum(_block_height(b) * g("line") + g("block_gap") for b in col) - g("block_gap") <= room for col in even):
        pages[-1] = even
    return pages


def _block_height(block: tuple[int, str, list]) -> int:
    """A table's block in lines: its heading and one line per hidden hex
    (one saying there are none)."""
    return 1 + max(1, len(block[2]))


def _summary_plan(blocks: list[tuple[int, str, list]], w: float, h: float, tx: Texts, st: Style, g: Sizes) -> _Summary:
    """The columns: as many as the widest block allows across the page."""
    size, sw, pad = g("size"), g("swatch"), SUMMARY_PAD
    entries = [e for _, _, es in blocks for e in es]
    pos_w = max((text_width(tx.get("key.position", row=r, pos=p), size) for r, p, _ in entries), default=0.0)
    terrain_w = max((text_width(tx.get(f"terrain.{t.terrain}"), size, bold=True) for _, _, t in entries), default=0.0)
    number_w = max((text_width(str(t.number or ""), size, bold=True) for _, _, t in entries), default=0.0)
    line_w = pad + pos_w + pad + 2 * sw + pad + terrain_w + 2 * pad + number_w + pad
    head_w = max(
        (
            text_width(tx.get("key.table", n=t), size, bold=True) + 2 * pad + text_width(sid, size, mono=True) + 2 * pad
            for t, sid, _ in blocks
        ),
        default=0.0,
    )
    none_w = text_width(tx.get("key.none"), size) + 2 * pad if any(not es for _, _, es in blocks) else 0.0
    cw, gap = w - 2 * st.margin, g("column_gap")
    ncol = max(1, int((cw + gap) // (max(line_w, head_w, none_w) + gap)))
    return _Summary(w, h, tx, st, g, ncol, (cw - (ncol - 1) * gap) / ncol, pos_w)


def _summary_header(
    dwg: Surface,
    plan: _Summary,
    title: str | None,
    round: int | None,
    seed: str | None,
    count: int,
    notes: tuple[str, ...],
) -> float:
    """The key's black banner, the summary's title, tournament and round,
    the warning, the counting hint and the notes; returns the y (mm) below
    the rule under them."""
    tx, st, g = plan.tx, plan.st, plan.g
    m, cw = st.margin, plan.w - 2 * st.margin
    bs = st.mm("key_banner")
    add_rect(dwg, m, m, cw, bs * 2.0, fill=st.colour["ink"])
    t, sz = fit(tx.get("key.banner"), cw - 4.0, bs, bold=True)
    add_text(dwg, t, m + cw / 2, m + bs + sz * 0.36, sz, st, bold=True, anchor="middle", fill="#ffffff")
    y = m + bs * 2.0 + 1.0
    t, sz = fit(tx.get("key.summary_title"), cw, g("title"), bold=True)
    y += sz * 1.1
    add_text(dwg, t, m, y, sz, st, bold=True)
    size = g("size")
    sub = [
        x
        for x in (
            title,
            None if round is None else tx.get("sheet.round", n=round),
            tx.get("key.summary_count", n=count),
            None if seed is None else tx.get("director.round_seed", seed=seed),
        )
        if x
    ]
    lines = [(" · ".join(sub), True), (tx.get("key.warning"), True), (f"({tx.get('key.hint')})", False)]
    lines += [(f"{tx.get('director.note')} {n}", False) for n in notes]
    y += size * 0.4
    for text, bold in lines:
        for line in wrap(text, cw, size, bold=bold):
            y += size * 1.3
            t, sz = fit(line, cw, size, bold=bold)
            add_text(dwg, t, m, y, sz, st, bold=bold, fill=None if bold else st.colour["muted"])
    y += size * 0.6
    add_path(dwg, f"M{num(m)},{num(y)} L{num(m + cw)},{num(y)}", stroke=st.colour["ink"], width=st.mm("rule"))
    return y + g("block_gap")


def _summary_block(dwg: Surface, plan: _Summary, block: tuple[int, str, list], x: float, y: float) -> float:
    """One table: a shaded heading line (table number, setup ID at the
    right), then one line per hidden hex; returns the y below the block."""
    tx, st, g = plan.tx, plan.st, plan.g
    size, lh, sw, pad = g("size"), g("line"), g("swatch"), SUMMARY_PAD
    table, setup_id, entries = block
    add_rect(dwg, x, y, plan.col_w, lh, fill=st.fill["header"])
    base = y + lh / 2 + size * 0.36
    add_text(dwg, tx.get("key.table", n=table), x + pad, base, size, st, bold=True)
    add_text(dwg, setup_id, x + plan.col_w - pad, base, size, st, mono=True, anchor="end")
    if not entries:
        t, sz = fit(tx.get("key.none"), plan.col_w - 2 * pad, size)
        add_text(dwg, t, x + pad, base + lh, sz, st)
    for k, (row, pos, t) in enumerate(entries, start=1):
        top, base = y + k * lh, base + lh
        add_text(dwg, tx.get("key.position", row=row, pos=pos), x + pad, base, size, st)
        hx = x + pad + plan.pos_w + pad + sw
        add_path(
            dwg,
            poly_d(hex_points(hx, top + lh / 2, sw)),
            fill=st.fill[t.terrain],
            stroke=st.colour["line"],
            width=st.mm("hex_stroke"),
        )
        number = "" if t.number is None else str(t.number)
        room = plan.col_w - (hx + sw + pad - x) - text_width(number, size, bold=True) - 3 * pad
        word, wsz = fit(tx.get(f"terrain.{t.terrain}"), room, size, bold=True)
        add_text(dwg, word, hx + sw + pad, base, wsz, st, bold=True)
        if number and t.number in RED_NUMBERS:  # 6 and 8 marked by shape, as on the board
            draw_red_number(dwg, x + plan.col_w - pad, base, size, t.number, st, anchor="end")
        elif number:
            add_text(dwg, number, x + plan.col_w - pad, base, size, st, anchor="end")
    return y + _block_height(block) * lh + g("block_gap")
