"""The director's pages of a round pack (setupgen.render.director) and the
key summary at the front of key.pdf (setupgen.render.key.render_key_summary):
title with the round, players in seat order, check-box columns, the pointer
to key.pdf and the director's notes, no two texts overlapping, clean
pagination of 130 tables, every hidden hex of every table in the summary."""

from __future__ import annotations

import math
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from sheetsvg import sheet_rows, text_boxes

from setupgen import generate
from setupgen.core import layout, templates
from setupgen.core.board import Board
from setupgen.render import director, key
from setupgen.tournament import jobs as tj
from setupgen.tournament import model as tournament
from setupgen.tournament import roundpack

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010" / "tournament.toml"
SVG = "{http://www.w3.org/2000/svg}"
MIN_FONT_MM = 8 * 25.4 / 72
STYLE = tomllib.loads((ROOT / "templates" / "style.toml").read_text(encoding="utf-8"))
G = STYLE["director"]
MARGIN = STYLE["page"]["margin"]
PLAYERS = ("Anna", "Ben", "Cid", "Dora")
RECONSTRUCTION = "This map is a reconstruction from the scenario text"


def rows(n: int, players=(), scenario="base-3-4"):
    return [
        director.DirectorRow(t, scenario, f"B4SS-0000-0000-{t:04d}", f"r1/t{t}", tuple(f"{p} {t}" for p in players))
        for t in range(1, n + 1)
    ]


def texts(svg: str) -> list[str]:
    return [e.text or "" for e in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG}text")]


def overlaps(boxes) -> list:
    bad = []
    for i, p in enumerate(boxes):
        for q in boxes[i + 1 :]:
            if p[0] < q[2] - 0.05 and q[0] < p[2] - 0.05 and p[1] < q[3] - 0.05 and q[1] < p[3] - 0.05:
                bad.append((p, q))
    return bad


def rects(svg: str) -> list[tuple[float, float, float, float]]:
    return [
        (float(e.get("x")), float(e.get("y")), float(e.get("width")), float(e.get("height")))
        for e in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG}rect")
    ]


# -- title, columns, players ------------------------------------------------------


def test_title_names_the_tournament_and_round():
    (page,) = director.render_director_pages(rows(3), title="Test Cup", round=3, seed="r1")
    words = texts(page)
    assert words[0] == "Test Cup · Round 3"
    # every table plays one scenario: named once under the title, no scenario column
    assert words[1] == "Director's page  ·  3 tables  ·  Base game, 3-4 players  ·  Round seed: r1"
    assert ["Table", "Setup ID", "Seed", "Result", "received", "Entered"] == words[2:8]
    mixed = rows(1) + [director.DirectorRow(2, "seafarers-sm2010", "SFSF-0000-0000-0002", "r1/t2")]
    words = texts(director.render_director_pages(mixed, title="Test Cup", round=3, seed="r1")[0])
    assert words[1] == "Director's page  ·  2 tables  ·  Round seed: r1"
    assert ["Table", "Scenario", "Setup ID", "Seed", "Result", "received", "Entered"] == words[2:9]
    assert texts(director.render_director_pages(rows(1), title=None)[0])[:2] == [
        "Director's page · Round ____",
        "1 table  ·  Base game, 3-4 players",
    ]
    assert texts(director.render_director_pages(rows(1), title="Final", blank_round=False)[0])[0] == "Final"
    de = texts(director.render_director_pages(rows(2), title="Cup", round=12, lang="de")[0])
    assert de[0] == "Cup · Runde 12" and "Ergebnis" in de and "erhalten" in de and "Eingetragen" in de


def test_row_lists_number_scenario_setup_id_seed_and_players_in_seat_order():
    (page,) = director.render_director_pages(rows(2, PLAYERS), title="Cup", round=1)
    words = texts(page)
    i = words.index("B4SS-0000-0000-0002")
    assert words[i - 1] == "2" and "Base game, 3-4 players" in words[1]
    assert words[i + 1 : i + 10] == ["r1/t2", "1", "Anna 2", "2", "Ben 2", "3", "Cid 2", "4", "Dora 2"]
    # two check boxes a row, the same size, side by side in the row's first line
    side = G["box"]
    boxes = [r for r in rects(page) if abs(r[2] - side) < 0.01 and abs(r[3] - side) < 0.01]
    assert len(boxes) == 4 and boxes[0][1] == boxes[1][1] and boxes[0][0] < boxes[1][0]


