"""The almanac page reads like a rules card (issue 21): two balanced
columns over the full width at the largest body size from 10 down to 8 pt,
a section carried over repeats its heading, no section starts at the foot
of a column, rules and the harbor list stay whole, room for the director's
own lines on the fullest page; the material a table counts out; the
harbors the pirate's start hex blocks, checked against plane geometry."""

from __future__ import annotations

import itertools
import math

import pytest
import sheetsvg as S
from test_almanac_data import FIELDS
from test_almanac_sources import FIXED, ROOT

from setupgen import generate
from setupgen.core import almanac, layout
from setupgen.core.errors import SetupgenError
from setupgen.core.hexgrid import center, neighbor
from setupgen.core.templates import MIN_FONT_MM, texts
from setupgen.generate import fixed
from setupgen.render import almanac as A
from setupgen.render import sheet
from setupgen.render.numbering import harbor_order

SCENARIOS = [
    "base-3-4",
    "base-5-6",
    "cities-knights",
    "seafarers-sm2010",
    "oil-springs",
    "oil-springs-5-6",
    "oil-springs-fixed",
    "oil-springs-5-6-fixed",
]
PT = 25.4 / 72


def board_of(scenario):
    if scenario in FIXED:
        return fixed.board_from_file(ROOT / "tests" / "fixtures" / FIXED[scenario], scenario)
    return generate.from_seed(scenario, "alm"), layout.load(scenario)


def check_columns(size, columns, per_col, lang, where):
    tx = texts(lang)
    assert 8 * PT - 1e-9 <= size <= 10 * PT + 1e-9, where
    assert len(columns) == 2 and all(len(c) <= per_col for c in columns), where
    first, second = columns
    for c, col in enumerate(columns):
        for i, line in enumerate(col):
            starts = line.kind == "head" and (i == 0 or col[i - 1].kind != "head")
            if starts:
                assert i <= per_col - 3, (where, c, i, line.text)  # no section starts in a column's last two lines
                assert any(x.section == line.section and x.kind != "head" for x in col[i + 1 :]), (where, line.text)
    groups = [{(x.section, x.group) for x in col if x.kind not in ("head", "gap")} for col in columns]
    assert not groups[0] & groups[1], where  # no rule (and not the harbor list) split across the columns
    if first and second and second[0].section == first[-1].section:
        heading = " ".join(x.text for x in first if x.section == second[0].section and x.kind == "head")
        carried = " ".join(x.text for x in second if x.kind == "head" and x.section == second[0].section)
        assert carried == tx.get("almanac.continued", heading=heading), where
    harbor_cols = {
        c
        for c, col in enumerate(columns)
        for x in col
        if x.text.startswith((tx.get("almanac.harbors_board")[:12], "3:1:", "2:1 "))
    }
    assert len(harbor_cols) == 1, where
    # balanced: moving the break by one group would not make the longer column shorter
    sizes = {}
    for x in first + second:
        if x.kind not in ("head", "gap"):
            sizes[(x.section, x.group)] = sizes.get((x.section, x.group), 0) + 1
    biggest = max(sizes.values())
    assert abs(len(first) - len(second)) <= 2 * biggest + 3, (where, len(first), len(second), biggest)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_combination_lays_out_as_a_rules_card(scenario):
    b, lay = board_of(scenario)
    for preset, variant, final, lang, paper in itertools.product(
        ("none", "swiss-2010", "australian-2006"),
        (None, "fishermen"),
        (False, True),
        ("en", "de", "de-CH"),
        ("a4", "letter"),
    ):
        req = almanac.AlmanacRequest(preset, final, variant=variant)
        size, columns, per_col = A.almanac_layout(
            b, lay, lang=lang, paper=paper, context=sheet.SheetContext("Cup", 3, 7), request=req
        )
        check_columns(size, columns, per_col, lang, (preset, variant, final, lang, paper))


def test_a_short_page_is_set_large_and_a_full_one_at_8_pt():
    b, lay = board_of("base-3-4")
    size, columns, _ = A.almanac_layout(b, lay, request=almanac.AlmanacRequest())
    assert size == pytest.approx(10 * PT)  # trade, Longest Road and the win line: the largest size
    b, lay = board_of("seafarers-sm2010")
    size, _, _ = A.almanac_layout(
        b, lay, lang="de", paper="letter", request=almanac.AlmanacRequest("australian-2006", variant="fishermen")
    )
    assert size == pytest.approx(8 * PT)
    svg = A.render_almanac(
        b, lay, lang="de", paper="letter", request=almanac.AlmanacRequest("australian-2006", variant="fishermen")
    )
    assert min(t.size for t in S.parse(svg)[1]) >= MIN_FONT_MM - 1e-6


