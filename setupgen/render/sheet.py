"""Printable table sheets (``docs/sheet.md``).

Pure functions: the same board, layout, language, paper and context give
byte-identical SVG on any machine (coordinates written with two decimals,
no ids, no timestamps). The SVG's width and height are in mm and its
viewBox uses 1 user unit = 1 mm; every ``font-size`` is in mm and never
below 8 pt (2.822 mm). Words come from ``templates/<lang>.toml``, colours,
patterns and sizes from ``templates/style.toml`` (:mod:`setupgen.core.templates`).

Page order (docs/sheet.md): header (tournament, round, table, scenario;
room for a QR code), the board with the legend beside it (and the notes
when they fit there), the build list (rows, harbors), the notes, the
result slip, and the setup ID and seed at the foot with the balance line
(:func:`balance_line`; room kept for it when there is none). Each section
is measured and drawn by the same function: it draws onto a canvas and
returns its height, and measuring draws onto a scratch canvas.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import cldr, templates
from ..core.balance import Balance
from ..core.board import Board, Piece, Tile
from ..core.errors import SetupgenError
from ..core.hexgrid import Hex, neighbor, neighbors
from ..core.layout import Layout
from ..core.limits import MAX_DIGITS, MAX_ROUND, MAX_VP, MIN_VP, check_text
from ..core.rules import FINALS_STAGES, HARBOR_TYPES, RED_NUMBERS, RULE_EQUAL, clashes
from ..core.templates import MIN_FONT_MM, Style, Texts, paper_size
from .board import draw_board
from .canvas import Canvas, MeasureCanvas, Surface
from .fitting import PAD, Box, board_extent, hex_size_for, place
from .legend import draw_legend, legend_entries
from .numbering import build_rows, harbor_order, harbor_words, positions
from .page import add_circle, add_path, add_rect, add_text, drawing, finish, fit, num, text_width, wrap

__all__ = [
    "Page",
    "SheetContext",
    "render_sheet",
    "sheet_page",
    "board_picture",
    "scenario_title",
    "round_label",
    "stage_word",
    "sheet_notes",
    "director_notes",
    "table_box_and_rule",
    "heading_with_hint",
    "build_list_lines",
    "balance_line",
]

#: most players on one result slip
MAX_PLAYERS = 6
#: smallest hex size (mm, centre to corner) a sheet may draw
MIN_HEX_MM = 5.0
#: longest text a sheet's QR code holds (a table's result URL, docs/console.md)
MAX_QR_TEXT = 300
#: slip kinds: players in starting order, or (finals) by rank, choosing seats
SEATINGS = ("start", "choose")


@dataclass(frozen=True, slots=True)
class SheetContext:
    """What the schedule knows about a table: tournament name, round and
    table number, the players (in starting order, or for ``seating =
    "choose"`` by rank, choosing their start positions in that order; may
    be empty), and the balance line printed in the footer (made by
    :func:`balance_line` from the board measured as the table sees it;
    None: nothing printed, the room is kept)."""

    tournament: str | None = None
    round: int | None = None
    table: int | None = None
    players: tuple[str, ...] = ()
    seating: str = "start"
    balance: str | None = None
    victory_points: int | None = None
    qr: str | None = None
    #: a finals table's stage (``semi-final`` or ``final``), named in the
    #: header instead of a round; None: a preliminary round's table
    stage: str | None = None
    #: what a position means: ``start``, or ``selection`` (the slip lists the
    #: players in selection order with a box for the play order each chose)
    positions: str = "start"

    def threshold(self, layout: Layout) -> int:
        """The victory points that win this table's game: the round's
        (``victory_points``), else the layout's."""
        return layout.victory_points if self.victory_points is None else self.victory_points

    def __post_init__(self) -> None:
        """Raises :class:`SetupgenError` for a value of the wrong type, a
        round outside 1..MAX_ROUND, a table outside 1..999999, texts that
        are empty, too long or hold control characters, more than
        :data:`MAX_PLAYERS` players or an unknown seating."""
        for name, what in (("tournament", "the tournament name"), ("balance", "the balance line")):
            value = getattr(self, name)
            if value is not None:
                if not isinstance(value, str):
                    raise SetupgenError(f"{what} must be text, got {type(value).__name__}")
                check_text(value, what)
        for name, top in (("round", MAX_ROUND), ("table", 10**MAX_DIGITS - 1)):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top):
                raise SetupgenError(f"the {name} number must be a whole number from 1 to {top}, got {value!r}")
        if not isinstance(self.players, tuple) or not all(isinstance(p, str) and p.strip() for p in self.players):
            raise SetupgenError("the players must be a tuple of names (non-empty text)")
        if len(self.players) > MAX_PLAYERS:
            raise SetupgenError(f"a table sheet lists at most {MAX_PLAYERS} players, got {len(self.players)}")
        for p in self.players:
            check_text(p, "a player's name")
        if self.seating not in SEATINGS:
            raise SetupgenError(f"unknown seating {self.seating!r} (known: {', '.join(SEATINGS)})")
        if self.positions not in ("start", "selection"):
            raise SetupgenError(f"unknown kind of positions {self.positions!r} (known: start, selection)")
        if self.stage is not None and self.stage not in FINALS_STAGES:
            raise SetupgenError(f"unknown finals stage {str(self.stage)[:30]!r} (known: {', '.join(FINALS_STAGES)})")
        if self.stage is not None and self.round is not None:
            raise SetupgenError("a finals table has its stage, not a round number")
        vp = self.victory_points
        if vp is not None and (not isinstance(vp, int) or isinstance(vp, bool) or not MIN_VP <= vp <= MAX_VP):
            raise SetupgenError(f"the victory points must be a whole number from {MIN_VP} to {MAX_VP}, got {vp!r}")
        if self.qr is not None and (
            not isinstance(self.qr, str) or not self.qr.isascii() or not 1 <= len(self.qr) <= MAX_QR_TEXT
        ):
            raise SetupgenError(f"the QR code's text must be ASCII of 1-{MAX_QR_TEXT} characters")


