"""The almanac says what its sources say (docs/rules.md 7.1-7.8): every rule
entry names its source, each preset × scenario × stage prints the rules
docs/rules.md lists (written out here by hand, not read from almanac/), rules
that meet on one page never contradict each other, and the rule table of
docs/rules.md covers every key."""

from __future__ import annotations

import importlib.util
import itertools
import re
import shutil
from pathlib import Path

import pytest
import sheetsvg as S
from typer.testing import CliRunner

from setupgen import generate
from setupgen.cli import app
from setupgen.core import almanac, layout
from setupgen.core.errors import SetupgenError
from setupgen.core.templates import texts
from setupgen.generate import fixed
from setupgen.render import almanac as A
from setupgen.render import sheet

ROOT = Path(__file__).resolve().parent.parent

# --- docs/rules.md 7.1: swiss-2010, by hand -------------------------------------------
SWISS_GENERAL = [
    "house-rules-first",
    "players-build-board",
    "banker",
    "resource-shortage",
    "material-visible",
    "new-cards-apart",
    "time-rule-optional",
]
SWISS_ROUNDS_LIST = [
    "dev-card-before-roll",
    "no-line-past-settlement",
    "standard-start",
    "city-same-turn",
    "vp-cards-win-at-once",
    "no-new-card-to-win",
    "trade-build-together",
    "harbor-same-turn",
    "win-own-turn",
]
SWISS_F = {"no-line-past-settlement", "city-same-turn", "trade-build-together", "harbor-same-turn"}
FIESEPETER = "ck-knights-commit-optional"
SWISS_DISPUTES = ["referees-head", "referee-call", "disqualify-deliberate"]

# --- docs/rules.md 7.2: australian-2006, by hand --------------------------------------
AUS_HOUSE = [
    "house-rules-first",
    "time-rule-until-threshold",
    "players-build-director-setup",
    "material-visible",
    "banker-cards",
    "new-cards-apart-turn",
    "dev-card-before-roll",
    "dice-in-lid",
    "no-road-past-settlement-or-city",
    "older-road-past-settlement",
    "city-same-turn-under-five",
    "vp-card-reaches-threshold",
    "no-new-knight-to-win",
    "trade-build-together",
    "harbor-same-turn",
    "win-own-turn",
    "ranking-counts-threshold",
    "resource-shortage",
    "broken-road-no-count",
]
AUS_DISPUTES = [
    "referees-at-least-two",
    "referee-call",
    "protest-before-signing",
    "refuse-to-sign",
    "disqualify-to-win",
]

# --- docs/rules.md 7.3-7.5, 7.7 -------------------------------------------------------
TRADE = ["trade-4-1", "trade-3-1", "trade-2-1"]
ROAD = ["longest-road-five", "longest-overtake", "longest-broken", "longest-set-aside"]
ROUTE = ["longest-trade-route-five", "longest-overtake", "longest-broken", "longest-set-aside"]
SEA = [
    "sea-start-placement",
    "sea-start-ship-moves",
    "sea-robber-desert",
    "sea-discover",
    "sea-island-bonus",
    "sea-broken-line",
    "sea-move-loses-route",
    "sea-pirate",
    "sea-pirate-frame",
    "sea-pirate-harbors",
    "sea-half-hexes",
]
CK = [
    "ck-robber-barbarians",
    "ck-alchemist-before-roll",
    "ck-knight-actions",
    "ck-knights-block",
    "ck-progress-at-once",
    "ck-one-progress-per-action",
    "ck-reduced-city",
    "ck-aqueduct",
    "ck-win-own-turn",
]
OIL_HEAD = ["oil-production"]
OIL_TAIL = [
    "oil-robber",
    "oil-convert",
    "oil-metropolis",
    "oil-not-traded",
    "oil-disaster-track",
    "oil-sequester",
    "oil-champion",
    "oil-disaster-flood",
    "oil-disaster-number",
    "oil-destroyed-hex",
    "oil-win",
]
OIL_34 = OIL_HEAD + ["oil-limit-4"] + OIL_TAIL + ["oil-flooded-5"]
OIL_56 = OIL_HEAD + ["oil-limit-6"] + OIL_TAIL + ["oil-flooded-8", "oil-special-building"]
SCENARIO = {
    "base-3-4": ([], ROAD),
    "base-5-6": ([], ROAD),
    "seafarers-sm2010": (SEA, ROUTE),
    "cities-knights": (CK, ROAD),
    "oil-springs": (OIL_34, ROAD),
    "oil-springs-5-6": (OIL_56, ROAD),
    "oil-springs-fixed": (OIL_34, ROAD),
    "oil-springs-5-6-fixed": (OIL_56, ROAD),
}

