"""Board balance on the printed pages (issue 12, points 5 and 6): the
director's page gives each table's score, most pips at a starting
intersection and resource-pip spread, and the round's range of each, read
back from the SVG with hand-made metrics and worked by hand; nothing
overlaps, every table's figures once over 120 tables; the sheet's balance
line (off by default) in English and German, measured as the table sees
the board, fitting the footer without collisions."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from types import MappingProxyType

import pytest
from sheetsvg import text_boxes
from test_director import MIN_FONT_MM, overlaps, rects, texts
from test_director_material import G, check_page, frames
from test_languages import leaks, printed, xx  # noqa: F401  (xx: the made-up language fixture)
from test_sheet_layout import collisions

from setupgen import generate
from setupgen.core import almanac, layout, templates
from setupgen.core.balance import Balance, measure
from setupgen.render import director, sheet
from setupgen.render.almanac import render_almanac

SVG = "{http://www.w3.org/2000/svg}"


def bal(score: float, most: int, spread: int) -> Balance:
    """Metrics made by hand: ``score``, the most pips at a starting
    intersection and the resource-pip spread (the rest plausible filler)."""
    pips = {"lumber": 10, "wool": 11, "grain": 12, "brick": 9, "ore": 9 + spread}
    return Balance(
        MappingProxyType(pips),
        spread,
        MappingProxyType({r: 3.0 for r in pips}),
        most,
        1,
        2,
        3,
        4,
        1,
        (("wool", 4),),
        0.05,
        score,
    )


def rows(figures, players=(), scenario="base-3-4", material=False):
    """One row a table, table t with ``figures[t - 1]`` as (score, most
    pips, spread), or None for a row without balance."""
    return [
        director.DirectorRow(
            t,
            scenario,
            f"B4SS-0000-0000-{t:04d}",
            f"r1/t{t}",
            tuple(f"{p} {t}" for p in players),
            almanac.table_material(scenario, 4, "fishermen") if material else (),
            None if f is None else bal(*f),
        )
        for t, f in enumerate(figures, start=1)
    ]


def figures_of(page: str) -> dict[int, list[str]]:
    """Table -> the three texts printed after its seed (the row's first
    line: number, scenario, setup ID, seed, then the balance figures)."""
    words = texts(page)
    out = {}
    for i, w in enumerate(words):
        if w.startswith("B4SS-"):
            out[int(w[-4:])] = words[i + 2 : i + 5]
    return out


def balance_box(page: str, lang: str = "en") -> tuple[str, str, str]:
    """The balance box read back (the last frame above the column heads):
    its bold label, its ranges (lines joined) and its muted legend."""
    fx, fy, fw, fh = frames(page, lang)[-1]
    label, ranges, legend = [], [], []
    muted = templates.style().colour["muted"]
    for e in ET.fromstring(page.encode("utf-8")).iter(f"{SVG}text"):
        if fx < float(e.get("x")) < fx + fw and fy < float(e.get("y")) < fy + fh:
            kind = label if e.get("font-weight") == "bold" else legend if e.get("fill") == muted else ranges
            kind.append(e.text)
    return " ".join(label), " · ".join(ranges), " ".join(legend)


#: three tables by hand: scores 48.5, 61.0, 55.3 (Balance.score is already
#: rounded to one decimal), most pips 12, 11, 13, spreads 8, 4, 9
THREE = [(48.5, 12, 8), (61.0, 11, 4), (55.3, 13, 9)]


# -- the director's page --------------------------------------------------------------


def test_each_table_shows_its_figures_and_the_page_the_rounds_range():
    (page,) = director.render_director_pages(rows(THREE, ("Anna", "Ben")), title="Cup", round=2, seed="r")
    assert figures_of(page) == {1: ["48.5", "12", "8"], 2: ["61.0", "11", "4"], 3: ["55.3", "13", "9"]}
    words = texts(page)
    assert words[words.index("r1/t1") + 4 : words.index("r1/t1") + 8] == ["1", "Anna 1", "2", "Ben 1"]
    # the range by hand: lowest-highest score 48.5-61.0, most pips 11-13, spread 4-9
    assert balance_box(page) == (
        "Balance of the round:",
        "score 48.5–61.0 · max. pips 11–13 · spread 4–9",
        "Per table: score 0–100 (higher: more even) · max. pips at a starting intersection · resource-pip spread",
    )
    assert "Balance" in words[words.index("Setup ID") : words.index("Entered")]  # the column's head


@pytest.mark.parametrize("lang, mark", [("de", ","), ("de-CH", ".")])
def test_german_uses_its_decimal_mark_from_cldr(lang, mark):
    # CLDR (issue 42): German writes 48,5; Swiss German 48.5 (the figures as the standings print them)
    (page,) = director.render_director_pages(rows(THREE), title="Cup", round=2, lang=lang)
    want = {1: ["48,5", "12", "8"], 2: ["61,0", "11", "4"], 3: ["55,3", "13", "9"]}
    assert figures_of(page) == {k: [f.replace(",", mark) for f in v] for k, v in want.items()}
    label, ranges, legend = balance_box(page, lang)
    assert (label, ranges) == (
        "Balance der Runde:",
        "Wertung 48,5–61,0 · Kreuzung max. 11–13 · Spanne 4–9".replace(",", mark),
    )
    assert legend.startswith("Je Tisch: Wertung 0–100 (höher: ausgewogener)") and "ß" not in legend
    assert ("." if mark == "," else ",") not in "".join(sum(figures_of(page).values(), []))


def test_figures_stand_right_aligned_in_three_cells_of_the_balance_column():
    data = rows([(9.5, 9, 2), (100.0, 15, 27), (55.3, 13, 9), (61.0, 11, 14)])
    (page,) = director.render_director_pages(data, title="Cup", round=2)
    heads = {b[4]: b for b in text_boxes(page)}
    seed_end = max(b[2] for b in text_boxes(page) if b[4].startswith("r1/"))
    boxes = [b for b in text_boxes(page) if b[0] > seed_end and b[4][0].isdigit()]
    assert len(boxes) == 12
    ends = sorted({round(b[2], 2) for b in boxes})
    assert len(ends) == 3  # three right edges, the same in every row
    assert sorted(b[4] for b in boxes if round(b[2], 2) == ends[0]) == ["100.0", "55.3", "61.0", "9.5"]
    assert sorted(b[4] for b in boxes if round(b[2], 2) == ends[1]) == ["11", "13", "15", "9"]
    first_box = min(r[0] for r in rects(page) if abs(r[2] - G["box"]) < 0.01)
    gap = G["column_gap"] - 0.05
    assert seed_end + gap <= min(b[0] for b in boxes) and max(b[2] for b in boxes) + gap <= first_box
    # the head centred over the column, the figures' cells a digit apart
    head = heads["Balance"]
    assert min(b[0] for b in boxes) - 0.01 <= (head[0] + head[2]) / 2 <= max(b[2] for b in boxes) + 0.01
    assert all(b - a >= G["column_gap"] / 2 + 2.0 for a, b in zip(ends, ends[1:]))


def test_rows_without_balance_are_blank_and_out_of_the_range():
    data = rows([(48.5, 12, 8), None, (50.0, 12, 8)])
    (page,) = director.render_director_pages(data, title="Cup")
    got = figures_of(page)
    assert got[1] == ["48.5", "12", "8"] and got[3] == ["50.0", "12", "8"]
    words = texts(page)
    assert words[words.index("r1/t2") + 1] == "3"  # table 2's row ends at its seed
    assert balance_box(page)[1] == "score 48.5–50.0 · max. pips 12 · spread 8"  # one value: no range
    (one,) = director.render_director_pages(rows([(55.0, 12, 8)] * 2), title="Cup")
    assert balance_box(one)[1] == "score 55.0 · max. pips 12 · spread 8"


def test_without_balance_the_page_is_unchanged():
    plain = director.render_director_pages(rows([None] * 12, ("Anna", "Ben")), title="Cup", round=1)
    before = director.render_director_pages(
        [dataclasses.replace(r, balance=None) for r in rows([None] * 12, ("Anna", "Ben"))], title="Cup", round=1
    )
    assert plain == before and "Balance" not in " ".join(texts(plain[0]))


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "de"), ("a4", "de-CH"), ("letter", "en")])
def test_no_overlaps_with_balance(paper, lang):
    notes = director.notes_for(layout.load("seafarers-sm2010"), lang)
    figs = [(round(40.0 + t * 1.7 % 30, 1), 9 + t % 6, t % 19) for t in range(1, 31)]
    cases = [
        (rows(figs[:12], ("Anna-Lena Müller", "Ben", "Cid", "Dora")), False),
        (rows(figs[:12], (), "seafarers-sm2010", material=True), True),
        (
            [
                dataclasses.replace(r, scenario="oil-springs-5-6-fixed", seed=f"a-very-long-seed-given/t{r.table}")
                for r in rows(figs, ("A", "B", "C", "D", "E", "F"))
            ],
            False,
        ),
    ]
    for data, material in cases:
        for extra in ({}, {"key_file": "key.pdf", "notes": notes}):
            pages = director.render_director_pages(
                data,
                title="Schweizer Catan-Meisterschaft 2010",
                round=3,
                lang=lang,
                paper=paper,
                seed="x" * 30,
                **extra,
            )
            for i, page in enumerate(pages):
                check_page(page, paper, lang, (i == 0) * (1 + material) + bool(extra))


def test_120_tables_paginate_with_every_tables_figures_once():
    figs = [(round(35 + (t * 37 % 53) * 0.7, 1), 9 + t % 6, 2 + t * 7 % 17) for t in range(1, 121)]
    players = ("Anna", "Ben", "Cid", "Dora")
    pages = director.render_director_pages(rows(figs, players), title="Big Open", round=2, seed="r")
    plain = director.render_director_pages(rows([None] * 120, players), title="Big Open", round=2, seed="r")
    seen: dict[int, list[str]] = {}
    for i, page in enumerate(pages, start=1):
        got = figures_of(page)
        assert not set(got) & set(seen)
        seen.update(got)
        assert ("Balance of the round:" in texts(page)) == (i == 1)
        assert texts(page)[-1] == f"Page {i} of {len(pages)}"
        assert overlaps(text_boxes(page)) == []
    assert seen == {t: [f"{s:.1f}", str(m), str(d)] for t, (s, m, d) in enumerate(figs, start=1)}
    # the column costs no row height: later pages hold as many rows as without balance
    count = [len(figures_of(p)) for p in pages]
    assert count[1:-1] == [len(figures_of(p)) for p in plain][1 : len(count) - 1]
    lows, highs = min(figs), max(figs)
    assert balance_box(pages[0])[1] == (
        f"score {lows[0]:.1f}–{highs[0]:.1f} · max. pips {min(f[1] for f in figs)}–{max(f[1] for f in figs)} · "
        f"spread {min(f[2] for f in figs)}–{max(f[2] for f in figs)}"
    )
    assert balance_box(pages[0])[1] == "score 35.0–71.4 · max. pips 9–14 · spread 2–18"  # by hand


def test_balance_words_come_from_the_page_language(xx):  # noqa: F811
    (page,) = director.render_director_pages(rows(THREE), title="Club", lang=xx, seed="d")
    words = [w.replace("«.»", ".") for w in printed(page)]  # the language's own decimal mark
    assert any(w.startswith("«Balance of the round:") for w in words) and "48.5" in words
    assert leaks(words, ["Club", "r1/t1", "r1/t2", "r1/t3"]) == []


# -- the sheet's balance line ---------------------------------------------------------------


def test_balance_line_words():
    b = bal(56.5, 12, 8)
    assert sheet.balance_line(b, "en") == "Balance 56.5/100 · best start 12 pips · resource spread 8"
    assert sheet.balance_line(b, "de") == "Balance 56,5/100 · bester Start 12 Punkte · Rohstoffspanne 8"
    assert sheet.balance_line(b, "de-CH") == "Balance 56.5/100 · bester Start 12 Punkte · Rohstoffspanne 8"  # CLDR
    assert sheet.balance_line(bal(61.0, 13, 14), "en") == "Balance 61.0/100 · best start 13 pips · resource spread 14"


def test_balance_line_does_not_depend_on_face_down_hexes():
    """What a table sees: the face-down hexes' terrains exchanged among
    them give the same line; the director's measure differs."""
    lay = layout.load("seafarers-sm2010")
    board = generate.from_seed(lay, "fd/t1")
    hidden = [i for i, t in enumerate(board.tiles) if t.hidden]
    terrains = [board.tiles[i].terrain for i in hidden]
    assert len(set(terrains)) > 1
    tiles = list(board.tiles)
    for i, terrain in zip(hidden, terrains[1:] + terrains[:1]):
        tiles[i] = dataclasses.replace(tiles[i], terrain=terrain)
    other = dataclasses.replace(board, tiles=tuple(tiles))
    seen = [sheet.balance_line(measure(b, start_barred=lay.start_barred, table=True), "en") for b in (board, other)]
    assert seen[0] == seen[1]


