"""Scenarios added from published games (issue 50): each layout's facts
derived from its file and compared with a table written here from a
second source, boards checked by the independent checker, setup IDs
reproduced, the almanac's rules and the table's boxes."""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path

import check_oracle
import pytest

from setupgen import check, generate
from setupgen.core import almanac, hexgrid, layout
from setupgen.core.board import Board
from setupgen.core.rules import RED_NUMBERS

# The 5-6 player extension's contents (the base game's 5-6 extension rules: 30 terrain hexes, two deserts,
# 28 number tokens, 11 harbors), written here from the extension's material list, not from our layouts.
EXTENSION_5_6 = {
    "terrain": {"forest": 6, "pasture": 6, "fields": 6, "hills": 5, "mountains": 5, "desert": 2},
    "numbers": {2: 2, 3: 3, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 3, 12: 2},
    "harbors": {"3:1": 5, "lumber": 1, "wool": 2, "grain": 1, "brick": 1, "ore": 1},
    "sea": 22,
}


# Heading for New Shores as thisisrandy/catan-randomizer's src/data/expansions.ts draws it (the second
# source: the layouts take their rows from JSettlers2's SOCBoardAtServer), counted here by hand from its
# templates: the main group, the small-islands group (their variable sea cells read as sea), the harbors,
# and the sea ring of fixed sea hexes with the harbor and inner sea hexes (every hex that is not land).
NEW_SHORES = {
    3: {
        "main": {"fields": 3, "forest": 3, "hills": 2, "mountains": 2, "pasture": 4},
        "main_numbers": {2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 8: 2, 9: 1, 10: 2, 11: 2},
        "islands": {"fields": 1, "gold": 2, "hills": 2, "mountains": 2, "pasture": 1},
        "island_numbers": {3: 1, 4: 2, 5: 1, 8: 1, 9: 1, 10: 1, 12: 1},
        "harbors": {"3:1": 3, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
        "cells": 60,
        "rows": [5, 6, 7, 8, 8, 8, 7, 6, 5],
    },
    4: {
        "main": {"fields": 4, "forest": 4, "hills": 3, "mountains": 3, "pasture": 4, "desert": 1},
        "main_numbers": {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1},
        "islands": {"fields": 1, "forest": 1, "gold": 2, "hills": 2, "mountains": 2, "pasture": 1},
        "island_numbers": {2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 8: 1, 9: 1, 10: 1, 11: 1},
        "harbors": {"3:1": 4, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
        "cells": 69,
        "rows": [6, 7, 8, 9, 9, 9, 8, 7, 6],
    },
}
#: the small islands as both sources place them (JSettlers2's land areas 2-4), axial (q, r)
ISLANDS = {
    3: [{(2, 1), (3, 1)}, {(4, 2), (5, 2), (4, 3), (4, 4)}, {(3, 6), (2, 7)}],
    4: [{(2, 1), (3, 1)}, {(5, 1), (5, 2), (6, 2), (5, 3), (5, 4)}, {(4, 6), (3, 7)}],
}


def counts(L: layout.Layout) -> dict:
    """The layout's facts counted from its file: land terrain pools, number tokens, harbor pool, sea hexes."""
    terrain: Counter = Counter()
    numbers: Counter = Counter()
    for region in L.regions:
        terrain.update(region.terrain_pool)
        numbers.update(region.number_tokens)
    return {
        "terrain": dict(terrain),
        "numbers": dict(numbers),
        "harbors": dict(Counter(L.harbor_pool)),
        "sea": sum(1 for h in L.hexes if h.kind == "sea"),
    }


def test_cities_knights_5_6_is_the_5_6_board_with_13_points():
    L = layout.load("cities-knights-5-6")
    assert counts(L) == EXTENSION_5_6
    assert (L.code, L.players, L.victory_points, L.robber) == ("C6", "5-6", 13, "desert")
    assert L.hexes == layout.load("base-5-6").hexes
    assert "robber-desert-barbarians" in L.notes and "two-deserts" in L.notes


def test_cities_knights_5_6_almanac_and_boxes():
    assert almanac.scenario_rules("cities-knights-5-6") == almanac.scenario_rules("cities-knights")
    assert almanac.scenario_replaces("cities-knights-5-6") == almanac.scenario_replaces("cities-knights")
    boxes = [m.key for m in almanac.table_material("cities-knights-5-6", 6) if m.kind == "box"]
    assert boxes == ["base", "extension-5-6", "cities-knights", "cities-knights-5-6"]


def test_a_tournament_round_can_name_cities_knights_5_6(tmp_path):
    """A tournament of 12 at tables of 6 plays it; its pack holds 2 sheets with almanacs and 13 VP."""
    from typer.testing import CliRunner

    from setupgen.cli import app

    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"p{k},P {k}\n" for k in range(12)), encoding="utf-8")
    (tmp_path / "t.toml").write_text(
        'name = "Six"\nseed = "six"\nplayers = "players.csv"\ntable_size = 6\n\n'
        '[[rounds]]\nscenario = "cities-knights-5-6"\nvictory_points = 13\n',
        encoding="utf-8",
    )
    runner = CliRunner()
    assert runner.invoke(app, ["schedule", str(tmp_path / "t.toml"), "-o", str(tmp_path / "out")]).exit_code == 0
    made = runner.invoke(app, ["round", str(tmp_path / "t.toml"), "--round", "1", "-o", str(tmp_path / "out")])
    assert made.exit_code == 0, made.output
    manifest = json.loads((tmp_path / "out" / "round-1" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["tables"] == 2 and manifest["scenario"] == "cities-knights-5-6"


def region_of(L: layout.Layout, name: str):
    return next(r for r in L.regions if r.name == name)


@pytest.mark.parametrize("players", [3, 4])
def test_new_shores_facts_match_the_second_source(players):
    L = layout.load(f"seafarers-new-shores-{players}")
    want = NEW_SHORES[players]
    main, islands = region_of(L, "main"), region_of(L, "islands")
    assert dict(Counter(main.terrain_pool)) == want["main"]
    assert dict(Counter(main.number_tokens)) == want["main_numbers"]
    assert dict(Counter(islands.terrain_pool)) == want["islands"]
    assert dict(Counter(islands.number_tokens)) == want["island_numbers"]
    assert dict(Counter(L.harbor_pool)) == want["harbors"]
    assert len(L.hexes) == want["cells"]
    assert [n for _, n in sorted(Counter(h.hex[1] for h in L.hexes).items())] == want["rows"]
    land = {h.hex for h in L.hexes if h.region == "islands"}
    assert land == set().union(*ISLANDS[players])
    for one, other in ((a, b) for a in ISLANDS[players] for b in ISLANDS[players] if a is not b):
        assert not any(hexgrid.neighbor(h, d) in other for h in one for d in range(6))  # islands apart by sea
    assert (L.victory_points, L.edition, L.players) == (13, "CATAN Seafarers, edition 2015", str(players))
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-new-shores" and almanac.scenario_rules(L.name) == ()


def test_a_tournament_plays_new_shores_for_four_and_refuses_the_three_player_set_up(tmp_path):
    """Tables of 4 (3 at the short ones) play the 4-player set-up; the
    3-player map fits no table of a tournament, nor a final: refused, one line."""
    from setupgen.tournament import model

    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"p{k},P {k}\n" for k in range(8)), encoding="utf-8")

    def tour(scenario: str, final: str = "") -> Path:
        path = tmp_path / "t.toml"
        path.write_text(
            'name = "Sea"\nseed = "sea"\nplayers = "players.csv"\ntable_size = 4\n\n'
            f'[[rounds]]\nscenario = "{scenario}"\nvictory_points = 13\n' + final,
            encoding="utf-8",
        )
        return path

    assert model.load(tour("seafarers-new-shores-4")).rounds[0].scenario == "seafarers-new-shores-4"
    with pytest.raises(model.TournamentError, match="set-up for 3 players, but a tournament's tables seat 4"):
        model.load(tour("seafarers-new-shores-3"))
    final = '\n[final]\nplayers = 4\nscenario = "seafarers-new-shores-3"\nvictory_points = 13\n'
    with pytest.raises(model.TournamentError, match="final.scenario: seafarers-new-shores-3 is a set-up for 3 players"):
        model.load(tour("seafarers-new-shores-4", final))


