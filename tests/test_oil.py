"""Oil Springs (docs/rules.md section 5): levels, ties, desert numbers, the chip
trade when adjacency is forced, redo, and whole boards."""

import dataclasses
import json
import random
from collections import Counter

import pytest
from oracle import number_clashes

from setupgen import check, generate
from setupgen.core import layout
from setupgen.core import oil as oil_rules
from setupgen.generate import oil

BASE = layout.load("base-3-4")
OIL = layout.load("oil-springs")

# Hand-built base board, reading order (rows 3-4-5-4-3), desert in the middle.
ROWS_1 = [
    "FLD:11 MTN:8 PAS:5",
    "HIL:5 HIL:4 PAS:9 FOR:10",
    "PAS:3 FOR:8 DES FOR:3 FLD:9",
    "FLD:4 FOR:12 MTN:6 MTN:11",
    "PAS:6 FLD:2 HIL:10",
]
WORDS = {"FLD": "fields", "MTN": "mountains", "PAS": "pasture", "HIL": "hills", "FOR": "forest", "DES": "desert"}


def build(rows):
    cells = [c for row in rows for c in row.split()]
    land = list(BASE.land())
    assert len(cells) == len(land)
    terrain, numbers = {}, {}
    for h, cell in zip(land, cells):
        word, _, num = cell.partition(":")
        terrain[h] = WORDS[word]
        if num:
            numbers[h] = int(num)
    assert number_clashes(numbers) == []
    return land, terrain, numbers


def test_levels_worked_example():
    # pastures 6, 9, 4, 3 -> pips 5, 4, 3, 2: second-highest level is 4 (the 9)
    assert oil_rules.levels([6, 9, 4, 3]) == [5, 4, 3, 2]
    assert oil_rules.chosen_level([6, 9, 4, 3], "second-highest") == 4
    # forests 10, 8, 3, 12 -> pips 3, 5, 2, 1: second-lowest is 2 (the 3)
    assert oil_rules.chosen_level([10, 8, 3, 12], "second-lowest") == 2
    # distinct levels, not tokens: 6, 8, 5 -> levels 5, 4; second-highest is 4
    assert oil_rules.chosen_level([6, 8, 5], "second-highest") == 4
    # one level only: that level
    assert oil_rules.chosen_level([6, 8, 6], "second-highest") == 5
    assert oil_rules.chosen_level([6, 8, 6], "second-lowest") == 5


def test_tie_rule_prefers_the_pasture_away_from_other_oil_springs():
    """Pastures 5 (at (2,-2)) and 9 (at (1,-1)) share the second-highest
    level 4; the 9 touches the desert's oil spring, so the 5 is taken, every
    time."""
    land, terrain, numbers = build(ROWS_1)
    # forests turned to hills: only the desert and pasture steps run
    terrain2 = {h: ("hills" if t == "forest" else t) for h, t in terrain.items()}
    picks = Counter()
    for seed in range(40):
        res = oil.place(land, terrain2, numbers, OIL.oil, BASE.adjacency, random.Random(seed))
        picks[frozenset(res.oil_springs)] += 1
    assert list(picks) == [frozenset({(0, 0), (2, -2)})]


def test_desert_takes_the_numbered_tile_not_next_to_it():
    land, terrain, numbers = build(ROWS_1)
    # 9 lies next to the desert (at (1,-1)), 5 does not: always 5
    assert oil_rules.desert_assignments([(0, 0)], numbers, (5, 9), BASE.adjacency) == [(5,)]
    # neither next to it: both are best, chosen at random
    clear = {h: (4 if v == 9 else v) for h, v in numbers.items()}
    assert oil_rules.desert_assignments([(0, 0)], clear, (5, 9), BASE.adjacency) == [(5,), (9,)]
    # both next to it: both equally bad, at random
    both = dict(numbers)
    both[(1, 0)] = 5
    assert oil_rules.desert_assignments([(0, 0)], both, (5, 9), BASE.adjacency) == [(5,), (9,)]
    seen = Counter()
    for seed in range(200):
        res = oil.place(
            land,
            {h: ("hills" if t in ("forest", "pasture") else t) for h, t in terrain.items()},
            clear,
            OIL.oil,
            BASE.adjacency,
            random.Random(seed),
        )
        seen[res.numbers[(0, 0)]] += 1
    assert set(seen) == {5, 9} and min(seen.values()) > 60