# --------------------------------------------------------------------------
# the table sheet


@dataclass(frozen=True, slots=True)
class Page:
    """A new portrait page and what laying it out needs: size ``w`` x ``h``,
    margin ``m``, text width ``cw`` and ``gap`` (all mm), the sheet words
    ``tx``, the style ``st`` and the canvas ``dwg``."""

    w: float
    h: float
    tx: Texts
    st: Style
    m: float
    cw: float
    gap: float
    dwg: Canvas

    @classmethod
    def start(cls, paper: str, lang: str) -> Page:
        """A page with the sheet margin (``[page] sheet_margin``, at least
        10 mm). Raises :class:`SetupgenError` for an unknown paper or
        language."""
        w, h = paper_size(paper)
        tx = templates.texts(lang)
        st = templates.style()
        m = max(10.0, float(st.table("page").get("sheet_margin", st.margin)))
        return cls(w, h, tx, st, m, w - 2 * m, st.mm("gap"), drawing(w, h))


def render_sheet(
    board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4", context: SheetContext = SheetContext()
) -> str:
    """The table sheet of ``board`` as SVG text (a
    :class:`setupgen.render.canvas.SvgPage`): one portrait page of
    ``paper`` (mm), margins from the style (at least 10 mm), no text below
    8 pt. Hidden hexes show only ``?`` and their number.

    Raises :class:`SetupgenError` for an unknown language or paper, more
    than :data:`MAX_PLAYERS` players, an unknown seating, when the
    templates lack a text the layout needs (e.g. a note key), or when the
    content cannot fit on the page with hexes of at least
    :data:`MIN_HEX_MM` mm.
    """
    return finish(sheet_page(board, layout, lang=lang, paper=paper, context=context))


def board_picture(board: Board, lang: str = "en", width: float = 180.0) -> str:
    """The board alone, drawn as its sheet draws it (hexes, numbers,
    harbors, the row numbers of the build list; a face-down hex only as
    ``?``), as SVG text ``width`` mm wide and as high as the board needs
    (mm; the console's table page, docs/console.md). Raises
    :class:`SetupgenError` for an unknown language or a board without hexes."""
    tx, st = templates.texts(lang), templates.style()
    s = hex_size_for(board, width, 10_000.0)
    y0, y1 = board_extent(board)[1::2]
    h = (y1 - y0) * s + 2 * PAD
    dwg = drawing(width, h)
    draw_board(dwg, board, place(board, Box(0.0, 0.0, width, h), s), tx, st)
    return finish(dwg)


Section = Callable[[Any, float], float]  # (canvas, y) -> height, drawn at y


def _measure(section: Section, w: float, h: float) -> float:
    return section(MeasureCanvas(w, h), 0.0)


def sheet_page(
    board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4", context: SheetContext = SheetContext()
) -> Canvas:
    """The table sheet as a page description (see :func:`render_sheet`)."""
    pg = Page.start(paper, lang)
    ctx = context  # checked when made (SheetContext.__post_init__)
    h, tx, st, m, cw, gap, dwg = pg.h, pg.tx.for_positions(ctx.positions), pg.st, pg.m, pg.cw, pg.gap, pg.dwg
    y = _header(dwg, layout, ctx, m, cw, tx, st)
    notes = sheet_notes(board, layout, tx, ctx.threshold(layout))
    n_players = len(ctx.players) or layout.most_players
    plan_ = build_plan(board, layout, cw, tx, st)
    build: Section = lambda cv, y0: _build_list(cv, board, layout, m, y0, cw, tx, st, plan_)
    notes_below: Section = lambda cv, y0: _notes(cv, notes, m, y0, cw, tx, st)
    slip_min: Section = lambda cv, y0: _slip(cv, ctx, n_players, st.mm("slip_min_row"), m, y0, cw, layout, tx, st)
    fixed = sum(_measure(s_, pg.w, h) for s_ in (build, slip_min)) + footer_height(board, cw, tx, st, ctx.balance)
    room = h - m - y - fixed - 4 * gap
    plan = _board_plan(board, notes, cw, room, _measure(notes_below, pg.w, h) + gap, tx, st)
    if plan is None:
        long = [what for what, text in (("title", ctx.tournament), ("seed", board.seed)) if len(text or "") > 40]
        hint = f": a shorter {' or '.join(long)} leaves room for the board" if long else ""
        raise SetupgenError(f"the sheet for {layout.name} does not fit on one {paper} page{hint}")
    side_w, s, block_h, side_notes = plan
    used = block_h + (0.0 if side_notes else _measure(notes_below, pg.w, h) + gap)
    surplus = max(0.0, room - used)
    grow = min(surplus * 0.6, n_players * (st.mm("slip_row") - st.mm("slip_min_row")))
    vgap = gap + (surplus - grow) / 4
    y += vgap
    board_w = cw - side_w - gap
    draw_board(dwg, board, place(board, Box(m, y, board_w, block_h), s), tx, st)
    sy = draw_legend(dwg, legend_entries(board), m + board_w + gap, y, side_w, tx, st)
    if side_notes:
        _notes(dwg, notes, m + board_w + gap, sy + gap, side_w, tx, st)
    y += block_h + vgap
    y += build(dwg, y) + vgap
    if not side_notes:
        y += notes_below(dwg, y) + vgap
    _slip(dwg, ctx, n_players, st.mm("slip_min_row") + grow / n_players, m, y, cw, layout, tx, st)
    footer(dwg, board, m, h - m, cw, tx, st, ctx.balance, measured=True)
    return dwg


