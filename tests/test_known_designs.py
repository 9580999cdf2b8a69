"""Known designs shipped as data (issue 30): the social golfer 8-4-10 seats
32 players at tables of 4 for 10 rounds with nobody meeting twice. Every
count here is made from the written schedule.csv by the test itself."""

from __future__ import annotations

import csv
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.core.data import data_dir
from setupgen.core.errors import SetupgenError
from setupgen.tournament import known

GOLFER = data_dir("designs") / "golfer-8-4-10.toml"


def tournament(folder: Path, players: int, rounds: int, groups: int = 0) -> Path:
    """A tournament file of ``players`` (in clubs of ``groups``) over ``rounds`` base rounds."""
    rows = ["id,name,group"] + [f"p{i:02d},Player {i},{f'club{i // groups}' if groups else ''}" for i in range(players)]
    (folder / "players.csv").write_text("\n".join(rows) + "\n")
    text = ['name = "Golfers"', 'seed = "golf"', 'players = "players.csv"', "table_size = 4"]
    text += ['[[rounds]]\nscenario = "base-3-4"'] * rounds
    path = folder / "tournament.toml"
    path.write_text("\n".join(text) + "\n")
    return path


def seating(out: Path) -> dict[int, dict[int, list[tuple[int, str]]]]:
    """round -> table -> [(seat, player)] from schedule.csv."""
    got: dict[int, dict[int, list[tuple[int, str]]]] = {}
    with open(out / "schedule.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            got.setdefault(int(row["round"]), {}).setdefault(int(row["table"]), []).append(
                (int(row["seat"]), row["player"])
            )
    return got


def test_32_players_10_rounds_nobody_meets_twice(tmp_path):
    path = tournament(tmp_path, 32, 10)
    res = CliRunner().invoke(app, ["schedule", str(path), "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    rounds = seating(tmp_path / "out")
    assert sorted(rounds) == list(range(1, 11))
    met: Counter[tuple[str, str]] = Counter()
    seats: Counter[tuple[str, int]] = Counter()
    for _r, tables in rounds.items():
        assert len(tables) == 8 and all(len(t) == 4 for t in tables.values())
        assert sorted(p for t in tables.values() for _, p in t) == sorted(f"p{i:02d}" for i in range(32))
        for table in tables.values():
            met.update(combinations(sorted(p for _, p in table), 2))
            seats.update((p, s) for s, p in table)
    assert max(met.values()) == 1 and len(met) == 480  # 10 rounds x 8 tables x 6 pairs, none twice
    # start positions: 10 rounds over 4 seats is 2 or 3 times each seat, the best possible
    assert {seats[f"p{i:02d}", s] for i in range(32) for s in range(1, 5)} <= {2, 3}
    assert "repeated opponents: none (no pair of players meets twice) [bound 0: optimal]" in res.output


def test_32_in_clubs_of_2_never_meet_a_club_mate(tmp_path):
    path = tournament(tmp_path, 32, 10, groups=2)
    res = CliRunner().invoke(app, ["schedule", str(path), "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    club = {f"p{i:02d}": i // 2 for i in range(32)}
    met: Counter[tuple[str, str]] = Counter()
    for tables in seating(tmp_path / "out").values():
        for table in tables.values():
            names = sorted(p for _, p in table)
            met.update(combinations(names, 2))
            assert len({club[p] for p in names}) == 4  # no two of a club at a table
    assert max(met.values()) == 1


def test_the_shipped_design_checks_out_by_an_independent_count():
    import tomllib

    data = tomllib.loads(GOLFER.read_text())
    pairs: Counter[frozenset[str]] = Counter()
    for line in data["rounds"]:
        tables = line.split()
        assert len(tables) == 8 and sorted("".join(tables)) == sorted(data["players"])
        for t in tables:
            pairs.update(frozenset(p) for p in combinations(t, 2))
    assert len(data["rounds"]) == 10 and max(pairs.values()) == 1 and len(pairs) == 480
    design = known.read(GOLFER)
    assert len(design.rounds) == 10 and design.tables == 8 and design.table_size == 4
    twins = design.leave()  # each player misses exactly one other: A and a, ...
    assert len(twins) == 16 and all(data["players"][a].lower() == data["players"][b] for a, b in twins)


@pytest.mark.parametrize(
    "change,problem",
    [
        (lambda t: t.replace('"ABCD EFGH', '"ABCE DFGH'), "two players sit together in rounds 1 and 2"),
        (lambda t: t.replace('"ABCD EFGH', '"ABCD EEGH'), "round 1 does not seat each of the 32 players once"),
        (lambda t: t.replace('"ABCD EFGH', '"ABCD EFG!'), "round 1 names '!' who is not among the players"),
        (
            lambda t: t.replace("table_size = 4", "table_size = 5"),
            "players must name 40 different players, one character each",
        ),
        (
            lambda t: t.replace("tables = 8", "seats = 8"),
            "it has no tables (a design file gives name, tables, table_size, players and rounds)",
        ),
        (
            lambda t: t.replace("tables = 8", 'tables = "eight"'),
            "tables must be a whole number of at least 1, not 'eight'",
        ),
        (lambda t: t.replace("tables = 8", "tables = 8.5"), "tables must be a whole number of at least 1, not 8.5"),
        (lambda t: t.replace("tables = 8", "tables = true"), "tables must be a whole number of at least 1, not True"),
        (
            lambda t: t.replace("table_size = 4", "table_size = 0"),
            "table_size must be a whole number of at least 1, not 0",
        ),
        (lambda t: t.replace('players = "', "players = 7 #"), "players must be a text in quotes, not 7"),
        (
            lambda t: t[: t.index("rounds = [")] + "rounds = 5\n",
            "rounds must be a list of texts, one a round, its tables apart by spaces",
        ),
        (lambda t: t.replace('"ABCD EFGH IJKL MNOP abcd efgh ijkl mnop",', "3,"), "rounds must be a list of texts"),
    ],
)
def test_a_broken_design_file_is_refused(tmp_path, change, problem):
    """The whole line: the file named once, the problem in the project's
    words (no "invalid literal for int()"), 8.5 tables not truncated."""
    broken = tmp_path / "broken.toml"
    text = change(GOLFER.read_text())
    assert text != GOLFER.read_text()
    broken.write_text(text)
    with pytest.raises(SetupgenError) as caught:
        known.read(broken)
    message = str(caught.value)
    assert message.startswith(f"{broken}: {problem}") and message.endswith("; the design is not used")
    assert message.count(str(broken)) == 1 and "int()" not in message and "object" not in message


def test_problem_worked_by_hand():
    ok = [[(0, 1), (2, 3)], [(0, 2), (1, 3)], [(0, 3), (1, 2)]]  # 4 players at tables of 2, 3 rounds
    assert known.problem(ok, 4, 2) is None
    assert known.problem(ok + [[(0, 1), (2, 3)]], 4, 2) == "two players sit together in rounds 1 and 4"
    assert known.problem([[(0, 1), (1, 3)]], 4, 2) == "round 1 does not seat each of the 4 players once"
    assert known.problem([[(0, 1, 2), (3,)]], 4, 2) == "round 1 has a table of other than 2"