def test_scheduled_round_lists_each_tables_players_in_seat_order(tmp_path):
    t = tournament.load(SWISS)
    sched = tj.current_schedule(t, tmp_path)
    request = tj.round_request(t, sched, 1)
    names = t.player_names()
    rows_ = [
        director.DirectorRow(k, request.scenario, f"ID{k}", request.seed_of(k), request.players[k - 1])
        for k in range(1, request.tables + 1)
    ]
    (page,) = director.render_director_pages(rows_, title=t.name, round=1, lang="en")
    words = texts(page)
    assert words[0] == f"{t.name} · Round 1"
    for k in range(1, request.tables + 1):
        i = words.index(f"ID{k}")
        seated = [names[p] for p in sched.table(1, k)]
        assert words[i + 2 : i + 2 + 2 * len(seated) : 2] == [str(s) for s in range(1, len(seated) + 1)]
        assert words[i + 3 : i + 3 + 2 * len(seated) : 2] == seated
    # the pack itself: its first page is this director's page, all 48 players on it
    from pypdf import PdfReader

    roundpack.write_round(request, tmp_path / "r1")
    first = PdfReader(str(tmp_path / "r1" / "round.pdf")).pages[0].extract_text()
    assert all(names[p] in first for k in range(1, 13) for p in sched.table(1, k))
    assert "Runde 1" in first


# -- nothing overlaps, nothing leaves the page --------------------------------------


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "de"), ("a4", "de"), ("letter", "en")])
@pytest.mark.parametrize("players", [(), PLAYERS, ("Anna-Lena Müller-Lüdenscheid", "B", "Cid", "Dora", "Eve", "Fritz")])
def test_no_two_texts_overlap_and_all_stay_on_the_page(paper, lang, players):
    long = [
        director.DirectorRow(
            t, "oil-springs-5-6-fixed", f"OS56-ABCD-EFGH-{t:04d}", f"a-very-long-seed-given-by-the-user/t{t}", players
        )
        for t in range(1, 31)
    ]
    notes = director.notes_for(layout.load("seafarers-sm2010"), lang)
    for data in (rows(12, players), long):
        pages = director.render_director_pages(
            data,
            title="Schweizer Catan-Meisterschaft 2010",
            round=3,
            lang=lang,
            paper=paper,
            seed="x" * 30,
            key_file="key.pdf",
            notes=notes,
        )
        w, h = templates.paper_size(paper)
        for page in pages:
            boxes = text_boxes(page)
            assert overlaps(boxes) == []
            for x0, top, x1, bottom, text in boxes:
                assert MARGIN - 0.01 <= x0 and x1 <= w - MARGIN + 0.01, text
                assert MARGIN - 0.01 <= top and bottom <= h - MARGIN + 1.0, text
            sizes = [float(e.get("font-size")) for e in ET.fromstring(page.encode()).iter(f"{SVG}text")]
            assert min(sizes) >= MIN_FONT_MM - 1e-9
            # no text inside a check box
            side = G["box"]
            for bx, by, bw, bh in (r for r in rects(page) if abs(r[2] - side) < 0.01 and abs(r[3] - side) < 0.01):
                assert not any(
                    x0 < bx + bw and bx < x1 and top < by + bh and by < bottom for x0, top, x1, bottom, _ in boxes
                )


def test_columns_never_touch():
    """Between the widest texts of neighbouring columns at least the style's
    column gap; the check boxes clear of the seed column."""
    data = rows(9) + [director.DirectorRow(10, "seafarers-sm2010", "SFSF-WWWW-WWWW-WWWW", "W" * 40)]
    (page,) = director.render_director_pages(data, title="Cup", round=1)
    boxes = text_boxes(page)
    ids = [b for b in boxes if b[4].startswith(("B4SS-", "SFSF-"))]
    seeds = [b for b in boxes if b[4].startswith(("r1/", "…", "W"))]
    scenarios = [b for b in boxes if b[4] in ("Base game, 3-4 players", "Seafarers tournament scenario")]
    assert len(ids) == len(scenarios) == 10
    assert "".join(b[4] for b in seeds if b[4].startswith("W")) == "W" * 40  # printed whole, on more lines
    gap = G["column_gap"] - 0.05
    assert max(b[2] for b in scenarios) + gap <= min(b[0] for b in ids)
    assert max(b[2] for b in ids) + gap <= min(b[0] for b in seeds)
    first_box = min(r[0] for r in rects(page) if abs(r[2] - G["box"]) < 0.01)
    assert max(b[2] for b in seeds) + gap <= first_box