# --- docs/rules.md 7.8: what a scenario's own rules replace, by hand -------------------
DEV_CARD_RULES = {
    "dev-card-before-roll",
    "vp-cards-win-at-once",
    "vp-card-reaches-threshold",
    "no-new-card-to-win",
    "no-new-knight-to-win",
    "new-cards-apart",
    "new-cards-apart-turn",
}
CK_LEAVES_OFF = DEV_CARD_RULES | {"standard-start", "win-own-turn"}  # win-own-turn: our addition (docs/rules.md)
OIL_LEAVES_OFF = {"vp-cards-win-at-once", "vp-card-reaches-threshold", "win-own-turn"}
FIXED_LEAVES_OFF = OIL_LEAVES_OFF | {"players-build-director-setup"}  # no random set-up drawn (issue 43)
LEAVES_OFF = {
    "cities-knights": CK_LEAVES_OFF,
    "oil-springs": OIL_LEAVES_OFF,
    "oil-springs-5-6": OIL_LEAVES_OFF,
    "oil-springs-fixed": FIXED_LEAVES_OFF,
    "oil-springs-5-6-fixed": FIXED_LEAVES_OFF,
}
#: (a key that marks the scenario's page, a key never printed beside it)
PAIRS = (
    [
        ("ck-alchemist-before-roll", "dev-card-before-roll"),
        ("ck-robber-barbarians", "standard-start"),
        ("ck-win-own-turn", "win-own-turn"),
    ]
    + [("ck-progress-at-once", k) for k in sorted(DEV_CARD_RULES)]
    + [("oil-win", k) for k in ("vp-cards-win-at-once", "vp-card-reaches-threshold", "win-own-turn")]
)

# --- docs/rules.md 7.6: Fishermen forms ---------------------------------------------------
FISH = {
    "seafarers": [
        "fish-fishing-ship",
        "fish-before-roll",
        "fish-route-ends",
        "fish-one-route",
        "fish-pirate",
        "fish-robber-harbor",
        "fish-route-shape",
        "fish-ship-relaunch",
        "fish-trade",
    ],
    "base": ["fish-matchstick-ship", "fish-before-roll", "fish-trade"],
    "cities-knights": [
        "fish-matchstick-ship",
        "fish-before-roll",
        "fish-trade",
        "fish-ck-harbor-city",
        "fish-ck-walls",
        "fish-ck-resources-only",
    ],
}
FISH_FORM = {"seafarers-sm2010": "seafarers", "cities-knights": "cities-knights"}

PRESETS = ("none", "swiss-2010", "australian-2006")
#: the house rules about when and how a game ends, printed together right after the win line
#: (issue 43, docs/rules.md 7.8), each preset's in its order
END_OF_GAME = {
    "time-rule-optional",
    "time-rule-until-threshold",
    "vp-cards-win-at-once",
    "vp-card-reaches-threshold",
    "no-new-card-to-win",
    "no-new-knight-to-win",
    "win-own-turn",
    "ranking-counts-threshold",
}


