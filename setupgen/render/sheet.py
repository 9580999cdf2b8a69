"""Printable table sheets as SVG text
(``docs/sheet.md``).

Pure functions: the same board, layout, language, paper and context give
byte-identical SVG on any machine (coordinates written with two decimals,
no ids, no timestamps). The SVG's width and height are in mm and its
viewBox uses 1 user unit = 1 mm; every ``font-size`` is in mm and never
below 8 pt (2.822 mm). Words come from ``templates/<lang>.toml``, colours
and sizes from ``templates/style.toml`` (:mod:`setupgen.core.templates`).

Page order (docs/sheet.md): header (tournament, round, table, scenario), the
board with legend and harbor list beside it, the build list, the notes,
the result slip, and the setup ID and seed at the foot.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..core import templates
from ..core.board import Board, Tile
from ..core.errors import SetupgenError
from ..core.hexgrid import neighbors
from ..core.layout import Layout
from ..core.rules import HARBOR_TYPES, RED_NUMBERS, RULE_EQUAL, clashes
from .board import (
    Box, board_extent, draw_board, draw_legend, harbor_order, harbor_words, hex_size_for,
    land_rows, legend_entries, legend_height, place,
)
from ..core.templates import MIN_FONT_MM, Style, Texts, paper_size
from .page import (
    add_circle, add_path, add_rect, add_text, drawing, finish, fit, fit_lines, num, text_width, wrap,
)

__all__ = ["Page", "SheetContext", "render_sheet", "scenario_title", "sheet_notes",
           "table_box_and_rule", "heading_with_hint"]

#: most players on one result slip
MAX_PLAYERS = 6
#: smallest hex size (mm, centre to corner) a sheet may draw
MIN_HEX_MM = 5.0


@dataclass(frozen=True, slots=True)
class SheetContext:
    """What the schedule knows about a table: tournament name, round and
    table number, and the players in starting order (may be empty)."""

    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    players: tuple[str, ...] = ()


# --------------------------------------------------------------------------
# the table sheet

@dataclass(frozen=True, slots=True)
class Page:
    """A new portrait page and what laying it out needs: size ``w`` x ``h``,
    margin ``m``, text width ``cw`` and ``gap`` (all mm), the sheet words
    ``tx``, the style ``st`` and the svgwrite drawing ``dwg``."""

    w: float
    h: float
    tx: Texts
    st: Style
    m: float
    cw: float
    gap: float
    dwg: Any

    @classmethod
    def start(cls, paper: str, lang: str) -> "Page":
        """Raises :class:`SetupgenError` for an unknown paper or language."""
        w, h = paper_size(paper)
        tx = templates.texts(lang)
        st = templates.style()
        return cls(w, h, tx, st, st.margin, w - 2 * st.margin, st.mm("gap"), drawing(w, h))


def render_sheet(board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4",
                 context: SheetContext = SheetContext()) -> str:
    """The table sheet of ``board`` as SVG text: one portrait page of
    ``paper`` (mm), margins from the style (at least 10 mm), no text below
    8 pt. Hidden hexes show only ``?`` and their number.

    Raises :class:`SetupgenError` for an unknown language or paper, more
    than :data:`MAX_PLAYERS` players, when the templates lack a text the
    layout needs (e.g. a note key), or when the content cannot fit on the
    page with hexes of at least :data:`MIN_HEX_MM` mm.
    """
    pg = Page.start(paper, lang)
    h, tx, st, m, cw, gap, dwg = pg.h, pg.tx, pg.st, pg.m, pg.cw, pg.gap, pg.dwg
    y = _header(dwg, layout, context, m, cw, tx, st)

    if len(context.players) > MAX_PLAYERS:
        raise SetupgenError(f"a table sheet lists at most {MAX_PLAYERS} players, got {len(context.players)}")
    rows = land_rows(board)
    n_players = len(context.players) or (6 if layout.players == "5-6" else 4)
    build_h = _build_height(rows, st)
    foot_h = footer_height(board, cw, tx, st)
    row_min = st.mm("slip_min_row")
    slip_h = _slip_height(n_players, row_min, cw, layout, tx, st)
    full = sheet_notes(board, layout, tx)
    # the reconstruction note is for the director: on a crowded page it goes first
    reconstruction = tx.get("note.reconstruction") if layout.reconstruction else None
    for notes in (full, [n for n in full if n != reconstruction]):
        notes_h = _notes_height(notes, cw, st)
        available = h - m - foot_h - y - build_h - notes_h - slip_h - 5 * gap
        side_w, s, block_h = _board_block(board, layout, cw - gap, available, tx, st)
        if block_h <= available + 0.01 and s >= MIN_HEX_MM:
            break
    else:
        long = [what for what, text in (("title", context.tournament), ("seed", board.seed)) if len(text or "") > 40]
        hint = f": a shorter {' or '.join(long)} leaves room for the board" if long else ""
        raise SetupgenError(f"the sheet for {layout.name} does not fit on one {paper} page{hint}")
    board_w = cw - side_w - gap
    surplus = max(0.0, available - block_h)
    grow = min(surplus * 0.7, n_players * (st.mm("slip_row") + 2.0 - row_min))
    slip_row = row_min + grow / n_players
    vgap = gap + (surplus - grow) / 5

    y += vgap
    box = Box(m, y, board_w, block_h)
    draw_board(dwg, dwg, board, place(board, box, s), tx, st)
    sy = draw_legend(dwg, dwg, legend_entries(board), m + board_w + gap, y, side_w, tx, st)
    _harbor_list(dwg, board, layout, m + board_w + gap, sy + 1.5, side_w, tx, st)
    y += block_h + vgap
    _build_list(dwg, rows, m, y, cw, tx, st)
    y += build_h + vgap
    _notes(dwg, notes, m, y, cw, tx, st)
    y += notes_h + vgap
    _slip(dwg, context.players, n_players, slip_row, m, y, cw, layout, tx, st)
    footer(dwg, board, m, h - m, cw, tx, st)
    return finish(dwg)


def _board_block(board: Board, layout: Layout, width: float, available: float,
                 tx: Texts, st: Style) -> tuple[float, float, float]:
    """``(side column width, hex size, block height)`` in mm for the board
    and the side column (legend, harbors) sharing ``width`` mm: the side
    column narrows from the style's width in 4 mm steps (down to 3/4 of it)
    while that enlarges the board and the column still fits beside it."""
    x0, y0, x1, y1 = board_extent(board)
    best = None
    side_w = st.mm("side_column")
    while side_w >= st.mm("side_column") * 0.75:
        board_w = width - side_w
        side_h = legend_height(board, side_w, tx, st) + _harbor_list_height(board, layout, side_w, tx, st)
        s = hex_size_for(board, board_w, available)
        block_h = max(min(available, (y1 - y0) * s + 6.0), side_h)
        s = min(s, hex_size_for(board, board_w, block_h))
        if best is None or (block_h <= available and s > best[1] + 0.05):
            best = (side_w, s, block_h)
        side_w -= 4.0
    assert best is not None  # the loop runs at least once
    return best


def scenario_title(layout: Layout, tx: Texts) -> str:
    """The scenario's title in the template language (the layout name if the
    templates have none)."""
    key = f"scenario.{layout.name}"
    return tx.get(key) if tx.has(key) else layout.name


def _header(dwg: Any, layout: Layout, ctx: SheetContext, m: float, cw: float,
            tx: Texts, st: Style) -> float:
    """Tournament, round and scenario on the left, a large table number on
    the right; returns the y (mm) below the header rule."""
    box_w = 32.0 if ctx.table is not None else 0.0
    text_w = cw - box_w - (4.0 if box_w else 0.0)
    lines: list[tuple[str, float, bool]] = []
    round_text = None if ctx.round is None else tx.get("sheet.round", n=ctx.round)
    both = f"{ctx.tournament} · {round_text}" if ctx.tournament and round_text else None
    if both and text_width(both, st.mm("round"), bold=True) <= text_w:
        lines.append((both, st.mm("round"), True))
    else:
        if ctx.tournament:
            t_lines, t_size = fit_lines(ctx.tournament, text_w, st.mm("tournament"), 2, bold=True)
            lines.extend((t, t_size, True) for t in t_lines)
        if round_text:
            lines.append((round_text, st.mm("round"), True))
    big = not lines
    lines.append((scenario_title(layout, tx), st.mm("round") if big else st.mm("scenario"), big))
    y = m
    for text, size, bold in lines:
        t, sz = fit(text, text_w, size, bold=bold)
        y += sz * 1.05
        add_text(dwg, dwg, t, m, y, sz, st, bold=bold)
        y += sz * 0.35
    return table_box_and_rule(dwg, ctx.table if box_w else None, m, y, m, cw, box_w, tx, st)


def table_box_and_rule(dwg: Any, table: int | None, top: float, bottom: float, m: float, cw: float,
                       box_w: float, tx: Texts, st: Style) -> float:
    """The boxed table number at the right of a header (``top`` mm, box
    ``box_w`` mm wide; none for ``table`` None) and the rule under the
    header; returns the y (mm) of the rule."""
    if table is not None:
        bh = 19.0
        bx = m + cw - box_w
        add_rect(dwg, dwg, bx, top, box_w, bh, fill=st.fill["header"], stroke=st.colour["ink"], width=0.5)
        word, ws = fit(tx.get("sheet.table"), box_w - 3, st.mm("table_word"))
        add_text(dwg, dwg, word, bx + box_w / 2, top + ws + 1.2, ws, st, anchor="middle")
        t, sz = fit(str(table), box_w - 3, st.mm("table_number"), bold=True)
        add_text(dwg, dwg, t, bx + box_w / 2, top + bh - 2.2, sz, st, bold=True, anchor="middle")
        bottom = max(bottom, top + bh)
    bottom += 1.5
    add_path(dwg, dwg, f"M{num(m)},{num(bottom)} L{num(m + cw)},{num(bottom)}",
             stroke=st.colour["ink"], width=st.mm("rule"))
    return bottom


# -- harbor list (side column) ----------------------------------------------

def _harbor_lines(board: Board, layout: Layout, tx: Texts) -> tuple[str, str, list[tuple[str, str]]]:
    """``(heading, hint, [(key, text)])`` for the side column."""
    if board.harbor_method == "players":
        counts = [(t, layout.harbor_pool.count(t)) for t in HARBOR_TYPES if t in layout.harbor_pool]
        items = []
        for htype, n in counts:
            ratio, word = harbor_words(htype, tx)
            items.append((tx.get("sheet.harbor_count", n=n), f"{ratio} {word}".strip()))
        return tx.get("sheet.harbor_pool"), "", items
    items = []
    for i, hb in enumerate(harbor_order(board), start=1):
        ratio, word = harbor_words(hb.type, tx)
        items.append((str(i), f"{ratio} {word}".strip()))
    return tx.get("sheet.harbors"), tx.get("sheet.harbors_hint"), items


def _harbor_columns(items: list[tuple[str, str]], w: float, st: Style) -> int:
    """Two columns for more than six harbors when they fit, else one."""
    if len(items) <= 6:
        return 1
    size = st.mm("small")
    key_w = max(text_width(k, size, bold=True) for k, _ in items) + 1.5
    widest = max(text_width(t, size) for _, t in items)
    return 2 if key_w + widest + 1.5 <= w / 2 else 1


def _harbor_list_height(board: Board, layout: Layout, w: float, tx: Texts, st: Style) -> float:
    _, hint, items = _harbor_lines(board, layout, tx)
    if not items:
        return 0.0
    per_col = -(-len(items) // _harbor_columns(items, w, st))
    hint_h = st.mm("small") * 1.3 * len(wrap(hint, w, st.mm("small")))
    return 1.5 + st.mm("heading") * 1.4 + hint_h + 0.6 + per_col * st.mm("small") * 1.35


def _harbor_list(dwg: Any, board: Board, layout: Layout, x: float, y: float, w: float,
                 tx: Texts, st: Style) -> None:
    """The harbors in their board numbering (or, for ``players`` harbors,
    the pool to lay), in one or two columns."""
    heading, hint, items = _harbor_lines(board, layout, tx)
    if not items:
        return
    hs = st.mm("heading")
    y += hs
    add_text(dwg, dwg, heading, x, y, hs, st, bold=True)
    y += hs * 0.4
    for line in wrap(hint, w, st.mm("small")):
        y += st.mm("small") * 1.3
        add_text(dwg, dwg, line, x, y, st.mm("small"), st, fill=st.colour["muted"])
    y += 0.6
    size = st.mm("small")
    ncol = _harbor_columns(items, w, st)
    per_col = -(-len(items) // ncol)
    col_w = w / ncol
    key_w = max(text_width(k, size, bold=True) for k, _ in items) + 1.5
    for i, (key, text) in enumerate(items):
        cx = x + (i // per_col) * col_w
        cy = y + (i % per_col + 1) * size * 1.35
        add_text(dwg, dwg, key, cx + key_w - 1.5, cy, size, st, bold=True, anchor="end")
        t, sz = fit(text, col_w - key_w - 1.0, size)
        add_text(dwg, dwg, t, cx + key_w, cy, sz, st)


# -- build list ---------------------------------------------------------------

def cell_text(t: Tile, tx: Texts) -> tuple[str, str]:
    """Build-list words of one hex: ``(word, number)``; a hidden hex gives
    ``("?", number)``, a desert or sea hex no number."""
    number = "" if t.number is None else str(t.number)
    if t.hidden:
        word = tx.get("label.hidden")
    else:
        word = tx.get(f"terrain.{t.terrain}")
    if t.oil_spring:
        number = f"{number} {tx.get('sheet.oil_short')}".strip()
    return word, number


def _build_height(rows: list[list[Tile]], st: Style) -> float:
    return st.mm("heading") * 1.5 + len(rows) * st.mm("build_row")


def heading_with_hint(dwg: Any, head: str, hint: str, x: float, y: float, w: float, st: Style) -> float:
    """A section heading at ``(x, y)`` mm with a small grey hint in brackets
    after it, fitted to ``w`` mm; returns the y (mm) below the heading."""
    hs = st.mm("heading")
    y += hs
    add_text(dwg, dwg, head, x, y, hs, st, bold=True)
    hx = x + text_width(head + "  ", hs, bold=True)
    small, hsz = fit(f"({hint})", w - (hx - x), st.mm("small"))
    add_text(dwg, dwg, small, hx, y, hsz, st, fill=st.colour["muted"])
    return y + hs * 0.5


def _build_list(dwg: Any, rows: list[list[Tile]], x: float, y: float, w: float, tx: Texts, st: Style) -> None:
    y = heading_with_hint(dwg, tx.get("sheet.build"), tx.get("sheet.build_hint"), x, y, w, st)
    rh = st.mm("build_row")
    label_w = text_width(f"{tx.get('sheet.row')} 00", st.mm("body"), bold=True) + 1.5
    ncol = max(len(r) for r in rows) if rows else 1
    col_w = (w - label_w) / ncol
    size = st.mm("body")
    for row in rows:
        for t in row:
            word, number = cell_text(t, tx)
            need = text_width(f"{word} {number}", size, bold=True) + 1.5
            if need > col_w:
                size = max(MIN_FONT_MM, size * col_w / need)
    for i, row in enumerate(rows, start=1):
        top = y + (i - 1) * rh
        if i % 2 == 1:
            add_rect(dwg, dwg, x, top, w, rh, fill=st.fill["header"])
        base = top + rh / 2 + size * 0.36
        add_text(dwg, dwg, f"{tx.get('sheet.row')} {i}", x + 0.8, base, st.mm("body"), st, bold=True)
        for j, t in enumerate(row):
            cx = x + label_w + j * col_w
            word, number = cell_text(t, tx)
            fill = st.colour["muted"] if t.kind != "land" else None
            word_t, _ = fit(word, col_w - 1.0 - text_width(" " + number, size, bold=True), size)
            add_text(dwg, dwg, word_t, cx, base, size, st, fill=fill)
            if number:
                red = t.number in RED_NUMBERS
                nx = cx + text_width(word_t + " ", size)
                add_text(dwg, dwg, number, nx, base, size, st, bold=True,
                         fill=st.colour["red"] if red else None)
            if j:
                add_path(dwg, dwg, f"M{num(cx - 1.0)},{num(top + 0.8)} L{num(cx - 1.0)},{num(top + rh - 0.8)}",
                         stroke=st.colour["line"], width=0.15)
    add_rect(dwg, dwg, x, y, w, rh * len(rows), stroke=st.colour["line"], width=0.2)


# -- notes ----------------------------------------------------------------------

def sheet_notes(board: Board, layout: Layout, tx: Texts) -> list[str]:
    """The notes printed for this board, in order: victory points, the
    layout's notes (template keys), the reconstruction note, the harbor
    procedure for ``players`` harbors, and equal neighbours left by the
    ``spiral`` method.

    Raises :class:`SetupgenError` when the templates lack a note key.
    """
    out = [tx.get("sheet.victory_points", n=layout.victory_points)]
    keys = list(layout.notes)
    if layout.reconstruction and "reconstruction" not in keys:
        keys.append("reconstruction")
    for key in keys:
        if not tx.has(f"note.{key}"):
            raise SetupgenError(f"templates/{tx.lang}.toml has no note {key!r} (layout {layout.name})")
        out.append(tx.get(f"note.{key}"))
    if board.harbor_method == "players":
        out.append(tx.get("sheet.harbors_players"))
    pairs = equal_neighbours(board)
    if board.number_method == "spiral" and pairs:
        row_of = {t.hex: i for i, row in enumerate(land_rows(board), start=1) for t in row}
        texts_ = []
        for a, b, n in pairs:
            ra, rb = row_of[a], row_of[b]
            if ra == rb:
                texts_.append(tx.get("sheet.spiral_pair_same_row", n=n, a=ra))
            else:
                texts_.append(tx.get("sheet.spiral_pair", n=n, a=ra, b=rb))
        out.append(tx.get("sheet.spiral_equal", pairs=tx.get("sheet.list_sep").join(texts_)))
    return out


def equal_neighbours(board: Board) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """Pairs of adjacent land hexes with equal numbers, each pair once, in
    reading order: ``(hex, later hex, number)``."""
    out = []
    for t in board.tiles:
        if t.kind != "land" or t.number is None:
            continue
        for n in neighbors(t.hex):
            o = board.tile(n)
            if (o is not None and o.kind == "land" and o.number is not None
                    and RULE_EQUAL in clashes(t.number, o.number) and (n[1], n[0]) > (t.hex[1], t.hex[0])):
                out.append((t.hex, n, t.number))
    return sorted(out, key=lambda p: (p[0][1], p[0][0], p[1][1], p[1][0]))


def _notes_height(notes: list[str], w: float, st: Style) -> float:
    size = st.mm("body")
    n = sum(len(wrap(t, w - 4.0, size)) for t in notes)
    return st.mm("heading") * 1.4 + n * size * 1.3


def _notes(dwg: Any, notes: list[str], x: float, y: float, w: float, tx: Texts, st: Style) -> None:
    hs = st.mm("heading")
    y += hs
    add_text(dwg, dwg, tx.get("sheet.notes"), x, y, hs, st, bold=True)
    y += hs * 0.4
    size = st.mm("body")
    for i, note in enumerate(notes):
        for j, line in enumerate(wrap(note, w - 4.0, size)):
            y += size * 1.3
            if j == 0:
                add_circle(dwg, dwg, x + 1.2, y - size * 0.33, 0.6, fill=st.colour["ink"])
            add_text(dwg, dwg, line, x + 4.0, y, size, st, bold=(i == 0))


# -- result slip ------------------------------------------------------------------

def _slip_hint(w: float, layout: Layout, tx: Texts, st: Style) -> tuple[str, list[str]]:
    """``(heading, hint lines)``: the hint in brackets beside the heading if
    it fits there (no extra lines), else wrapped below it."""
    head = tx.get("slip.title")
    hint = f"({tx.get('slip.hint', vp=layout.victory_points)})"
    beside = w - text_width(head + "  ", st.mm("heading"), bold=True)
    if text_width(hint, st.mm("small")) <= beside:
        return head, [hint]
    return head, [""] + wrap(hint, w, st.mm("small"))


def _slip_height(n: int, row: float, w: float, layout: Layout, tx: Texts, st: Style) -> float:
    _, hint = _slip_hint(w, layout, tx, st)
    return st.mm("heading") * 1.4 + (len(hint) - 1) * st.mm("small") * 1.25 + st.mm("body") * 1.6 + n * row


def _slip(dwg: Any, players: Sequence[str], n: int, rh: float, x: float, y: float, w: float,
          layout: Layout, tx: Texts, st: Style) -> None:
    """The result slip: heading, then one row per player (starting order)
    with a victory-point box, a winner box and a signature line."""
    hs = st.mm("heading")
    small = st.mm("small")
    head, hint = _slip_hint(w, layout, tx, st)
    y += hs
    add_text(dwg, dwg, head, x, y, hs, st, bold=True)
    if hint[0]:
        add_text(dwg, dwg, hint[0], x + text_width(head + "  ", hs, bold=True), y, small, st, fill=st.colour["muted"])
    y += hs * 0.4
    for line in hint[1:]:
        y += small * 1.25
        add_text(dwg, dwg, line, x, y, small, st, fill=st.colour["muted"])
    body = st.mm("body")
    cols = (("slip.seat", 9.0), ("slip.player", 0.0), ("slip.vp", 22.0), ("slip.winner", 22.0), ("slip.signature", 58.0))
    fixed = sum(c[1] for c in cols)
    widths = [c[1] or (w - fixed) for c in cols]
    xs = [x + sum(widths[:i]) for i in range(len(widths))]
    y += body * 1.4
    for (key, _), cx, cwid in zip(cols, xs, widths):
        t, sz = fit(tx.get(key), cwid - 1.5, body, bold=True)
        add_text(dwg, dwg, t, cx + 0.8, y, sz, st, bold=True)
    y += body * 0.2
    add_path(dwg, dwg, f"M{num(x)},{num(y)} L{num(x + w)},{num(y)}", stroke=st.colour["ink"], width=st.mm("rule"))
    for i in range(n):
        top = y + i * rh
        base = top + rh / 2 + body * 0.36
        add_text(dwg, dwg, str(i + 1), xs[0] + 0.8, base, body, st, bold=True)
        if i < len(players):
            t, sz = fit(players[i], widths[1] - 2.0, body)
            add_text(dwg, dwg, t, xs[1] + 0.8, base, sz, st)
        bh = min(rh - 1.6, 7.0)
        add_rect(dwg, dwg, xs[2] + 1.0, top + (rh - bh) / 2, widths[2] - 4.0, bh, fill=st.fill["box"],
                 stroke=st.colour["ink"], width=0.35)
        add_rect(dwg, dwg, xs[3] + (widths[3] - bh) / 2, top + (rh - bh) / 2, bh, bh, fill=st.fill["box"],
                 stroke=st.colour["ink"], width=0.35)
        add_path(dwg, dwg, f"M{num(xs[4] + 1.0)},{num(top + rh - 1.2)} L{num(x + w)},{num(top + rh - 1.2)}",
                 stroke=st.colour["ink"], width=0.25)
        add_path(dwg, dwg, f"M{num(x)},{num(top + rh)} L{num(xs[4])},{num(top + rh)}",
                 stroke=st.colour["line"], width=0.15)


# -- footer (setup ID and seed) -----------------------------------------------------

def _id_lines(board: Board, w: float, tx: Texts, st: Style) -> list[list[tuple[str, bool]]]:
    """Footer lines as runs ``(text, mono)``: the setup ID, then the seed (on
    the same line if it fits, else in whole on further lines, cut into
    pieces if longer than a line). Runs are laid out left to right with a
    fixed space between them (SVG drops leading spaces)."""
    size = st.mm("id")
    first = [(f"{tx.get('sheet.setup_id')}:", False), (board.setup_id, True)]
    if board.seed is None:
        return [first]
    label = f"{tx.get('sheet.seed')}:"
    line = first + [(label, False), (board.seed, True)]
    if _runs_width(line, size) <= w:
        return [line]
    per = max(1, int((w - text_width(label, size) - _RUN_GAP) / (0.602 * size)))
    chunks = [board.seed[i:i + per] for i in range(0, len(board.seed), per)] or [""]
    return [first] + [[(label if i == 0 else "", False), (c, True)] for i, c in enumerate(chunks)]


_RUN_GAP = 1.5  # mm between footer runs; a label and the next label: 3 x this


def _runs_width(runs: list[tuple[str, bool]], size: float) -> float:
    return sum(text_width(t, size, mono=mono) for t, mono in runs) + _RUN_GAP * (len(runs) - 1) * 2


def footer_height(board: Board, w: float, tx: Texts, st: Style) -> float:
    return len(_id_lines(board, w, tx, st)) * st.mm("id") * 1.3 + 2.0


def footer(dwg: Any, board: Board, x: float, bottom: float, w: float, tx: Texts, st: Style) -> None:
    size = st.mm("id")
    lines = _id_lines(board, w, tx, st)
    y = bottom - (len(lines) - 1) * size * 1.3 - size * 0.25
    add_path(dwg, dwg, f"M{num(x)},{num(y - size * 1.2)} L{num(x + w)},{num(y - size * 1.2)}",
             stroke=st.colour["line"], width=0.2)
    label_w = max(text_width(t, size) for runs in lines for t, mono in runs if not mono)
    for runs in lines:
        cx = x
        for i, (text, mono) in enumerate(runs):
            if text:
                add_text(dwg, dwg, text, cx, y, size, st, mono=mono, bold=mono,
                         fill=None if mono else st.colour["muted"])
            if not mono and len(lines) > 1:
                cx += label_w + _RUN_GAP
            else:
                cx += text_width(text, size, mono=mono) + _RUN_GAP * (4 if mono else 1)
        y += size * 1.3