def test_two_deserts_get_the_assignment_that_suits_both():
    adjacency = {(0, 0): ((1, 0),), (5, 5): ((6, 5),), (1, 0): ((0, 0),), (6, 5): ((5, 5),)}
    numbers = {(1, 0): 5, (6, 5): 9}
    assert oil_rules.desert_assignments([(0, 0), (5, 5)], numbers, (5, 9), adjacency) == [(9, 5)]


def test_forced_adjacency_trades_chips():
    """Board 2: forests 10 (3 pips), 8 (5), 3 (2), 12 (1): the second-lowest
    level is 2, held only by the 3 at (1,0), which touches the desert's oil
    spring. The forests off that level that touch no oil spring: only the 12
    at (0,2). 12 on (1,0) and 3 on (0,2) keep every rule: trade, and the
    oil spring goes on (0,2) with the 3."""
    rows = list(ROWS_1)
    rows[3] = "FLD:4 HIL:10 MTN:6 MTN:11"
    rows[4] = "PAS:6 FLD:2 FOR:12"
    land, terrain, numbers = build(rows)
    for seed in range(20):
        res = oil.place(land, terrain, numbers, OIL.oil, BASE.adjacency, random.Random(seed))
        assert res.swapped
        assert res.oil_springs == frozenset({(0, 0), (2, -2), (0, 2)})
        assert res.numbers[(0, 2)] == 3 and res.numbers[(1, 0)] == 12 and res.numbers[(0, 0)] == 5


def test_no_legal_trade_asks_for_a_number_redo():
    """Board 1: the forest candidate (1,0) touches the desert and every other
    forest touches an oil spring: no pair, redo the numbers."""
    land, terrain, numbers = build(ROWS_1)
    assert oil.place(land, terrain, numbers, OIL.oil, BASE.adjacency, random.Random(0)) == oil.REDO_NUMBERS


def test_adjacent_deserts_ask_for_a_terrain_redo():
    land, terrain, numbers = build(ROWS_1)
    terrain[(1, 0)] = "desert"
    del numbers[(1, 0)]
    assert oil.place(land, terrain, numbers, OIL.oil, BASE.adjacency, random.Random(0)) == oil.REDO_TERRAIN


@pytest.mark.parametrize("scenario", ["oil-springs", "oil-springs-5-6"])
def test_generated_boards_are_legal_and_explained(scenario):
    for i in range(300):
        b = generate.from_seed(scenario, f"o/{i}")
        found = check.check(b)
        assert [v for v in found if v.severity == "error"] == [], found
        springs = [t for t in b.tiles if t.oil_spring]
        deserts = [t for t in b.tiles if t.terrain == "desert"]
        assert all(t.oil_spring and t.number in (5, 9) for t in deserts)
        assert Counter(t.terrain for t in springs) == Counter(desert=len(deserts), pasture=1, forest=1)
        assert b.robber is None
        assert len([v for v in found if v.rule == "oil-levels"]) == 2


@pytest.mark.slow
@pytest.mark.parametrize("scenario", ["oil-springs", "oil-springs-5-6"])
def test_ten_thousand_oil_boards_pass_check(scenario):
    for i in range(10_000):
        b = generate.from_seed(scenario, f"bulk/{i}")
        errors = check.errors(b)
        assert errors == [], (i, errors)


