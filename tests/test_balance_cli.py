"""Balance limits on the command line and in files (issue 12, points 3-5):
``board`` and ``round`` take limits and presets, a tournament file and a
layout file set them, an even round keeps every table's score in one
interval, and any one table still regenerates alone from its seed (with
the same limits) or from its setup ID (without them)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cli_helpers import error_line, run
from typer.testing import CliRunner

from setupgen import generate
from setupgen.core import balance
from setupgen.core.board import Board

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010"


@pytest.fixture()
def runner():
    return CliRunner()


def meets_fair(board: Board) -> bool:
    """The fair preset, checked from the metrics (largest group <= 2, best start <= 12)."""
    m = balance.measure(board)
    return m.largest_cluster <= 2 and m.intersection_max <= 12


def test_board_under_the_fair_preset_records_its_limits_and_regenerates(runner, tmp_path):
    res = run(runner, "board", "--seed", "fair-1", "--balance", "fair", "-o", tmp_path / "b.json")
    assert res.exit_code == 0, res.output
    data = json.loads((tmp_path / "b.json").read_text())
    assert data["balance"]["preset"] == "fair"
    assert data["balance"]["limits"] == {"max_terrain_cluster": 2, "max_intersection_pips": 12}
    board = Board.from_dict(data)
    assert meets_fair(board)
    # the setup id alone regenerates it, without the limits
    again = generate.from_setup_id(board.setup_id)
    assert again.tiles == board.tiles and again.harbors == board.harbors and again.balance is None
    # single limits take the preset's place
    res = run(
        runner,
        "board",
        "--seed",
        "fair-1",
        "--balance",
        "fair",
        "--max-intersection-pips",
        "11",
        "--format",
        "json",
        "-o",
        "-",
    )
    assert json.loads(res.stdout)["balance"]["limits"]["max_intersection_pips"] == 11


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--max-intersection-pips", "3"], "no base-3-4 board met the balance limits in 2000 attempts"),
        (
            ["--max-intersection-pips", "99"],
            "error: --max-intersection-pips: max intersection pips must be a whole number from 1 to 15, got 99",
        ),
        (["--resource-pips", "lumber=9-16"], "error: --resource-pips: expected resource=least..most"),
        (["--resource-pips", "wood=9..16"], "error: --resource-pips: resource pips: expected (resource, least, most)"),
        (["--min-score", "101"], "error: --min-score: min score must be a number from 0 to 100, got 101.0"),
        (["--balance", "unfair"], "error: --balance: unknown balance preset 'unfair' (known: fair, or a .toml file)"),
    ],
)
def test_bad_or_impossible_limits_are_one_line(runner, tmp_path, args, fragment):
    assert fragment in error_line(run(runner, "board", "--seed", "x", *args, "-o", tmp_path / "b.json"))
    assert list(tmp_path.iterdir()) == []


def test_limits_need_a_seed(runner, tmp_path):
    board = generate.from_seed("base-3-4", "x")
    line = error_line(
        run(runner, "board", "--setup-id", board.setup_id, "--balance", "fair", "-o", tmp_path / "b.json")
    )
    assert "already names one board" in line


def test_round_tables_meet_the_limits_and_regenerate_alone(runner, tmp_path):
    out = tmp_path / "r"
    res = run(runner, "round", "--tables", "5", "--seed", "lim", "--balance", "fair", "--no-almanac", "-o", out)
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["limits"] == {"max_terrain_cluster": 2, "max_intersection_pips": 12}
    for entry in manifest["boards"]:
        board = Board.from_json((out / entry["json"]).read_text())
        assert meets_fair(board)
        alone = run(
            runner, "board", "--seed", f"lim/t{entry['table']}", "--balance", "fair", "--format", "json", "-o", "-"
        )
        assert alone.stdout == (out / entry["json"]).read_text()


def test_even_round_keeps_every_score_in_the_interval(runner, tmp_path):
    out = tmp_path / "e"
    res = run(runner, "round", "--tables", "8", "--seed", "even", "--even-range", "55..62", "--no-almanac", "-o", out)
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["limits"] == {"min_score": 55.0, "max_score": 62.0}
    scores = [balance.measure(Board.from_json((out / e["json"]).read_text())).score for e in manifest["boards"]]
    assert all(55.0 <= s <= 62.0 for s in scores), scores
    assert "55..62" not in error_line(
        run(runner, "round", "--tables", "2", "--seed", "e", "--even-range", "62..55", "-o", tmp_path / "x")
    )


def test_tournament_and_layout_files_set_limits(runner, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    toml = (folder / "tournament.toml").read_text()
    (folder / "tournament.toml").write_text(toml.replace("[scoring]", '[balance]\npreset = "fair"\n\n[scoring]'))
    res = run(runner, "round", folder / "tournament.toml", "--round", "1", "--no-almanac", "-o", tmp_path / "out")
    assert res.exit_code == 0, res.output
    pack = tmp_path / "out" / "round-1"
    manifest = json.loads((pack / "manifest.json").read_text())
    assert all(meets_fair(Board.from_json((pack / e["json"]).read_text())) for e in manifest["boards"])
    res = run(
        runner,
        "board",
        "--tournament",
        folder / "tournament.toml",
        "--round",
        "1",
        "--table",
        "4",
        "--format",
        "json",
        "-o",
        "-",
    )
    assert res.exit_code == 0, res.output
    assert res.stdout == (pack / "table-04.json").read_text()  # the reprint keeps the round's limits
    # a layout of our own with [balance]
    layout = (ROOT / "layouts" / "base-3-4.toml").read_text()
    own = tmp_path / "mine.toml"
    own.write_text(
        layout.replace('name = "base-3-4"', 'name = "mine"').replace('code = "B4"', 'code = "Z9"')
        + '\n[balance]\npreset = "fair"\nmax_intersection_pips = 11\n'
    )
    res = run(runner, "board", "--layout", own, "--seed", "lay", "--format", "json", "-o", "-")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["balance"]["limits"] == {"max_terrain_cluster": 2, "max_intersection_pips": 11}


@pytest.mark.parametrize(
    "table, message",
    [
        ('[balance]\npreset = "unfair"\n', "balance.preset: unknown balance preset 'unfair'"),
        ("[balance]\nfoo = 1\n", "balance.foo: unknown limit"),
        ('[balance]\neven = "yes"\n', "balance.even: expected true, false or [low, high] scores from 0 to 100"),
        ("[balance]\neven = [60, 50]\n", "balance.even: expected true, false or [low, high]"),
        ("[balance]\nmax_intersection_pips = 0\n", "max intersection pips must be a whole number from 1 to 15, got 0"),
        ("[balance]\nresource_pips = { lumber = [9] }\n", "balance.resource_pips: expected { lumber = [least, most]"),
    ],
)
def test_tournament_balance_errors_name_the_key(tmp_path, table, message):
    from setupgen.tournament import model

    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    toml = (folder / "tournament.toml").read_text()
    (folder / "tournament.toml").write_text(toml.replace("[scoring]", table + "\n[scoring]"))
    with pytest.raises(model.TournamentError, match=re.escape(message)):
        model.load(folder / "tournament.toml")


def test_tournament_even_round_and_round_overrides(tmp_path):
    from setupgen.tournament import model

    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    toml = (folder / "tournament.toml").read_text()
    toml = toml.replace("[scoring]", '[balance]\npreset = "fair"\neven = true\nshow_on_sheet = true\n\n[scoring]')
    toml = toml.replace(
        'scenario = "seafarers-sm2010"\nvictory_points = 12',
        'scenario = "seafarers-sm2010"\nvictory_points = 12\nbalance = { even = [40, 70], max_intersection_pips = 11 }',
    )
    (folder / "tournament.toml").write_text(toml)
    t = model.load(folder / "tournament.toml")
    low, high = balance.survey_interval("base-3-4", "swap")
    assert t.limits(1) == balance.Limits(2, 12, (), low, high, "fair")
    assert t.limits(3) == balance.Limits(2, 11, (), 40.0, 70.0, "fair")
    assert t.balance_line(1) and t.balance_line(None)