# -- pagination -------------------------------------------------------------------------


@pytest.mark.parametrize("players,paper", [((), "a4"), (PLAYERS, "a4"), (PLAYERS, "letter")])
def test_130_tables_paginate_every_table_once(players, paper):
    pages = director.render_director_pages(rows(130, players), title="Big Open", round=2, seed="r", paper=paper)
    w, h = templates.paper_size(paper)
    # row height by hand: the first line, plus (with players) one line of 4 short names and the pad
    row_h = G["row"] + (G["player_line"] + G["row_pad"] if players else 0.0)
    per_page = []
    seen = []
    for i, page in enumerate(pages, start=1):
        words = texts(page)
        ids = [x for x in words if x.startswith("B4SS-")]
        per_page.append(len(ids))
        seen += ids
        assert words[0] == "Big Open · Round 2" and "Setup ID" in words  # header repeated
        assert words[-1] == f"Page {i} of {len(pages)}"
        for sid in ids:  # never a row split: each row's players on its page
            t = int(sid[-4:])
            j = words.index(sid)
            assert words[j + 1] == f"r1/t{t}"
            assert words[j + 3 : j + 3 + 2 * len(players) : 2] == [f"{p} {t}" for p in players]
        assert not any("more" in x for x in words)
        shaded = [
            r for r in rects(page) if abs(r[0] - MARGIN) < 0.01 and abs(r[2] - (w - 2 * MARGIN)) < 0.01 and r[3] < 30
        ]
        assert all(abs(r[3] - row_h) < 0.011 for r in shaded)  # rows as tall as worked out above
        rows_top = shaded[0][1] - row_h  # the first row is unshaded, the second shaded
        footer_top = h - MARGIN - 0.75 * G["footer"]
        assert rows_top + len(ids) * row_h <= footer_top
        if i < len(pages):  # a full page: no room for one more row above the footer (2.5 mm kept)
            assert rows_top + (len(ids) + 1) * row_h > footer_top - 2.5
    assert seen == [f"B4SS-0000-0000-{t:04d}" for t in range(1, 131)]
    k = per_page[0]
    assert per_page[:-1] == [k] * (len(pages) - 1) and 0 < per_page[-1] <= k
    assert len(pages) == math.ceil(130 / k)


def test_pages_counted_by_hand_for_a4():
    """A4, no title, no key: the header ends at 12 (margin) + 6.5 x 1.25
    (title) + 3.3 x 2.0 (subtitle) + 1 (inset, rule) + 1 + 3.0 x 0.8 +
    3.0 x 1.15 (two lines of heads) + 3.0 x 0.2 + 1 = 36.175 mm; rows end
    above 297 - 12 - 3.0 x 1.2 - 1 = 280.4 mm: 244.225 mm, 42 rows of
    5.8 mm, 4 pages (42, 42, 42, 4). With four short names a row is 5.8 +
    3.4 + 0.5 = 9.7 mm: 25 rows a page, 6 pages."""
    assert [
        sum(x.startswith("B4SS-") for x in texts(p))
        for p in director.render_director_pages(rows(130), title=None, seed="r")
    ] == [42, 42, 42, 4]
    pages = director.render_director_pages(rows(130, PLAYERS), title=None, seed="r")
    assert [sum(x.startswith("B4SS-") for x in texts(p)) for p in pages] == [25, 25, 25, 25, 25, 5]


def test_a_single_page_spreads_its_rows():
    (page,) = director.render_director_pages(rows(12), title=None)
    shaded = [r for r in rects(page) if r[3] < 30 and abs(r[0] - MARGIN) < 0.01]
    assert all(abs(r[3] - G["row_max"]) < 0.011 for r in shaded)
    assert len(director.render_director_pages(rows(0), title=None)) == 1


# -- key pointer and director's notes --------------------------------------------------


