"""Rule sets as data (almanac/): presets, scenario rules, variants, their
texts in every language, and the loader's errors."""

import os
import shutil
from pathlib import Path

import pytest

from setupgen.core import almanac
from setupgen.core.almanac import Rule
from setupgen.core.errors import SetupgenError
from setupgen.core.layout import scenario_names
from setupgen.core.templates import texts

ROOT = Path(__file__).resolve().parent.parent


def keys(rules):
    return [r.key for r in rules]


def whens(rules):
    return {r.key: r.when for r in rules}


def test_swiss_preset_in_page_order():
    """docs/rules.md 7.1: the general rules (every game, final included), then
    the preliminary-round list with its (F) rules, Fiesepeter, disputes."""
    swiss = almanac.load_preset("swiss-2010")
    assert swiss.keys() == (
        "house-rules-first",
        "players-build-board",
        "banker",
        "resource-shortage",
        "material-visible",
        "new-cards-apart",
        "time-rule-optional",
        "dev-card-before-roll",
        "no-line-past-settlement",
        "standard-start",
        "city-same-turn",
        "vp-cards-win-at-once",
        "no-new-card-to-win",
        "trade-build-together",
        "harbor-same-turn",
        "win-own-turn",
        "ck-knights-commit-optional",
        "referees-head",
        "referee-call",
        "disqualify-deliberate",
    )
    when = whens(swiss.rules)
    assert {k for k, w in when.items() if w == "rounds"} == {
        "dev-card-before-roll",
        "standard-start",
        "vp-cards-win-at-once",
        "no-new-card-to-win",
        "win-own-turn",
    }
    assert {k for k, w in when.items() if w == "final"} == {"ck-knights-commit-optional"}
    assert {r.key for r in swiss.rules if r.section == "disputes"} == {
        "referees-head",
        "referee-call",
        "disqualify-deliberate",
    }
    assert [r.scenarios for r in swiss.rules if r.scenarios] == [("cities-knights", "cities-knights-5-6")]
    assert swiss.aliases == ()


def test_australian_list_is_its_own():
    """docs/rules.md 7.2: nothing of 7.1 carries over; no standard start, no
    banker showing cards, no ships, no "progress" cards."""
    aus = almanac.load_preset("australian-2006")
    assert aus.keys() == (
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
        "referees-at-least-two",
        "referee-call",
        "protest-before-signing",
        "refuse-to-sign",
        "disqualify-to-win",
    )
    when = whens(aus.rules)
    assert {k for k, w in when.items() if w != "both"} == {"banker-cards"} and when["banker-cards"] == "rounds"
    assert "banker-cards" not in keys(almanac.select(aus.rules, final=True))
    en = " ".join(texts("en").get(f"almanac.rule.{k}", vp=10) for k in aus.keys())
    for absent in ("Standard start", "show the cards", "ship", "progress", "tenth"):
        assert absent not in en, absent
    assert texts("en").get("almanac.rule.broken-road-no-count") == (
        "In the source's words (additional rule 10):\n\u201cA road broken by an opponents settlement/city does not count towards longest road.\u201d"
    )
    assert "(or city)" in texts("en").get("almanac.rule.no-road-past-settlement-or-city")
    assert "resource and development cards" in texts("en").get("almanac.rule.banker-cards")


def test_renamed_australian_keys_stay_accepted_in_drop():
    aus = almanac.load_preset("australian-2006")
    old = almanac.select(
        aus.rules, False, drop=["vp-card-tenth-point", "standard-start", "banker"], aliases=aus.aliases
    )
    assert "vp-card-reaches-threshold" not in keys(old) and "banker-cards" not in keys(old)
    assert len(old) == len(aus.rules) - 2
    almanac.check_request(almanac.AlmanacRequest("australian-2006", drop=("vp-card-tenth-point", "standard-start")))
    with pytest.raises(SetupgenError, match="unknown rule key 'vp-card-tenth-point'"):
        almanac.check_request(almanac.AlmanacRequest("swiss-2010", drop=("vp-card-tenth-point",)))


def test_none_preset_is_empty():
    assert almanac.load_preset("none").rules == ()
    assert almanac.presets() == ("australian-2006", "none", "swiss-2010")