def expected(preset: str, scenario: str, final: bool) -> tuple[list[str], list[str]]:
    """(the printed keys in page order, the house keys left off) by docs/rules.md."""
    if preset == "swiss-2010":
        rounds_list = [k for k in SWISS_ROUNDS_LIST if not final or k in SWISS_F]
        house = SWISS_GENERAL + rounds_list + ([FIESEPETER] if final and scenario == "cities-knights" else [])
        disputes = SWISS_DISPUTES
    elif preset == "australian-2006":
        house = [k for k in AUS_HOUSE if not (final and k == "banker-cards")]
        disputes = AUS_DISPUTES
    else:
        house, disputes = [], []
    house = (
        [k for k in house if k == "house-rules-first"]
        + [k for k in house if k in END_OF_GAME]
        + [k for k in house if k not in END_OF_GAME and k != "house-rules-first"]
    )
    off = LEAVES_OFF.get(scenario, set())
    scen, longest = SCENARIO[scenario]
    return [k for k in house if k not in off] + scen + TRADE + longest + disputes, [k for k in house if k in off]


@pytest.mark.parametrize("scenario", sorted(SCENARIO))
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("final", [False, True], ids=["rounds-and-semi-finals", "final"])
def test_printed_keys_are_the_ones_rules_md_lists(preset, scenario, final):
    page = almanac.page_rules(almanac.AlmanacRequest(preset, final), scenario)
    keys, off = expected(preset, scenario, final)
    assert list(page.keys()) == keys
    assert list(page.replaced) == off


def test_two_combinations_written_out_in_full():
    """The Swiss final (Cities & Knights) and an Australian Oil Springs round,
    each key by hand."""
    swiss_final = almanac.page_rules(almanac.AlmanacRequest("swiss-2010", final=True), "cities-knights")
    # the precedence as the preamble; the end of a game first (the time rule: no game is stopped early), then the
    # preset's order (issue 43)
    assert swiss_final.preamble == almanac.load_preset("swiss-2010").rules[:1]
    assert swiss_final.house == tuple(
        almanac.load_preset("swiss-2010").rules[i] for i in (6, 1, 2, 3, 4, 8, 10, 13, 14, 16)
    )
    assert [r.key for r in swiss_final.house] == [
        "time-rule-optional",
        "players-build-board",
        "banker",
        "resource-shortage",
        "material-visible",
        "no-line-past-settlement",
        "city-same-turn",
        "trade-build-together",
        "harbor-same-turn",
        FIESEPETER,
    ]
    assert swiss_final.replaced == ("new-cards-apart",)
    aus_oil = almanac.page_rules(almanac.AlmanacRequest("australian-2006"), "oil-springs")
    assert [r.key for r in aus_oil.preamble] == ["house-rules-first"]
    assert [r.key for r in aus_oil.house] == [
        "time-rule-until-threshold",
        "no-new-knight-to-win",
        "ranking-counts-threshold",
        "players-build-director-setup",
        "material-visible",
        "banker-cards",
        "new-cards-apart-turn",
        "dev-card-before-roll",
        "dice-in-lid",
        "no-road-past-settlement-or-city",
        "older-road-past-settlement",
        "city-same-turn-under-five",
        "trade-build-together",
        "harbor-same-turn",
        "resource-shortage",
        "broken-road-no-count",
    ]
    assert aus_oil.replaced == ("vp-card-reaches-threshold", "win-own-turn")
    # the page's numbers: the win line is house rule 1; Oil Springs' end of a game are its rules 13 and 14
    numbers = aus_oil.numbers()
    assert (numbers["time-rule-until-threshold"], numbers["broken-road-no-count"]) == (2, 17)
    assert "house-rules-first" not in numbers  # the preamble has no number
    assert (numbers["oil-win"], numbers["oil-flooded-5"], numbers["rule_oil_win"]) == (13, 14, 13)
    assert (numbers["trade-4-1"], numbers["longest-set-aside"]) == (1, 4)


@pytest.mark.parametrize("scenario", sorted(SCENARIO))
def test_fishermen_forms(scenario):
    for preset, final in itertools.product(PRESETS, (False, True)):
        page = almanac.page_rules(almanac.AlmanacRequest(preset, final, variant="fishermen"), scenario)
        assert [r.key for r in page.variant] == FISH[FISH_FORM.get(scenario, "base")]
        plain = almanac.page_rules(almanac.AlmanacRequest(preset, final), scenario)
        assert page == plain.__class__(
            plain.house,
            plain.scenario,
            page.variant,
            plain.trade,
            plain.longest,
            plain.disputes,
            plain.replaced,
            plain.preamble,
        )


