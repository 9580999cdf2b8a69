"""The almanac page: the back of a table sheet, what this table plays by
(``docs/sheet.md``, "The almanac page"; the rules as data in ``almanac/``,
read by :mod:`setupgen.core.almanac`).

In this order (what :func:`setupgen.core.almanac.page_rules` says the
page prints; sources and readings in ``docs/rules.md``, section 7): the
house rules of the event (a preset, less what the director drops, plus
the director's own lines) with this round's win threshold, and a footnote
line naming the house rules the scenario's own rules replaced; the
scenario's special rules; a variant's rules and the material this table
needs; maritime trade with this board's numbered harbors (the numbers of
the front); Longest Road or Longest Trade Route; the preset's disputes. One portrait page, two columns at 8 pt; what
does not fit is an error saying by how many lines (never a second page,
which would break duplex printing). Nothing on the page depends on a
face-down hex. Lengths in mm.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..core import almanac as rules
from ..core.almanac import AlmanacRequest
from ..core.board import Board
from ..core.errors import SetupgenError
from ..core.layout import Layout
from ..core.rules import HARBOR_TYPES
from ..core.templates import MIN_FONT_MM, Texts
from .board import harbor_order, harbor_words
from .page import add_circle, add_text, finish, fit, wrap
from .sheet import Page, SheetContext, footer, footer_height, scenario_title, table_box_and_rule

__all__ = ["AlmanacRequest", "table_players", "blank_back", "almanac_sections", "render_almanac", "almanac_page"]


Section = tuple[str, list[str]]  # heading, lines (a line may hold "\n")


def almanac_sections(board: Board, layout: Layout, request: AlmanacRequest, tx: Texts,
                     players: int, vp: int | None = None) -> list[Section]:
    """The page's sections in order, as ``(heading, lines)``, for a table
    of ``players`` playing to ``vp`` victory points (default: the
    layout's): what :func:`setupgen.core.almanac.page_rules` says the page
    prints, the win line first (from the tournament file), the footnote
    line naming the house rules the scenario replaced last in the house
    rules. The disputes section is left out where the preset has none
    (``none``). Raises :class:`SetupgenError` for an unknown preset, rule
    key or variant."""
    vp = layout.victory_points if vp is None else vp
    lang = tx.lang
    scenario = layout.name if layout.name in rules.scenarios() else None
    page = rules.page_rules(request, scenario)

    def texts_of(part: Sequence[rules.Rule]) -> list[str]:
        return [rules.rule_text(r, lang, vp=vp) for r in part]

    head = (tx.get("almanac.house_rules_of", preset=tx.get(f"almanac.preset.{request.preset}"))
            if request.preset != rules.NO_PRESET else tx.get("almanac.house_rules"))
    house = [tx.get("almanac.win", vp=vp), *texts_of(page.house)]
    if page.replaced:
        names = list(dict.fromkeys(tx.get(f"almanac.rule_name.{k}") for k in page.replaced))
        house.append(NOTE + tx.get("almanac.replaced", scenario=scenario_title(layout, tx), rules=", ".join(names)))
    out: list[Section] = [(head, house)]
    if page.scenario:
        out.append((tx.get("almanac.scenario_rules", scenario=scenario_title(layout, tx)), texts_of(page.scenario)))
    if request.variant is not None:
        out.extend(_variant_sections(request.variant, layout, tx, players, texts_of(page.variant)))
    out.append((tx.get("almanac.maritime_trade"), texts_of(page.trade) + harbor_summary(board, layout, tx)))
    if page.longest:
        key = ("almanac.longest_trade_route" if any("trade-route" in r.key for r in page.longest)
               else "almanac.longest_road")
        out.append((tx.get(key), texts_of(page.longest)))
    if page.disputes:
        out.append((tx.get("almanac.disputes"), texts_of(page.disputes)))
    return out


#: marks a line of a section printed as a note (no bullet), e.g. the
#: footnote naming the house rules a scenario replaced
NOTE = "\x00note\x00"


def _variant_sections(name: str, layout: Layout, tx: Texts, players: int, lines: list[str]) -> list[Section]:
    var = rules.variant(name)
    form = var.form_for(layout.name)
    head = f"{tx.get('almanac.variant_rules', variant=tx.get(f'almanac.variant.{name}'))} ({tx.get(f'almanac.form.{form}')})"
    material = [tx.get("almanac.material_count", n=m.count, what=tx.get(f"almanac.material.{m.key}"))
                for m in var.material(players, layout.name)]
    return [(head, lines), (tx.get("almanac.material_title"), material)]


def table_players(layout: Layout) -> int:
    """The players a table of ``layout`` is counted for when the sheet
    names none: the most the layout takes (4, or 6 for 5-6)."""
    return 6 if layout.players == "5-6" else 4


def harbor_summary(board: Board, layout: Layout, tx: Texts) -> list[str]:
    """This board's harbors by type, with the front's numbers
    (``3:1: 2, 5, 8``; ``2:1 ore: 1``); for ``players`` harbors the pool
    the table lays."""
    if board.harbor_method == "players":
        pool = [f"{layout.harbor_pool.count(t)} × {' '.join(harbor_words(t, tx)).strip()}"
                for t in HARBOR_TYPES if t in layout.harbor_pool]
        return [tx.get("sheet.harbor_pool") + ": " + ", ".join(pool)]
    numbers: dict[str, list[int]] = {}
    for n, h in enumerate(harbor_order(board), start=1):
        numbers.setdefault(h.type, []).append(n)
    lines = [tx.get("almanac.harbors_board")]
    for t in HARBOR_TYPES:
        if t in numbers:
            lines.append(f"{' '.join(harbor_words(t, tx)).strip()}: {', '.join(str(n) for n in numbers[t])}")
    return lines


def render_almanac(board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4",
                   context: SheetContext = SheetContext(), request: AlmanacRequest = AlmanacRequest()) -> str:
    """The almanac page of ``board`` as SVG text (see the module doc).

    Raises :class:`SetupgenError` for an unknown language, paper, preset,
    rule key or variant, and when the content does not fit one page
    (saying by how many lines)."""
    return finish(almanac_page(board, layout, lang=lang, paper=paper, context=context, request=request))


def almanac_page(board: Board, layout: Layout, *, lang: str = "en", paper: str = "a4",
                 context: SheetContext = SheetContext(), request: AlmanacRequest = AlmanacRequest()) -> Any:
    """The almanac page as a page description (see :func:`render_almanac`)."""
    pg = Page.start(paper, lang)
    tx, st, m, cw = pg.tx, pg.st, pg.m, pg.cw
    players = len(context.players) if context.players else table_players(layout)
    sections = almanac_sections(board, layout, request, tx, players, context.threshold(layout))
    top = _header(pg.dwg, layout, context, m, cw, tx, st)
    bottom = pg.h - m - footer_height(board, cw, tx, st) - 2.0
    col_w = (cw - pg.gap * 2) / 2
    lines = _lines(sections, col_w, st)
    per_col = int((bottom - top) // _LINE)
    if len(lines) > 2 * per_col:
        over = len(lines) - 2 * per_col
        raise SetupgenError(f"the almanac for {layout.name} is {over} line{'s' if over != 1 else ''} too long "
                            f"for one {paper} page; drop rules or shorten the additions")
    split = _split(lines, per_col)
    for c, col in enumerate((lines[:split], lines[split:])):
        _draw_column(pg.dwg, col, m + c * (col_w + pg.gap * 2), top, col_w, st)
    footer(pg.dwg, board, m, pg.h - m, cw, tx, st, None)  # the balance line is on the front alone
    return pg.dwg


#: line height (mm) of the almanac's 8 pt text
_LINE = MIN_FONT_MM * 1.28
_INDENT = 3.2


def _lines(sections: Sequence[Section], w: float, st: Any) -> list[tuple[str, str]]:
    """Every printed line as ``(kind, text)``: ``head`` (bold), ``first``
    (a rule's first line, with a bullet), ``more`` (its continuation),
    ``note`` (a line of a :data:`NOTE` item: no bullet, no indent), ``gap``
    (space before a heading)."""
    out: list[tuple[str, str]] = []
    for i, (head, items) in enumerate(sections):
        if i:
            out.append(("gap", ""))
        out.extend(("head", line) for line in wrap(head, w, MIN_FONT_MM, bold=True))
        for item in items:
            note = item.startswith(NOTE)
            text = " ".join(item.removeprefix(NOTE).split("\n"))  # a rule's two lines flow as one
            for k, line in enumerate(wrap(text, w if note else w - _INDENT, MIN_FONT_MM)):
                out.append(("note" if note else "more" if k else "first", line))
    return out


def _split(lines: list[tuple[str, str]], per_col: int) -> int:
    """Where the second column starts: as late as fits, never splitting a
    rule across the columns nor leaving a heading or a gap at the foot of
    the first (when the second column can take the extra lines)."""
    split = min(per_col, len(lines))
    while split > 1 and split < len(lines) and lines[split][0] in ("more", "note"):
        split -= 1
    while split > 1 and lines[split - 1][0] in ("head", "gap"):
        split -= 1
    return split if len(lines) - split <= per_col else per_col


def _draw_column(dwg: Any, lines: list[tuple[str, str]], x: float, y: float, w: float, st: Any) -> None:
    size = MIN_FONT_MM
    for kind, text in lines:
        y += _LINE
        if kind == "gap":
            continue
        if kind == "head":
            add_text(dwg, dwg, text, x, y, size, st, bold=True)
            continue
        if kind == "note":
            add_text(dwg, dwg, text, x, y, size, st)
            continue
        if kind == "first":
            add_circle(dwg, dwg, x + 1.1, y - size * 0.33, 0.5, fill=st.colour["ink"])
        add_text(dwg, dwg, text, x + _INDENT, y, size, st)


def _header(dwg: Any, layout: Layout, ctx: SheetContext, m: float, cw: float, tx: Texts, st: Any) -> float:
    """Title, then tournament, round and scenario, the table number boxed
    at the right; returns the y (mm) under the rule."""
    box_w = st.mm("table_box_width") if ctx.table is not None else 0.0
    text_w = cw - box_w - 4.0
    t, sz = fit(tx.get("almanac.title"), text_w, st.mm("scenario"), bold=True)
    add_text(dwg, dwg, t, m, m + sz * 1.05, sz, st, bold=True)
    round_text = tx.get("sheet.round_blank") if ctx.round is None else tx.get("sheet.round", n=ctx.round)
    parts = [p for p in (ctx.tournament, round_text, scenario_title(layout, tx)) if p]
    t2, sz2 = fit(" · ".join(parts), text_w, st.mm("body"))
    add_text(dwg, dwg, t2, m, m + sz * 1.4 + sz2 * 1.2, sz2, st)
    return table_box_and_rule(dwg, ctx.table if box_w else None, m, m + sz * 1.4 + sz2 * 1.6, m, cw, box_w, tx, st)


def blank_back(*, lang: str = "en", paper: str = "a4") -> Any:
    """The back of the director's last page in a duplex pack: blank but
    for one line at the foot saying why, so that each table's sheet and
    almanac share one sheet of paper. Raises :class:`SetupgenError` for an
    unknown language or paper."""
    pg = Page.start(paper, lang)
    text, size = fit(pg.tx.get("almanac.blank_back"), pg.cw, MIN_FONT_MM)
    add_text(pg.dwg, pg.dwg, text, pg.m, pg.h - pg.m, size, pg.st, fill=pg.st.colour["muted"])
    return finish(pg.dwg)
