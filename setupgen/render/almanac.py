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

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

from ..core import almanac as rules
from ..core.almanac import AlmanacRequest
from ..core.board import Board
from ..core.errors import SetupgenError
from ..core.hexgrid import corners, edge_corners
from ..core.layout import Layout
from ..core.rules import HARBOR_TYPES
from ..core.templates import MIN_FONT_MM, Texts
from .canvas import Surface
from .numbering import harbor_order, harbor_words
from .page import add_circle, add_text, finish, fit, text_width, wrap
from .sheet import Page, SheetContext, footer, footer_height, round_label, scenario_title, table_box_and_rule

__all__ = [
    "AlmanacRequest",
    "table_players",
    "blank_back",
    "almanac_sections",
    "render_almanac",
    "almanac_page",
    "harbor_summary",
    "pirate_blocked",
    "numbered",
    "NUMBERED",
    "material_lines",
    "lay_out",
    "balance",
    "Line",
    "almanac_layout",
]


Section = tuple[str, list[str]]  # heading, lines (a line may hold "\n")


def almanac_sections(
    board: Board,
    layout: Layout,
    request: AlmanacRequest,
    tx: Texts,
    players: int,
    vp: int | None = None,
    *,
    short: bool = False,
) -> list[Section]:
    """The page's sections in order, as ``(heading, lines)``, for a table
    of ``players`` playing to ``vp`` victory points (default: the
    layout's): what :func:`setupgen.core.almanac.page_rules` says the page
    prints, the win line first (from the tournament file), the footnote
    line naming the house rules the scenario replaced last in the house
    rules; the material this table counts out (:func:`material_lines`)
    after the scenario's and the variant's rules. The disputes section is
    left out where the preset has none (``none``). With ``short`` a rule
    with a short text (``almanac.rule_short.<key>``) is printed with it.
    Raises :class:`SetupgenError` for an unknown preset, rule key or
    variant."""
    vp = layout.victory_points if vp is None else vp
    scenario = layout.name if layout.name in rules.scenarios() else None
    page = rules.page_rules(request, scenario)
    refs = page.numbers()

    def texts_of(part: Sequence[rules.Rule]) -> list[str]:
        return [
            numbered(refs[r.key], _option_label(r, tx) + rules.rule_text(r, tx.lang, short=short, vp=vp, **refs))
            for r in part
        ]

    out: list[Section] = [_house_section(page, refs, request, layout, vp, tx, texts_of(page.house), short)]
    book = None if scenario is None else rules.scenario_rulebook(scenario)
    if page.scenario or book is not None:
        own = [] if book is None else [tx.get("almanac.see_rulebook", book=tx.get(f"almanac.rulebook.{book}"))]
        out.append(
            (tx.get("almanac.scenario_rules", scenario=scenario_title(layout, tx)), own + texts_of(page.scenario))
        )
    if request.variant is not None:
        out.append((_variant_heading(request.variant, layout, tx), texts_of(page.variant)))
    material = material_lines(layout, players, request.variant, tx)
    if material:
        out.append((tx.get("almanac.material_title"), material))
    out.append((tx.get("almanac.maritime_trade"), texts_of(page.trade) + harbor_summary(board, layout, tx, refs)))
    if page.longest:
        key = (
            "almanac.longest_trade_route"
            if any("trade-route" in r.key for r in page.longest)
            else "almanac.longest_road"
        )
        out.append((tx.get(key), texts_of(page.longest)))
    if page.disputes:
        out.append((tx.get("almanac.disputes"), texts_of(page.disputes)))
    return out