def test_the_tournament_stages_map_to_rounds_and_final():
    from setupgen.tournament import model

    t = model.load(ROOT / "examples" / "swiss-2010" / "tournament.toml")
    assert t.almanac(1).final is False and t.almanac(None, "final").final is True
    assert t.almanac(None, "semi-final").final is False  # semi-finals: the rounds' house rules


FIXED = {"oil-springs-fixed": "oil-fixed-test-board.toml", "oil-springs-5-6-fixed": "oil-5-6-fixed-test-board.json"}


def page_words(preset, scenario, final, variant, lang, vp=None) -> str:
    if scenario in FIXED:
        b, lay = fixed.board_from_file(ROOT / "tests" / "fixtures" / FIXED[scenario], scenario)
    else:
        b, lay = generate.from_seed(scenario, "alm"), layout.load(scenario)
    req = almanac.AlmanacRequest(preset, final, variant=variant)
    ctx = sheet.SheetContext("Cup", 1, 1, victory_points=vp)
    return " ".join(t.text for t in S.parse(A.render_almanac(b, lay, lang=lang, context=ctx, request=req))[1])


def printed(words: str, lang: str, vp: int, numbers: dict[str, int]) -> set[str]:
    """The rule keys whose whole text or short text (its two lines as
    one, filled with the page's threshold ``vp`` and the page's rule
    ``numbers``, which a text citing another rule needs) is on the page."""
    tx = texts(lang)
    out = set()
    for k in tx.data["almanac"]["rule"]:
        forms = [f"almanac.rule.{k}"] + ([f"almanac.rule_short.{k}"] if tx.has(f"almanac.rule_short.{k}") else [])
        for form in forms:  # a page that does not fit with the full texts prints the short ones
            try:
                text = tx.get(form, vp=vp, **numbers)
            except SetupgenError:  # it cites a rule this page does not print: not on this page
                continue
            if " ".join(text.split("\n")) in words:
                out.add(k)
    return out


@pytest.mark.parametrize("scenario", sorted(SCENARIO))
def test_no_pair_of_rules_md_7_8_is_printed_together(scenario):
    """Every preset × variant × stage × language of ``scenario``, rendered
    and read back: no pair of docs/rules.md 7.8 on one page, Fiesepeter only on
    swiss-2010 final tables, every threshold the round's."""
    vp = layout.load(scenario).victory_points
    for preset, variant, final, lang in itertools.product(
        PRESETS, (None, "fishermen"), (False, True), ("en", "de", "de-CH")
    ):
        words = page_words(preset, scenario, final, variant, lang)
        numbers = almanac.page_rules(almanac.AlmanacRequest(preset, final, variant=variant), scenario).numbers()
        keys = printed(words, lang, vp, numbers)
        where = (preset, scenario, variant, final, lang)
        for marker, never in PAIRS:
            assert not (marker in keys and never in keys), (where, marker, never)
        assert (FIESEPETER in keys) == (preset == "swiss-2010" and final and scenario == "cities-knights"), where
        want, _ = expected(preset, scenario, final)
        assert keys >= set(want), (where, set(want) - keys)
        assert (texts(lang).get("almanac.win", vp=vp)) in words
        assert not re.search(r"\b(tenth|zehnte)", words), where
        for n in re.findall(r"\b(1[0-9])\s?(?:VP|SP|victory points|Siegpunkte)", words):
            assert int(n) == vp, (where, n)
        disputes = texts(lang).get("almanac.disputes")
        assert (disputes in words) == (preset != "none"), where


def test_a_12_point_base_round_under_australian_rules_says_12_everywhere():
    words = page_words("australian-2006", "base-3-4", False, None, "en", vp=12)
    assert "To win: 12 victory points" in words
    assert "if it is the point that reaches 12" in words and "with 12 VP or more" in words
    assert "at most 12 VP count" in words and "before a player has reached 12 VP" in words
    numbers = almanac.page_rules(almanac.AlmanacRequest("australian-2006"), "base-3-4").numbers()
    assert "vp-card-reaches-threshold" in printed(words, "en", 12, numbers)


