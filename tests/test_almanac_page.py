"""The almanac page (the back of a table sheet; not yet in round packs):
every shipped scenario, preset, variant and language fits one page, its
harbor lines say what the front says, and nothing on it depends on a
face-down hex."""

from __future__ import annotations

import dataclasses
import itertools
import re

import pytest
import sheetsvg as S

from setupgen import generate
from setupgen.core import layout
from setupgen.core.errors import SetupgenError
from setupgen.render import almanac as A
from setupgen.render import sheet

SCENARIOS = ["base-3-4", "base-5-6", "cities-knights", "seafarers-sm2010", "oil-springs", "oil-springs-5-6"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_combination_fits_one_page_without_overlaps(scenario):
    b = generate.from_seed(scenario, "alm")
    lay = layout.load(scenario)
    for preset, lang, final, variant, paper in itertools.product(
        ("none", "swiss-2010", "australian-2006"), ("en", "de"), (False, True), (None, "fishermen"), ("a4", "letter")
    ):
        req = A.AlmanacRequest(preset=preset, final=final, variant=variant)
        svg = A.render_almanac(b, lay, lang=lang, paper=paper, context=sheet.SheetContext("Cup", 3, 7), request=req)
        items, texts, _, _ = S.parse(svg)
        for x, y in itertools.combinations([i for i in items if i.texts], 2):
            assert not S.overlap(x.box, y.box), (preset, lang, final, variant, paper, x.texts[0].text)
        assert all(t.size >= 8 * 25.4 / 72 - 1e-6 for t in texts) and "…" not in svg


def test_harbor_lines_match_the_front_and_the_board():
    """The almanac's "3:1: 2, 5, 8" lines use the front's harbor numbers:
    read both pages back and compare with the board JSON's types."""
    for scenario, seed in (("base-3-4", "h1"), ("seafarers-sm2010", "h2"), ("base-5-6", "h3")):
        b = generate.from_seed(scenario, seed)
        lay = layout.load(scenario)
        front = [t.text for t in S.parse(sheet.render_sheet(b, lay))[1]]
        numbers = {
            int(k): v
            for k, v in zip(front, front[1:])
            if re.fullmatch(r"\d+", k) and re.match(r"[23]:1", v) and "→" in v
        }
        by_type_front: dict[str, list[int]] = {}
        for n, text in sorted(numbers.items()):
            by_type_front.setdefault(text.split("\u2002")[0], []).append(n)
        back = [t.text for t in S.parse(A.render_almanac(b, lay))[1]]
        by_type_back = {
            m.group(1): [int(x) for x in m.group(2).split(", ")]
            for m in (re.fullmatch(r"([23]:1(?: \w+)?): ([\d, ]+)", t) for t in back)
            if m
        }
        assert by_type_back == by_type_front
        assert sum(len(v) for v in by_type_back.values()) == len(b.harbors)
        kinds = sorted("3:1" if h.type == "3:1" else h.type for h in b.harbors)
        words = {"lumber": "lumber", "wool": "wool", "grain": "grain", "brick": "brick", "ore": "ore"}
        assert sorted(k if k == "3:1" else words[k] for k in kinds) == sorted(
            ("3:1" if t == "3:1" else t.split(" ")[1]) for t, v in by_type_back.items() for _ in v
        )


def test_nothing_depends_on_a_face_down_hex():
    b = generate.from_seed("seafarers-sm2010", "fd")
    lay = layout.load("seafarers-sm2010")
    base = A.render_almanac(b, lay, lang="de", request=A.AlmanacRequest(preset="swiss-2010"))
    for terrain in ("forest", "pasture", "fields", "hills", "mountains"):
        tiles = tuple(dataclasses.replace(t, terrain=terrain) if t.hidden else t for t in b.tiles)
        assert (
            A.render_almanac(
                dataclasses.replace(b, tiles=tiles), lay, lang="de", request=A.AlmanacRequest(preset="swiss-2010")
            )
            == base
        )


def test_rounds_and_final_differ_as_the_presets_say():
    b = generate.from_seed("cities-knights", "f")
    lay = layout.load("cities-knights")
    rounds = " ".join(t.text for t in S.parse(A.render_almanac(b, lay, request=A.AlmanacRequest("australian-2006")))[1])
    final = " ".join(
        t.text for t in S.parse(A.render_almanac(b, lay, request=A.AlmanacRequest("australian-2006", final=True)))[1]
    )
    banker = "hands out and takes in resource and development cards"
    assert (
        banker in rounds and banker not in final
    )  # "with the exception of the final" (Catan Australian Championships 2006)
    assert "13 victory points" in rounds and "13 victory points" in final


def test_directors_additions_that_overflow_are_one_clear_error():
    b = generate.from_seed("seafarers-sm2010", "o")
    lay = layout.load("seafarers-sm2010")
    add = tuple(f"Our own rule number {i}: keep the table tidy." for i in range(60))
    with pytest.raises(SetupgenError, match=r"the almanac for seafarers-sm2010 is \d+ lines too long for one a4 page"):
        A.render_almanac(b, lay, request=A.AlmanacRequest("swiss-2010", add=add, variant="fishermen"))
    with pytest.raises(SetupgenError, match="unknown rule preset"):
        A.render_almanac(b, lay, request=A.AlmanacRequest("swiss-2011"))
    with pytest.raises(SetupgenError, match="unknown rule key 'nope' in drop"):
        A.render_almanac(b, lay, request=A.AlmanacRequest("swiss-2010", drop=("nope",)))


def test_fishermen_material_for_this_table():
    b = generate.from_seed("base-5-6", "fish")
    text = " ".join(
        t.text
        for t in S.parse(
            A.render_almanac(
                b,
                layout.load("base-5-6"),
                context=sheet.SheetContext(players=tuple("ABCDEF")),
                request=A.AlmanacRequest(variant="fishermen"),
            )
        )[1]
    )
    # the source: at least 30, by the number of players, no count of its own for 5-6 (issue 43)
    assert (
        "30 × fish tokens (1 token = 2 fish; at least 30 a table" in text
        and "40 ×" not in text
        and "6 × fishing-ship markers" in text
        and "6 × matchsticks" in text
    )