@pytest.mark.parametrize("lang", ["en", "de"])
def test_eight_lines_of_room_for_the_director_on_letter(lang):
    """Every combination on Letter takes eight of the director's own lines
    (a line each) besides its rules; the fullest one is then set at 8 pt."""
    add = tuple(f"Director's line {i}: phones stay off the table." for i in range(1, 9))
    for scenario in SCENARIOS:
        b, lay = board_of(scenario)
        for preset, variant, final in itertools.product(
            ("none", "swiss-2010", "australian-2006"), (None, "fishermen"), (False, True)
        ):
            req = almanac.AlmanacRequest(preset, final, add=add, variant=variant)
            size, columns, per_col = A.almanac_layout(b, lay, lang=lang, paper="letter", request=req)
            check_columns(size, columns, per_col, lang, (scenario, preset, variant, final))
            printed = " ".join(x.text for col in columns for x in col)
            assert all(line in printed for line in add)


def test_an_overflow_stays_one_clear_error():
    b, lay = board_of("oil-springs-5-6")
    add = tuple(f"Our own rule number {i}: keep the table tidy." for i in range(40))
    with pytest.raises(
        SetupgenError,
        match=r"^the almanac for oil-springs-5-6 is \d+ lines? too long for one "
        r"letter page; drop rules or shorten the additions$",
    ):
        A.almanac_layout(
            b,
            lay,
            lang="de",
            paper="letter",
            request=almanac.AlmanacRequest("australian-2006", add=add, variant="fishermen"),
        )


def test_short_texts_only_where_the_page_needs_them():
    en = texts("en")
    for lang in ("en", "de"):
        tx = texts(lang)
        short = tx.data["almanac"]["rule_short"]
        assert set(short) <= set(tx.data["almanac"]["rule"])
        for key, text in short.items():
            assert len(text) < len(tx.data["almanac"]["rule"][key]), key
            assert all(len(line) <= almanac.MAX_LINE_CHARS for line in text.format(**FIELDS).split("\n")), key
    b, lay = board_of("oil-springs")
    full = " ".join(t.text for t in S.parse(A.render_almanac(b, lay, request=almanac.AlmanacRequest("swiss-2010")))[1])
    assert " ".join(en.get("almanac.rule.oil-disaster-track").split("\n")) in full  # fits: the full texts


def test_balance_never_splits_a_group_and_carries_the_heading():
    """Worked by hand: 9 lines of Trade (a heading, r0-r7), a gap, 4 of
    Disputes (a heading, a rule of two lines, b). At 8 lines a column the
    break after r6 gives 8 | 7 (with "Trade (cont.)" and the gap); after
    r5 it gives 7 | 8, after r7 9 lines: too many."""
    L = A.Line
    lines = [
        L("head", "Trade", 0, -1),
        *(L("first", f"r{i}", 0, i) for i in range(8)),
        L("gap", "", 1, -2),
        L("head", "Disputes", 1, -1),
        L("first", "a", 1, 0),
        L("more", "a2", 1, 0),
        L("first", "b", 1, 1),
    ]
    cont = [["Trade (cont.)"], ["Disputes (cont.)"]]
    cols = A.balance(lines, 8, cont)
    assert [x.text for x in cols[0]] == ["Trade", "r0", "r1", "r2", "r3", "r4", "r5", "r6"]
    assert [x.text for x in cols[1]] == ["Trade (cont.)", "r7", "", "Disputes", "a", "a2", "b"]
    # 7 lines a column: 14 lines of text need a break after r5 (7 | 8) or r6 (8): none fits
    assert A.balance(lines, 7, cont) is None
    # "a" and "a2" are one rule: with Disputes alone the break falls before a or before b only
    tail = lines[10:]
    assert [[x.text for x in c] for c in A.balance(tail, 3, cont)] == [
        ["Disputes", "a", "a2"],
        ["Disputes (cont.)", "b"],
    ]
    # a heading is never left with fewer than two of its lines when its section goes on
    assert A.balance([L("head", "T", 0, -1), L("first", "x", 0, 0), L("first", "y", 0, 1)], 2, cont) is None