def footer_texts(svg: str) -> list:
    """The text boxes of the footer (below the result slip's last rule)."""
    boxes = text_boxes(svg)
    label = next(b for b in boxes if b[4] in ("Setup ID:", "Aufbau-ID:"))
    return [b for b in boxes if b[1] >= label[1] - 8.0]


@pytest.mark.parametrize("lang,paper", [("en", "a4"), ("de", "letter"), ("de", "a4"), ("en", "letter")])
@pytest.mark.parametrize("seed", ["demo/t12", "sm2010/r3/t12", "schweizer-meisterschaft-2010-runde-3/t12"])
def test_sheet_with_the_balance_line_has_no_collisions(lang, paper, seed):
    for scenario in ("base-3-4", "base-5-6", "seafarers-sm2010"):
        lay = layout.load(scenario)
        board = generate.from_seed(lay, seed)
        measured = measure(board, start_barred=lay.start_barred, table=True)
        for metrics in (measured, bal(100.0, 15, 27)):  # the board's, and the longest
            line = sheet.balance_line(metrics, lang)
            ctx = sheet.SheetContext("Swiss Catan Championship", 3, 12, ("Anna", "Ben", "Cid", "Dora"), balance=line)
            svg = sheet.render_sheet(board, lay, lang=lang, paper=paper, context=ctx)
            assert collisions(svg) == [], (scenario, line)
            el = next(e for e in ET.fromstring(svg.encode()).iter(f"{SVG}text") if e.text and "/100" in e.text)
            assert el.text == line and float(el.get("font-size")) >= MIN_FONT_MM - 1e-9  # whole, 8 pt or more
            foot = footer_texts(svg)
            assert overlaps(foot) == []
            w = templates.paper_size(paper)[0]
            own = next(b for b in foot if b[4] == line)
            assert own[2] <= w - 10.0 + 0.01 and own[0] >= 10.0 - 0.01