def _board_plan(
    board: Board, notes: list[str], cw: float, room: float, notes_h: float, tx: Texts, st: Style
) -> tuple[float, float, float, bool] | None:
    """``(side column width, hex size, block height, notes beside the
    board)`` in mm giving the largest hexes in ``room`` mm of height: the
    side column holds the legend, and the notes when they fit under it
    (else they take ``notes_h`` mm below the board); it narrows from the
    style's width in 4 mm steps down to 2/3 of it. None if no plan reaches
    :data:`MIN_HEX_MM`."""
    y0, y1 = board_extent(board)[1::2]
    gap = st.mm("gap")
    best = None
    for beside in (True, False):
        avail = room if beside else room - notes_h
        side_w = st.mm("side_column")
        while side_w >= st.mm("side_column") * 0.66 - 0.01:
            side_h = _side_height(tuple(legend_entries(board)), tuple(notes) if beside else (), side_w, tx, st)
            s = hex_size_for(board, cw - side_w - gap, avail)
            block_h = max((y1 - y0) * s + 2 * PAD, side_h)
            if side_h <= avail and s >= MIN_HEX_MM and (best is None or s > best[1] + 0.05):
                best = (side_w, s, block_h, beside)
            side_w -= 4.0
    return best


_SIDE: dict[tuple, float] = {}


def _side_height(entries: tuple[str, ...], notes: tuple[str, ...], w: float, tx: Texts, st: Style) -> float:
    """Height (mm) of the side column: the legend, then the notes if any
    (measured by drawing them; remembered per language and width)."""
    key = (tx.lang, id(st), entries, notes, round(w, 3))
    found = _SIDE.get(key)
    if found is None:
        found = _measure(lambda cv, y_: draw_legend(cv, list(entries), 0, y_, w, tx, st) - y_, w, 1000)
        if notes:
            found += st.mm("gap") + _measure(lambda cv, y_: _notes(cv, list(notes), 0, y_, w, tx, st), w, 1000)
        if len(_SIDE) > 4096:
            _SIDE.clear()
        _SIDE[key] = found
    return found


def scenario_title(layout: Layout, tx: Texts) -> str:
    """The scenario's title in the template language (the layout name if the
    templates have none)."""
    key = f"scenario.{layout.name}"
    return tx.get(key) if tx.has(key) else layout.name


def stage_word(stage: str, tx: Texts) -> str:
    """The name of a finals stage in the sheet's language ("Semi-final",
    "Halbfinale", "Halbfinal")."""
    return tx.get(f"tournament.{stage.replace('-', '_')}")


def round_label(ctx: SheetContext, tx: Texts) -> str:
    """What the header says of the game: the finals stage ("Final"), the
    round ("Round 3"), or a blank to fill in ("Round ____")."""
    if ctx.stage is not None:
        return stage_word(ctx.stage, tx)
    return tx.get("sheet.round_blank") if ctx.round is None else tx.get("sheet.round", n=ctx.round)


def _header(dwg: Surface, layout: Layout, ctx: SheetContext, m: float, cw: float, tx: Texts, st: Style) -> float:
    """Always two lines, so a long title never shrinks the board:
    tournament and round (the finals stage; ``Round ___`` when not
    given, :func:`round_label`) in bold, the
    scenario below; when they do not fit at 10 pt or more, the tournament
    alone on the first line (down to 8 pt, then shortened with ``…``) and
    the round before the scenario. Room for a QR code and a large table
    number on the right; returns the y (mm) below the header rule."""
    box_w = st.mm("table_box_width") if ctx.table is not None else 0.0
    qr = st.mm("qr")
    text_w = cw - box_w - qr - 8.0
    round_text = round_label(ctx, tx)
    scenario = scenario_title(layout, tx)
    first = round_text if not ctx.tournament else f"{ctx.tournament} · {round_text}"
    lines = [(first, st.mm("round"), True), (scenario, st.mm("scenario"), False)]
    if text_width(first, 10 * 25.4 / 72, bold=True) > text_w:
        lines = [(str(ctx.tournament), st.mm("round"), True), (f"{round_text} · {scenario}", st.mm("scenario"), True)]
    y = m
    for text, size, bold in lines:
        t, sz = fit(text, text_w, size, bold=bold)
        y += sz * 1.05
        add_text(dwg, t, m, y, sz, st, bold=bold)
        y += sz * 0.35
    if ctx.qr is None:
        dwg.reserve("qr", m + cw - box_w - qr - 4.0, m, qr, qr)
    else:
        qr_code(dwg, ctx.qr, m + cw - box_w - qr - 4.0, m, qr, st)
    return table_box_and_rule(dwg, ctx.table if box_w else None, m, max(y, m + qr), m, cw, box_w, tx, st)


def qr_code(dwg: Surface, text: str, x: float, y: float, size: float, st: Style) -> None:
    """A QR code of ``text`` (segno, error level M, the smallest version
    that holds it) filling the ``size`` mm square at ``(x, y)`` with a
    quiet zone of one module inside the square (the page around it is
    blank): the dark modules as one path of row runs, in the ink colour.
    The same text always gives the same path (docs/console.md)."""
    import segno

    code = segno.make(text, error="m", micro=False, boost_error=False)
    rows = [list(row) for row in code.matrix]
    cell = size / (len(rows) + 2)
    d = []
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            x0, x1 = num(x + (start + 1) * cell), num(x + (c + 1) * cell)
            y0, y1 = num(y + (r + 1) * cell), num(y + (r + 2) * cell)
            d.append(f"M{x0} {y0}L{x1} {y0}L{x1} {y1}L{x0} {y1}Z")
    dwg.begin("qr")
    add_path(dwg, "".join(d), fill=st.colour["ink"])
    dwg.end()