def test_scenario_rules():
    assert len(almanac.scenario_rules("seafarers-sm2010")) == 11
    assert keys(almanac.scenario_rules("seafarers-sm2010"))[7:] == [
        "sea-pirate",
        "sea-pirate-frame",
        "sea-pirate-harbors",
        "sea-half-hexes",
    ]
    assert almanac.scenario_rules("base-3-4") == almanac.scenario_rules("base-5-6") == ()
    ck = whens(almanac.scenario_rules("cities-knights"))
    assert set(ck.values()) == {"both"} and "ck-knights-commit-optional" not in ck  # Fiesepeter: the preset's
    oil4, oil6 = keys(almanac.scenario_rules("oil-springs")), keys(almanac.scenario_rules("oil-springs-5-6"))
    assert "oil-limit-4" in oil4 and "oil-flooded-5" in oil4 and "oil-special-building" not in oil4
    assert "oil-limit-6" in oil6 and "oil-flooded-8" in oil6 and oil6[-1] == "oil-special-building"
    assert almanac.scenario_rules("oil-springs-fixed") == almanac.scenario_rules("oil-springs")
    assert almanac.scenario_rules("oil-springs-5-6-fixed") == almanac.scenario_rules("oil-springs-5-6")
    assert set(almanac.scenarios()) == set(scenario_names())


def test_longest_and_trade():
    assert keys(almanac.longest_rules("base-3-4"))[0] == "longest-road-five"
    assert keys(almanac.longest_rules("seafarers-sm2010"))[0] == "longest-trade-route-five"
    assert keys(almanac.longest_rules("oil-springs-fixed"))[0] == "longest-road-five"
    assert keys(almanac.trade_rules()) == ["trade-4-1", "trade-3-1", "trade-2-1"]


def test_fishermen_forms_and_material():
    fish = almanac.variant("fishermen")
    assert fish.form_for("seafarers-sm2010") == "seafarers"
    assert fish.form_for("cities-knights") == "cities-knights"
    assert fish.form_for("base-5-6") == fish.form_for("oil-springs") == "base"
    assert "fish-fishing-ship" in keys(fish.rules("seafarers-sm2010"))
    assert "fish-matchstick-ship" in keys(fish.rules("base-3-4"))
    assert "fish-ck-walls" in keys(fish.rules("cities-knights")) and "fish-ck-walls" not in keys(fish.rules("base-3-4"))
    count = lambda players, scenario: {m.key: m.count for m in fish.material(players, scenario)}  # noqa: E731
    assert count(4, "seafarers-sm2010") == {"fish-token": 30, "fishing-ship-marker": 4}
    assert count(4, "base-3-4") == {"fish-token": 30, "fishing-ship-marker": 4, "matchstick": 4}
    assert count(6, "base-5-6") == {"fish-token": 30, "fishing-ship-marker": 6, "matchstick": 6}
    assert count(3, "cities-knights") == {"fish-token": 30, "fishing-ship-marker": 3, "matchstick": 3}
    with pytest.raises(SetupgenError, match="no count for a table of 7 players"):
        fish.material(7, "base-5-6")


@pytest.mark.parametrize("lang", ["en", "de", "de-CH"])
def test_every_key_has_a_text(lang):
    words = texts(lang)
    for kind, found in almanac.data_keys().items():
        for key in found:
            assert words.has(f"almanac.{kind}.{key}"), (lang, kind, key)


def test_no_text_without_a_rule():
    used = almanac.data_keys()["rule"]
    for lang in ("en", "de"):
        assert set(texts(lang).data["almanac"]["rule"]) == used


#: the fields a rule text may have: the threshold and the page numbers of the rules it cites
#: (render.almanac.rule_numbers), here two-digit numbers, the widest a page prints
FIELDS = {"vp": 13, **{"rule_" + key.replace("-", "_"): 10 for key in almanac.data_keys()["rule"]}}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_texts_are_short(lang):
    for key, text in texts(lang).data["almanac"]["rule"].items():
        lines = text.format(**FIELDS).split("\n")
        assert len(lines) <= almanac.MAX_LINES, key
        assert all(0 < len(line) <= almanac.MAX_LINE_CHARS for line in lines), (key, lines)
        assert almanac.rule_text(Rule(key), lang, **FIELDS) == text.format(**FIELDS)


def test_german_spelling():
    de, ch = texts("de"), texts("de-CH")
    assert "ß" in de.get("almanac.rule.no-line-past-settlement")
    assert "ß" not in ch.get("almanac.rule.no-line-past-settlement")
    assert "Strasse" in ch.get("almanac.rule.no-line-past-settlement")