def test_the_footnote_names_what_the_scenario_replaced():
    words = page_words("swiss-2010", "cities-knights", False, None, "en")
    assert (
        "Replaced by the rules of Cities & Knights, so not printed here: new cards kept apart, development card "
        "before the roll, standard start, victory-point cards revealed to win, new cards not played to win, "
        "winning on your own turn."
    ) not in words  # page order, not the preset's order
    assert (
        "Replaced by the rules of Cities & Knights, so not printed here: victory-point cards revealed to win, "
        "new cards not played to win, winning on your own turn, new cards kept apart, development card before "
        "the roll, standard start."
    ) in words  # the end-of-game rules first, as the page orders them
    assert "Replaced by" not in page_words("swiss-2010", "base-3-4", False, None, "en")
    oil = page_words("australian-2006", "oil-springs", True, None, "de")
    assert "Durch die Regeln von" in oil and "Siegpunktkarten zum Sieg aufdecken, Sieg im eigenen Zug." in oil


def test_swiss_cities_knights_pages_carry_section_7_4_in_full():
    for final in (False, True):
        words = page_words("swiss-2010", "cities-knights", final, None, "en")
        for text in (
            "one Crane per city improvement, one Medicine per city",
            "a reduced city is laid on its side and counts as a settlement",
            "You win with 13 VP on your own turn.",
        ):
            assert text in words, (final, text)


def test_german_wording_and_the_oil_springs_terms():
    de = texts("de")
    assert "erst nach dem Versetzen" in de.get("almanac.rule.sea-move-loses-route")
    assert "im Uhrzeigersinn" in de.get("almanac.rule.oil-disaster-number")
    assert "Umweltstreiter" in de.get("almanac.rule.oil-champion")
    assert de.get("almanac.rule.oil-special-building").startswith("Außerordentliche Bauphase")
    assert "abgesondert" in de.get("almanac.rule.oil-champion") and "Absondern" in de.get("almanac.rule.oil-sequester")
    assert "Katastrophenfeld" in de.get("almanac.rule.oil-disaster-track")
    assert "Küstenüberflutung" in de.get("almanac.rule.oil-disaster-flood")
    assert "bei 4 nur noch 1 Öl" in de.get("almanac.rule.oil-disaster-track")
    for lang in ("en", "de"):
        flood = texts(lang).get("almanac.rule.oil-disaster-flood")
        assert "later" in flood or "später" in flood  # removed settlements may be built again (Catan: Die Ölquellen)
        track = texts(lang).get("almanac.rule.oil-disaster-track")
        assert "robber" in track or "Räuber" in track  # oil sequestered or returned is not "used"
    assert "right after" in texts("en").get("almanac.rule.oil-special-building")


# --- sources --------------------------------------------------------------------------


def test_every_rule_entry_names_a_published_source():
    docs = almanac.source_documents()
    assert docs == (
        "Schweizer Meisterschaft 2010",
        "Die Fischer von Catan 2",
        "Catan Australian Championships 2006",
        "Catan: Die Ölquellen",
        "Almanach: Längste Straße & Seehandel",
    )
    seen = almanac.all_rules()
    assert len(seen) == 122
    for where, rule in seen:
        assert rule.source != "setupgen" and rule.quote, (where, rule.key)
        assert any(rule.source.startswith(d) for d in docs), (where, rule.key, rule.source)
    by_doc = {d: {r.key for _, r in seen if r.source.startswith(d)} for d in docs}
    assert by_doc["Catan Australian Championships 2006"] >= set(AUS_HOUSE + AUS_DISPUTES)
    assert "broken-road-no-count" not in by_doc["Schweizer Meisterschaft 2010"]
    assert {r.source for w, r in seen if r.key == "broken-road-no-count"} == {
        "Catan Australian Championships 2006, additional rule 10"
    }