def test_a_table_of_each_layout_seats_the_most_players_it_names():
    """The result slip and the almanac's material count a table of a
    3-player set-up as 3 (``Layout.most_players``), worked from ``players``."""
    from setupgen.render import almanac as page

    want = {"3-4": 4, "5-6": 6, "3": 3, "4": 4}
    for name in layout.scenario_names():
        L = layout.load(name)
        assert L.most_players == want[L.players] == page.table_players(L), name
    assert layout.load("seafarers-new-shores-3").most_players == 3


# The Four Islands as thisisrandy/catan-randomizer draws it (the second source; the layouts take their rows
# from JSettlers2), counted by hand from its templates: one pool over the four islands, the harbors with
# their fixed types by the land hex they serve (axial), the islands.
FOUR_ISLANDS = {
    3: {
        "terrain": {"fields": 4, "forest": 4, "hills": 4, "mountains": 4, "pasture": 4},
        "numbers": {2: 1, 3: 2, 4: 2, 5: 3, 6: 2, 8: 2, 9: 3, 10: 2, 11: 2, 12: 1},
        "harbors": {
            (5, 2): "3:1",
            (0, 3): "3:1",
            (2, 2): "ore",
            (-1, 5): ("lumber", "3:1"),
            (4, 3): "brick",
            (2, 6): "3:1",
            (4, 5): "grain",
            (0, 6): "wool",
        },
        "islands": [
            {(1, 2), (2, 2), (0, 3), (1, 3)},
            {(4, 1), (5, 1), (4, 2), (5, 2), (3, 3), (4, 3)},
            {(-1, 5), (0, 5), (1, 5), (-1, 6), (0, 6), (-1, 7)},
            {(3, 5), (4, 5), (2, 6), (3, 6)},
        ],
        "cells": 59,
    },
    4: {
        "terrain": {"fields": 5, "forest": 5, "hills": 4, "mountains": 4, "pasture": 5},
        "numbers": {2: 1, 3: 2, 4: 3, 5: 3, 6: 2, 8: 2, 9: 3, 10: 3, 11: 3, 12: 1},
        "harbors": {
            (1, 2): "grain",
            (2, 4): "3:1",
            (5, 2): "lumber",
            (0, 3): "3:1",
            (4, 5): ("ore", "3:1"),
            (0, 6): "3:1",
            (-1, 5): "brick",
            (-1, 7): "wool",
        },
        "islands": [
            {(2, 1), (1, 2), (0, 3), (1, 3)},
            {(4, 1), (5, 1), (3, 2), (4, 2), (5, 2), (3, 3), (4, 3), (2, 4)},
            {(-1, 5), (0, 5), (-1, 6), (0, 6), (1, 6), (-1, 7), (0, 7)},
            {(3, 5), (4, 5), (3, 6), (2, 7)},
        ],
        "cells": 59,
    },
}


@pytest.mark.parametrize("players", [3, 4])
def test_four_islands_facts_match_the_second_source(players):
    L = layout.load(f"seafarers-four-islands-{players}")
    want = FOUR_ISLANDS[players]
    (region,) = L.regions
    assert dict(Counter(region.terrain_pool)) == want["terrain"]
    assert dict(Counter(region.number_tokens)) == want["numbers"]
    assert len(L.hexes) == want["cells"] and L.default_harbors == "fixed"
    served: dict = {}
    for place in L.harbor_places:
        served.setdefault(hexgrid.neighbor(place.hex, place.facing), []).append(place.type)
    assert {h: tuple(sorted(t)) if len(t) > 1 else t[0] for h, t in served.items()} == {
        h: tuple(sorted(t)) if isinstance(t, tuple) else t for h, t in want["harbors"].items()
    }
    land = {h.hex for h in L.hexes if h.kind == "land"}
    assert land == set().union(*want["islands"])
    for one in want["islands"]:
        others = land - one
        assert not any(hexgrid.neighbor(h, d) in others for h in one for d in range(6))  # apart by sea
    assert (L.victory_points, L.edition, L.robber in land, L.pirate not in land) == (
        12,
        "CATAN Seafarers, edition 2015",
        True,
        True,
    )
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-four-islands"