def _house_section(
    page: rules.PageRules,
    refs: Mapping[str, int],
    request: AlmanacRequest,
    layout: Layout,
    vp: int,
    tx: Texts,
    house_rules: list[str],
    short: bool,
) -> Section:
    """The house rules' section: the preamble notes, the win line (rule
    1), the house rules worded (``house_rules``), then the notes of a
    rule taken by analogy and of the house rules the scenario replaced."""
    scenario = layout.name if layout.name in rules.scenarios() else None
    head = (
        tx.get("almanac.house_rules_of", preset=tx.get(f"almanac.preset.{request.preset}"))
        if request.preset != rules.NO_PRESET
        else tx.get("almanac.house_rules")
    )
    house = [
        *(NOTE + rules.rule_text(r, tx.lang, short=short) for r in page.preamble),
        numbered(1, _win_line(page, refs, vp, tx)),
        *house_rules,
    ]
    analogy = _analogy_note(page, scenario, refs, request, tx)
    if analogy:
        house.append(NOTE + analogy)
    if page.replaced:
        names = list(dict.fromkeys(tx.get(f"almanac.rule_name.{k}") for k in page.replaced))
        house.append(NOTE + tx.get("almanac.replaced", scenario=scenario_title(layout, tx), rules=", ".join(names)))
    return head, house


def _win_line(page: rules.PageRules, refs: Mapping[str, int], vp: int, tx: Texts) -> str:
    """The win line (house rule 1), citing the scenario's rules about the
    end of a game by their numbers where it has any (Oil Springs)."""
    ends = [str(refs[r.key]) for r in page.scenario if r.end]
    if not ends:
        return tx.get("almanac.win", vp=vp)
    return tx.get("almanac.win_see", vp=vp, rules=", ".join(ends))


def numbered(n: int, text: str) -> str:
    """An item printed with its number ``n`` instead of a bullet (see
    :data:`NUMBERED`)."""
    return f"{NUMBERED}{n}\x00{text}"


def _analogy_note(
    page: rules.PageRules, scenario: str | None, refs: Mapping[str, int], request: AlmanacRequest, tx: Texts
) -> str:
    """The note naming the house rules that apply by analogy on this
    scenario's page (:attr:`setupgen.core.almanac.Rule.analogy`), by
    number, with the scenario's reading; empty where none does."""
    numbers = [str(refs[r.key]) for r in page.house if scenario is not None and scenario in r.analogy]
    if not numbers:
        return ""
    which = tx.get("almanac.analogy.rule" if len(numbers) == 1 else "almanac.analogy.rules", numbers=", ".join(numbers))
    return tx.get(
        "almanac.analogy.note",
        preset=tx.get(f"almanac.preset.{request.preset}"),
        rules=which,
        reading=tx.get(f"almanac.analogy.{scenario}"),
    )


def _option_label(rule: rules.Rule, tx: Texts) -> str:
    """The label of an optional rule (who decides it, its default), with
    a space; empty for a rule that is not an option."""
    return tx.get(f"almanac.option.{rule.option}") + " " if rule.option else ""


#: marks a line of a section printed as a note (no bullet), e.g. the
#: footnote naming the house rules a scenario replaced
NOTE = "\x00note\x00"
#: marks an item that stays in one column with the item after it (the
#: harbor list)
KEEP_NEXT = "\x00keep\x00"
#: marks a numbered rule: ``NUMBERED + "7\x00" + text`` (:func:`numbered`);
#: other items (material, the harbor list) have a bullet
NUMBERED = "\x00num\x00"


def _variant_heading(name: str, layout: Layout, tx: Texts) -> str:
    form = rules.variant(name).form_for(layout.name)
    return f"{tx.get('almanac.variant_rules', variant=tx.get(f'almanac.variant.{name}'))} ({tx.get(f'almanac.form.{form}')})"


def material_lines(layout: Layout, players: int, variant: str | None, tx: Texts) -> list[str]:
    """The pieces a table of ``players`` counts out for a round of
    ``layout`` (its scenario's, then the variant's: ``"30 × fish tokens
    (1 token = 2 fish)"``), boxes left out (the director's page lists
    them); none for a layout without an entry in ``scenarios.toml``."""
    if layout.name not in rules.scenarios():
        return []
    return [
        rules.material_text(m, tx.lang)
        for m in rules.table_material(layout.name, players, variant)
        if m.kind == "piece"
    ]