def test_check_rejects_a_wrong_oil_spring():
    b = generate.from_seed("oil-springs", "wrong")
    tiles = list(b.tiles)
    spring = next(k for k, t in enumerate(tiles) if t.oil_spring and t.terrain == "pasture")
    other = next(
        k
        for k, t in enumerate(tiles)
        if t.terrain == "pasture"
        and not t.oil_spring
        and oil_rules.levels([t.number]) != oil_rules.levels([tiles[spring].number])
    )
    tiles[spring] = dataclasses.replace(tiles[spring], oil_spring=False)
    tiles[other] = dataclasses.replace(tiles[other], oil_spring=True)
    rules = {v.rule for v in check.errors(dataclasses.replace(b, tiles=tuple(tiles)))}
    assert "oil-spring" in rules
    # an oil spring on a base board is an error too
    base = generate.from_seed("base-3-4", "x")
    t0 = next(k for k, t in enumerate(base.tiles) if t.kind == "land")
    tiles = list(base.tiles)
    tiles[t0] = dataclasses.replace(tiles[t0], oil_spring=True)
    assert "oil-spring" in {v.rule for v in check.errors(dataclasses.replace(base, tiles=tuple(tiles)))}


# --- fixed setups -------------------------------------------------------------

from pathlib import Path  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from setupgen.cli import app  # noqa: E402
from setupgen.core.errors import SetupgenError  # noqa: E402
from setupgen.generate import fixed  # noqa: E402

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_fixed_3_4_puts_springs_on_desert_forest_9_and_north_east_pasture_10():
    board, lay = fixed.board_from_file(FIXTURES / "oil-fixed-test-board.toml", "oil-springs-fixed")
    springs = sorted((t.hex, t.terrain, t.number) for t in board.tiles if t.oil_spring)
    # pastures with 10 at (-1,-1) (x - y = -1.10) and (0,1) (x - y = -0.63): (0,1) lies farther north-east
    assert springs == [((-2, 1), "forest", 9), ((0, 1), "pasture", 10), ((0, 2), "desert", 5)]
    assert board.robber is None and board.scenario == "oil-springs-fixed"
    assert check.errors(board, lay) == []
    # the saved JSON checks on its own
    from setupgen.core.board import Board

    again = Board.from_json(board.to_json())
    assert check.errors(again, fixed.layout_for(again)) == []


def test_fixed_5_6_turns_the_10_into_forest_and_east_of_4_into_pasture():
    board, lay = fixed.board_from_file(FIXTURES / "oil-5-6-fixed-test-board.json", "oil-springs-5-6-fixed")
    springs = sorted((t.hex, t.terrain, t.number) for t in board.tiles if t.oil_spring)
    assert springs == [
        ((-1, 1), "desert", 9),
        ((1, -1), "desert", 5),
        ((2, -3), "forest", 10),
        ((2, -2), "pasture", 11),
    ]
    source = json.loads((FIXTURES / "oil-5-6-fixed-test-board.json").read_text())
    before = {(h["q"], h["r"]): h for h in source["hexes"]}
    assert before[(2, -3)]["number"] == 10 and before[(1, -2)]["number"] == 4  # (2,-2) is east of (1,-2)
    assert check.errors(board, lay) == []


def test_fixed_board_without_the_named_hexes_fails_clearly(tmp_path):
    # the forest with 9 and a hills hex trade terrain: the set stays complete, no forest bears 9
    text = (FIXTURES / "oil-fixed-test-board.toml").read_text().replace("F:9", "H:9").replace("H:12", "F:12")
    path = tmp_path / "oil-fixed-test-board.toml"
    path.write_text(text)
    with pytest.raises(SetupgenError, match="the board has no forest with 9 for the forest oil spring"):
        fixed.board_from_file(path, "oil-springs-fixed")
    path.write_text((FIXTURES / "oil-fixed-test-board.toml").read_text().replace("D:5", "D"))
    with pytest.raises(SetupgenError, match=r"needs its oil-spring number \(5 or 9\)"):
        fixed.board_from_file(path, "oil-springs-fixed")