@pytest.fixture()
def folder(tmp_path):
    copy = tmp_path / "almanac"
    shutil.copytree(ROOT / "almanac", copy)
    return copy


@pytest.mark.parametrize(
    "source, message",
    [
        (None, "every entry names its source"),
        ("setupgen", "a game rule cannot have the source 'setupgen'"),
        ("Catan Australian Championship 2006, additional rule 10", "names no document of sources.toml"),
        ("", "every entry names its source"),
    ],
)
def test_a_rule_without_a_faithful_source_is_refused(folder, source, message):
    path = folder / "presets" / "australian-2006.toml"
    text = path.read_text(encoding="utf-8")
    old = 'source = "Catan Australian Championships 2006, additional rule 10"\n'
    assert old in text
    path.write_text(text.replace(old, "" if source is None else f'source = "{source}"\n'), encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.load_preset("australian-2006", folder)
    assert str(exc.value).startswith(f"{path}: rules[18] (key 'broken-road-no-count').source: ")
    assert message in str(exc.value)


def test_a_source_naming_setupgen_is_refused_in_every_data_file(folder):
    path = folder / "scenarios.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('source = "Schweizer Meisterschaft 2010, Seefahrer-Szenario, Regel 8"', 'source = "setupgen"'),
        encoding="utf-8",
    )
    with pytest.raises(SetupgenError, match=r"rules\[7\] \(key 'sea-pirate'\)\.source: a game rule cannot"):
        almanac.scenario_rules("seafarers-sm2010", folder)
    fish = folder / "variants" / "fishermen.toml"
    fish.write_text(
        fish.read_text(encoding="utf-8").replace(
            'source = "Die Fischer von Catan 2, Variante für Basisspiel ohne Seefahrererweiterung"', 'source = "x"', 1
        ),
        encoding="utf-8",
    )
    with pytest.raises(SetupgenError, match="'x' names no document"):
        almanac.variant("fishermen", folder)


def test_aliases_must_name_keys_the_preset_has(folder):
    path = folder / "presets" / "australian-2006.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"banker" = "banker-cards"', '"banker" = "banker-chips"'), encoding="utf-8")
    with pytest.raises(SetupgenError, match="aliases.banker: expected a key the preset no longer has"):
        almanac.load_preset("australian-2006", folder)


def test_replaces_names_house_rules_of_a_preset():
    house = {r.key for name in almanac.presets() for r in almanac.load_preset(name).rules}
    for scenario in almanac.scenarios():
        assert set(almanac.scenario_replaces(scenario)) <= house, scenario
    assert set(almanac.scenario_replaces("cities-knights")) == CK_LEAVES_OFF
    assert set(almanac.scenario_replaces("oil-springs-5-6-fixed")) == FIXED_LEAVES_OFF
    assert set(almanac.scenario_replaces("oil-springs-5-6")) == OIL_LEAVES_OFF


# --- docs ---------------------------------------------------------------------------------


def _table_script():
    spec = importlib.util.spec_from_file_location("almanac_rules_table", ROOT / "scripts" / "almanac_rules_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_rule_table_in_the_docs_covers_every_key_and_is_current():
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    script = _table_script()
    assert script.rewritten(doc) == doc, "docs/rules.md is stale: run python scripts/almanac_rules_table.py"
    section = doc.split(script.BEGIN, 1)[1].split(script.END, 1)[0]
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| ([^|]+) \|", section, re.M)
    assert {k for k, _ in rows} == almanac.data_keys()["rule"]
    assert len(rows) == len(almanac.all_rules())


def test_every_lang_option_names_every_language():
    langs = sorted(p.stem for p in (ROOT / "templates").glob("*.toml") if p.stem != "style")
    assert langs == ["de", "de-CH", "en"]
    runner = CliRunner()
    for command in ("board", "round"):
        out = " ".join(runner.invoke(app, [command, "--help"], terminal_width=200).output.split())
        match = re.search(r"--lang <str> (.*?) --paper", out)
        assert match, command
        for lang in langs:
            assert re.search(rf"(?<![\w-]){re.escape(lang)}(?![\w-])", match.group(1)), (command, lang)