def table_players(layout: Layout) -> int:
    """The players a table of ``layout`` is counted for when the sheet
    names none: the most the layout takes (4, 6 for 5-6, 3 for a 3-player set-up)."""
    return layout.most_players


def harbor_summary(
    board: Board, layout: Layout, tx: Texts, refs: Mapping[str, int] = MappingProxyType({})
) -> list[str]:
    """This board's harbors by type, with the front's numbers
    (``3:1: 2, 5, 8``; ``2:1 ore: 1``), kept in one column; on a board
    with a pirate, the harbors at the corners of its start hex (blocked
    while it stays there: Schweizer Meisterschaft 2010, Seafarers rule 10,
    cited by its number on the page from ``refs``,
    :meth:`setupgen.core.almanac.PageRules.numbers`).
    For ``players`` harbors the pool the table lays. Raises
    :class:`SetupgenError` where a pirate blocks harbors and ``refs`` has
    no number for that rule."""
    if board.harbor_method == "players":
        pool = [
            f"{layout.harbor_pool.count(t)} × {' '.join(harbor_words(t, tx)).strip()}"
            for t in HARBOR_TYPES
            if t in layout.harbor_pool
        ]
        return [tx.get("sheet.harbor_pool") + ": " + ", ".join(pool)]
    numbers: dict[str, list[int]] = {}
    order = harbor_order(board)
    for n, h in enumerate(order, start=1):
        numbers.setdefault(h.type, []).append(n)
    lines = [tx.get("almanac.harbors_board")]
    for t in HARBOR_TYPES:
        if t in numbers:
            lines.append(f"{' '.join(harbor_words(t, tx)).strip()}: {', '.join(str(n) for n in numbers[t])}")
    blocked = pirate_blocked(board)
    if blocked and "rule_sea_pirate_harbors" in refs:  # a scenario rule of the Swiss 2010 map alone
        # (no source makes the pirate block harbors on another map)
        lines.append(
            tx.get("almanac.pirate_blocks", numbers=", ".join(str(n) for n in blocked), n=len(blocked), **refs)
        )
    return [KEEP_NEXT + line for line in lines[:-1]] + lines[-1:]


def pirate_blocked(board: Board) -> list[int]:
    """The front's numbers of the harbors with a corner at a corner of the
    pirate's start hex (none without a pirate or with harbors the players
    lay), ascending."""
    if board.pirate is None or board.harbor_method == "players":
        return []
    around = set(corners(board.pirate))
    return [n for n, h in enumerate(harbor_order(board), start=1) if around & set(edge_corners(h.hex, h.facing))]


def render_almanac(
    board: Board,
    layout: Layout,
    *,
    lang: str = "en",
    paper: str = "a4",
    context: SheetContext = SheetContext(),
    request: AlmanacRequest = AlmanacRequest(),
) -> str:
    """The almanac page of ``board`` as SVG text (see the module doc).

    Raises :class:`SetupgenError` for an unknown language, paper, preset,
    rule key or variant, and when the content does not fit one page
    (saying by how many lines)."""
    return finish(almanac_page(board, layout, lang=lang, paper=paper, context=context, request=request))


def almanac_page(
    board: Board,
    layout: Layout,
    *,
    lang: str = "en",
    paper: str = "a4",
    context: SheetContext = SheetContext(),
    request: AlmanacRequest = AlmanacRequest(),
) -> Any:
    """The almanac page as a page description (see :func:`render_almanac`
    and :func:`almanac_layout`)."""
    pg = Page.start(paper, lang)
    top = _header(pg.dwg, layout, context, pg.m, pg.cw, pg.tx, pg.st)
    size, columns, _ = _laid_out(board, layout, pg, top, paper, context, request)
    col_w = (pg.cw - pg.gap * 2) / 2
    for c, col in enumerate(columns):
        _draw_column(pg.dwg, col, pg.m + c * (col_w + pg.gap * 2), top, size, _leading(pg.st), pg.st)
    footer(pg.dwg, board, pg.m, pg.h - pg.m, pg.cw, pg.tx, pg.st, None)  # the balance line is on the front alone
    return pg.dwg