# --- material ---------------------------------------------------------------------


def words_of(scenario, preset="none", variant=None, lang="en", players=()):
    b, lay = board_of(scenario)
    svg = A.render_almanac(
        b,
        lay,
        lang=lang,
        context=sheet.SheetContext(players=players),
        request=almanac.AlmanacRequest(preset, variant=variant),
    )
    return " ".join(t.text for t in S.parse(svg)[1])


def test_seafarers_material_for_this_table():
    text = words_of("seafarers-sm2010")
    for item in (
        "Material for this table",
        "1 × pirate ship",
        "3 × frame pieces at the top: E-F, double X, F-G",
        "3 × frame pieces at the bottom: C-B, double X, B-A",
    ):
        assert item in text
    de = words_of("seafarers-sm2010", lang="de")
    assert "3 × Rahmenteile oben: E-F, Doppel-X, F-G" in de and "3 × Rahmenteile unten: C-B, Doppel-X, B-A" in de


def test_oil_springs_material_for_this_table():
    small, large = words_of("oil-springs"), words_of("oil-springs-5-6", players=tuple("ABCDEF"))
    for text, oil, metro, tiles in ((small, 15, 4, 3), (large, 21, 6, 4)):
        for item in (
            f"{oil} × oil tokens",
            f"{metro} × metropolis tokens",
            f"{tiles} × oil-spring tiles",
            "1 × Champion of the Environment token",
            "7 × VP tokens",
            "1 × disaster track with its marker",
        ):
            assert item in text, item
    assert "Material for this table" not in words_of("base-3-4")
    fish = words_of("base-3-4", variant="fishermen", players=tuple("ABC"))
    assert "30 × fish tokens" in fish and "3 × fishing-ship markers" in fish and "3 × matchsticks" in fish


def test_every_material_entry_names_its_source():
    for scenario in almanac.scenarios():
        for m in almanac.table_material(scenario, 4, "fishermen"):
            assert m.kind == "box" or almanac.check_source(m.source, almanac.source_documents()) is None, m


# --- the pirate's start blocks harbors (Schweizer Meisterschaft 2010, Seafarers rule 10) -------------------


def touches_pirate(board, harbor) -> bool:
    """By plane geometry, not the hex grid's corner sets: the harbor's edge
    lies between its sea hex and the land hex it faces; its two ends are
    the points at the hexes' circumradius R from both centres (the midpoint
    of the centres, moved R/2 either way across); a point at distance R
    from the pirate hex's centre is one of its corners."""
    sx, sy = center(harbor.hex)
    lx, ly = center(neighbor(harbor.hex, harbor.facing))
    d = math.dist((sx, sy), (lx, ly))
    r = d / math.sqrt(3)
    mx, my = (sx + lx) / 2, (sy + ly) / 2
    ux, uy = -(ly - sy) / d, (lx - sx) / d  # unit vector along the edge
    ends = [(mx + ux * r / 2, my + uy * r / 2), (mx - ux * r / 2, my - uy * r / 2)]
    pirate = center(board.pirate)
    return any(abs(math.dist(e, pirate) - r) < 1e-6 for e in ends)


@pytest.mark.parametrize("seed", [f"pirate{i}" for i in range(40)])
def test_harbors_at_the_pirates_start_are_flagged(seed):
    b = generate.from_seed("seafarers-sm2010", seed)
    expected = [n for n, h in enumerate(harbor_order(b), start=1) if touches_pirate(b, h)]
    assert A.pirate_blocked(b) == expected
    page = almanac.page_rules(almanac.AlmanacRequest(), "seafarers-sm2010")
    lines = A.harbor_summary(b, layout.load("seafarers-sm2010"), texts("en"), page.numbers())
    flagged = [x for x in lines if "Pirate on its start hex" in x]
    if expected:
        # the pirate's harbors are the scenario's rule 10 on the page, as in the source (issue 43)
        assert flagged == [
            f"Pirate on its start hex: no trade at harbor {', '.join(map(str, expected))} while it "
            "stays there (scenario rule 10)."
        ]
    else:
        assert flagged == []


def test_some_seeds_have_a_blocked_harbor_and_base_boards_none():
    hits = [s for s in (f"pirate{i}" for i in range(40)) if A.pirate_blocked(generate.from_seed("seafarers-sm2010", s))]
    assert 0 < len(hits) < 40
    assert A.pirate_blocked(generate.from_seed("base-3-4", "x")) == []