def table_box_and_rule(
    dwg: Surface, table: int | None, top: float, bottom: float, m: float, cw: float, box_w: float, tx: Texts, st: Style
) -> float:
    """The boxed table number at the right of a header (``top`` mm, box
    ``box_w`` mm wide; none for ``table`` None) and the rule under the
    header; returns the y (mm) of the rule."""
    if table is not None:
        bh = st.mm("table_box")
        bx = m + cw - box_w
        add_rect(dwg, bx, top, box_w, bh, fill=st.fill["header"], stroke=st.colour["ink"], width=0.5)
        word, ws = fit(tx.get("sheet.table"), box_w - 3, st.mm("table_word"))
        add_text(dwg, word, bx + box_w / 2, top + ws + 1.2, ws, st, anchor="middle")
        t, sz = fit(str(table), box_w - 3, st.mm("table_number"), bold=True)
        add_text(dwg, t, bx + box_w / 2, top + bh - 1.8, sz, st, bold=True, anchor="middle")
        bottom = max(bottom, top + bh)
    bottom += 1.5
    add_path(dwg, f"M{num(m)},{num(bottom)} L{num(m + cw)},{num(bottom)}", stroke=st.colour["ink"], width=st.mm("rule"))
    return bottom


def heading_with_hint(dwg: Surface, head: str, hint: str, x: float, y: float, w: float, st: Style) -> float:
    """A section heading at ``(x, y)`` mm with a small grey hint in
    brackets after it (wrapped below it when it does not fit beside);
    returns the y (mm) below the heading."""
    hs = st.mm("heading")
    small = st.mm("small")
    y += hs
    add_text(dwg, head, x, y, hs, st, bold=True)
    hx = x + text_width(head + "  ", hs, bold=True)
    if not hint:
        return y + hs * 0.5
    text = f"({hint})"
    if text_width(text, small) <= w - (hx - x):
        add_text(dwg, text, hx, y, small, st, fill=st.colour["muted"])
        return y + hs * 0.5
    for line in wrap(text, w, small):
        y += small * 1.25
        add_text(dwg, line, x, y, small, st, fill=st.colour["muted"])
    return y + hs * 0.4


# -- build list -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a build-list row: a terrain ``word``, its ``number``
    (``""`` for none), whether that number is red, and a ``mark``
    (robber, pirate, oil; ``""`` for none)."""

    word: str
    number: str = ""
    red: bool = False
    mark: str = ""


def cell_text(t: Tile, tx: Texts, board: Board | None = None) -> tuple[str, str]:
    """Build-list words of one hex: ``(word, number)``; a hidden hex gives
    ``("?", number)`` (no number where ``board`` hides its face-down
    numbers: :meth:`Board.table_number`), a desert or sea hex no number."""
    shown = t.number if board is None else board.table_number(t)
    number = "" if shown is None else str(shown)
    word = tx.get("label.hidden") if t.hidden else tx.get(f"terrain.{t.terrain}")
    return word, number


def indent_text(halves: int) -> str:
    """A row's indent in half hex widths as ``(+1½)``."""
    whole, half = divmod(halves, 2)
    return f"(+{whole if whole or not half else ''}{'½' if half else ''})"


def row_entries(board: Board, tiles: Sequence[Tile], tx: Texts) -> list[Entry]:
    """A row's entries: one per hex, runs of two or more plain sea hexes
    (no pirate) as one ``3× Sea`` entry."""
    out: list[Entry] = []
    run = 0
    sea = tx.get("terrain.sea")
    pieces = piece_marks(board, tx)
    for i, t in enumerate(tiles):
        plain_sea = t.kind == "sea" and board.pirate != t.hex and t.hex not in pieces
        if plain_sea:
            run += 1
            nxt = tiles[i + 1] if i + 1 < len(tiles) else None
            if nxt is not None and nxt.kind == "sea" and board.pirate != nxt.hex and nxt.hex not in pieces:
                continue
            out.append(Entry(sea if run == 1 else tx.get("sheet.sea_run", n=run, sea=sea)))
            run = 0
            continue
        word, number = cell_text(t, tx, board)
        marks = [tx.get("sheet.mark_robber")] if board.robber == t.hex else []
        marks += [tx.get("sheet.mark_pirate")] if board.pirate == t.hex else []
        marks += [tx.get("sheet.oil_short")] if t.oil_spring else []
        marks += [pieces[t.hex]] if t.hex in pieces else []
        out.append(Entry(word, number, board.table_number(t) in RED_NUMBERS, " ".join(marks)))
    return out


#: the pieces the build list names on their hex's entry: those whose number the table must read (a
#: village's roll); the others are shown on the board picture alone, with the legend (a crowded map's
#: build list would otherwise take the board's room)
LISTED_PIECES = frozenset({"village"})


def piece_marks(board: Board, tx: Texts) -> dict[Hex, str]:
    """Per hex that names pieces the table must read in words
    (:data:`LISTED_PIECES`), the build list's mark of them, kind by kind:
    ``villages: top 10, bottom 9`` (:func:`_piece_spot`)."""
    spots: dict[Hex, dict[str, list[str]]] = {}
    for p in board.pieces:
        if p.kind in LISTED_PIECES:
            spots.setdefault(p.hex, {}).setdefault(p.kind, []).append(_piece_spot(p, tx))
    sep = tx.get("sheet.list_sep")
    return {
        h: "; ".join(tx.get(f"sheet.mark_{kind}", spots=sep.join(v)) for kind, v in kinds.items())
        for h, kinds in spots.items()
    }