def almanac_layout(
    board: Board,
    layout: Layout,
    *,
    lang: str = "en",
    paper: str = "a4",
    context: SheetContext = SheetContext(),
    request: AlmanacRequest = AlmanacRequest(),
) -> tuple[float, list[list[Line]], int]:
    """How the almanac page is laid out: ``(body size in mm, [column 1,
    column 2] as :class:`Line` lists, lines a column holds)``. Two balanced
    columns over the text width (:func:`balance`), the body at the largest
    size of ``[almanac] body_sizes_pt`` (style.toml, pt; never below 8 pt)
    at which the page fits with the rules' full texts, else with their
    short texts (``[almanac.rule_short]``) where they have one. Raises
    :class:`SetupgenError` as :func:`render_almanac` does."""
    pg = Page.start(paper, lang)
    top = _header(pg.dwg, layout, context, pg.m, pg.cw, pg.tx, pg.st)
    return _laid_out(board, layout, pg, top, paper, context, request)


def _laid_out(
    board: Board, layout: Layout, pg: Page, top: float, paper: str, context: SheetContext, request: AlmanacRequest
) -> tuple[float, list[list[Line]], int]:
    players = len(context.players) if context.players else table_players(layout)
    height = pg.h - pg.m - footer_height(board, pg.cw, pg.tx, pg.st) - 2.0 - top
    col_w = (pg.cw - pg.gap * 2) / 2
    laid: Laid | int = 0
    for short in (False, True):
        sections = almanac_sections(board, layout, request, pg.tx, players, context.threshold(layout), short=short)
        laid = lay_out(sections, col_w, height, pg.tx, _sizes(pg.st), _leading(pg.st))
        if not isinstance(laid, int):
            size, columns = laid
            return size, columns, int(height // (size * _leading(pg.st)))
    raise SetupgenError(
        f"the almanac for {layout.name} is {laid} line{'s' if laid != 1 else ''} too long "
        f"for one {paper} page; drop rules or shorten the additions"
    )


def _sizes(st: Any) -> list[float]:
    """The body sizes to try, in mm, largest first, none below 8 pt."""
    sizes = [float(pt) * 25.4 / 72 for pt in st.table("almanac").get("body_sizes_pt", [8.0])]
    return sorted({max(MIN_FONT_MM, s) for s in sizes}, reverse=True)


def _leading(st: Any) -> float:
    return float(st.table("almanac").get("leading", 1.2))


_INDENT = 3.2 / MIN_FONT_MM  # a rule's indent, in units of the body size


class Line(NamedTuple):
    """One printed line: ``kind`` (``head``: a heading line, bold;
    ``first``: a rule's first line, with a bullet or, for a
    :data:`NUMBERED` item, its ``number``; ``more``: its continuation;
    ``note``: a line of a :data:`NOTE` item, no bullet, no indent;
    ``gap``: space before a heading), its ``text``, the ``section``
    (index) and ``group`` (index of the item in the section; a column
    break falls only between groups, so a rule and the harbor list stay
    whole) it belongs to, the ``number`` printed before a numbered rule's
    first line (``"7."``) and the section's ``indent`` in mm (wide enough
    for its largest number)."""

    kind: str
    text: str
    section: int
    group: int
    number: str = ""
    indent: float = 0.0


#: a page laid out: (body size in mm, [column 1 lines, column 2 lines])
Laid = tuple[float, list[list[Line]]]


def lay_out(
    sections: Sequence[Section], col_w: float, height: float, tx: Texts, sizes: Sequence[float], leading: float
) -> Laid | int:
    """``sections`` set in two columns of ``col_w`` x ``height`` mm at the
    first of ``sizes`` (mm) at which they fit (:func:`balance`); where none
    fits, how many lines too long the page is at the last size."""
    over = 0
    for size in sizes:
        lines = _lines(sections, col_w, size)
        per_col = int(height // (size * leading))
        columns = balance(lines, per_col, [_continued(h, col_w, size, tx) for h, _ in sections])
        if columns is not None:
            return size, columns
        over = max(1, len(lines) - 2 * per_col)
    return over


def _continued(head: str, w: float, size: float, tx: Texts) -> list[str]:
    return wrap(tx.get("almanac.continued", heading=head), w, size, bold=True)


def balance(lines: Sequence[Line], per_col: int, continued: Sequence[Sequence[str]]) -> list[list[Line]] | None:
    """The two columns of ``lines`` (each at most ``per_col`` lines), the
    break chosen so that the longer column is as short as it can be (the
    first column the longer one on a tie), or ``None`` where no break fits.
    A break falls only between two groups (a rule, the harbor list); a
    heading is followed by at least two lines of its section in its column
    (or by all of the section that is left); a section carried over into
    the second column starts it with its heading again
    (``continued[section]``, the lines of "Maritime trade (cont.)"); a gap
    line at the break is left out."""
    best: tuple[int, int, list[list[Line]]] | None = None
    for k in range(len(lines) + 1):
        if 0 < k < len(lines) and (lines[k].section, lines[k].group) == (lines[k - 1].section, lines[k - 1].group):
            continue
        first, second = _trim(lines[:k]), _trim(lines[k:])
        carried = bool(second) and second[0].kind != "head"
        if carried:
            sec = second[0].section
            second = [Line("head", t, sec, -1) for t in continued[sec]] + second
        if (
            len(first) > per_col
            or len(second) > per_col
            or not _headings_kept(first, per_col, carried)
            or not _headings_kept(second, per_col, False)
        ):
            continue
        score = (max(len(first), len(second)), len(second) - len(first))
        if best is None or score < best[:2]:
            best = (*score, [first, second])
    return None if best is None else best[2]


def _trim(col: Sequence[Line]) -> list[Line]:
    """``col`` without gap lines at its start or end."""
    out = list(col)
    while out and out[0].kind == "gap":
        out.pop(0)
    while out and out[-1].kind == "gap":
        out.pop()
    return out


def _headings_kept(col: Sequence[Line], per_col: int, continues: bool) -> bool:
    """Whether no section starts in the last two of the column's
    ``per_col`` lines, every heading has a line of its section below it,
    and the section that ``continues`` in the next column (the last of
    ``col``) keeps at least two lines here."""
    for i, line in enumerate(col):
        if line.kind != "head":
            continue
        start = i
        while start and col[start - 1].kind == "head" and col[start - 1].section == line.section:
            start -= 1
        if start == i and start > per_col - 3:
            return False
        if i + 1 < len(col) and col[i + 1].kind == "head" and col[i + 1].section == line.section:
            continue
        own = sum(1 for x in col[i + 1 :] if x.section == line.section)
        if own == 0 or (continues and own < 2 and all(x.section == line.section for x in col[i + 1 :])):
            return False
    return True


def _lines(sections: Sequence[Section], w: float, size: float) -> list[Line]:
    """Every printed line of ``sections`` in columns ``w`` mm wide at body
    size ``size`` mm (see :class:`Line`); a rule's two lines flow as one
    paragraph; an item marked :data:`KEEP_NEXT` shares its group with the
    next (the harbor list stays in one column)."""
    out: list[Line] = []
    for i, (head, items) in enumerate(sections):
        if i:
            out.append(Line("gap", "", i, -2))
        out.extend(Line("head", line, i, -1) for line in wrap(head, w, size, bold=True))
        parsed = [_item(item) for item in items]
        indent = _section_indent([n for _, n, _, _ in parsed], size)
        group = 0
        for keep, number, note, text in parsed:
            for k, line in enumerate(wrap(text, w if note else w - indent, size)):
                kind = "note" if note else "more" if k else "first"
                out.append(Line(kind, line, i, group, f"{number}." if number and not k else "", indent))
            group += 0 if keep else 1
    return out


def _item(item: str) -> tuple[bool, str, bool, str]:
    """``(keep with next, number or "", note, text on one line)`` of a
    section's item (the markers :data:`KEEP_NEXT`, :data:`NUMBERED`,
    :data:`NOTE`)."""
    keep = item.startswith(KEEP_NEXT)
    body = item.removeprefix(KEEP_NEXT)
    number = ""
    if body.startswith(NUMBERED):
        number, body = body.removeprefix(NUMBERED).split("\x00", 1)
    note = body.startswith(NOTE)
    return keep, number, note, " ".join(body.removeprefix(NOTE).split("\n"))


def _section_indent(numbers: Sequence[str], size: float) -> float:
    """A section's indent in mm at body size ``size``: the bullet's, or
    wider where its largest number (``"12."``) needs more."""
    widest = max((text_width(f"{n}.", size) for n in numbers if n), default=0.0)
    return max(_INDENT * size, widest + 0.35 * size)


def _draw_column(dwg: Surface, lines: list[Line], x: float, y: float, size: float, leading: float, st: Any) -> None:
    for line in lines:
        y += size * leading
        if line.kind == "gap":
            continue
        if line.kind == "head":
            add_text(dwg, line.text, x, y, size, st, bold=True)
        elif line.kind == "note":
            add_text(dwg, line.text, x, y, size, st)
        else:
            if line.number:
                add_text(dwg, line.number, x + line.indent - 0.35 * size, y, size, st, anchor="end")
            elif line.kind == "first":
                k = size / MIN_FONT_MM  # the bullet of 8 pt text: 0.5 mm, 1.1 mm from the column's edge
                add_circle(dwg, x + 1.1 * k, y - size * 0.33, 0.5 * k, fill=st.colour["ink"])
            add_text(dwg, line.text, x + line.indent, y, size, st)


def _header(dwg: Surface, layout: Layout, ctx: SheetContext, m: float, cw: float, tx: Texts, st: Any) -> float:
    """Title, then tournament, round and scenario, the table number boxed
    at the right; returns the y (mm) under the rule."""
    box_w = st.mm("table_box_width") if ctx.table is not None else 0.0
    text_w = cw - box_w - 4.0
    t, sz = fit(tx.get("almanac.title"), text_w, st.mm("scenario"), bold=True)
    add_text(dwg, t, m, m + sz * 1.05, sz, st, bold=True)
    parts = [p for p in (ctx.tournament, round_label(ctx, tx), scenario_title(layout, tx)) if p]
    t2, sz2 = fit(" · ".join(parts), text_w, st.mm("body"))
    add_text(dwg, t2, m, m + sz * 1.4 + sz2 * 1.2, sz2, st)
    return table_box_and_rule(dwg, ctx.table if box_w else None, m, m + sz * 1.4 + sz2 * 1.6, m, cw, box_w, tx, st)


def blank_back(*, lang: str = "en", paper: str = "a4") -> Any:
    """The back of the director's last page in a duplex pack: blank but
    for one line at the foot saying why, so that each table's sheet and
    almanac share one sheet of paper. Raises :class:`SetupgenError` for an
    unknown language or paper."""
    pg = Page.start(paper, lang)
    text, size = fit(pg.tx.get("almanac.blank_back"), pg.cw, MIN_FONT_MM)
    add_text(pg.dwg, text, pg.m, pg.h - pg.m, size, pg.st, fill=pg.st.colour["ink"])
    return finish(pg.dwg)
