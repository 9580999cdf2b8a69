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
    swiss = almanac.load_preset("swiss-2010")
    assert swiss.keys() == (
        "dev-card-before-roll", "no-line-past-settlement", "standard-start", "city-same-turn",
        "vp-cards-win-at-once", "no-new-card-to-win", "trade-build-together", "harbor-same-turn",
        "win-own-turn", "banker", "resource-shortage", "material-visible", "new-cards-apart",
        "referee-call", "time-rule-optional", "disqualify-deliberate")
    when = whens(swiss.rules)
    # the rules the event marks for the final too
    assert {k for k, w in when.items() if w == "both" and k not in ("referee-call", "time-rule-optional",
                                                                   "disqualify-deliberate")} == {
        "no-line-past-settlement", "city-same-turn", "trade-build-together", "harbor-same-turn"}
    assert when["dev-card-before-roll"] == when["banker"] == when["win-own-turn"] == "rounds"
    assert {r.key for r in swiss.rules if r.section == "disputes"} == {
        "referee-call", "time-rule-optional", "disqualify-deliberate"}


def test_australian_differences():
    swiss, aus = almanac.load_preset("swiss-2010"), almanac.load_preset("australian-2006")
    when = whens(aus.rules)
    assert when["banker"] == "rounds"
    assert all(w == "both" for k, w in when.items() if k != "banker")
    assert "banker" not in keys(almanac.select(aus.rules, final=True))
    assert "vp-cards-win-at-once" in swiss.keys() and "vp-cards-win-at-once" not in aus.keys()
    assert "vp-card-tenth-point" in aus.keys()
    assert "city-same-turn-under-five" in aus.keys() and "city-same-turn" not in aus.keys()
    assert "new-cards-apart-turn" in aus.keys() and "new-cards-apart" not in aus.keys()
    assert set(aus.keys()) - set(swiss.keys()) == {
        "dice-in-lid", "older-road-past-settlement", "city-same-turn-under-five", "vp-card-tenth-point",
        "ranking-counts-threshold", "new-cards-apart-turn", "broken-road-no-count", "protest-before-signing",
        "refuse-to-sign"}


def test_none_preset_is_empty():
    assert almanac.load_preset("none").rules == ()
    assert almanac.presets() == ("australian-2006", "none", "swiss-2010")


def test_scenario_rules():
    assert len(almanac.scenario_rules("seafarers-sm2010")) == 11
    assert keys(almanac.scenario_rules("seafarers-sm2010"))[7:] == [
        "sea-pirate", "sea-pirate-frame", "sea-pirate-harbors", "sea-half-hexes"]
    assert almanac.scenario_rules("base-3-4") == almanac.scenario_rules("base-5-6") == ()
    ck = whens(almanac.scenario_rules("cities-knights"))
    assert ck["ck-robber-barbarians"] == "both" and ck["ck-reduced-city"] == "final"
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
    assert count(6, "base-5-6") == {"fish-token": 40, "fishing-ship-marker": 6, "matchstick": 6}
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


@pytest.mark.parametrize("lang", ["en", "de"])
def test_texts_are_short(lang):
    for key, text in texts(lang).data["almanac"]["rule"].items():
        lines = text.format(vp=13).split("\n")
        assert len(lines) <= almanac.MAX_LINES, key
        assert all(0 < len(line) <= almanac.MAX_LINE_CHARS for line in lines), (key, lines)
        assert almanac.rule_text(Rule(key), lang, vp=13) == text.format(vp=13)


def test_german_spelling():
    de, ch = texts("de"), texts("de-CH")
    assert "ß" in de.get("almanac.rule.no-line-past-settlement")
    assert "ß" not in ch.get("almanac.rule.no-line-past-settlement")
    assert "Strasse" in ch.get("almanac.rule.no-line-past-settlement")


def test_select_rounds_and_final():
    swiss = almanac.load_preset("swiss-2010").rules
    final = almanac.select(swiss, final=True)
    assert all(r.when == "both" for r in final)
    assert "dev-card-before-roll" not in keys(final) and "city-same-turn" in keys(final)
    rounds = almanac.select(swiss, final=False, drop=["time-rule-optional"], add=["Phones off at the table."])
    assert keys(rounds)[:2] == ["dev-card-before-roll", "no-line-past-settlement"]
    assert "time-rule-optional" not in keys(rounds)
    assert rounds[-1] == Rule("own-1", "both", "house", "Phones off at the table.")
    assert almanac.rule_text(rounds[-1], "de") == "Phones off at the table."
    assert len(rounds) == len(swiss)  # one dropped, one added
    final_rules = almanac.select(almanac.scenario_rules("cities-knights"), final=True)
    assert "ck-win-own-turn" in keys(final_rules)
    assert "ck-win-own-turn" not in keys(almanac.select(almanac.scenario_rules("cities-knights"), final=False))


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
    path.write_text(path.read_text(encoding="utf-8").replace(
        '{ key = "banker", when = "rounds" }', '{ key = "banker", when = "always" }'), encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.load_preset("swiss-2010", folder)
    assert str(exc.value) == (f"{path}: rules[9] (key 'banker').when: expected one of rounds, final, both, "
                              f"not 'always'")
    assert exc.value.field is None  # a broken data file is no request value's fault


@pytest.mark.parametrize("old, new, message", [
    ('{ key = "sea-pirate", when = "both" }', '{ key = "Sea Pirate", when = "both" }',
     "scenario.seafarers-sm2010.rules[7].key: expected a kebab-case key"),
    ('{ key = "sea-pirate", when = "both" }', '{ key = "sea-discover", when = "both" }',
     "scenario.seafarers-sm2010.rules[7] (key 'sea-discover'): the key is listed twice"),
    ('{ key = "sea-pirate", when = "both" }', '{ key = "sea-pirate", when = "both", colour = "red" }',
     "scenario.seafarers-sm2010.rules[7].colour: unknown field"),
    ("\n[trade]\n", "\n[trade\n", "scenarios.toml: expected ']'"),
])
def test_malformed_scenarios_file(folder, old, new, message):
    path = folder / "scenarios.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.scenario_rules("seafarers-sm2010", folder)
    assert str(exc.value).startswith(f"{folder}{os.sep}scenarios.toml: ")
    assert message in str(exc.value) and "\n" not in str(exc.value)


def test_malformed_variant(folder):
    path = folder / "variants" / "fishermen.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('forms = ["base", "cities-knights"]', 'forms = ["boats"]'),
                    encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.variant("fishermen", folder)
    assert str(exc.value) == (f"{path}: material[2] (key 'matchstick').forms: expected a list of forms "
                              f"(seafarers, base, cities-knights)")


def test_loader_follows_the_data_dir(folder, monkeypatch):
    (folder / "presets" / "club.toml").write_text('name = "club"\nrules = [{ key = "dice-in-lid", when = "both" }]\n',
                                                  encoding="utf-8")
    monkeypatch.setattr(almanac, "data_dir", lambda name: folder if name == "almanac" else None)
    assert almanac.load_preset("club").keys() == ("dice-in-lid",)
    assert "club" in almanac.presets()