def _piece_spot(p: Piece, tx: Texts) -> str:
    """One piece in a build-list mark: where on its hex (corner or edge),
    then its number (``top 10``), its player set (``set 2 bottom``) or
    its step (``step 5``)."""
    if p.corner is not None:
        where = tx.get(f"corner.{p.corner}")
    elif p.facing is not None:
        where = tx.get("sheet.edge", side=tx.get(f"facing.{p.facing}"))
    else:
        return tx.get("sheet.step", n=p.order)
    if p.player is not None:
        return tx.get("sheet.player_set", n=p.player) + " " + where
    return where + ("" if p.number is None else f" {p.number}")


def harbor_lines(board: Board, layout: Layout, tx: Texts) -> list[tuple[str, str]]:
    """The build list's harbor lines ``(key, text)``: per harbor its
    number, type, sea hex and the land hex it faces (row and position of
    the build list); for ``players`` harbors the pool to lay."""
    if board.harbor_method == "players":
        out = []
        for htype in HARBOR_TYPES:
            if htype in layout.harbor_pool:
                ratio, word = harbor_words(htype, tx)
                out.append((tx.get("sheet.harbor_count", n=layout.harbor_pool.count(htype)), f"{ratio} {word}".strip()))
        return out
    pos = positions(board)
    lines = []
    for i, hb in enumerate(harbor_order(board), start=1):
        ratio, word = harbor_words(hb.type, tx)
        # a board file may put a harbor off the listed hexes (check reports it): shown as "–"
        (row, p), (lrow, lp) = pos.get(hb.hex, ("–", "–")), pos.get(neighbor(hb.hex, hb.facing), ("–", "–"))
        lines.append(
            (str(i), tx.get("sheet.harbor_at", what=f"{ratio} {word}".strip(), row=row, pos=p, lrow=lrow, lpos=lp))
        )
    return lines


def build_list_lines(board: Board, layout: Layout, tx: Texts) -> list[tuple[str, list[Entry]]]:
    """The rows as the build list prints them: ``(label, entries)`` with
    the label ``Row 3 (+½)``."""
    return [
        (f"{tx.get('sheet.row')} {i} {indent_text(row.indent)}", row_entries(board, row.tiles, tx))
        for i, row in enumerate(build_rows(board), start=1)
    ]


def _entry_runs(e: Entry, last: bool, size: float) -> list[tuple[str, str, float]]:
    """``(kind, text, width)`` runs of one entry: ``word``, ``num``/``red``,
    ``mark``, and a ``sep`` comma unless it is the row's last."""
    gap = text_width(" ", size)
    runs = [("word", e.word, text_width(e.word, size))]
    if e.number:
        runs.append(
            ("red" if e.red else "num", e.number, text_width(e.number, size, bold=True) + (1.0 if e.red else 0))
        )
    if e.mark:
        runs.append(("mark", e.mark, text_width(e.mark, size, bold=True)))
    if not last:  # the comma joins the entry's last run (an inverted number keeps its own)
        k, t, w = runs[-1]
        if k == "red":
            runs.append(("sep", ",", text_width(",", size)))
        else:
            runs[-1] = (k, t + ",", text_width(t + ",", size, bold=k != "word"))
    return [
        (k, t, w + (gap if i < len(runs) - 1 and runs[i + 1][0] != "sep" else 0.0)) for i, (k, t, w) in enumerate(runs)
    ]


_FLOWS: dict[tuple, list] = {}


def _flow(entries: list[Entry], width: float, size: float) -> list[list[tuple[str, str, float, float]]]:
    """Entries laid into lines of ``width`` mm: ``(kind, text, x offset,
    width)`` per run; an entry never splits across lines (remembered, so
    measuring and drawing lay a row out once)."""
    key = (tuple(entries), round(width, 4), size)
    found = _FLOWS.get(key)
    if found is not None:
        return found
    if len(_FLOWS) > 512:
        _FLOWS.clear()
    found = _FLOWS[key] = _flow_lines(entries, width, size)
    return found


def _flow_lines(entries: list[Entry], width: float, size: float) -> list[list[tuple[str, str, float, float]]]:
    lines: list[list[tuple[str, str, float, float]]] = [[]]
    x = 0.0
    space = text_width("  ", size)
    for i, e in enumerate(entries):
        runs = _entry_runs(e, i == len(entries) - 1, size)
        need = sum(w for _, _, w in runs)
        if x and x + need > width:
            lines.append([])
            x = 0.0
        for kind, text, w in runs:
            lines[-1].append((kind, text, x, w))
            x += w
        x += space
    return lines


def _draw_run(dwg: Surface, kind: str, text: str, x: float, base: float, size: float, st: Style) -> None:
    if kind == "red":
        w = text_width(text, size, bold=True)
        add_rect(dwg, x - 0.1, base - size * 0.8, w + 0.9, size * 1.0, fill=st.colour["ink"], rx=0.4)
        add_text(dwg, text, x + 0.35, base, size, st, bold=True, fill="#ffffff")
    else:
        add_text(
            dwg,
            text,
            x,
            base,
            size,
            st,
            bold=kind in ("num", "mark"),
            fill=st.colour["muted"] if kind == "mark" else None,
        )


BuildPlan = tuple[list[tuple[str, list]], float]  # (row label, its flowed lines) per row; label column width


