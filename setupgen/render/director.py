"""The director's pages of a round pack, as SVG texts (``docs/sheet.md``:
a round pack is one PDF, director's pages first).

Every page repeats the same header: the tournament (or "Director's page")
and the round (a blank "Round ____" when unknown), the table count and the
round seed, a framed box with the pointer to ``key.pdf`` and the director's
notes (e.g. a reconstructed map), and the column heads. Then one row per
table: number, scenario, setup ID, seed, the players in seat order when
scheduled, and two check boxes (result received, entered). As many rows a
page as fit, never a row split; "Page i of n" at the foot.

When the rows carry material (:attr:`DirectorRow.material`, from
:func:`setupgen.core.almanac.table_material`), the first page has a
framed material box under the header: "Every table: …" for what every
table needs alike (same key, same count); for the tables that need more
or other than that (a table of 3 needs fewer fishing-ship markers than
one of 4), their numbers and what they need ("Tables 4, 8, 12: …"); and
the round's totals, summed over all tables, so the director knows what
to bring. Rows are unchanged. Without material the pages are exactly as
before.

When the rows carry balance (:attr:`DirectorRow.balance`, the director's
metrics of :func:`setupgen.core.balance.measure`: face-down hexes
counted), a "Balance" column before the check boxes gives each table's
score (one decimal, the language's decimal mark), the most pips at an
intersection a starting settlement may take and the resource-pip spread,
each figure right-aligned in its own narrow cell so a column of tables
scans for an outlier; the first page has a framed balance box under the
header (under the material box): the round's range of each figure,
lowest–highest, and one legend line explaining the three. Without
balance the pages are exactly as before.

Sizes in mm from ``templates/style.toml`` (table ``[director]``), words from
``templates/<lang>.toml`` (``[director]``); no text below 8 pt; columns are
measured from their texts and never touch.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import cldr, templates
from ..core.almanac import Material, material_text
from ..core.balance import Balance
from ..core.data import read_data_toml
from ..core.errors import SetupgenError
from ..core.layout import Layout
from ..core.templates import MIN_FONT_MM, Style, Texts, paper_size
from .canvas import Surface
from .page import add_path, add_rect, add_text, drawing, finish, fit, fit_lines, num, text_width, wrap
from .sheet import stage_word

__all__ = [
    "DirectorRow",
    "Sizes",
    "sizes",
    "notes_for",
    "render_director_pages",
    "render_director_page",
    "player_lines",
    "seed_lines",
    "one_scenario",
]

#: the columns, left to right: (kind, template key of the head)
COLUMNS = (
    ("table", "director.table"),
    ("scenario", "director.scenario"),
    ("setup_id", "director.setup_id"),
    ("seed", "director.seed"),
    ("received", "director.received"),
    ("entered", "director.entered"),
)
#: the balance column, before the check boxes, when any row has balance
BALANCE_COLUMN = ("balance", "director.balance")
#: most lines of players under a row (6 players: 3 lines of 2)
MAX_PLAYER_LINES = 3
#: between two items of material on one line
ITEM_SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class DirectorRow:
    """One table on the director's page; ``players`` in seat order (may be
    empty); ``material`` what the table needs (boxes, then pieces, as
    :func:`setupgen.core.almanac.table_material` gives it; may be empty);
    ``balance`` the board's metrics as the director measures them
    (:func:`setupgen.core.balance.measure` with ``table=False``:
    face-down hexes counted), or None."""

    table: int
    scenario: str
    setup_id: str
    seed: str | None
    players: tuple[str, ...] = ()
    material: tuple[Material, ...] = ()
    balance: Balance | None = None


@dataclass(frozen=True, slots=True)
class Sizes:
    """One table of lengths (mm) from ``templates/style.toml``."""

    table: str
    values: Mapping[str, float]

    def __call__(self, name: str) -> float:
        """The length ``name`` (mm). Raises :class:`SetupgenError` if unknown."""
        try:
            return float(self.values[name])
        except KeyError:
            raise SetupgenError(f"templates/style.toml has no {self.table}.{name}") from None


_SIZES: dict[tuple[str, str], Sizes] = {}


def sizes(table: str) -> Sizes:
    """The lengths of table ``table`` (e.g. ``director``) of
    ``templates/style.toml``, read once. Raises :class:`SetupgenError` for
    a missing file or table."""
    path = templates.templates_dir() / "style.toml"
    key = (str(path), table)
    if key not in _SIZES:
        values = read_data_toml(path, "style file").get(table)
        if not isinstance(values, dict):
            raise SetupgenError(f"templates/style.toml has no table [{table}]")
        _SIZES[key] = Sizes(table, {str(k): float(v) for k, v in values.items()})
    return _SIZES[key]


def notes_for(layout: Layout, lang: str = "en", positions: str = "start") -> tuple[str, ...]:
    """The director-only notes of ``layout`` in ``lang``: the reconstruction
    note when the map is a reconstruction; with ``positions``
    ``"selection"`` the note that the players are listed in selection
    order (docs/rules.md section 6, "Selection order")."""
    tx = templates.texts(lang)
    out = (tx.get("note.reconstruction"),) if layout.reconstruction else ()
    return out + ((tx.get("director.selection_order"),) if positions == "selection" else ())


def player_lines(rows: Sequence[DirectorRow], span: float, size: float) -> tuple[int, int]:
    """``(lines, cells a line)`` for the players of every row in a band
    ``span`` mm wide: the fewest lines (at most :data:`MAX_PLAYER_LINES`)
    in which every name fits its cell at ``size`` mm; ``(0, 0)`` without
    players."""
    most = max((len(r.players) for r in rows), default=0)
    if not most:
        return 0, 0
    names = [(i + 1, p) for r in rows for i, p in enumerate(r.players)]
    for lines in range(1, MAX_PLAYER_LINES + 1):
        per = math.ceil(most / lines)
        cell = span / per
        if all(_player_width(i, p, size) <= cell - size for i, p in names):
            return lines, per
    return MAX_PLAYER_LINES, math.ceil(most / MAX_PLAYER_LINES)


def _player_width(seat: int, name: str, size: float) -> float:
    return text_width(f"{seat} ", size, bold=True) + text_width(name, size)


@dataclass(frozen=True, slots=True)
class _Plan:
    """What every page shares: paper, words, style, sizes, the columns
    ``(kind, x, width)``, the players' lines and cells, the row height,
    and with balance the widths of the balance column's three cells."""

    w: float
    h: float
    tx: Texts
    st: Style
    g: Sizes
    cols: tuple[tuple[str, float, float], ...]
    lines: int
    per_line: int
    band: float
    row_h: float
    figures: tuple[float, ...] = ()
    #: the seeds' size (mm): the ID size, or 8 pt when one is broken onto lines
    seed_size: float = 0.0
    #: a finals stage: players one a line under a "Choice" head
    choice: bool = False

    def col(self, kind: str) -> tuple[float, float]:
        return next((x, w) for k, x, w in self.cols if k == kind)

    def span(self) -> tuple[float, float]:
        """``(x, width)`` (mm) of the whole row, first column to last: where the players go."""
        return self.cols[0][1], self.cols[-1][1] + self.cols[-1][2] - self.cols[0][1]