def test_seafarers_pack_points_to_the_key_and_carries_the_reconstruction_note(tmp_path):
    from pypdf import PdfReader

    request = roundpack.RoundRequest("seafarers-sm2010", 2, "x", title="Test Cup", round=3)
    roundpack.write_round(request, tmp_path / "sf")
    first = " ".join(PdfReader(str(tmp_path / "sf" / "round.pdf")).pages[0].extract_text().split())
    assert "Test Cup · Round 3" in first
    assert "Face-down hexes: see key.pdf; keep it away from the tables." in first
    assert "Director's note: " + RECONSTRUCTION in first
    base = roundpack.RoundRequest("base-3-4", 2, "x")
    roundpack.write_round(base, tmp_path / "b")
    first = PdfReader(str(tmp_path / "b" / "round.pdf")).pages[0].extract_text()
    assert "key.pdf" not in first and "reconstruction" not in first and "Round ____" in first


def test_notes_for_layouts():
    assert director.notes_for(layout.load("seafarers-sm2010"))[0].startswith(RECONSTRUCTION)
    assert director.notes_for(layout.load("base-3-4")) == ()
    page = director.render_director_pages(
        rows(1), title=None, notes=director.notes_for(layout.load("seafarers-sm2010"), "de"), lang="de"
    )[0]
    assert "Hinweis für die Turnierleitung:" in " ".join(texts(page))


# -- the key summary ----------------------------------------------------------------------


def expected_hidden(board: Board, tx) -> list[tuple[str, str, str]]:
    """``(position, terrain word, number)`` of every hidden hex, from the
    board's tiles and the build list's rows (sea between land counted)."""
    return [
        (tx.get("key.position", row=i, pos=j), tx.get(f"terrain.{t.terrain}"), str(t.number))
        for i, row in enumerate(sheet_rows(board), start=1)
        for j, t in enumerate(row, start=1)
        if t.hidden
    ]


def summary_blocks(pages: list[str]) -> dict[int, tuple[str, list[tuple[str, str, str]]]]:
    """Table -> (setup ID, [(position, terrain, number)]) read from the
    summary's texts: "Table n", the setup ID, then three texts a hex."""
    out = {}
    for page in pages:
        words = texts(page)
        i = 0
        while i < len(words):
            if words[i].startswith("Table ") and words[i][6:].isdigit():
                table, sid, entries = int(words[i][6:]), words[i + 1], []
                i += 2
                while i + 2 < len(words) and words[i].startswith("Row "):
                    entries.append(tuple(words[i : i + 3]))
                    i += 3
                assert table not in out
                out[table] = (sid, entries)
            else:
                i += 1
    return out


def test_key_summary_lists_every_hidden_hex_of_every_table(tmp_path):
    from pypdf import PdfReader

    request = roundpack.RoundRequest("seafarers-sm2010", 12, "x", title="Test Cup", round=3)
    manifest = roundpack.write_round(request, tmp_path / "sf")
    boards = [Board.from_json((tmp_path / "sf" / e["json"]).read_text()) for e in manifest["boards"]]
    tx = templates.texts("en")
    pages = key.render_key_summary(list(enumerate(boards, start=1)), title="Test Cup", round=3, seed="x")
    assert len(pages) == 1  # 12 tables of 7 hexes on one page
    got = summary_blocks(pages)
    assert sorted(got) == list(range(1, 13))
    for t, board in enumerate(boards, start=1):
        hidden = [tile for tile in board.tiles if tile.hidden]
        assert len(hidden) == 7
        assert got[t] == (board.setup_id, expected_hidden(board, tx))
    assert overlaps(text_boxes(pages[0])) == []
    # key.pdf: the summary first, then one key a table
    reader = PdfReader(str(tmp_path / "sf" / "key.pdf"))
    assert len(reader.pages) == 1 + 12
    first = reader.pages[0].extract_text()
    assert "Face-down hexes of every table" in first and "Test Cup · Round 3 · 12 tables" in first
    assert RECONSTRUCTION in " ".join(first.split())
    assert boards[11].setup_id in first
    assert boards[0].setup_id in reader.pages[1].extract_text()