def test_select_rounds_and_final():
    swiss = almanac.load_preset("swiss-2010").rules
    final = almanac.select(swiss, final=True)
    assert all(r.when in ("both", "final") for r in final)
    assert "dev-card-before-roll" not in keys(final) and "city-same-turn" in keys(final)
    assert "ck-knights-commit-optional" in keys(final)
    assert "ck-knights-commit-optional" not in keys(almanac.select(swiss, final=True, scenario="base-3-4"))
    rounds = almanac.select(swiss, final=False, drop=["time-rule-optional"], add=["Phones off at the table."])
    assert keys(rounds)[:3] == ["house-rules-first", "players-build-board", "banker"]
    assert "time-rule-optional" not in keys(rounds) and "ck-knights-commit-optional" not in keys(rounds)
    assert rounds[-1] == Rule("own-1", "both", "house", "Phones off at the table.", source="tournament file")
    assert almanac.rule_text(rounds[-1], "de") == "Phones off at the table."
    assert len(rounds) == len(swiss) - 1  # one dropped, one added, Fiesepeter for the final alone
    ck = almanac.scenario_rules("cities-knights")
    assert keys(almanac.select(ck, final=True)) == keys(almanac.select(ck, final=False))


def test_unknown_names_are_clear_errors():
    with pytest.raises(SetupgenError) as exc:
        almanac.load_preset("swiss-2011")
    assert str(exc.value) == "unknown rule preset 'swiss-2011' (known: australian-2006, none, swiss-2010)"
    assert exc.value.field == "rules"
    with pytest.raises(SetupgenError) as exc:
        almanac.variant("pirates")
    assert str(exc.value) == "unknown variant 'pirates' (known: fishermen)"
    assert exc.value.field == "variant"
    rules = (Rule("a", "rounds"), Rule("b", "both"))
    with pytest.raises(SetupgenError) as exc:
        almanac.select(rules, final=False, drop=["banker"])
    assert str(exc.value) == "unknown rule key 'banker' in drop (known: a, b)"
    assert exc.value.field == "rules"
    with pytest.raises(SetupgenError, match="no almanac rules for scenario 'my-map'"):
        almanac.scenario_rules("my-map")
    with pytest.raises(SetupgenError, match="added rule 1: expected one line of text"):
        almanac.select(rules, final=False, add=["two\nlines"])
    with pytest.raises(SetupgenError, match="take lists"):
        almanac.select(rules, final=False, drop="a")


@pytest.fixture()
def folder(tmp_path):
    copy = tmp_path / "almanac"
    shutil.copytree(ROOT / "almanac", copy)
    return copy


def test_malformed_preset_names_file_and_entry(folder):
    path = folder / "presets" / "swiss-2010.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('key = "banker"\nwhen = "both"', 'key = "banker"\nwhen = "always"'),
        encoding="utf-8",
    )
    with pytest.raises(SetupgenError) as exc:
        almanac.load_preset("swiss-2010", folder)
    assert str(exc.value) == (
        f"{path}: rules[2] (key 'banker').when: expected one of rounds, final, both, not 'always'"
    )
    assert exc.value.field is None  # a broken data file is no request value's fault


PIRATE = 'key = "sea-pirate"\nwhen = "both"'


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            PIRATE,
            'key = "Sea Pirate"\nwhen = "both"',
            "scenario.seafarers-sm2010.rules[7].key: expected a kebab-case key",
        ),
        (
            PIRATE,
            'key = "sea-discover"\nwhen = "both"',
            "scenario.seafarers-sm2010.rules[7] (key 'sea-discover'): the key is listed twice",
        ),
        (PIRATE, PIRATE + '\ncolour = "red"', "scenario.seafarers-sm2010.rules[7].colour: unknown field"),
        ("\n[[trade.rules]]\n", "\n[[trade.rules]\n", "scenarios.toml: "),
    ],
)
def test_malformed_scenarios_file(folder, old, new, message):
    path = folder / "scenarios.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.scenario_rules("seafarers-sm2010", folder)
    assert str(exc.value).startswith(f"{folder}{os.sep}scenarios.toml: ")
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_malformed_variant(folder):
    path = folder / "variants" / "fishermen.toml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('forms = ["base", "cities-knights"]', 'forms = ["boats"]'),
        encoding="utf-8",
    )
    with pytest.raises(SetupgenError) as exc:
        almanac.variant("fishermen", folder)
    assert str(exc.value) == (
        f"{path}: material[2] (key 'matchstick').forms: expected a list of forms (seafarers, base, cities-knights)"
    )


def test_loader_follows_the_data_dir(folder, monkeypatch):
    (folder / "presets" / "club.toml").write_text(
        'name = "club"\nrules = [{ key = "dice-in-lid", when = "both", source = "tournament file" }]\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(almanac, "data_dir", lambda name: folder if name == "almanac" else None)
    assert almanac.load_preset("club").keys() == ("dice-in-lid",)
    assert "club" in almanac.presets()
