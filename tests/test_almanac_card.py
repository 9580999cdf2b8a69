"""The almanac page as a rules card (issue 43, part 4): every rule
numbered within its section, so that each cross-reference on the page
("scenario rule 10") names a rule the page prints; options marked with who
decides them and their default; the end-of-game lines together; the
Australian preset's base-game rules said to apply by analogy elsewhere;
black ink only. The pages are read back from their SVG (tests/sheetsvg.py),
not from the layout code; the expected numbers are worked by hand from the
data files' order (almanac/)."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict

import pytest
import sheetsvg as S

from setupgen import generate
from setupgen.core import almanac, layout
from setupgen.render import almanac as A
from setupgen.render import sheet

SCENARIOS = ["base-3-4", "base-5-6", "cities-knights", "seafarers-sm2010", "oil-springs", "oil-springs-5-6"]
#: a heading of the page's rule sections, in either language (the material section has bullets, no numbers)
SCENARIO_HEAD = re.compile(r"^(Scenario rules|Szenarioregeln)")


def page(
    scenario: str, preset: str, lang: str = "en", final: bool = False, variant: str | None = None, seed: str = "card"
) -> str:
    b, lay = generate.from_seed(scenario, seed), layout.load(scenario)
    req = almanac.AlmanacRequest(preset, final, variant=variant)
    return A.render_almanac(b, lay, lang=lang, context=sheet.SheetContext("Cup", 1, 1), request=req)


def sections(svg: str) -> dict[str, dict[int, str]]:
    """``{heading: {number: the rule's text}}`` read back from the page: a
    bold text starts a section (bold lines in a row are one heading; "(cont.)"
    continues a section); a number ("7.", anchored at its end) starts a
    rule, whose text is the lines beside and under it in its column until
    the next number or heading. The footer (the lowest line) is left out."""
    _, texts, _, _ = S.parse(svg)
    bottom = max(t.y for t in texts)
    body = sorted(
        (t for t in texts if 25 < t.y < bottom - 1 and t.size < 3.6), key=lambda t: (round(t.x > 105), t.y, t.x)
    )
    out: dict[str, dict[int, str]] = defaultdict(dict)
    head, head_raw, number, bold_run = "", "", 0, False
    for t in body:
        if t.bold:
            raw = (head_raw + " " + t.text) if bold_run else t.text
            head_raw, bold_run = raw, True
            head = re.sub(r" \((cont\.|Forts\.)\)$", "", raw)
            number = max(out[head], default=0) if raw != head else 0
            continue
        bold_run = False
        if t.anchor == "end" and re.fullmatch(r"\d+\.", t.text):
            number = int(t.text[:-1])
            out[head][number] = ""
        elif number and head:
            out[head][number] = (out[head][number] + " " + t.text).strip()
    return {k: v for k, v in out.items() if v}


def scenario_section(found: dict[str, dict[int, str]]) -> dict[int, str]:
    (rules,) = [v for k, v in found.items() if SCENARIO_HEAD.match(k)]
    return rules


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_section_is_numbered_from_one_without_gaps(scenario):
    for preset, lang, final, variant in itertools.product(
        ("none", "swiss-2010", "australian-2006"), ("en", "de"), (False, True), (None, "fishermen")
    ):
        found = sections(page(scenario, preset, lang, final, variant))
        assert found, (scenario, preset, lang)
        for head, rules in found.items():
            assert sorted(rules) == list(range(1, len(rules) + 1)), (scenario, preset, lang, final, variant, head)
        # the house rules: the win line is rule 1
        house = next(v for k, v in found.items() if k.startswith(("House rules", "Hausregeln")))
        assert house[1].startswith(("To win:", "Zum Sieg:")), house[1]


@pytest.mark.parametrize(
    "lang, cite", [("en", r"scenario rules? (\d+)(?: and (\d+))?"), ("de", r"Szenarioregeln? (\d+)(?: und (\d+))?")]
)
def test_every_cross_reference_resolves_on_its_page(lang, cite):
    """On the Seafarers pages: the pirate's harbors cite the scenario's
    rule 10 and Longest Trade Route its rules 6 and 7 (Schweizer
    Meisterschaft 2010, Seefahrer-Szenario, Regeln 6, 7 and 10), and the page
    prints those rules under those numbers."""
    seen = 0
    for seed, preset, variant in itertools.product(
        [f"pirate{i}" for i in range(6)], ("swiss-2010", "australian-2006"), (None, "fishermen")
    ):
        found = sections(page("seafarers-sm2010", preset, lang, variant=variant, seed=seed))
        scen = scenario_section(found)
        whole = " ".join(t for rules in found.values() for t in rules.values())
        for m in re.finditer(cite, whole):
            for n in filter(None, m.groups()):
                assert int(n) in scen, (seed, preset, m.group(0))
                seen += 1
    assert seen >= 2 * 2 * 6 * 2  # the Longest Trade Route line on every page, twice
    pirate = {"en": "The pirate blocks every harbor", "de": "Der Pirat sperrt"}[lang]
    broken = {"en": "ship line cut by an opponent", "de": "unterbrochene Schiffslinie"}[lang]  # full or short text
    assert scen[10].startswith(pirate) and broken in scen[6]
    assert {"en": "scenario rules 6 and 7", "de": "Szenarioregeln 6 und 7"}[lang] in whole


def test_the_pirate_line_cites_rule_10_where_the_pirate_blocks_a_harbor():
    for i in range(40):
        b = generate.from_seed("seafarers-sm2010", f"pirate{i}")
        if A.pirate_blocked(b):
            words = " ".join(t.text for t in S.parse(page("seafarers-sm2010", "swiss-2010", seed=f"pirate{i}"))[1])
            assert re.search(
                r"Pirate on its start hex: no trade at harbors? [\d, ]+ while it stays there "
                r"\(scenario rule 10\)\.",
                words,
            ), i
            return
    pytest.fail("no board of 40 with a blocked harbor")


def test_options_name_who_decides_and_their_default():
    swiss = sections(page("cities-knights", "swiss-2010", final=True))
    house = next(v for k, v in swiss.items() if k.startswith("House rules"))
    lines = list(house.values())
    director = [
        t for t in lines if t.startswith("Option of the director (default: off; only when announced): Time rule")
    ]
    table = [
        t
        for t in lines
        if t.startswith(
            "Option of the table (default: off; only if all players here agree before the game): Fiesepeter"
        )
    ]
    assert len(director) == 1 and len(table) == 1
    # no other line claims to be optional, and no option hides in a plain line
    assert sum(t.startswith("Option") for t in lines) == 2
    assert not any("if the director announces" in t for t in lines)
    german = sections(page("base-3-4", "australian-2006", "de"))
    (time_rule,) = [t for v in german.values() for t in v.values() if "Zeitregel" in t]
    assert time_rule.startswith("Option der Turnierleitung (Standard: aus; gilt nur, wenn angesagt): Zeitregel")
    # every option of the data is one of the two deciders
    assert {r.option for p in ("swiss-2010", "australian-2006") for r in almanac.load_preset(p).rules} == {
        "",
        "director",
        "table",
    }


def test_end_of_game_lines_follow_the_win_line():
    """Australian base round: 1 the win, then the time rule, the VP card
    that reaches the threshold, the knight not played to win, winning on
    your own turn, the ranking's cap (the preset's order), then the rest."""
    found = sections(page("base-3-4", "australian-2006"))
    house = next(v for k, v in found.items() if k.startswith("House rules"))
    starts = [
        "To win: 10 victory points",
        "Option of the director",
        "A bought development card with a VP",
        "A soldier/knight bought this turn",
        "You win only on your own turn",
        "For the ranking, at most 10 VP",
    ]
    for n, start in enumerate(starts, start=1):
        assert house[n].startswith(start), (n, house[n])
    # Oil Springs: the win line cites the scenario's own end-of-game rules by number
    oil = sections(page("oil-springs", "swiss-2010"))
    house = next(v for k, v in oil.items() if k.startswith("House rules"))
    scen = scenario_section(oil)
    m = re.fullmatch(r"To win: 12 victory points; how a game ends: scenario rules (\d+), (\d+)", house[1])
    assert m, house[1]
    assert scen[int(m.group(1))].startswith("Win:") and "nobody wins" in scen[int(m.group(2))]


def test_house_rules_first_is_the_unnumbered_line_above_the_win():
    for preset in ("swiss-2010", "australian-2006"):
        _, texts, _, _ = S.parse(page("base-3-4", preset))
        words = [t.text for t in texts]
        head = next(i for i, w in enumerate(words) if w.startswith("House rules"))
        assert words[head + 1].startswith("These house rules take precedence"), words[head : head + 3]
        assert not any("precedence" in t for v in sections(page("base-3-4", preset)).values() for t in v.values())


@pytest.mark.parametrize(
    "scenario, numbers_of",
    [
        (
            "seafarers-sm2010",
            ("No road may be built beyond", "You may build on road segments", "In the source's words"),
        ),
        ("cities-knights", ("The starting player hands out",)),
    ],
)
def test_the_australian_rules_outside_the_base_game_say_which_apply_by_analogy(scenario, numbers_of):
    svg = page(scenario, "australian-2006")
    house = next(v for k, v in sections(svg).items() if k.startswith("House rules"))
    words = " ".join(t.text for t in S.parse(svg)[1])
    want = [n for n, t in house.items() if t.startswith(numbers_of)]
    assert len(want) == len(numbers_of)
    cited = re.search(
        r"Written for the base game alone; here rules? ([\d, ]+) appl(?:y|ies) by analogy: ([^.]+)\.", words
    )
    assert cited, words[:400]
    assert [int(n) for n in cited.group(1).split(", ")] == want
    reading = {
        "seafarers-sm2010": "ship lines as roads, Longest Trade Route for Longest Road",
        "cities-knights": "its development cards are the progress cards",
    }[scenario]
    assert cited.group(2) == reading
    for base in ("base-3-4", "base-5-6", "oil-springs"):
        assert "by analogy" not in " ".join(t.text for t in S.parse(page(base, "australian-2006"))[1]), base
    assert "by analogy" not in " ".join(t.text for t in S.parse(page(scenario, "swiss-2010"))[1])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_black_ink_only(scenario):
    """Nothing grey dithers in 1-bit: every text and every line on the page
    is black (the table number's box keeps its light background, behind
    black digits)."""
    for preset, lang in itertools.product(("none", "swiss-2010", "australian-2006"), ("en", "de")):
        svg = page(scenario, preset, lang, variant="fishermen")
        _, texts, _, root = S.parse(svg)
        assert {t.fill for t in texts} == {"#000000"}, (scenario, preset, lang)
        strokes = {el.get("stroke") for el in root.iter() if el.get("stroke")}
        assert strokes <= {"#000000"}, (scenario, preset, strokes)
        fills = {el.get("fill") for el in root.iter() if el.get("fill")}
        assert fills <= {"#000000", "#ffffff", "none", "#eeeeee"}, (scenario, preset, fills)