def build_plan(board: Board, layout: Layout, w: float, tx: Texts, st: Style) -> BuildPlan:
    """The build list's rows laid out for a width of ``w`` mm: each row's
    label and its entries flowed onto lines, and the label column's width
    (mm); worked out once, then measured and drawn (:func:`_build_list`)."""
    size = max(MIN_FONT_MM, st.mm("body"))
    rows = build_list_lines(board, layout, tx)
    heads = [label for label, _ in rows] + [
        tx.get("sheet.harbor_pool" if board.harbor_method == "players" else "sheet.harbors")
    ]
    label_w = max(text_width(label, size, bold=True) for label in heads) + 2.5
    return [(label, _flow(entries, w - label_w - 1.6, size)) for label, entries in rows], label_w


def _build_list(
    dwg: Surface, board: Board, layout: Layout, x: float, y: float, w: float, tx: Texts, st: Style, plan: BuildPlan
) -> float:
    """The build list at ``y``: every row (label with indent, entries
    flowing, 6 and 8 inverted; ``plan``: as :func:`build_plan` lays them
    out), then one line per harbor; returns the height (mm)."""
    top = y
    y = heading_with_hint(dwg, tx.get("sheet.build"), tx.get("sheet.build_hint"), x, y, w, st)
    size = max(MIN_FONT_MM, st.mm("body"))
    lh = st.mm("build_row")
    rows, label_w = plan
    for i, (label, lines) in enumerate(rows):
        if i % 2 == 0:
            add_rect(dwg, x, y, w, lh * len(lines), fill=st.fill["header"])
        for j, runs in enumerate(lines):
            base = y + lh * j + lh / 2 + size * 0.36
            if j == 0:
                add_text(dwg, label, x + 0.8, base, size, st, bold=True)
            for kind, text, dx, _ in runs:
                _draw_run(dwg, kind, text, x + label_w + dx, base, size, st)
        y += lh * len(lines)
    return y - top + _harbor_block(dwg, board, layout, x, y, w, label_w, tx, st)