def render_director_pages(
    rows: Sequence[DirectorRow],
    *,
    title: str | None,
    lang: str = "en",
    paper: str = "a4",
    seed: str | None = None,
    round: int | None = None,
    blank_round: bool = True,
    key_file: str | None = None,
    notes: Sequence[str] = (),
    stage: str | None = None,
) -> list[str]:
    """The director's pages as SVG texts (see the module doc), rows in the
    order given, as many a page as fit; at least one page. ``title``: the
    tournament (else "Director's page"); ``round`` its number, or with
    ``blank_round`` a blank to fill in; ``stage``: a finals stage
    (``semi-final``, ``final``), named instead of a round, its players
    listed in choosing order under a "choice" heading; ``key_file``: the
    key's file name when the round has one; ``notes``: director-only
    notes, in words.

    Raises :class:`SetupgenError` for an unknown language or paper."""
    w, h = paper_size(paper)
    tx = templates.texts(lang)
    st = templates.style()
    g = sizes("director")
    plan = _plan(rows, w, h, tx, st, g, choice=stage is not None)
    head = _Head(
        title,
        len(rows),
        seed,
        round,
        blank_round,
        key_file,
        tuple(notes),
        _material_paragraphs(rows, tx),
        _balance_summary(rows, tx),
        stage,
        one_scenario(rows),
    )
    top, top1 = _header(drawing(w, h), plan, head, first=False), _header(drawing(w, h), plan, head)
    bottom = h - st.margin - g("footer") * 1.2 - g("inset")
    first, per_page = (max(1, int((bottom - t) // plan.row_h)) for t in (top1, top))
    chunks = [rows[:first]] + [rows[i : i + per_page] for i in range(first, len(rows), per_page)]
    if len(chunks) == 1 and rows:
        # one page: the rows grow (up to row_max) into the room left
        band = max(plan.band, min(g("row_max"), plan.band + (bottom - top1 - len(rows) * plan.row_h) / len(rows)))
        plan = dataclasses.replace(plan, band=band, row_h=_row_height(band, plan.lines, g))
    pages = []
    for i, chunk in enumerate(chunks, start=1):
        dwg = drawing(w, h)
        y = _header(dwg, plan, head, first=i == 1)
        for k, row in enumerate(chunk):
            _row(dwg, plan, row, y + k * plan.row_h, shaded=k % 2 == 1)
        _footer(dwg, plan, i, len(chunks))
        pages.append(finish(dwg))
    return pages


def render_director_page(
    rows: Sequence[DirectorRow],
    *,
    title: str | None,
    lang: str = "en",
    paper: str = "a4",
    seed: str | None = None,
    **options: Any,
) -> str:
    """The director's page when every row fits on one page (options as
    :func:`render_director_pages`). Raises :class:`SetupgenError` when the
    rows need more pages, or for an unknown language or paper."""
    pages = render_director_pages(rows, title=title, lang=lang, paper=paper, seed=seed, **options)
    if len(pages) > 1:
        raise SetupgenError(f"{len(rows)} tables need {len(pages)} director's pages")
    return pages[0]


# -- columns --------------------------------------------------------------------


def _head_width(text: str, size: float) -> float:
    """The narrowest width (mm) holding ``text`` in at most two lines, bold."""
    words = text.split()
    best = text_width(text, size, bold=True)
    for i in range(1, len(words)):
        best = min(
            best,
            max(text_width(" ".join(words[:i]), size, bold=True), text_width(" ".join(words[i:]), size, bold=True)),
        )
    return best


def _columns(rows: Sequence[DirectorRow]) -> tuple[tuple[str, str], ...]:
    """The columns of these rows: :data:`COLUMNS` without the scenario when
    every row has the same one (the header names it, :func:`one_scenario`),
    with the balance column before the check boxes when any row has
    balance."""
    cols = COLUMNS if one_scenario(rows) is None else tuple(c for c in COLUMNS if c[0] != "scenario")
    if not any(r.balance is not None for r in rows):
        return cols
    return cols[:-2] + (BALANCE_COLUMN,) + cols[-2:]


def one_scenario(rows: Sequence[DirectorRow]) -> str | None:
    """The scenario of every row when they share one (then named once in
    the header, not in a column), else None."""
    names = {r.scenario for r in rows}
    return names.pop() if len(names) == 1 else None


def _figures(b: Balance, mark: str) -> tuple[str, str, str]:
    """A board's three balance figures as printed: the score with one
    decimal and the language's decimal mark, the most pips at a starting
    intersection, the resource-pip spread."""
    return f"{b.score:.1f}".replace(".", mark), str(b.intersection_max), str(b.resource_spread)


def _figure_widths(rows: Sequence[DirectorRow], tx: Texts, g: Sizes) -> tuple[float, ...]:
    """The widths (mm) of the balance column's three cells: each its widest
    figure at the ID size (the size of the setup ID and seed); () without
    balance."""
    mark = cldr.decimal_mark(tx)
    figs = [_figures(r.balance, mark) for r in rows if r.balance is not None]
    if not figs:
        return ()
    return tuple(max(text_width(f[i], g("id")) for f in figs) for i in range(3))


def _natural_widths(
    rows: Sequence[DirectorRow], tx: Texts, g: Sizes, figures: tuple[float, ...] = ()
) -> dict[str, float]:
    body, ids = g("body"), g("id")
    content = {
        "table": max((text_width(str(r.table), body, bold=True) for r in rows), default=0.0),
        "scenario": max((text_width(_scenario_word(r.scenario, tx), body) for r in rows), default=0.0),
        "setup_id": max((text_width(r.setup_id, ids, mono=True, bold=True) for r in rows), default=0.0),
        "seed": max((text_width(r.seed or "", ids, mono=True) for r in rows), default=0.0),
        "received": g("box"),
        "entered": g("box"),
        "balance": sum(figures) + _figure_gap(g) * max(0, len(figures) - 1),
    }
    return {kind: max(content[kind], _head_width(tx.get(key), g("head"))) for kind, key in _columns(rows)}


def _figure_gap(g: Sizes) -> float:
    """The space (mm) between the balance column's cells: half a column
    gap, about a digit's width (two-digit figures side by side must not
    read as one number)."""
    return g("column_gap") / 2


def _plan(
    rows: Sequence[DirectorRow], w: float, h: float, tx: Texts, st: Style, g: Sizes, choice: bool = False
) -> _Plan:
    """Column widths from their texts: table, setup ID, the balance column
    and the check boxes as wide as they need; the seed (and the scenario
    when there is a scenario column) share the rest (the seed takes what
    the scenario leaves, at least a third of it). A seed too long for its
    column is broken onto more lines at 8 pt (:func:`seed_lines`), never
    cut, and the rows' first line grows to hold them. The players go
    under the row's first line, across the whole row; with
    ``choice`` (a finals stage) one a line under a "Choice" head."""
    columns = _columns(rows)
    figures = _figure_widths(rows, tx, g)
    nat = _natural_widths(rows, tx, g, figures)
    gap = g("column_gap")
    inner = w - 2 * st.margin - 2 * g("inset")
    fixed = sum(nat[k] for k, _ in columns if k not in ("scenario", "seed"))
    flex = max(2 * gap, inner - fixed - gap * (len(columns) - 1))
    widths = dict(nat, seed=flex)
    if "scenario" in nat:
        scenario = nat["scenario"] if nat["scenario"] + nat["seed"] <= flex else max(flex - nat["seed"], flex * 2 / 3)
        widths.update(scenario=scenario, seed=flex - scenario)
    x = st.margin + g("inset")
    cols = []
    for kind, _ in columns:
        cols.append((kind, x, widths[kind]))
        x += widths[kind] + gap
    seed_size, most = _seed_plan(rows, widths["seed"], g)
    band = max(g("row"), most * seed_size * SEED_LINE + 2 * g("inset"))
    if choice:
        lines, per_line = max((len(r.players) for r in rows), default=0) + 1, 1
    else:
        lines, per_line = player_lines(rows, cols[-1][1] + cols[-1][2] - cols[0][1], g("player"))  # _Plan.span
    return _Plan(
        w, h, tx, st, g, tuple(cols), lines, per_line, band, _row_height(band, lines, g), figures, seed_size, choice
    )


#: line spacing of a seed broken onto several lines (x its size)
SEED_LINE = 1.15


def _seed_plan(rows: Sequence[DirectorRow], width: float, g: Sizes) -> tuple[float, int]:
    """``(size, lines)``: the seeds' size (the ID size when every seed fits
    its column on one line, else 8 pt) and the most lines one takes."""
    ids = g("id")
    if all(text_width(r.seed or "", ids, mono=True) <= width for r in rows):
        return ids, 1
    return MIN_FONT_MM, max(len(seed_lines(r.seed or "", width, MIN_FONT_MM)) for r in rows)


def seed_lines(seed: str, width: float, size: float, *, mono: bool = True) -> list[str]:
    """``seed`` whole, broken into lines of at most ``width`` mm at ``size``
    mm (monospaced by default): each line as long as fits, broken after
    its last ``/``, ``-`` or ``_`` when that keeps at least half the line,
    else at the width. Joined, the lines give the seed back."""
    lines: list[str] = []
    rest = seed
    while rest and text_width(rest, size, mono=mono) > width:
        n, used = 0, 0.0  # the most characters that fit, at least one (widths add up: no kerning)
        while n < len(rest) and (n == 0 or used + text_width(rest[n], size, mono=mono) <= width):
            used += text_width(rest[n], size, mono=mono)
            n += 1
        cut = max(rest.rfind(c, 0, n) for c in "/-_") + 1
        n = cut if cut >= n / 2 else n
        lines.append(rest[:n])
        rest = rest[n:]
    return lines + ([rest] if rest or not lines else [])


def _row_height(band: float, lines: int, g: Sizes) -> float:
    """A row's height (mm): its first line ``band`` mm high, then the lines
    of players and the space under them."""
    return band + (lines * g("player_line") + g("row_pad") if lines else 0.0)


def _scenario_word(name: str, tx: Texts) -> str:
    key = f"scenario.{name}"
    return tx.get(key) if tx.has(key) else name


# -- header and footer ------------------------------------------------------------


def _rule(dwg: Surface, plan: _Plan, y: float, width: float) -> None:
    m = plan.st.margin
    add_path(dwg, f"M{num(m)},{num(y)} L{num(plan.w - m)},{num(y)}", stroke=plan.st.colour["ink"], width=width)


@dataclass(frozen=True, slots=True)
class _Head:
    """What the header of every page says (see :func:`render_director_pages`)."""

    title: str | None
    count: int
    seed: str | None
    round: int | None
    blank_round: bool
    key_file: str | None
    notes: tuple[str, ...]
    #: the first page's material box: (label, items) a paragraph
    material: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the first page's balance box: (label, the round's ranges, legend), or None
    balance: tuple[str, tuple[str, ...], str] | None = None
    #: a finals stage, named instead of the round (None: a preliminary round)
    stage: str | None = None
    #: the scenario of every table, named under the title (None: a column of scenarios)
    scenario: str | None = None


def _header(dwg: Surface, plan: _Plan, head: _Head, *, first: bool = True) -> float:
    """Title and round, the count and seed, the box of director's notes,
    on the ``first`` page the material box and the balance box, and the
    column heads; returns the y (mm) where the first row starts."""
    tx, st, g = plan.tx, plan.st, plan.g
    title, round = head.title, head.round
    blank_round, key_file, notes = head.blank_round, head.key_file, head.notes
    m = st.margin
    cw = plan.w - 2 * m
    if head.stage is not None:
        parts = [title or tx.get("director.title"), stage_word(head.stage, tx)]
    elif round is not None:
        parts = [title or tx.get("director.title"), tx.get("director.round", n=round)]
    else:
        parts = [title or tx.get("director.title")] + ([tx.get("director.round_blank")] if blank_round else [])
    title_text = " · ".join(parts)
    one = g("title") * min(1.0, cw / max(0.1, text_width(title_text, g("title"), bold=True)))
    if one >= g("title") * 0.8:  # one line, a little smaller, rather than two
        lines, size = [title_text], one
    else:
        lines, size = fit_lines(title_text, cw, g("title"), 2, bold=True)
    y = m
    for line in lines:
        y += size
        add_text(dwg, line, m, y, size, st, bold=True)
        y += size * 0.25
    y = _subtitle(dwg, plan, head, y)
    box = [(tx.get("director.key_pointer", file=key_file), True)] if key_file else []
    box += [(f"{tx.get('director.note')} {n}", False) for n in notes]
    material = head.material if first else ()
    balance = head.balance if first else None
    if box:
        y = _note_box(dwg, plan, box, y + g("inset"))
    elif not material and balance is None:  # a box below the subtitle stands for the rule
        y += g("inset")
        _rule(dwg, plan, y, g("rule"))
    if material:
        y = _material_box(dwg, plan, material, y + g("inset"))
    if balance is not None:
        y = _balance_box(dwg, plan, balance, y + g("inset"))
    return _column_heads(dwg, plan, y)


def _subtitle(dwg: Surface, plan: _Plan, head: _Head, y: float) -> float:
    """Under the title (``y``, mm): "Director's page", the table count and
    the scenario every table plays, then the round seed, whole (broken
    onto further lines when long, :func:`seed_lines`); returns the y below."""
    tx, st, g = plan.tx, plan.st, plan.g
    m, cw = st.margin, plan.w - 2 * st.margin
    sub = ([tx.get("director.title")] if head.title else []) + [
        tx.get("director.count_one") if head.count == 1 else tx.get("director.count", n=head.count)
    ]
    if head.scenario is not None:
        sub.append(_scenario_word(head.scenario, tx))
    if head.seed is not None:
        sub.append(tx.get("director.round_seed", seed=head.seed))
    size = g("subtitle")
    lines: list[str] = []
    for part in sub:  # as many parts a line as fit; a part too long for a line broken, never cut
        joined = f"{lines[-1]}  ·  {part}" if lines else part
        if lines and text_width(joined, size) <= cw:
            lines[-1] = joined
        else:
            lines += seed_lines(part, cw, size, mono=False)
    for line in lines:
        y += size * 1.4
        add_text(dwg, line, m, y, size, st, fill=st.colour["muted"])
    return y + size * 0.6


def _note_box(dwg: Surface, plan: _Plan, paragraphs: list[tuple[str, bool]], top: float) -> float:
    """A framed box of wrapped paragraphs (``(text, bold)``) across the
    page from ``top`` (mm); returns the y below it."""
    st, g = plan.st, plan.g
    m, pad, size = st.margin, g("note_pad"), g("note")
    lh = size * g("line_spacing")
    width = plan.w - 2 * m - 2 * pad
    lines = [(line, bold) for text, bold in paragraphs for line in wrap(text, width, size, bold=bold)]
    height = 2 * pad + len(lines) * lh - (lh - size)
    add_rect(dwg, m, top, plan.w - 2 * m, height, fill=st.fill["box"], stroke=st.colour["ink"], width=g("rule"))
    y = top + pad
    for line, bold in lines:
        t, sz = fit(line, width, size, bold=bold)
        add_text(dwg, t, m + pad, y + size * 0.8, sz, st, bold=bold)
        y += lh
    return top + height


# -- material ------------------------------------------------------------------------


def _item_lines(items: Sequence[str], width: float, size: float, *, bold: bool = False) -> list[str]:
    """``items`` joined by :data:`ITEM_SEPARATOR` into lines no wider than
    ``width`` mm at ``size`` mm, broken only between items (an item too
    wide for a line alone is broken at its spaces)."""
    lines: list[str] = []
    for item in items:
        cand = f"{lines[-1]}{ITEM_SEPARATOR}{item}" if lines else item
        if lines and text_width(cand, size, bold=bold) <= width:
            lines[-1] = cand
        elif text_width(item, size, bold=bold) <= width:
            lines.append(item)
        else:
            lines.extend(wrap(item, width, size, bold=bold))
    return lines


def _item(m: Material, lang: str, *, alone: bool) -> str:
    """A material's printed item, with its count; a single box ``alone``
    (one table's list) by its name only."""
    return material_text(m, lang, count=not (alone and m.kind == "box" and m.count == 1))


def _table_list(numbers: Sequence[int]) -> str:
    """Table numbers, ascending, runs of three or more as ``4–9``:
    ``1–3, 5, 7``."""
    nums = sorted(set(numbers))
    parts: list[str] = []
    i = 0
    while i < len(nums):
        j = i
        while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
            j += 1
        parts += [f"{nums[i]}–{nums[j]}"] if j - i >= 2 else [str(n) for n in nums[i : j + 1]]
        i = j + 1
    return ", ".join(parts)


def _material_paragraphs(rows: Sequence[DirectorRow], tx: Texts) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The first page's material box as ``(label, items)`` paragraphs:
    what every table needs alike (same key, kind and count), then, for
    each set of tables needing the same beyond that, their table numbers
    and what they need (the largest set last as "Other tables" when every
    table is in a set), then the round's totals (boxes first); empty
    without material."""
    totals: dict[tuple[str, str], int] = {}
    for r in rows:
        for m in r.material:
            totals[(m.kind, m.key)] = totals.get((m.kind, m.key), 0) + m.count
    if not totals:
        return ()
    lang = tx.lang
    common = [m for m in rows[0].material if all(m in r.material for r in rows)]
    out = [(tx.get("director.material_every"), tuple(_item(m, lang, alone=True) for m in common))]
    groups: dict[tuple[Material, ...], list[int]] = {}
    for r in rows:
        groups.setdefault(tuple(m for m in r.material if m not in common), []).append(r.table)
    other = max(groups, key=lambda g: len(groups[g])) if len(groups) > 1 and () not in groups else None
    for rest, tables in [*((g, t) for g, t in groups.items() if g != other), *([(other, [])] if other else [])]:
        key = (
            "director.material_other"
            if rest == other
            else "director.material_table"
            if len(set(tables)) == 1
            else "director.material_tables"
        )
        out.append((tx.get(key, tables=_table_list(tables)), tuple(_item(m, lang, alone=True) for m in rest)))
    order = sorted(totals, key=lambda k: k[0] != "box")  # stable: boxes first, each in order of appearance
    out.append(
        (
            tx.get("director.material_total"),
            tuple(material_text(Material(key, totals[(kind, key)], kind), lang) for kind, key in order),
        )
    )
    return tuple(p for p in out if p[1])


def _material_box(dwg: Surface, plan: _Plan, paragraphs: tuple[tuple[str, tuple[str, ...]], ...], top: float) -> float:
    """The framed material box across the page from ``top`` (mm): each
    paragraph's label (bold) in a column as wide as the widest label up to
    a third of the box, its items wrapped beside it; a longer label (a
    long list of tables) on lines of its own across the box, its items
    below it in the items' column. Returns the y below the box."""
    st, g = plan.st, plan.g
    m, pad, size = st.margin, g("note_pad"), g("note")
    lh, inner = size * g("line_spacing"), plan.w - 2 * m - 2 * pad
    widths = [text_width(label, size, bold=True) for label, _ in paragraphs]
    label_w = max((lw for lw in widths if lw <= inner / 3), default=inner / 3)
    x = m + pad + label_w + pad
    width = plan.w - m - pad - x
    laid = [
        ([label], False) if lw <= label_w else (wrap(label, inner, size, bold=True), True)
        for (label, _), lw in zip(paragraphs, widths)
    ]
    items = [_item_lines(its, width, size) for _, its in paragraphs]
    gap = size * 0.3
    n = sum(len(ls) * above + len(its) for (ls, above), its in zip(laid, items))  # items: never none
    height = 2 * pad + n * lh - (lh - size) + (len(laid) - 1) * gap
    add_rect(dwg, m, top, plan.w - 2 * m, height, fill=st.fill["box"], stroke=st.colour["ink"], width=g("rule"))
    y = top + pad + size * 0.8
    for (labels, above), lines in zip(laid, items):
        for label in labels:
            t, sz = fit(label, inner if above else label_w, size, bold=True)
            add_text(dwg, t, m + pad, y, sz, st, bold=True)
            y += lh if above else 0.0
        for line in lines:
            t, sz = fit(line, width, size)
            add_text(dwg, t, x, y, sz, st)
            y += lh
        y += gap
    return top + height


# -- balance ---------------------------------------------------------------------------


def _span(low: str, high: str) -> str:
    """``low–high``, or the one value when they are equal."""
    return low if low == high else f"{low}–{high}"


def _balance_summary(rows: Sequence[DirectorRow], tx: Texts) -> tuple[str, tuple[str, ...], str] | None:
    """The first page's balance box: its label, the round's range of each
    figure (lowest–highest score, most pips at a starting intersection,
    resource-pip spread) over the rows with balance, and the legend line;
    None when no row has balance."""
    found = [r.balance for r in rows if r.balance is not None]
    if not found:
        return None
    mark = cldr.decimal_mark(tx)
    score = [b.score for b in found]
    pips = [b.intersection_max for b in found]
    spread = [b.resource_spread for b in found]
    low, high = (f"{v:.1f}".replace(".", mark) for v in (min(score), max(score)))
    ranges = (
        tx.get("director.balance_score", range=_span(low, high)),
        tx.get("director.balance_pips", range=_span(str(min(pips)), str(max(pips)))),
        tx.get("director.balance_spread", range=_span(str(min(spread)), str(max(spread)))),
    )
    return tx.get("director.balance_round"), ranges, tx.get("director.balance_legend")


def _balance_box(dwg: Surface, plan: _Plan, summary: tuple[str, tuple[str, ...], str], top: float) -> float:
    """The framed balance box across the page from ``top`` (mm): the label
    (bold) and beside it the round's ranges, then the legend (muted)
    across the box. Returns the y below the box."""
    label, ranges, legend = summary
    st, g = plan.st, plan.g
    m, pad, size = st.margin, g("note_pad"), g("note")
    lh, inner = size * g("line_spacing"), plan.w - 2 * m - 2 * pad
    label_w = min(text_width(label, size, bold=True), inner / 3)
    x = m + pad + label_w + pad
    width = plan.w - m - pad - x
    lines = _item_lines(ranges, width, size)
    legend_lines = wrap(legend, inner, size)
    gap = size * 0.3
    height = 2 * pad + (len(lines) + len(legend_lines)) * lh - (lh - size) + gap
    add_rect(dwg, m, top, plan.w - 2 * m, height, fill=st.fill["box"], stroke=st.colour["ink"], width=g("rule"))
    y = top + pad + size * 0.8
    t, sz = fit(label, label_w, size, bold=True)
    add_text(dwg, t, m + pad, y, sz, st, bold=True)
    for line in lines:
        t, sz = fit(line, width, size)
        add_text(dwg, t, x, y, sz, st)
        y += lh
    y += gap
    for line in legend_lines:
        t, sz = fit(line, inner, size)
        add_text(dwg, t, m + pad, y, sz, st, fill=st.colour["muted"])
        y += lh
    return top + height


def _column_heads(dwg: Surface, plan: _Plan, y: float) -> float:
    """The column heads (bold, up to two lines, on a common last baseline)
    below the rule at ``y``; returns the y of the rule under them."""
    st, g = plan.st, plan.g
    size = g("head")
    lh = size * 1.15
    keys = dict(COLUMNS + (BALANCE_COLUMN,))
    heads = {kind: wrap(plan.tx.get(keys[kind]), width + 0.01, size, bold=True) for kind, _, width in plan.cols}
    n = max(len(v) for v in heads.values())
    base = y + g("inset") + size * 0.8 + (n - 1) * lh
    for kind, x, width in plan.cols:
        lines = heads[kind]
        centre = kind in ("received", "entered", "balance")
        for i, line in enumerate(lines):
            t, sz = fit(line, width, size, bold=True)
            ly = base - (len(lines) - 1 - i) * lh
            add_text(
                dwg, t, x + width / 2 if centre else x, ly, sz, st, bold=True, anchor="middle" if centre else "start"
            )
    y = base + size * 0.2 + g("inset")
    _rule(dwg, plan, y, g("thin_rule"))
    return y


def _footer(dwg: Surface, plan: _Plan, page: int, pages: int) -> None:
    st, size = plan.st, plan.g("footer")
    add_text(
        dwg,
        plan.tx.get("director.page", i=page, n=pages),
        plan.w - st.margin,
        plan.h - st.margin,
        size,
        st,
        anchor="end",
        fill=st.colour["muted"],
    )


# -- rows ---------------------------------------------------------------------------


def _row(dwg: Surface, plan: _Plan, row: DirectorRow, top: float, *, shaded: bool) -> None:
    """One table's row from ``top`` (mm): its first line (number, scenario,
    setup ID, seed, check boxes), then its players."""
    st, g, tx = plan.st, plan.g, plan.tx
    if shaded:
        add_rect(dwg, st.margin, top, plan.w - 2 * st.margin, plan.row_h, fill=st.fill["header"])
    body, ids = g("body"), g("id")
    base = top + plan.band / 2 + body * 0.36
    x, cw = plan.col("table")
    t, sz = fit(str(row.table), cw, body, bold=True)
    add_text(dwg, t, x, base, sz, st, bold=True)
    if any(k == "scenario" for k, _, _ in plan.cols):
        x, cw = plan.col("scenario")
        word = _scenario_word(row.scenario, tx)
        lines, sz = [word], body
        if text_width(word, body) > cw:  # two smaller lines in the row's first line
            lines, sz = fit_lines(word, cw, min(body, plan.band / 2.7), 2)
        for i, line in enumerate(lines):
            add_text(dwg, line, x, base + (i - (len(lines) - 1) / 2) * sz * 1.1, sz, st)
    x, cw = plan.col("setup_id")
    t, sz = fit(row.setup_id, cw, ids, bold=True, mono=True)
    add_text(dwg, t, x, base, sz, st, bold=True, mono=True)
    x, cw = plan.col("seed")
    seeds, sz = seed_lines(row.seed or "", cw, plan.seed_size), plan.seed_size
    for i, line in enumerate(seeds):
        add_text(dwg, line, x, base + (i - (len(seeds) - 1) / 2) * sz * SEED_LINE, sz, st, mono=True)
    if row.balance is not None and plan.figures:
        _balance_figures(dwg, plan, row.balance, base)
    b = g("box")
    for kind in ("received", "entered"):
        x, cw = plan.col(kind)
        add_rect(
            dwg,
            x + (cw - b) / 2,
            top + (plan.band - b) / 2,
            b,
            b,
            fill=st.fill["box"],
            stroke=st.colour["ink"],
            width=g("rule"),
        )
    if row.players and plan.lines:
        _players(dwg, plan, row.players, top + plan.band)


def _players(dwg: Surface, plan: _Plan, players: tuple[str, ...], top: float) -> None:
    """The players in seat order, :attr:`_Plan.per_line` cells a line, under
    the row's first line across the whole row; each cell its seat
    number (bold) and the name. In the finals (:attr:`_Plan.choice`) one
    a line under the heads "Choice" and "Player": the number is the order
    they choose their start positions in."""
    st, g = plan.st, plan.g
    size, lh = g("player"), g("player_line")
    x0, span = plan.span()
    cell = span / plan.per_line
    if plan.choice:
        head_y = top + lh / 2 + size * 0.36
        add_text(dwg, plan.tx.get("slip.rank"), x0, head_y, size, st, bold=True, fill=st.colour["muted"])
        add_text(
            dwg,
            plan.tx.get("slip.player"),
            x0 + _choice_width(plan),
            head_y,
            size,
            st,
            bold=True,
            fill=st.colour["muted"],
        )
        top += lh
    for i, name in enumerate(players):
        line, k = divmod(i, plan.per_line)
        if line >= plan.lines:
            break
        x = x0 + k * cell
        y = top + line * lh + lh / 2 + size * 0.36
        seat = f"{i + 1} "
        add_text(dwg, seat.strip(), x, y, size, st, bold=True, fill=st.colour["muted"])
        nx = x + (_choice_width(plan) if plan.choice else text_width(seat, size, bold=True))
        t, sz = fit(name, cell - (nx - x) - size, size)
        add_text(dwg, t, nx, y, sz, st)


def _choice_width(plan: _Plan) -> float:
    """Width (mm) of the finals' "Choice" column: its head and a gap."""
    return text_width(plan.tx.get("slip.rank"), plan.g("player"), bold=True) + plan.g("column_gap")


def _balance_figures(dwg: Surface, plan: _Plan, balance: Balance, base: float) -> None:
    """A row's score, most pips at a starting intersection and resource-pip
    spread on the baseline ``base`` (mm), each right-aligned in its cell
    of the balance column (:attr:`_Plan.figures`), the cells centred in it."""
    st, g = plan.st, plan.g
    x, cw = plan.col("balance")
    gap = _figure_gap(g)
    right = x + (cw - sum(plan.figures) - gap * (len(plan.figures) - 1)) / 2
    for text, width in zip(_figures(balance, cldr.decimal_mark(plan.tx)), plan.figures):
        right += width
        add_text(dwg, text, right, base, g("id"), st, anchor="end")
        right += gap