@pytest.mark.parametrize(
    "scenario",
    [
        "seafarers-new-shores-3",
        "seafarers-four-islands-4",
        "cities-knights-5-6",
        "seafarers-through-the-desert-3",
        "seafarers-fog-islands-4",
        "seafarers-new-world",
        "seafarers-cloth-for-catan",
        "seafarers-forgotten-tribe",
        "seafarers-wonders",
        "seafarers-pirate-islands",
    ],
)
def test_survey_and_stats_work_on_the_new_scenarios(scenario, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from setupgen.cli import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    surveyed = runner.invoke(app, ["survey", "--scenario", scenario, "--count", "40", "--no-plot"])
    assert surveyed.exit_code == 0, surveyed.output
    assert "max_intersection_pips" in surveyed.output
    lines = tmp_path / "b.jsonl"
    made = runner.invoke(
        app, ["board", "--scenario", scenario, "--seed", "x", "--format", "jsonl", "--count", "20", "-o", str(lines)]
    )
    assert made.exit_code == 0 and len(lines.read_text(encoding="utf-8").splitlines()) == 20
    stats = runner.invoke(app, ["stats", str(lines)])
    assert stats.exit_code == 0 and stats.output.count(f"  {scenario}  seed x/") == 20, stats.output[:300]


# Through the Desert as JSettlers2's SOCBoardAtServer deals it (scenario SC_TTD; the second source here: the
# layouts take their rows from thisisrandy/catan-randomizer's templates), written by hand in axial (q, r)
# (JSettlers row R, column C: r = (R - 1) / 2, q = (C - r) / 2): JSettlers2's main pool (the main island and
# the strip beyond the desert, its land areas 1 and 2), the strip, the small-islands pool and its land
# areas, the three fixed deserts, each harbor's (sea hex, land hex served), robber and pirate.
THROUGH_DESERT = {
    3: {
        "main": {"hills": 3, "mountains": 2, "pasture": 3, "fields": 3, "forest": 5, "gold": 1},
        "main_numbers": [2, 3, 3, 4, 4, 4, 5, 6, 6, 6, 8, 8, 9, 9, 10, 10, 11],
        "strip": {(2, 1), (1, 2), (0, 3)},
        "small": {"mountains": 2, "pasture": 1, "fields": 1, "gold": 1},
        "small_numbers": [5, 5, 8, 9, 11],
        "islands": [{(5, 1), (5, 2)}, {(4, 4)}, {(3, 6), (2, 7)}],
        "harbors": {
            ((4, 1), (3, 2)),
            ((3, 4), (2, 5)),
            ((2, 6), (2, 5)),
            ((1, 7), (0, 7)),
            ((-1, 8), (-1, 7)),
            ((-2, 7), (-1, 7)),
            ((-2, 6), (-1, 5)),
            ((0, 4), (0, 5)),
        },
        "harbor_pool": {"3:1": 3, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
        "pirate": (5, 4),
    },
    4: {
        "main": {"hills": 4, "mountains": 3, "pasture": 4, "fields": 3, "forest": 5, "gold": 1},
        "main_numbers": [3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 8, 9, 9, 10, 10, 10, 11, 11, 11, 12],
        "strip": {(2, 1), (1, 2), (0, 3)},
        "small": {"hills": 1, "mountains": 2, "pasture": 1, "fields": 2, "gold": 1},
        "small_numbers": [2, 3, 4, 5, 6, 9, 12],
        "islands": [{(6, 1), (6, 2), (6, 3)}, {(4, 5), (5, 5)}, {(2, 7), (3, 7)}],
        "harbors": {
            ((5, 1), (4, 1)),
            ((5, 2), (4, 3)),
            ((4, 4), (4, 3)),
            ((2, 6), (2, 5)),
            ((1, 7), (0, 7)),
            ((-1, 8), (0, 7)),
            ((-1, 7), (-1, 6)),
            ((-2, 6), (-1, 6)),
            ((0, 4), (1, 4)),
        },
        "harbor_pool": {"3:1": 4, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
        "pirate": (6, 4),
    },
}
#: the three deserts both sources fix, and the one JSettlers2 starts the robber on
DESERTS, ROBBER = {(3, 1), (2, 2), (1, 3)}, (1, 3)


@pytest.mark.parametrize("players", [3, 4])
def test_through_the_desert_facts_match_the_second_source(players):
    L = layout.load(f"seafarers-through-the-desert-{players}")
    want = THROUGH_DESERT[players]
    main, strip, islands = region_of(L, "main"), region_of(L, "strip"), region_of(L, "islands")
    assert dict(Counter(main.terrain_pool + strip.terrain_pool)) == want["main"]
    assert sorted(main.number_tokens + strip.number_tokens) == want["main_numbers"]
    assert set(L.region_hexes("strip")) == want["strip"]
    assert dict(Counter(islands.terrain_pool)) == want["small"]
    assert sorted(islands.number_tokens) == want["small_numbers"]
    assert set(L.region_hexes("islands")) == set().union(*want["islands"])
    land = set(L.land())
    for one in want["islands"]:
        assert not any(hexgrid.neighbor(h, d) in land - one for h in one for d in range(6))  # apart by sea
    assert {s.hex for s in L.hexes if s.terrain == "desert"} == DESERTS and L.robber == ROBBER
    assert {(p.hex, hexgrid.neighbor(p.hex, p.facing)) for p in L.harbor_places} == want["harbors"]
    assert dict(Counter(L.harbor_pool)) == want["harbor_pool"] and L.pirate == want["pirate"]
    assert (L.victory_points, L.edition, L.players, L.red_barred) == (
        12,
        "CATAN Seafarers, edition 2015",
        str(players),
        ("gold",),
    )
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-through-the-desert"


def _arrangements(pool):
    """Every distinct order of a multiset (a tuple per order, sorted)."""
    return sorted(set(itertools.permutations(pool)))


def _chi_square(observed: Counter, expected: dict[tuple, float]) -> float:
    assert set(observed) <= set(expected)  # nothing drawn the exhaustive count calls impossible
    return sum((observed[k] - e) ** 2 / e for k, e in expected.items())


def _legal(hexes, terrain, numbers) -> bool:
    """The number rules over a few hexes, written here: no equal or red
    numbers side by side (axial neighbours), no 6 or 8 on gold."""
    at = dict(zip(hexes, numbers))
    for (q, r), n in at.items():
        for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            m = at.get((q + dq, r + dr))
            if m is not None and (m == n or (m in (6, 8) and n in (6, 8))):
                return False
    return not any(t == "gold" and n in (6, 8) for t, n in zip(terrain, numbers))


def _exhaustive(hexes, terrain_pool, number_pool) -> dict[tuple, float]:
    """The chance of each (terrain, numbers) over ``hexes``: each distinct
    terrain order equally likely, then each legal number order for it."""
    terrains = _arrangements(terrain_pool)
    out = {}
    for t in terrains:
        legal = [n for n in _arrangements(number_pool) if _legal(hexes, t, n)]
        for n in legal:
            out[(t, n)] = 1 / len(terrains) / len(legal)
    return out


def test_uniform_numbers_on_the_desert_strip_match_an_exhaustive_count():
    """The strip beyond the desert (3 hexes, touching only deserts and sea)
    holds fields, forest and gold with 3, 4 and 6: of the 36 orders the
    count here finds the 24 that keep the 6 off gold, each 1/24 likely.
    12,000 boards by the uniform method: chi-square, df = 23, critical
    value 49.73 at p = 0.001 (fixed seeds)."""
    L = layout.load("seafarers-through-the-desert-3")
    hexes = L.region_hexes("strip")
    assert not any(hexgrid.neighbor(h, d) in set(L.region_hexes("main")) for h in hexes for d in range(6))
    expected_p = _exhaustive(hexes, ("fields", "forest", "gold"), (3, 4, 6))
    assert len(expected_p) == 24 and set(expected_p.values()) == {1 / 24}
    n, seen = 12_000, Counter()
    for k in range(n):
        tiles = {t.hex: t for t in generate.from_seed(L, f"strip/{k}", numbers="uniform").tiles}
        seen[(tuple(tiles[h].terrain for h in hexes), tuple(tiles[h].number for h in hexes))] += 1
    assert _chi_square(seen, {k: p * n for k, p in expected_p.items()}) < 49.73


def test_the_islands_gold_gets_its_number_as_an_exhaustive_count_says():
    """The small islands (5 hexes, 60 terrain orders, 60 number orders) by
    the uniform method: where the gold lies and which number it bears, against
    the chances counted here over every order (the two 5s apart, no 8 on
    gold). 10,000 boards: chi-square over the 15 (hex, number) outcomes,
    df = 14, critical value 36.12 at p = 0.001."""
    L = layout.load("seafarers-through-the-desert-3")
    hexes = L.region_hexes("islands")
    region = region_of(L, "islands")
    full = _exhaustive(hexes, region.terrain_pool, region.number_tokens)
    expected_p: dict[tuple, float] = {}
    for (t, ns), p in full.items():
        where = t.index("gold")
        expected_p[(hexes[where], ns[where])] = expected_p.get((hexes[where], ns[where]), 0) + p
    assert len(expected_p) == 15 and abs(sum(expected_p.values()) - 1) < 1e-9
    n, seen = 10_000, Counter()
    for k in range(n):
        board = generate.from_seed(L, f"isles/{k}", numbers="uniform")
        gold = next(t for t in board.tiles if t.terrain == "gold" and t.hex in hexes)
        seen[(gold.hex, gold.number)] += 1
    assert _chi_square(seen, {k: p * n for k, p in expected_p.items()}) < 36.12


# The Fog Islands as thisisrandy/catan-randomizer's templates draw them (the second source: the layouts take
# their rows from JSettlers2's SOCBoardAtServer), written here by hand after turning the randomizer's map by
# 180 degrees ((q, r) -> (5 - q, 8 - r) in axial, where its map lies on JSettlers2's): the main islands' pool
# and numbers, the fog cells (the randomizer's fixed "fog"), every harbor as (sea hex, land hex served, type),
# and the cell count of its frame.
FOG_ISLANDS = {
    3: {
        "main": {"forest": 4, "pasture": 4, "fields": 2, "hills": 2, "mountains": 2},
        "main_numbers": [3, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 11, 11, 12],
        "fog": {(2, 1), (3, 1), (1, 2), (2, 2), (2, 3), (2, 4), (2, 5), (2, 6), (3, 6), (4, 6), (2, 7), (3, 7)},
        "harbors": {
            ((-1, 4), (0, 4), "3:1"),
            ((-2, 6), (-1, 5), "grain"),
            ((-2, 7), (-1, 7), "wool"),
            ((-1, 8), (0, 7), "3:1"),
            ((6, 3), (5, 4), "ore"),
            ((6, 2), (5, 3), "lumber"),
            ((6, 1), (5, 1), "3:1"),
            ((4, 1), (4, 2), "brick"),
        },
        "cells": 66,
    },
    4: {
        "main": {"forest": 4, "pasture": 4, "fields": 3, "hills": 3, "mountains": 3},
        "main_numbers": [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 12],
        "fog": {(2, 1), (3, 1), (2, 2), (3, 2), (2, 3), (3, 3), (2, 4), (3, 4), (3, 5), (3, 6), (4, 6), (3, 7)},
        "harbors": {
            ((-1, 4), (0, 3), "3:1"),
            ((-2, 6), (-1, 5), "brick"),
            ((-2, 7), (-1, 7), "3:1"),
            ((-1, 8), (-1, 7), "grain"),
            ((0, 8), (1, 7), "wool"),
            ((6, 4), (5, 4), "lumber"),
            ((7, 2), (6, 3), "ore"),
            ((7, 1), (6, 1), "3:1"),
            ((6, 0), (6, 1), "3:1"),
        },
        "cells": 68,
    },
}


@pytest.mark.parametrize("players", [3, 4])
def test_fog_islands_facts_match_the_second_source(players):
    L = layout.load(f"seafarers-fog-islands-{players}")
    want = FOG_ISLANDS[players]
    main, fog = region_of(L, "main"), region_of(L, "fog")
    assert dict(Counter(main.terrain_pool)) == want["main"] and sorted(main.number_tokens) == want["main_numbers"]
    assert set(L.region_hexes("fog")) == want["fog"] and fog.hidden and not main.hidden
    assert {(p.hex, hexgrid.neighbor(p.hex, p.facing), p.type) for p in L.harbor_places} == want["harbors"]
    assert len(L.hexes) == want["cells"] and L.default_harbors == "fixed"
    # JSettlers2 alone: what lies under the fog (2 sea, 10 land with 10 tokens), 12 VP, the pieces' start
    assert Counter(fog.terrain_pool)["sea"] == 2 and len(fog.number_tokens) == 10
    assert (L.victory_points, L.pirate, L.robber in set(L.region_hexes("main"))) == (12, (6, 4), True)
    assert L.start_barred == ("hidden",) and L.red_barred == ("gold",) and "free" not in L.harbor_methods
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-fog-islands"


@pytest.mark.parametrize("players", [3, 4])
def test_fog_hides_sea_without_a_token_and_every_land_hex_with_one(players):
    """Over 300 boards: each fog hex lies face down; exactly two hide sea
    and carry no token, the other ten carry the fog's tokens, no 6 or 8
    on gold; the main islands lie face up."""
    L = layout.load(f"seafarers-fog-islands-{players}")
    fog = set(L.region_hexes("fog"))
    for k in range(300):
        board = generate.from_seed(L, f"fog/{k}")
        under = [t for t in board.tiles if t.hex in fog]
        assert all(t.hidden and t.kind == "land" for t in under)
        assert sorted(t.hex for t in under if t.terrain == "sea") == sorted(t.hex for t in under if t.number is None)
        assert sum(t.terrain == "sea" for t in under) == 2
        assert not any(t.terrain == "gold" and t.number in RED_NUMBERS for t in board.tiles)
        assert not any(t.hidden for t in board.tiles if t.hex not in fog)


def test_the_table_sheet_shows_no_fog_number_and_the_key_shows_them_all():
    """A number on a fog hex would tell land from sea: the table sheet
    prints each fog hex as ``?`` without its token (the build list too),
    the legend says the numbers lie face down; the director's key lists
    every fog hex with its true terrain and number, sea included."""
    from setupgen.core import templates
    from setupgen.render import key, sheet

    board = generate.from_seed("seafarers-fog-islands-3", "fog")
    L = layout.load("seafarers-fog-islands-3")
    fog = [t for t in board.tiles if t.hidden]
    assert all(board.table_number(t) is None for t in fog)
    main = [t for t in board.tiles if t.kind == "land" and not t.hidden]
    assert all(board.table_number(t) == t.number is not None for t in main)
    words = [sheet.cell_text(t, templates.texts("en"), board) for t in fog]
    assert set(words) == {("?", "")}
    page = sheet.render_sheet(board, L)
    assert "number face down" in page and "number shown" not in page  # the legend line (wrapped)
    kpage = key.render_key(board, L)
    assert "Sea" in kpage and "face down on it" in kpage
    for t in fog:
        if t.number is not None:
            assert f">{t.number}<" in kpage


# The New World from two sources, written here by hand: the rulebook's component list (Mayfair Games'
# "Seafarers Rules", scenario "The New World": the 42 hexes, the 23 tokens, 9 harbors) and
# thisisrandy/catan-randomizer's template "Seafarers: New World" (src/data/expansions.ts): its rows of
# cells (fixed sea ring and shuffled cells per row), its shuffled hexes and tokens, its 10 harbors.
NEW_WORLD_RULEBOOK = {
    "terrain": {"sea": 19, "fields": 5, "hills": 4, "mountains": 4, "pasture": 5, "forest": 5},
    "numbers": {2: 1, 3: 3, 4: 3, 5: 3, 6: 2, 8: 2, 9: 3, 10: 3, 11: 2, 12: 1},
    "harbors": {"3:1": 4, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
}
NEW_WORLD_RANDOMIZER = {
    "rows": [6, 7, 8, 9, 8, 9, 8, 7, 6],  # cells per row, top to bottom
    "shuffled": [0, 5, 6, 7, 6, 7, 6, 5, 0],  # of them shuffled (the rest: the fixed sea ring)
    "terrain": {"sea": 19, "fields": 5, "hills": 4, "mountains": 4, "pasture": 5, "forest": 5},
    "numbers": {2: 1, 3: 3, 4: 3, 5: 3, 6: 2, 8: 2, 9: 3, 10: 3, 11: 2, 12: 1},
    "harbors": {"3:1": 5, "brick": 1, "ore": 1, "wool": 1, "grain": 1, "lumber": 1},
}


def test_new_world_facts_match_both_sources():
    """Terrain, tokens and frame as both sources give them; the harbors the
    rulebook's 9 (the randomizer has one 3:1 harbor more: docs/rules.md 4b)."""
    L = layout.load("seafarers-new-world")
    world = region_of(L, "world")
    assert [r.name for r in L.regions] == ["world"] and world.open_sea and not world.hidden
    for source in (NEW_WORLD_RULEBOOK, NEW_WORLD_RANDOMIZER):
        assert dict(Counter(world.terrain_pool)) == source["terrain"]
        assert dict(Counter(world.number_tokens)) == source["numbers"]
    rows = Counter(h[1] for h in (s.hex for s in L.hexes))
    inner = Counter(h[1] for h in L.region_hexes("world"))
    assert [rows[r] for r in range(9)] == NEW_WORLD_RANDOMIZER["rows"]
    assert [inner[r] for r in range(9)] == NEW_WORLD_RANDOMIZER["shuffled"]
    assert all(s.kind == "sea" for s in L.hexes if s.region is None)  # the ring: 26 sea hexes
    assert dict(Counter(L.harbor_pool)) == NEW_WORLD_RULEBOOK["harbors"]
    assert Counter(NEW_WORLD_RANDOMIZER["harbors"]) - Counter(L.harbor_pool) == Counter({"3:1": 1})
    assert (L.default_harbors, L.harbor_methods, L.harbor_places) == ("free", ("free", "players"), ())
    assert (L.code, L.players, L.victory_points, L.robber, L.pirate) == ("NW", "3-4", 12, None, None)
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-new-world"


def test_new_world_deals_land_and_sea_uniformly():
    """The 42 hexes are shuffled together: over 6,000 boards each hex is
    sea 19/42 of the time (chi-square over the 42 hexes below 74.75, df 41
    at p = 0.001; the fixed total per board only makes it smaller), and two
    neighbours are both sea as often as drawing two of 42 without
    replacement says (19/42 * 18/41 a pair: the mean count within 4
    standard errors)."""
    L = layout.load("seafarers-new-world")
    cells = L.region_hexes("world")
    pairs = [(a, b) for a in cells for b in L.adjacency[a] if a < b]
    n, sea, both = 6000, Counter(), []
    for k in range(n):
        board = generate.from_seed(L, f"world/{k}")
        dealt = {t.hex for t in board.tiles if t.hex in set(cells) and t.kind == "sea"}
        assert len(dealt) == 19 and all(t.terrain == "sea" and t.number is None for t in board.tiles if t.hex in dealt)
        sea.update(dealt)
        both.append(sum(a in dealt and b in dealt for a, b in pairs))
    expected = n * 19 / 42
    assert sum((sea[h] - expected) ** 2 / expected for h in cells) < 74.75
    mean = sum(both) / n
    sd = (sum((x - mean) ** 2 for x in both) / (n - 1)) ** 0.5
    assert abs(mean - len(pairs) * 19 * 18 / (42 * 41)) < 4 * sd / n**0.5


def test_new_world_harbors_lie_on_each_boards_own_coast():
    """Free harbors on the board's own coast edges: each on a hex dealt sea
    (or the ring) facing a hex dealt land, at most one a sea hex, no two at
    one intersection; over 500 boards they use hexes dealt sea inside the
    frame as well as the ring, and the players method lays none."""
    L = layout.load("seafarers-new-world")
    cells = set(L.region_hexes("world"))
    inside = 0
    for k in range(500):
        board = generate.from_seed(L, f"coast/{k}")
        kind = {t.hex: t.kind for t in board.tiles}
        assert len(board.harbors) == 9 and len({h.hex for h in board.harbors}) == 9
        for h in board.harbors:
            assert kind[h.hex] == "sea" and kind[hexgrid.neighbor(h.hex, h.facing)] == "land"
        corners = [c for h in board.harbors for c in hexgrid.edge_corners(h.hex, h.facing)]
        assert len(corners) == len(set(corners))
        inside += sum(h.hex in cells for h in board.harbors)
    assert 0 < inside < 500 * 9
    assert generate.from_seed(L, "coast/0", harbors="players").harbors == ()


# Cloth for Catan from the second and third source, written here by hand: thisisrandy/catan-randomizer's
# template "Seafarers: Cloth for Catan" (the layout takes its rows from it; here its main-island cells, its
# small islands' terrain, each harbor as (sea hex, land hex served) and its rows), JSettlers2's SC_CLVI
# 4-player arrays in its own coordinates (hexes 0xRRCC, village nodes 0xRRCC with their dice), and the
# rulebook's component list (Mayfair Games' Seafarers rules, "Cloth for Catan").
CLOTH_RANDOMIZER = {
    "main": {
        (2, 1),
        (3, 1),
        (4, 1),
        (5, 1),
        (6, 1),
        (1, 2),
        (2, 2),
        (5, 2),
        (6, 2),
        (0, 3),
        (5, 5),
        (-1, 6),
        (0, 6),
        (3, 6),
        (4, 6),
        (-1, 7),
        (0, 7),
        (1, 7),
        (2, 7),
        (3, 7),
    },
    "main_terrain": {"forest": 4, "pasture": 4, "hills": 3, "fields": 5, "mountains": 4},
    "small": {(1, 4): "desert", (3, 3): "gold", (2, 5): "gold", (4, 4): "desert"},
    "harbors": {
        ((3, 0), (2, 1)),
        ((5, 0), (5, 1)),
        ((0, 2), (1, 2)),
        ((7, 2), (6, 2)),
        ((6, 5), (5, 5)),
        ((-2, 6), (-1, 6)),
        ((4, 7), (4, 6)),
        ((-1, 8), (0, 7)),
        ((2, 8), (2, 7)),
    },
    "harbor_pool": {"3:1": 4, "grain": 1, "brick": 1, "ore": 1, "lumber": 1, "wool": 1},
    "rows": [6, 7, 8, 9, 8, 9, 8, 7, 6],
}
CLOTH_JSETTLERS = {
    "small": {0x0906: "gold", 0x0709: "desert", 0x0B09: "desert", 0x090C: "gold"},
    "villages": {0x0806: 10, 0x0A06: 9, 0x0609: 11, 0x0809: 8, 0x0A09: 6, 0x0C09: 3, 0x080C: 4, 0x0A0C: 5},
    "cloth": 5,  # each village's cloth at the start
    "robber": 0x0703,
    "pirate": 0x0910,
    "victory_points": 14,
}
CLOTH_RULEBOOK = {
    "terrain": {"sea": 18, "desert": 2, "gold": 2, "fields": 5, "hills": 3, "mountains": 4, "pasture": 4, "forest": 4},
    "numbers": {2: 2, 3: 3, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 3, 12: 2},
    "harbors": 9,
    "chits": 50,
}


def _jhex(coord: int) -> tuple[int, int]:
    """A JSettlers2 hex 0xRRCC in axial (q, r): r = (R - 1) / 2, q = (C - r) / 2."""
    row, col = coord >> 8, coord & 0xFF
    return ((col - (row - 1) // 2) // 2, (row - 1) // 2)


def _jnode(coord: int) -> frozenset:
    """The three hexes (axial) around a JSettlers2 node 0xRRCC (SOCBoardLarge's coordinate system: a hex
    (R, C) has nodes (R - 1, C - 1), (R - 1, C), (R - 1, C + 1) above and (R + 1, ...) below; hexes lie
    on odd rows, at columns of the parity of (R - 1) / 2)."""
    row, col = coord >> 8, coord & 0xFF
    below_top = col % 2 == (row // 2) % 2  # the node is the top corner of the hex below it
    rows = (row + 1, row - 1, row - 1) if below_top else (row - 1, row + 1, row + 1)
    cols = (col, col - 1, col + 1)
    return frozenset(_jhex((r << 8) | c) for r, c in zip(rows, cols))


def test_cloth_for_catan_facts_match_the_other_sources():
    L = layout.load("seafarers-cloth-for-catan")
    main = region_of(L, "main")
    assert set(L.region_hexes("main")) == CLOTH_RANDOMIZER["main"]
    assert dict(Counter(main.terrain_pool)) == CLOTH_RANDOMIZER["main_terrain"]
    small = {s.hex: s.terrain for s in L.hexes if s.kind == "land" and s.region is None}
    assert small == {_jhex(c): t for c, t in CLOTH_JSETTLERS["small"].items()}
    assert set(small) == set(CLOTH_RANDOMIZER["small"])  # the same hexes, gold and desert swapped
    assert all(small[h] != t for h, t in CLOTH_RANDOMIZER["small"].items())
    assert all(L.spec(h).tokenless for h in small)
    assert {(p.hex, hexgrid.neighbor(p.hex, p.facing)) for p in L.harbor_places} == CLOTH_RANDOMIZER["harbors"]
    assert dict(Counter(L.harbor_pool)) == CLOTH_RANDOMIZER["harbor_pool"]
    rows = Counter(s.hex[1] for s in L.hexes)
    assert [rows[r] for r in range(9)] == CLOTH_RANDOMIZER["rows"]
    villages = {p.spot: p for p in L.pieces}
    assert set(villages) == {_jnode(c) for c in CLOTH_JSETTLERS["villages"]}
    assert {villages[_jnode(c)].number for c in CLOTH_JSETTLERS["villages"]} <= set(range(2, 13))
    assert all(villages[_jnode(c)].number == n for c, n in CLOTH_JSETTLERS["villages"].items())
    assert {p.count for p in L.pieces} == {CLOTH_JSETTLERS["cloth"]} and {p.kind for p in L.pieces} == {"village"}
    assert (L.robber, L.pirate, L.victory_points) == (
        _jhex(CLOTH_JSETTLERS["robber"]),
        _jhex(CLOTH_JSETTLERS["pirate"]),
        CLOTH_JSETTLERS["victory_points"],
    )
    # the rulebook's counts: every hex inside the frame, the tokens with the villages' numbers, harbors, chits
    inner = Counter(s.terrain for s in L.hexes if s.kind == "land" and s.region is None)
    inner.update(main.terrain_pool)
    inner["sea"] = sum(1 for s in L.hexes if s.kind == "sea") - 26  # less the frame's ring
    assert dict(inner) == CLOTH_RULEBOOK["terrain"]
    assert dict(Counter(main.number_tokens) + Counter(p.number for p in L.pieces)) == CLOTH_RULEBOOK["numbers"]
    assert len(L.harbor_places) == len(L.harbor_pool) == CLOTH_RULEBOOK["harbors"]
    assert sum(p.count for p in L.pieces) + 10 == CLOTH_RULEBOOK["chits"]
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-cloth-for-catan"


def test_cloth_villages_are_on_every_board_and_on_the_sheet():
    """Every board carries the layout's villages (JSON round trip too); the
    sheet draws 8 houses and one in the legend, the 6 and 8 houses black,
    and the build list names them on their island's entry."""
    from setupgen.core import templates
    from setupgen.core.board import Board
    from setupgen.render import sheet

    L = layout.load("seafarers-cloth-for-catan")
    board = generate.from_seed(L, "cloth")
    assert board.pieces == L.pieces and Board.from_json(board.to_json()) == board
    assert json.loads(board.to_json(indent=None))["pieces"][0] == {
        "kind": "village",
        "q": 1,
        "r": 4,
        "corner": 1,
        "facing": None,
        "number": 10,
        "count": 5,
        "player": None,
        "order": None,
    }
    svg = str(sheet.render_sheet(board, L))
    assert svg.count('class="mark village"') == 8  # the board's (the legend's is part of its entry)
    st = templates.style()
    black = re.findall(r'<g class="mark village">\s*<path [^>]*fill="([^"]+)"', svg)
    assert black.count(st.colour["red_disc"]) == 2  # the villages of 8 and 6
    marks = sheet.piece_marks(board, templates.texts("en"))
    assert marks[(1, 4)] == "villages: top 10, bottom 9" and len(marks) == 4


# The Forgotten Tribe from the second source, catan-randomizer's template "Seafarers: The Forgotten Tribe"
# (the layout takes its rows from it; here its main-island cells, the three with at most 3 pips, the small
# islands' fixed terrain, each harbor as (sea hex, land hex served), its rows), and JSettlers2's SC_FTRI
# 4-player arrays in its own coordinates (hexes, and gift edges 0xRRCC).
TRIBE_RANDOMIZER = {
    "main": {(q, 3) for q in range(6)} | {(q, 4) for q in range(6)} | {(q, 5) for q in range(-1, 5)},
    "main_terrain": {"fields": 4, "forest": 4, "mountains": 3, "hills": 3, "pasture": 4},
    "numbers": {2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1},
    "capped": {(5, 3): 3, (5, 4): 3, (4, 5): 3},
    "small": {
        (2, 1): "gold",
        (3, 1): "mountains",
        (5, 1): "desert",
        (6, 1): "mountains",
        (7, 1): "fields",
        (7, 3): "pasture",
        (6, 5): "forest",
        (-1, 7): "desert",
        (0, 7): "hills",
        (2, 7): "hills",
        (3, 7): "desert",
        (4, 7): "gold",
    },
    "harbors": {
        ((2, 0), (2, 1)),
        ((5, 0), (5, 1)),
        ((8, 2), (7, 3)),
        ((6, 6), (6, 5)),
        ((-2, 8), (-1, 7)),
        ((2, 8), (2, 7)),
    },
    "harbor_pool": {"lumber": 1, "grain": 1, "brick": 1, "ore": 1, "wool": 1, "3:1": 1},
    "rows": [7, 8, 9, 10, 9, 10, 9, 8, 7],
}
TRIBE_JSETTLERS = {
    "main": [
        0x0703,
        0x0705,
        0x0707,
        0x0709,
        0x070B,
        0x070D,
        0x0904,
        0x0906,
        0x0908,
        0x090A,
        0x090C,
        0x090E,
        0x0B03,
        0x0B05,
        0x0B07,
        0x0B09,
        0x0B0B,
        0x0B0D,
    ],
    "far_coastal": [0x070D, 0x090E, 0x0B0D],  # no 5, 6, 8 or 9
    "small": {
        0x0305: "gold",
        0x0307: "mountains",
        0x030B: "desert",
        0x030D: "mountains",
        0x030F: "fields",
        0x0711: "pasture",
        0x0B11: "forest",
        0x0F0F: "gold",
        0x0F0D: "desert",
        0x0F0B: "hills",
        0x0F07: "hills",
        0x0F05: "desert",
    },
    "vp_edges": [0x0205, 0x020B, 0x020F, 0x0712, 0x1005, 0x100A, 0x100F, 0x0B12],
    "card_edges": [0x0304, 0x0310, 0x0F04, 0x0F10],
    "pirate": 0x0309,
    "victory_points": 13,
}


def _jedge(coord: int) -> frozenset:
    """The two hexes (axial) beside a JSettlers2 edge 0xRRCC: on an odd row the side between hexes (R, C - 1)
    and (R, C + 1); on an even row the slope from node (R, C) to node (R, C + 1)."""
    row, col = coord >> 8, coord & 0xFF
    if row % 2:
        return frozenset({_jhex((row << 8) | (col - 1)), _jhex((row << 8) | (col + 1))})
    return _jnode(coord) & _jnode(coord + 1)


def test_forgotten_tribe_facts_match_the_second_source():
    L = layout.load("seafarers-forgotten-tribe")
    main = region_of(L, "main")
    assert set(L.region_hexes("main")) == TRIBE_RANDOMIZER["main"] == {_jhex(c) for c in TRIBE_JSETTLERS["main"]}
    assert dict(Counter(main.terrain_pool)) == TRIBE_RANDOMIZER["main_terrain"]
    assert dict(Counter(main.number_tokens)) == TRIBE_RANDOMIZER["numbers"]
    caps = {s.hex: s.max_pips for s in L.hexes if s.max_pips is not None}
    assert caps == TRIBE_RANDOMIZER["capped"] and set(caps) == {_jhex(c) for c in TRIBE_JSETTLERS["far_coastal"]}
    small = {s.hex: s.terrain for s in L.hexes if s.kind == "land" and s.region is None}
    assert small == TRIBE_RANDOMIZER["small"] == {_jhex(c): t for c, t in TRIBE_JSETTLERS["small"].items()}
    assert all(L.spec(h).tokenless for h in small)
    assert {(p.hex, hexgrid.neighbor(p.hex, p.facing)) for p in L.harbor_places} == TRIBE_RANDOMIZER["harbors"]
    assert dict(Counter(L.harbor_pool)) == TRIBE_RANDOMIZER["harbor_pool"]
    rows = Counter(s.hex[1] for s in L.hexes)
    assert [rows[r] for r in range(9)] == TRIBE_RANDOMIZER["rows"]
    gifts = {(p.kind, p.spot) for p in L.pieces}
    assert gifts == {("vp", _jedge(c)) for c in TRIBE_JSETTLERS["vp_edges"]} | {
        ("card", _jedge(c)) for c in TRIBE_JSETTLERS["card_edges"]
    }
    assert all(any(h in small for h in spot) for _, spot in gifts)  # every gift lies by a small island
    assert (L.pirate, L.victory_points, L.robber) == (
        _jhex(TRIBE_JSETTLERS["pirate"]),
        TRIBE_JSETTLERS["victory_points"],
        None,
    )
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-forgotten-tribe"


@pytest.mark.parametrize("numbers", ["swap", "uniform"])
def test_the_tribes_east_coast_gets_no_5_6_8_or_9(numbers):
    """Over 1,000 boards of each number method the three capped hexes carry
    only 2, 3, 4, 10, 11 or 12, and each of those turns up there."""
    L = layout.load("seafarers-forgotten-tribe")
    capped = [s.hex for s in L.hexes if s.max_pips is not None]
    seen: Counter = Counter()
    for k in range(1000):
        board = generate.from_seed(L, f"tribe/{k}", numbers=numbers)
        seen.update(board.tile(h).number for h in capped)
    assert set(seen) == {2, 3, 4, 10, 11, 12}


# The Wonders of Catan from the second source, JSettlers2's SC_WOND 4-player arrays in its own coordinates
# (the layout takes its rows from catan-randomizer's template, whose map is JSettlers2's turned by 180
# degrees: axial (q, r) -> (6 - q, 7 - r)), and from catan-randomizer: its rows and its ninth harbor.
WONDERS_JSETTLERS = {
    "main": [
        0x0108,
        0x010A,
        0x010E,
        0x0307,
        0x0309,
        0x030D,
        0x0508,
        0x050E,
        0x0510,
        0x0707,
        0x0709,
        0x070B,
        0x070D,
        0x070F,
        0x0906,
        0x0908,
        0x090A,
        0x090C,
        0x090E,
        0x0910,
        0x0B09,
        0x0D08,
    ],
    "main_terrain": {"hills": 4, "mountains": 5, "pasture": 5, "fields": 4, "forest": 4},
    "numbers": [2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12],
    "at_desert": [0x0707, 0x0906],  # no 6 or 8
    "deserts": [0x0705, 0x0904, 0x0B05],  # the robber starts on the last placed
    "small": {
        0x0502: ("gold", 6),
        0x0303: ("forest", 4),
        0x0104: ("fields", 5),
        0x0D0C: ("hills", 2),
        0x0D0E: ("gold", 8),
    },
    "ports": [
        (0x0009, 5),
        (0x0206, 5),
        (0x030E, 3),
        (0x0406, 1),
        (0x060C, 5),
        (0x0710, 3),
        (0x0A07, 1),
        (0x0A0A, 2),
        (0x0A0E, 2),
    ],  # (edge, facing: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE)
    "no_start": [0x0606, 0x0806, 0x0805, 0x0A05, 0x0A06, 0x020B, 0x020C, 0x000B, 0x020A, 0x020D, 0x040C],
    "victory_points": 10,
}
WONDERS_RANDOMIZER = {
    "rows": [7, 8, 9, 10, 9, 10, 9, 8, 7],
    # its harbors as (sea hex, land hex served), in the layout's orientation; the one JSettlers2 puts apart
    "harbors": {
        ((0, 2), (0, 3)),
        ((3, 2), (3, 3)),
        ((5, 2), (4, 3)),
        ((-1, 4), (0, 4)),
        ((1, 5), (1, 4)),
        ((4, 5), (3, 6)),
        ((-1, 6), (0, 6)),
        ((3, 7), (3, 6)),
        ((1, 8), (1, 7)),
    },
}


def _turn(h: tuple[int, int]) -> tuple[int, int]:
    """JSettlers2's Wonders map turned by 180 degrees onto the layout's."""
    return (6 - h[0], 7 - h[1])


def test_wonders_facts_match_the_second_source():
    L = layout.load("seafarers-wonders")
    main = region_of(L, "main")
    j = WONDERS_JSETTLERS
    assert set(L.region_hexes("main")) == {_turn(_jhex(c)) for c in j["main"]}
    assert dict(Counter(main.terrain_pool)) == j["main_terrain"] and sorted(main.number_tokens) == j["numbers"]
    assert {s.hex: s.max_pips for s in L.hexes if s.max_pips} == {_turn(_jhex(c)): 4 for c in j["at_desert"]}
    fixed = {s.hex: (s.terrain, s.number) for s in L.hexes if s.kind == "land" and s.region is None}
    assert fixed == {_turn(_jhex(c)): ("desert", None) for c in j["deserts"]} | {
        _turn(_jhex(c)): v for c, v in j["small"].items()
    }
    assert L.robber == _turn(_jhex(j["deserts"][-1])) and L.pirate is None
    ports = set()
    for edge, facing in j["ports"]:
        a, b = _jedge(edge)
        land = next(h for h in (a, b) if hexgrid.neighbor(h, (facing + 3) % 6) in (a, b))  # facing: sea -> land
        ports.add((_turn(a if land == b else b), _turn(land)))
    assert {(p.hex, hexgrid.neighbor(p.hex, p.facing)) for p in L.harbor_places} == ports
    assert len(ports ^ WONDERS_RANDOMIZER["harbors"]) == 2  # one harbor apart; the layout follows JSettlers2
    assert {p.spot for p in L.pieces} == {frozenset(map(_turn, _jnode(c))) for c in j["no_start"]}
    assert {p.kind for p in L.pieces} == {"no-start"} and L.victory_points == j["victory_points"]
    rows = Counter(s.hex[1] for s in L.hexes)
    assert [rows[r] for r in range(9)] == WONDERS_RANDOMIZER["rows"]
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-wonders"


# The Pirate Islands from the other sources: JSettlers2's SC_PIRI 4-player arrays in its own coordinates (its
# map lies one row higher than the layout's, which takes catan-randomizer's rows: (q, r) -> (q, r + 1)), the
# randomizer's eighth harbor (the one JSettlers2 faces elsewhere), and the rulebook's component list.
PIRATES_JSETTLERS = {
    "main": dict(
        zip(
            [
                0x010C,
                0x010E,
                0x030D,
                0x030F,
                0x050C,
                0x050E,
                0x0510,
                0x070B,
                0x070D,
                0x070F,
                0x090C,
                0x090E,
                0x0910,
                0x0B0D,
                0x0B0F,
                0x0D0C,
                0x0D0E,
            ],
            zip(
                [
                    "fields",
                    "hills",
                    "mountains",
                    "forest",
                    "forest",
                    "pasture",
                    "forest",
                    "fields",
                    "hills",
                    "pasture",
                    "pasture",
                    "forest",
                    "pasture",
                    "mountains",
                    "forest",
                    "fields",
                    "hills",
                ],
                [4, 5, 9, 10, 3, 8, 5, 6, 9, 12, 11, 8, 9, 5, 2, 10, 4],
            ),
        )
    ),
    "pirate_islands": dict(
        zip(
            [0x0106, 0x0104, 0x0502, 0x0D06, 0x0D04, 0x0902, 0x0705, 0x0303, 0x0B03, 0x0309, 0x0508, 0x0908, 0x0B09],
            zip(
                [
                    "mountains",
                    "gold",
                    "fields",
                    "mountains",
                    "gold",
                    "fields",
                    "mountains",
                    "hills",
                    "hills",
                    "desert",
                    "desert",
                    "desert",
                    "pasture",
                ],
                [6, 11, 4, 6, 3, 10, 8, None, None, None, None, None, None],
            ),
        )
    ),
    "ports": [(0x000B, 5), (0x000D, 5), (0x010F, 3), (0x0310, 3), (0x0710, 3), (0x0A10, 2), (0x0C0F, 2), (0x0E0C, 2)],
    "path": [
        0x0D0A,
        0x0D08,
        0x0B07,
        0x0906,
        0x0707,
        0x0506,
        0x0307,
        0x0108,
        0x010A,
        0x030B,
        0x050A,
        0x0709,
        0x090A,
        0x0B0B,
    ],
    # per player: settlement node, ship edge, fortress node, the node where it may settle on the pirate islands
    "players": [
        (0x0C0C, 0x0C0B, 0x0E04, 0x0E07),
        (0x020C, 0x020B, 0x0004, 0x0007),
        (0x080B, 0x080A, 0x0A03, 0x0805),
        (0x060B, 0x060A, 0x0403, 0x0605),
    ],
    "victory_points": 10,
}
PIRATES_RANDOMIZER_HARBOR = ((5, 7), (4, 7))  # (sea hex, land hex served) where JSettlers2 serves (5, 6)
PIRATES_RULEBOOK = {
    "terrain": {"sea": 19, "desert": 3, "gold": 2, "fields": 5, "hills": 5, "mountains": 5, "pasture": 5, "forest": 5},
    "numbers": {2: 1, 3: 2, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 2, 12: 1},
    "harbors": {"3:1": 3, "special": 5},
    "chits": 12,
}


def _down(h: tuple[int, int]) -> tuple[int, int]:
    """JSettlers2's Pirate Islands map moved one row down onto the layout's."""
    return (h[0], h[1] + 1)


def test_pirate_islands_facts_match_the_other_sources():
    L = layout.load("seafarers-pirate-islands")
    j = PIRATES_JSETTLERS
    land = {s.hex: (s.terrain, s.number) for s in L.hexes if s.kind == "land"}
    want = {_down(_jhex(c)): v for c, v in (j["main"] | j["pirate_islands"]).items()}
    assert land == want and not L.regions  # a fixed map: every hex and token as drawn
    assert all(L.spec(h).tokenless for h, (t, n) in want.items() if n is None and t != "desert")
    ports = set()
    for edge, facing in j["ports"]:
        a, b = _jedge(edge)
        land_hex = next(h for h in (a, b) if hexgrid.neighbor(h, (facing + 3) % 6) in (a, b))
        ports.add((_down(a if land_hex == b else b), _down(land_hex)))
    places = {(p.hex, hexgrid.neighbor(p.hex, p.facing)) for p in L.harbor_places}
    assert places == ports and PIRATES_RANDOMIZER_HARBOR not in places
    assert {h for h, _ in places} >= {PIRATES_RANDOMIZER_HARBOR[0]}  # the same sea hex, another land hex
    path = sorted((p.order, p.hex) for p in L.pieces if p.kind == "path")
    assert [h for _, h in path] == [_down(_jhex(c)) for c in j["path"]] and L.pirate == path[0][1]
    for n, (settlement, ship, fortress, spot) in enumerate(j["players"], start=1):
        mine = {p.kind: p.spot for p in L.pieces if p.player == n}
        assert mine == {
            "settlement": frozenset(map(_down, _jnode(settlement))),
            "ship": frozenset(map(_down, _jedge(ship))),
            "fortress": frozenset(map(_down, _jnode(fortress))),
            "lone-settlement": frozenset(map(_down, _jnode(spot))),
        }
    assert L.victory_points == j["victory_points"] and L.robber is None
    # the rulebook's counts
    inner = Counter(t for t, _ in land.values())
    inner["sea"] = sum(1 for s in L.hexes if s.kind == "sea") - 28  # less the frame's ring of 28
    assert dict(inner) == PIRATES_RULEBOOK["terrain"]
    assert dict(Counter(n for _, n in land.values() if n is not None)) == PIRATES_RULEBOOK["numbers"]
    pool = Counter(L.harbor_pool)
    assert (pool["3:1"], sum(pool.values()) - pool["3:1"]) == (3, 5)
    assert sum(p.count or 0 for p in L.pieces if p.kind == "fortress") == PIRATES_RULEBOOK["chits"]
    assert almanac.scenario_rulebook(L.name) == "seafarers-2015-pirate-islands"


#: every scenario issue 50 added
NEW = (
    "cities-knights-5-6",
    "seafarers-new-shores-3",
    "seafarers-new-shores-4",
    "seafarers-four-islands-3",
    "seafarers-four-islands-4",
    "seafarers-through-the-desert-3",
    "seafarers-through-the-desert-4",
    "seafarers-fog-islands-3",  # issue 51
    "seafarers-fog-islands-4",
    "seafarers-new-world",
    "seafarers-cloth-for-catan",  # issue 52
    "seafarers-forgotten-tribe",
    "seafarers-wonders",
    "seafarers-pirate-islands",
)


def test_a_tournament_plays_the_maps_of_issues_51_and_52(tmp_path):
    """A tournament names each of the five maps for a round; each round's
    pack is made (CLI), its boards are of the round's scenario, carry its
    pieces and check legal."""
    from typer.testing import CliRunner

    from setupgen.cli import app

    maps = [
        "seafarers-new-world",
        "seafarers-cloth-for-catan",
        "seafarers-forgotten-tribe",
        "seafarers-wonders",
        "seafarers-pirate-islands",
    ]
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"p{k},P {k}\n" for k in range(8)), encoding="utf-8")
    rounds = "".join(f'\n[[rounds]]\nscenario = "{m}"\n' for m in maps)
    (tmp_path / "t.toml").write_text(
        f'name = "Sea"\nseed = "sea"\nplayers = "players.csv"\ntable_size = 4\n{rounds}', encoding="utf-8"
    )
    for n, scenario in enumerate(maps, start=1):
        out = tmp_path / f"out{n}"
        res = CliRunner().invoke(app, ["round", str(tmp_path / "t.toml"), "--round", str(n), "-o", str(out)])
        assert res.exit_code == 0, res.output
        boards = sorted(out.rglob("table-*.json"))
        assert len(boards) == 2
        for path in boards:
            board = json.loads(path.read_text(encoding="utf-8"))
            assert board["scenario"] == scenario
            assert len(board.get("pieces", [])) == len(layout.load(scenario).pieces)
            assert check.check_file(path) == []


@pytest.mark.parametrize(
    "base,old,new,message",
    [
        # a piece must touch a hex that is land on every board: not only The New World's dealt hexes
        (
            "seafarers-new-world",
            'notes = ["new-world-islands"]',
            'notes = ["new-world-islands"]\npieces = [{ kind = "village", q = 3, r = 3, corner = 1, number = 6, count = 5 }]',
            "pieces[0]: the piece touches no hex that is land on every board",
        ),
        (
            "seafarers-new-world",
            "fields = 5, forest = 5, hills = 4, mountains = 4, pasture = 5, sea = 19",
            "sea = 42",
            "regions.world.numbers: 23 tokens for 0 hexes that take one",
        ),
        (
            "seafarers-new-world",
            "terrain = { fields = 5, forest = 5, hills = 4, mountains = 4, pasture = 5, sea = 19 }\n"
            "numbers = [2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 12]",
            "terrain = { sea = 42 }\nnumbers = []",
            "map: no hex is land on any board",
        ),
        (
            "seafarers-pirate-islands",
            '{ kind = "path", q = 2, r = 7, order = 1 }',
            '{ kind = "path", q = 4, r = 6, order = 1 }',
            "pieces[16]: expected a sea hex of the map",
        ),
        (
            "seafarers-pirate-islands",
            '{ kind = "path", q = 2, r = 7, order = 1 }',
            '{ kind = "path", q = 2, r = 7, order = 2 }',
            "pieces: the path's steps must be numbered 1, 2, 3",
        ),
        (
            "seafarers-pirate-islands",
            "corner = 4, player = 1, count = 3",
            "corner = 4, player = 1",
            "pieces[2]: a fortress needs count",
        ),
        (
            "seafarers-forgotten-tribe",
            '{ kind = "vp", q = 2, r = 1, facing = 1 }',
            '{ kind = "vp", q = 2, r = 1, facing = 1, number = 8 }',
            "pieces[0]: a vp takes no number",
        ),
        (
            "seafarers-forgotten-tribe",
            '"~" = { kind = "sea" }',
            '"~" = { kind = "sea", max_pips = 3 }',
            "max_pips caps the token of a land hex that takes one",
        ),
        (
            "seafarers-wonders",
            '"g" = { kind = "land", terrain = "gold" }',
            '"g" = { kind = "land", terrain = "gold", max_pips = 4 }',
            "its token has more pips than max_pips = 4",
        ),
    ],
)
def test_a_layouts_pieces_and_caps_are_refused_where_they_cannot_be(tmp_path, base, old, new, message):
    """Hand-made breaks of the shipped layouts, each refused when the
    layout loads, naming the key and the problem."""
    from setupgen.core.errors import LayoutError

    text = (layout.layouts_dir() / f"{base}.toml").read_text(encoding="utf-8")
    assert old in text
    text = text.replace(old, new, 1).replace(f'name = "{base}"', 'name = "broken"').replace('code = "', 'code = "Z', 1)
    text = text.replace('code = "Z', 'code = "Z7"  # was "', 1)
    (tmp_path / "broken.toml").write_text(text, encoding="utf-8")
    with pytest.raises(LayoutError, match=re.escape(message)):
        layout.Layout.from_file(tmp_path / "broken.toml")


def test_check_holds_a_player_sets_pieces_and_the_path_order():
    """The Pirate Islands, seed ``x``: the sets' colours swapped, or the
    path's steps reversed, are other boards than the layout's."""
    board = json.loads(generate.from_seed("seafarers-pirate-islands", "x").to_json())
    assert check.check(Board.from_dict(board)) == []
    swapped = json.loads(json.dumps(board))
    for p in swapped["pieces"]:
        if p["player"] in (1, 4):
            p["player"] = 5 - p["player"]
    found = [v.message for v in check.check(Board.from_dict(swapped))]
    assert "settlement at (4, 6) corner 3, set 4 is not in the layout" in found and len(found) == 16
    reversed_ = json.loads(json.dumps(board))
    for p in reversed_["pieces"]:
        if p["order"] is not None:
            p["order"] = 15 - p["order"]
    found = [v.message for v in check.check(Board.from_dict(reversed_))]
    assert "path at (2, 7), step 14 is not in the layout" in found and len(found) == 28
    twice = json.loads(json.dumps(board))
    twice["pieces"].append(twice["pieces"][0])
    assert [v.message for v in check.check(Board.from_dict(twice))] == [
        "settlement at (4, 6) corner 3, set 1 is on the board twice"
    ]


@pytest.mark.parametrize("scenario", NEW)
def test_new_boards_are_legal_and_reproduced_by_their_ids(scenario):
    """``check`` accepts them, no 6 or 8 sits beside another, and a board's
    setup ID (starting with the layout's code) gives the same board without
    the seed it was drawn from."""
    L = layout.load(scenario)
    for k in range(100):
        board = generate.from_seed(scenario, f"new/{k}")
        assert check.check(board, L) == []
        red = {t.hex for t in board.tiles if t.number in RED_NUMBERS}
        assert not any(hexgrid.neighbor(h, d) in red for h in red for d in range(6))
        again = generate.from_setup_id(board.setup_id)
        assert again.tiles == board.tiles and again.harbors == board.harbors and again.robber == board.robber
        assert str(board.setup_id).startswith(L.code)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", NEW)
def test_ten_thousand_boards_pass_the_independent_checker(scenario):
    """The independent checker (tests/check_oracle.py, which imports nothing
    of setupgen) finds no broken rule, no equal or red numbers side by side,
    on 10,000 boards of each new scenario (about 20 s in all)."""
    lay = check_oracle.layout_of(scenario)
    for k in range(10_000):
        board = json.loads(generate.from_seed(scenario, f"new/oracle/{k}").to_json())
        assert check_oracle.errors(board, lay) == set(), k