def _harbor_block(
    dwg: Surface, board: Board, layout: Layout, x: float, y: float, w: float, label_w: float, tx: Texts, st: Style
) -> float:
    """The harbor lines under the rows: the heading in the rows' label
    column, the lines in as many columns (up to 4) as fit right of it;
    returns the height (mm)."""
    items = harbor_lines(board, layout, tx)
    if not items:
        return 0.0
    size = max(MIN_FONT_MM, st.mm("body"))
    head = tx.get("sheet.harbor_pool") if board.harbor_method == "players" else tx.get("sheet.harbors")
    lh = st.mm("build_row")
    add_text(dwg, head, x + 0.8, y + lh / 2 + size * 0.36, size, st, bold=True)
    key_w = max(text_width(k, size, bold=True) for k, _ in items) + 1.5
    widest = key_w + max(text_width(t, size) for _, t in items) + 3.0
    ncol = max(1, min(4, int((w - label_w) // widest)))
    per = -(-len(items) // ncol)
    if board.harbor_method != "players" and per > 1:
        hint, hsz = fit(tx.get("sheet.harbors_hint"), label_w - 1.5, st.mm("small"))
        add_text(dwg, hint, x + 0.8, y + lh * 1.5 + hsz * 0.36, hsz, st, fill=st.colour["muted"])
    col_w = (w - label_w) / ncol
    for i, (key, text) in enumerate(items):
        cx = x + label_w + (i // per) * col_w
        base = y + (i % per) * lh + lh / 2 + size * 0.36
        add_text(dwg, key, cx + key_w - 1.5, base, size, st, bold=True, anchor="end")
        add_text(dwg, text, cx + key_w, base, size, st)  # the columns fit the widest line
    add_path(dwg, f"M{num(x)},{num(y)} L{num(x + w)},{num(y)}", stroke=st.colour["line"], width=0.2)
    height = per * lh + 0.6
    if board.harbor_method == "players":
        procedure = wrap(tx.get("sheet.harbors_players"), w - label_w, size)
        for i, line in enumerate(procedure):
            add_text(dwg, line, x + label_w, y + height + (i + 0.5) * lh + size * 0.36, size, st)
        height += len(procedure) * lh
    return height


# -- notes ----------------------------------------------------------------------


def sheet_notes(board: Board, layout: Layout, tx: Texts, vp: int | None = None) -> list[str]:
    """The notes printed on the table sheet, in order: victory points, the
    layout's notes (template keys) and equal neighbours left by the
    ``spiral`` method. The procedure for ``players`` harbors is in the
    build list, under the pool; the reconstruction note is for the
    director (:func:`director_notes`).

    Raises :class:`SetupgenError` when the templates lack a note key.
    """
    out = [tx.get("sheet.victory_points", n=layout.victory_points if vp is None else vp)]
    for key in layout.notes:
        if key == "reconstruction":
            continue
        if not tx.has(f"note.{key}"):
            raise SetupgenError(f"templates/{tx.lang}.toml has no note {key!r} (layout {layout.name})")
        out.append(tx.get(f"note.{key}"))
    pairs = equal_neighbours(board)
    if board.number_method == "spiral" and pairs:
        row_of = {h: rp[0] for h, rp in positions(board).items()}
        texts_ = []
        for a, b, n in pairs:
            ra, rb = row_of[a], row_of[b]
            if ra == rb:
                texts_.append(tx.get("sheet.spiral_pair_same_row", n=n, a=ra))
            else:
                texts_.append(tx.get("sheet.spiral_pair", n=n, a=ra, b=rb))
        out.append(tx.get("sheet.spiral_equal", pairs=tx.get("sheet.list_sep").join(texts_)))
    return out


def director_notes(layout: Layout, tx: Texts) -> list[str]:
    """Notes for the director only (the director's page and key, never a
    table sheet): the reconstruction note of a reconstructed map."""
    return [tx.get("note.reconstruction")] if layout.reconstruction else []


def equal_neighbours(board: Board) -> list[tuple[tuple[int, int], tuple[int, int], int]]:
    """Pairs of adjacent land hexes with equal numbers, each pair once, in
    reading order: ``(hex, later hex, number)``."""
    out = []
    for t in board.tiles:
        if t.kind != "land" or t.number is None:
            continue
        for n in neighbors(t.hex):
            o = board.tile(n)
            if (
                o is not None
                and o.kind == "land"
                and o.number is not None
                and RULE_EQUAL in clashes(t.number, o.number)
                and (n[1], n[0]) > (t.hex[1], t.hex[0])
            ):
                out.append((t.hex, n, t.number))
    return sorted(out, key=lambda p: (p[0][1], p[0][0], p[1][1], p[1][0]))


def _notes(dwg: Surface, notes: list[str], x: float, y: float, w: float, tx: Texts, st: Style) -> float:
    """The notes (first one bold) as bullets at ``y``; returns the height (mm)."""
    top = y
    hs = st.mm("heading")
    y += hs
    add_text(dwg, tx.get("sheet.notes"), x, y, hs, st, bold=True)
    y += hs * 0.4
    size = st.mm("body")
    for i, note in enumerate(notes):
        for j, line in enumerate(wrap(note, w - 4.0, size)):
            y += size * 1.3
            if j == 0:
                add_circle(dwg, x + 1.2, y - size * 0.33, 0.6, fill=st.colour["ink"])
            add_text(dwg, line, x + 4.0, y, size, st, bold=(i == 0))
    return y - top + size * 0.35


# -- result slip ------------------------------------------------------------------


def _slip_columns(ctx: SheetContext, w: float, st: Style) -> list[tuple[str, float]]:
    """``(template key, width mm)`` of the slip's columns (widths from the
    style's ``slip_*`` sizes); the player column takes what is left."""
    plain = ctx.seating == "start" and ctx.positions == "start"
    names = ["seat", "player"] if plain else ["rank", "player", "start"]
    names += ["vp", "winner", "signature"]
    cols = [(f"slip.{n}", 0.0 if n == "player" else st.mm(f"slip_{n}")) for n in names]
    fixed = sum(c[1] for c in cols)
    return [(k, v if k != "slip.player" else w - fixed) for k, v in cols]


def _slip(
    dwg: Surface,
    ctx: SheetContext,
    n: int,
    rh: float,
    x: float,
    y: float,
    w: float,
    layout: Layout,
    tx: Texts,
    st: Style,
) -> float:
    """The result slip at ``y``: heading and hint, then one row per player
    (in starting order; for the finals by rank, with a box for the chosen
    start position) with boxes for victory points and the winner, the
    signature written on the row's own line; returns the height (mm)."""
    top = y
    hint_key = (
        "slip.choose_hint"
        if ctx.seating == "choose"
        else "slip.select_hint"
        if ctx.positions == "selection"
        else "slip.hint"
    )
    hint = tx.get(hint_key, vp=ctx.threshold(layout))
    if ctx.stage is not None:
        hint = f"{stage_word(ctx.stage, tx)}: {hint}"
    y = heading_with_hint(dwg, tx.get("slip.title"), hint, x, y, w, st)
    body = st.mm("body")
    cols = _slip_columns(ctx, w, st)
    xs = [x + sum(c[1] for c in cols[:i]) for i in range(len(cols))]
    y += body * 1.3
    for (key, cwid), cx in zip(cols, xs):
        t, sz = fit(tx.get(key), cwid - 1.5, body, bold=True)
        add_text(dwg, t, cx + 0.8, y, sz, st, bold=True)
    y += body * 0.35
    add_path(dwg, f"M{num(x)},{num(y)} L{num(x + w)},{num(y)}", stroke=st.colour["ink"], width=st.mm("rule"))
    boxes = [i for i, (k, _) in enumerate(cols) if k in ("slip.vp", "slip.start")]
    win = next(i for i, (k, _) in enumerate(cols) if k == "slip.winner")
    bh = min(rh - 1.6, 7.0)
    for i in range(n):
        _slip_row(dwg, ctx, i, y + i * rh, rh, bh, (xs, cols, boxes, win), x, w, st)
    return y + n * rh - top


def _slip_row(
    dwg: Surface,
    ctx: SheetContext,
    i: int,
    row_top: float,
    rh: float,
    bh: float,
    grid: tuple[list[float], list[tuple[str, float]], list[int], int],
    x: float,
    w: float,
    st: Style,
) -> None:
    """Row ``i`` (0-based) of the result slip at ``row_top`` (mm), ``rh``
    high: its number, the player's name, the boxes (``bh`` mm high) for
    victory points (and start position) and the winner, and the row's
    line. ``grid``: the columns' x, the columns, the boxed columns and the
    winner's column."""
    xs, cols, boxes, win = grid
    body = st.mm("body")
    base = row_top + rh / 2 + body * 0.36
    add_text(dwg, str(i + 1), xs[0] + 0.8, base, body, st, bold=True)
    if i < len(ctx.players):
        t, sz = fit(ctx.players[i], cols[1][1] - 2.0, body)
        add_text(dwg, t, xs[1] + 0.8, base, sz, st)
    fill, ink, top = st.fill["box"], st.colour["ink"], row_top + (rh - bh) / 2
    for b in boxes:
        add_rect(dwg, xs[b] + 1.0, top, cols[b][1] - 4.0, bh, fill=fill, stroke=ink, width=0.35)
    add_rect(dwg, xs[win] + (cols[win][1] - bh) / 2, top, bh, bh, fill=fill, stroke=ink, width=0.35)
    line = f"M{num(x)},{num(row_top + rh)} L{num(x + w)},{num(row_top + rh)}"
    add_path(dwg, line, stroke=st.colour["line"], width=0.25)


# -- footer (setup ID and seed) -----------------------------------------------------


def balance_line(metrics: Balance, lang: str) -> str:
    """The sheet's balance line in ``lang`` (``sheet.balance_line``): the
    score out of 100 with one decimal and the language's decimal mark, the
    most pips at an intersection a starting settlement may take, and the
    resource-pip spread, e.g. "Balance 56.5/100 · best start 12 pips ·
    resource spread 8".

    ``metrics`` must be measured as the table sees the board:
    :func:`setupgen.core.balance.measure` with ``table=True`` (a face-down
    hex has no known terrain and no intersection touching one counts), so
    nothing on the sheet depends on a face-down hex. Raises
    :class:`SetupgenError` for an unknown language."""
    tx = templates.texts(lang)
    score = cldr.decimal(f"{metrics.score:.1f}", tx)
    return tx.get("sheet.balance_line", score=score, pips=metrics.intersection_max, spread=metrics.resource_spread)


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
    seed = printable_seed(board.seed)
    line = first + [(label, False), (seed, True)]
    if _runs_width(line, size) <= w:
        return [line]
    per = max(1, int((w - text_width(label, size) - _RUN_GAP) / (0.602 * size)))
    chunks = [seed[i : i + per] for i in range(0, len(seed), per)] or [""]
    return [first] + [[(label if i == 0 else "", False), (c, True)] for i, c in enumerate(chunks)]


def printable_seed(seed: str) -> str:
    """The seed as the sheet prints it: characters the sheet's fonts lack
    (wide East Asian characters and emoji, private-use and unassigned code
    points) written as ``\\u65e5`` / ``\\U0001f3b2`` escapes, so nothing
    prints as an empty box (the board file keeps the seed itself)."""
    import unicodedata

    def shown(c: str) -> str:
        if unicodedata.east_asian_width(c) in ("W", "F") or unicodedata.category(c) in ("Co", "Cn", "Cs"):
            return f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"
        return c

    return "".join(shown(c) for c in seed)


_RUN_GAP = 1.5  # mm between footer runs; a label and the next label: 3 x this
_BALANCE_GAP = 4 * _RUN_GAP  # mm at least between the first ID line and a balance text beside it


def _runs_width(runs: list[tuple[str, bool]], size: float) -> float:
    return sum(text_width(t, size, mono=mono) for t, mono in runs) + _RUN_GAP * (len(runs) - 1) * 2


def _balance_inline(board: Board, w: float, tx: Texts, st: Style, balance: str | None = None) -> bool:
    """Whether the balance line fits at the right of the first ID line:
    the room kept for it (``balance_width`` mm) and, with ``balance``, that
    text at 8 pt (:data:`_BALANCE_GAP` mm clear of the IDs)."""
    ids = _runs_width(_id_lines(board, w, tx, st)[0], st.mm("id"))
    if balance and ids + _BALANCE_GAP + text_width(balance, MIN_FONT_MM) > w:
        return False
    return ids + st.mm("balance_width") + 3.0 <= w


def footer_height(board: Board, w: float, tx: Texts, st: Style, balance: str | None = None) -> float:
    """Height (mm) of the footer: the ID lines and the balance line's room
    (with ``balance``: the room that text needs, see :func:`footer`)."""
    extra = 0 if _balance_inline(board, w, tx, st, balance) else 1
    return (len(_id_lines(board, w, tx, st)) + extra) * st.mm("id") * 1.3 + 2.0


def footer(
    dwg: Surface,
    board: Board,
    x: float,
    bottom: float,
    w: float,
    tx: Texts,
    st: Style,
    balance: str | None = None,
    *,
    measured: bool = False,
) -> None:
    """The footer ending at ``bottom`` mm: a rule, the setup ID and seed,
    and the balance line (room kept when there is none) at the right of
    the first line, or above the IDs when it does not fit there.

    The balance line may take all the room right of the first ID line
    (at least ``balance_width`` mm). ``measured``: the caller gave
    :func:`footer_height` the same ``balance`` text, so a text too long
    for the right of the first line (at 8 pt) gets the line above the IDs;
    without, the line keeps to the room kept for any text (shrunk down to
    8 pt, then cut)."""
    size = st.mm("id")
    lines = _id_lines(board, w, tx, st)
    y = bottom - (len(lines) - 1) * size * 1.3 - size * 0.25
    inline = _balance_inline(board, w, tx, st, balance if measured else None)
    bal = st.mm("balance_width")
    bx, by, bw = (x + w - bal, y, bal) if inline else (x, y - size * 1.3, w)
    rule = (y if inline else by) - size * 1.2
    add_path(dwg, f"M{num(x)},{num(rule)} L{num(x + w)},{num(rule)}", stroke=st.colour["ink"], width=0.2)
    if balance:
        if inline:  # all the room right of the first ID line
            bw = max(bal, w - _runs_width(lines[0], size) - _BALANCE_GAP)
            bx = x + w - bw
        t, sz = fit(balance, bw, size)
        add_text(dwg, t, bx + bw, by, sz, st, anchor="end")  # black: no grey to dither in 1-bit
    else:
        dwg.reserve("balance", bx, by - size * 0.9, bw, size * 1.2)
    label_w = max(text_width(t, size) for runs in lines for t, mono in runs if not mono)
    for runs in lines:
        cx = x
        for text, mono in runs:
            if text:
                add_text(dwg, text, cx, y, size, st, mono=mono, bold=mono)  # black text (issue 43)
            if not mono and len(lines) > 1:
                cx += label_w + _RUN_GAP
            else:
                cx += text_width(text, size, mono=mono) + _RUN_GAP * (4 if mono else 1)
        y += size * 1.3