def test_a_line_too_long_beside_the_ids_takes_a_line_of_its_own():
    """Right of the IDs when it fits there at 8 pt, else on a line of its
    own above them (the sheet keeps room for it), never cut. German, seed
    sm2010/r3/t12: IDs 97.8 mm + 6 mm + the line at 8 pt 86.8 mm > 190 mm,
    though the 70 mm kept for a line fit beside them."""
    lay = layout.load("base-3-4")
    for lang, seed, inline in (
        ("en", "demo/t12", True),
        ("de", "demo/t12", True),
        ("de", "sm2010/r3/t12", False),
        ("en", "schweizer-meisterschaft-2010/t12", False),
    ):
        board = generate.from_seed(lay, seed)
        line = sheet.balance_line(bal(56.5, 12, 8), lang)
        svg = sheet.render_sheet(board, lay, lang=lang, context=sheet.SheetContext(balance=line))
        foot = footer_texts(svg)
        own = next(b for b in foot if b[4] == line)
        setup = next(b for b in foot if b[4] in ("Setup ID:", "Aufbau-ID:"))
        assert (abs(own[3] - setup[3]) < 0.01) == inline, (lang, seed)
        assert collisions(svg) == []


def test_the_almanac_leaves_the_line_to_the_front():
    """The almanac is the back of the same sheet: the balance line is printed once, on the front."""
    lay = layout.load("base-3-4")
    for lang, seed in (("en", "demo/t12"), ("de", "sm2010/r3/t12"), ("de", "schweizer-meisterschaft-2010/t12")):
        board = generate.from_seed(lay, seed)
        line = sheet.balance_line(measure(board, table=True), lang)
        svg = render_almanac(board, lay, lang=lang, context=sheet.SheetContext(balance=line))
        boxes = text_boxes(svg)
        assert overlaps(boxes) == []
        w = templates.paper_size("a4")[0]
        assert all(10.0 - 0.01 <= b[0] and b[2] <= w - 10.0 + 0.01 for b in boxes)
        assert not any(line[:12] in b[4] for b in boxes)
