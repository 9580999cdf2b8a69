"""Scenarios added from published games (issue 50): each layout's facts
derived from its file and compared with a table written here from a
second source, boards checked by the independent checker, setup IDs
reproduced, the almanac's rules and the table's boxes."""

from __future__ import annotations

import json
from collections import Counter

import check_oracle
import pytest

from setupgen import check, generate
from setupgen.core import almanac, hexgrid, layout
from setupgen.core.rules import RED_NUMBERS

# The 5-6 player extension's contents (the base game's 5-6 extension rules: 30 terrain hexes, two deserts,
# 28 number tokens, 11 harbors), written here from the extension's material list, not from our layouts.
EXTENSION_5_6 = {
    "terrain": {"forest": 6, "pasture": 6, "fields": 6, "hills": 5, "mountains": 5, "desert": 2},
    "numbers": {2: 2, 3: 3, 4: 3, 5: 3, 6: 3, 8: 3, 9: 3, 10: 3, 11: 3, 12: 2},
    "harbors": {"3:1": 5, "lumber": 1, "wool": 2, "grain": 1, "brick": 1, "ore": 1},
    "sea": 22,
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


def test_cities_knights_5_6_boards_are_legal_and_reproduced_by_their_ids():
    L = layout.load("cities-knights-5-6")
    for k in range(200):
        board = generate.from_seed("cities-knights-5-6", f"c6/{k}")
        assert check.check(board, L) == []
        red = {t.hex for t in board.tiles if t.number in RED_NUMBERS}
        assert not any(hexgrid.neighbor(h, d) in red for h in red for d in range(6))
        again = generate.from_setup_id(board.setup_id)  # the same board, without the seed it was drawn from
        assert again.tiles == board.tiles and again.harbors == board.harbors and again.robber == board.robber
    assert str(board.setup_id).startswith("C6")


def test_cities_knights_5_6_almanac_and_boxes():
    assert almanac.scenario_rules("cities-knights-5-6") == almanac.scenario_rules("cities-knights")
    assert almanac.scenario_replaces("cities-knights-5-6") == almanac.scenario_replaces("cities-knights")
    boxes = [m.key for m in almanac.table_material("cities-knights-5-6", 6) if m.kind == "box"]
    assert boxes == ["base", "extension-5-6", "cities-knights", "cities-knights-5-6"]


@pytest.mark.slow
def test_ten_thousand_cities_knights_5_6_boards_pass_the_independent_checker():
    """The independent checker (tests/check_oracle.py, which imports nothing
    of setupgen) finds no broken rule, no equal or red numbers side by side,
    on 10,000 boards (about 20 s)."""
    lay = check_oracle.layout_of("cities-knights-5-6")
    for k in range(10_000):
        board = json.loads(generate.from_seed("cities-knights-5-6", f"c6/oracle/{k}").to_json())
        assert check_oracle.errors(board, lay) == set(), k


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