def test_key_summary_is_multi_column_and_paginates_whole_blocks():
    boards = [(t, generate.from_seed("seafarers-sm2010", f"k/t{t}")) for t in range(1, 61)]
    for paper, lang in (("a4", "en"), ("letter", "de")):
        pages = key.render_key_summary(boards, lang=lang, paper=paper, seed="k")
        tx = templates.texts(lang)
        word = tx.get("key.table", n=0)[:-1]
        per_page = []
        for i, page in enumerate(pages, start=1):
            words = texts(page)
            heads = [x for x in words if x.startswith(word) and x[len(word) :].isdigit()]
            per_page.append(len(heads))
            xs = {
                round(float(e.get("x")), 1)
                for e in ET.fromstring(page.encode()).iter(f"{SVG}text")
                if (e.text or "").startswith(word) and (e.text or "")[len(word) :].isdigit()
            }
            assert len(xs) >= 3  # three columns or more
            assert overlaps(text_boxes(page)) == []
            assert words[-1] == tx.get("key.summary_page", i=i, n=len(pages))
            sizes = [float(e.get("font-size")) for e in ET.fromstring(page.encode()).iter(f"{SVG}text")]
            assert min(sizes) >= MIN_FONT_MM - 1e-9
        k = per_page[0]  # at least 6 tables of 8 lines a column, 3 columns
        assert k >= 18 and per_page[:-1] == [k] * (len(pages) - 1) and len(pages) == math.ceil(60 / k)
        assert sum(per_page) == 60
        # every table once, each block whole (heading, setup ID and its 7 hexes on one page)
        if lang == "en":
            got = summary_blocks(pages)
            assert sorted(got) == list(range(1, 61))
            assert all(got[t] == (b.setup_id, expected_hidden(b, tx)) for t, b in boards)


def test_key_summary_of_boards_without_hidden_hexes_says_so():
    (page,) = key.render_key_summary([(1, generate.from_seed("base-3-4", "b"))])
    words = texts(page)
    assert "Table 1" in words and "No face-down hexes on this board." in words


# -- seeds whole, 20 tables a page (issue 26) ---------------------------------------------


def test_a_200_character_seed_is_printed_whole():
    """A table seed of 200 characters is broken onto lines in its column
    at 8 pt, never cut; joined, the lines give the seed back, and no text
    overlaps another. The round seed under the title too."""
    seed = "/".join(f"part{i:02d}-" + "x" * 14 for i in range(10))[:200]
    assert len(seed) == 200
    data = [
        director.DirectorRow(t, "base-3-4", f"B4SS-0000-0000-{t:04d}", f"{seed}/t{t}", PLAYERS) for t in range(1, 4)
    ]
    pages = director.render_director_pages(data, title="Cup", round=1, seed=seed)
    boxes = [b for page in pages for b in text_boxes(page)]
    assert overlaps(text_boxes(pages[0])) == []
    seed_x = min(b[0] for b in boxes if b[4].startswith("part00-"))
    for t in range(1, 4):
        lines = [b for b in text_boxes(pages[0]) if abs(b[0] - seed_x) < 0.01]
        assert f"{seed}/t{t}" in "".join(b[4] for b in lines)
    assert (
        min(float(e.get("font-size")) for e in ET.fromstring(pages[0].encode()).iter(f"{SVG}text"))
        >= MIN_FONT_MM - 1e-9
    )
    words = texts(pages[0])
    head = words[1 : words.index("Table")]  # the lines under the title, before the column heads
    assert seed in "".join(head).split("Round seed: ", 1)[1]
    assert "…" not in "".join(texts(pages[0]))


def test_twenty_tables_on_one_page_with_seeds_of_40_characters():
    """A round of 20 tables of four (names from examples/swiss-2010, the
    material and balance boxes a pack prints, a two-line title), seeds of
    40 characters: one A4 page, and one Letter page."""
    from setupgen.core import almanac, balance

    t = tournament.load(SWISS)
    names = [p.name for p in t.players] * 2
    seed = "swiss-catan-championship-2026-zh/r1"  # 35 characters; a table seed 40 ("…/r1/t01")
    rows_ = []
    for k in range(1, 21):
        s = f"{seed}/t{k:03d}"
        b = generate.from_seed("base-3-4", s)
        rows_.append(
            director.DirectorRow(
                k,
                "base-3-4",
                b.setup_id,
                s,
                tuple(names[4 * k - 4 : 4 * k]),
                almanac.table_material("base-3-4", 4),
                balance.measure(b),
            )
        )
    assert max(len(r.seed) for r in rows_) == 40
    for paper in ("a4", "letter"):
        pages = director.render_director_pages(
            rows_, title="Schweizer Catan-Meisterschaft 2026 Zürich", round=1, seed=seed, paper=paper, lang="de-CH"
        )
        assert len(pages) == 1, paper
        words = texts(pages[0])
        assert all(r.setup_id in words and r.seed in words for r in rows_)
        assert overlaps(text_boxes(pages[0])) == []
