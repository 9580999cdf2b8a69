"""The director's page of a round pack, as SVG text: every table with its
scenario, setup ID and seed (``docs/sheet.md``: a round pack is one
PDF, director's page first). Sizes in mm, fonts never below 8 pt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..core import templates
from ..core.templates import MIN_FONT_MM, Style, Texts, paper_size
from .page import add_path, add_rect, add_text, drawing, finish, fit, num

#: most tables listed on one director's page; more continue on further pages
MAX_DIRECTOR_ROWS = 40


@dataclass(frozen=True, slots=True)
class DirectorRow:
    """One table on the director's page."""

    table: int
    scenario: str
    setup_id: str
    seed: str | None



def render_director_pages(rows: Sequence[DirectorRow], *, title: str | None, lang: str = "en",
                          paper: str = "a4", seed: str | None = None) -> list[str]:
    """The director's pages as SVG texts: :data:`MAX_DIRECTOR_ROWS` tables a
    page, as many pages as needed (at least one). Raises
    :class:`SetupgenError` for an unknown language or paper."""
    chunks = [rows[i:i + MAX_DIRECTOR_ROWS] for i in range(0, len(rows), MAX_DIRECTOR_ROWS)] or [rows[:0]]
    return [render_director_page(chunk, title=title, lang=lang, paper=paper, seed=seed, total=len(rows))
            for chunk in chunks]


def render_director_page(rows: Sequence[DirectorRow], *, title: str | None, lang: str = "en",
                         paper: str = "a4", seed: str | None = None, total: int | None = None) -> str:
    """The director's page as SVG text: one portrait page listing every
    table with its scenario, setup ID and seed, headed by ``title`` (or the
    template's "director's page") and the round ``seed`` if given.

    Rows are listed in the order given. The text shrinks, down to 8 pt, to
    fit the rows on the page; at most :data:`MAX_DIRECTOR_ROWS` (40) rows are
    listed, followed by a line counting the tables left out (each sheet
    still carries its own setup ID). Over-long seeds are shortened with
    ``…``. Sizes in mm.

    Raises :class:`SetupgenError` for an unknown language or paper.
    """
    w, h = paper_size(paper)
    tx = templates.texts(lang)
    st = templates.style()
    dwg = drawing(w, h)
    y = _heading(dwg, title, len(rows) if total is None else total, seed, w, tx, st)
    _table_rows(dwg, rows, y, w, h, tx, st)
    return finish(dwg)


def _heading(dwg: Any, title: str | None, count: int, seed: str | None, w: float, tx: Texts, st: Style) -> float:
    """Title, table count and round seed, and the rule under them; returns
    the rule's y (mm)."""
    m = st.margin
    cw = w - 2 * m
    y = m
    head, hsz = fit(title or tx.get("director.title"), cw, st.mm("director_title"), bold=True)
    y += hsz
    add_text(dwg, dwg, head, m, y, hsz, st, bold=True)
    sub = [tx.get("director.count_one") if count == 1 else tx.get("director.count", n=count)]
    if title:
        sub.insert(0, tx.get("director.title"))
    if seed is not None:
        sub.append(tx.get("director.round_seed", seed=seed))
    t, ssz = fit("  ·  ".join(sub), cw, st.mm("body"))
    y += ssz * 1.6
    add_text(dwg, dwg, t, m, y, ssz, st, fill=st.colour["muted"])
    y += 3.0
    add_path(dwg, dwg, f"M{num(m)},{num(y)} L{num(m + cw)},{num(y)}", stroke=st.colour["ink"], width=st.mm("rule"))
    return y


#: the director's table: (template key, share of the width)
COLUMNS = (("director.table", 0.08), ("director.scenario", 0.30), ("director.setup_id", 0.25),
           ("director.seed", 0.23), ("director.returned", 0.14))


def _table_rows(dwg: Any, rows: Sequence[DirectorRow], y: float, w: float, h: float, tx: Texts,
                st: Style) -> None:
    """The column heads and one row per table from ``y`` (mm) down, the text
    shrunk (to 8 pt at least) to fit; a count of tables left out."""
    m = st.margin
    cw = w - 2 * m
    shown = list(rows[:MAX_DIRECTOR_ROWS])
    extra = len(rows) - len(shown)
    avail = h - m - y - 4.0 - (st.mm("body") * 1.6 if extra else 0.0)
    size = max(MIN_FONT_MM, min(st.mm("director_body"), avail / ((len(shown) + 1) * 1.55)))
    rh = size * 1.55
    xs = [m]
    for _, frac in COLUMNS[:-1]:
        xs.append(xs[-1] + cw * frac)
    y += rh
    for (key, frac), cx in zip(COLUMNS, xs):
        t, sz = fit(tx.get(key), cw * frac - 1.5, size, bold=True)
        add_text(dwg, dwg, t, cx + 0.8, y, sz, st, bold=True)
    y += size * 0.45
    add_path(dwg, dwg, f"M{num(m)},{num(y)} L{num(m + cw)},{num(y)}", stroke=st.colour["ink"], width=0.25)
    for i, row in enumerate(shown):
        top = y + i * rh
        if i % 2 == 1:
            add_rect(dwg, dwg, m, top, cw, rh, fill=st.fill["header"])
        base = top + rh / 2 + size * 0.36
        cells = [(str(row.table), True, False), (_scenario_word(row.scenario, tx), False, False),
                 (row.setup_id, True, True), (row.seed or "", False, True)]
        for (text, bold, mono), (_, frac), cx in zip(cells, COLUMNS, xs):
            t, sz = fit(text, cw * frac - 1.6, size, bold=bold, mono=mono)
            add_text(dwg, dwg, t, cx + 0.8, base, sz, st, bold=bold, mono=mono)
        bs = rh * 0.7
        add_rect(dwg, dwg, xs[-1] + 1.0, top + (rh - bs) / 2, bs, bs, fill=st.fill["box"],
                 stroke=st.colour["ink"], width=0.3)
    if extra:
        yb = y + len(shown) * rh + st.mm("body") * 1.4
        t, sz = fit(tx.get("director.more", n=extra), cw, st.mm("body"))
        add_text(dwg, dwg, t, m, yb, sz, st, bold=True)


def _scenario_word(name: str, tx: Texts) -> str:
    key = f"scenario.{name}"
    return tx.get(key) if tx.has(key) else name