def test_cli_board_from_file(tmp_path):
    runner = CliRunner()
    out = tmp_path / "fixed.json"
    res = runner.invoke(
        app,
        [
            "board",
            "--scenario",
            "oil-springs-fixed",
            "--board",
            str(FIXTURES / "oil-fixed-test-board.toml"),
            "-o",
            str(out),
        ],
    )
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["check", str(out)])
    assert res.exit_code == 0 and "legal" in res.stdout
    # a plain board file renders and is checked; an illegal one exits 1 but is written
    plain = tmp_path / "plain.json"
    data = json.loads(generate.from_seed("base-3-4", "plain").to_json())
    nums = [h for h in data["hexes"] if h["number"] is not None]
    nums[0]["number"], nums[1]["number"] = 6, 6
    plain.write_text(json.dumps(data))
    svg = tmp_path / "plain.svg"
    res = runner.invoke(app, ["board", "--board", str(plain), "-o", str(svg)])
    assert res.exit_code == 1 and svg.exists() and "illegal:" in res.stderr
    # wrong combinations: one line, exit 2
    for args, fragment in [
        (["--scenario", "base-3-4"], "makes its own boards"),
        (["--seed", "x"], "--board: a board file gives the whole board; it takes no seed"),
    ]:
        res = runner.invoke(app, ["board", "--board", str(plain), *args, "-o", str(tmp_path / "x.json")])
        assert res.exit_code == 2 and fragment in res.stderr


def test_scenario_that_needs_a_board_file_says_so():
    with pytest.raises(SetupgenError, match="takes its board from a board file") as err:
        generate.from_seed("oil-springs-fixed", "x")
    assert err.value.field == "scenario"
    res = CliRunner().invoke(app, ["board", "--scenario", "oil-springs-fixed", "--seed", "x"])
    assert res.exit_code == 2 and res.stderr.startswith("error: --scenario: scenario 'oil-springs-fixed' takes")


@pytest.mark.parametrize("scenario", ["oil-springs", "oil-springs-5-6"])
def test_round_pack_of_an_oil_scenario(tmp_path, scenario):
    from pypdf import PdfReader

    res = CliRunner().invoke(
        app, ["round", "--scenario", scenario, "--tables", "3", "--seed", "oil", "-o", str(tmp_path / "pack")]
    )
    assert res.exit_code == 0, res.output
    reader = PdfReader(str(tmp_path / "pack" / "round.pdf"))
    assert len(reader.pages) == 8  # director's page and its back, then sheet and almanac per table
    text = reader.pages[2].extract_text()
    assert "Oil spring" in text and ("at most 4 oil" in text or "at most 6 oil" in text)
    limit = 4 if scenario == "oil-springs" else 6  # docs/rules.md 7.5: oil limit 4, 5-6 players 6
    assert f"Oil limit {limit}" in reader.pages[3].extract_text().replace("\n", " ")
    board = json.loads((tmp_path / "pack" / "table-01.json").read_text())
    assert board["robber"] is None and sum(h["oil_spring"] for h in board["hexes"]) >= 3


def test_fixed_board_must_be_a_complete_set(tmp_path):
    base = (FIXTURES / "oil-fixed-test-board.toml").read_text()
    path = tmp_path / "oil-fixed-test-board.toml"
    cases = [
        (base.replace("P:2", "H:2"), "terrain differs from the set (hills 4 instead of 3, pasture 3 instead of 4)"),
        (
            base.replace('{ r = 3, q = -3, cells = "~ ~ ~ ~" }', '{ r = 3, q = -2, cells = "~ ~ ~" }'),
            "hex (-3, 3) is missing",
        ),
    ]
    for text, fragment in cases:
        path.write_text(text)
        with pytest.raises(SetupgenError) as info:
            fixed.board_from_file(path, "oil-springs-fixed")
        assert fragment in str(info.value)
    # a 3-4 board is not a 5-6 one
    with pytest.raises(SetupgenError, match="a base-5-6 board"):
        fixed.board_from_file(FIXTURES / "oil-fixed-test-board.toml", "oil-springs-5-6-fixed")
