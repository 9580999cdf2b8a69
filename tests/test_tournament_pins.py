"""Tournament outputs never change by accident: the schedules of both
examples (and of a club-heavy field), the standings of made-up results, and
the boards of a round pack, pinned by digest and made through the command
line (so moving code inside the package cannot hide a change)."""

import csv
import hashlib
import io
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {"swiss-2010": ROOT / "examples" / "swiss-2010", "australian": ROOT / "examples" / "australian"}

SCHEDULE_PINS = {
    "swiss-2010": "ceba3d1cd93db0ab4df48be1",
    "australian": "7c2f1a71190768d1aa322468",
    "clubs": "7e121fedbb0f636a34ac454c",
}
STANDINGS_PINS = {"swiss-2010": "efce21d22b69f7b40ddcd961", "australian": "c64517bbc5a13a6fc1a8b59d"}
ROUND_PINS = {"swiss-2010": "02873f7f9e8442ebc34ea498", "australian": "1e8288d2c7ab1a0c3e2fffa7"}


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def make_folder(tmp_path: Path, name: str) -> Path:
    """The example's files in a fresh folder; ``clubs``: 32 players in four
    clubs of eight, five rounds of base-3-4."""
    folder = tmp_path / name
    if name == "clubs":
        folder.mkdir()
        rows = ["id,name,group"] + [f"c{i:02d},Player {i},club{i % 4}" for i in range(32)]
        (folder / "players.csv").write_text("\n".join(rows) + "\n")
        rounds = '[[rounds]]\nscenario = "base-3-4"\n' * 5
        (folder / "tournament.toml").write_text(f'name = "Clubs"\nseed = "clubs"\nplayers = "players.csv"\n{rounds}')
    else:
        shutil.copytree(EXAMPLES[name], folder)
    return folder


def results_for(schedule_csv: str) -> str:
    """Made-up legal results from a schedule: at each table the player in
    seat ((round + table) mod size) + 1 wins with 10 VP, the others take
    2 + (seat index * 3 + table) mod 7."""
    tables: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for row in csv.DictReader(io.StringIO(schedule_csv)):
        tables.setdefault((int(row["round"]), int(row["table"])), []).append((int(row["seat"]), row["player"]))
    lines = ["round,table,player,vp,winner"]
    for (r, t), seats in sorted(tables.items()):
        win = (r + t) % len(seats)
        for k, (_, pid) in enumerate(sorted(seats)):
            vp = 10 if k == win else 2 + (k * 3 + t) % 7
            lines.append(f"{r},{t},{pid},{vp},{'yes' if k == win else 'no'}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(SCHEDULE_PINS))
def test_schedule_pinned(tmp_path, name):
    folder = make_folder(tmp_path, name)
    out = tmp_path / "out"
    res = CliRunner().invoke(app, ["schedule", str(folder / "tournament.toml"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert digest((out / "schedule.csv").read_bytes()) == SCHEDULE_PINS[name]


@pytest.mark.parametrize("name", sorted(STANDINGS_PINS))
def test_standings_and_round_pinned(tmp_path, name):
    folder = make_folder(tmp_path, name)
    toml = folder / "tournament.toml"
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(app, ["schedule", str(toml), "-o", str(out)]).exit_code == 0
    results = tmp_path / "results.csv"
    results.write_text(results_for((out / "schedule.csv").read_text()))
    res = runner.invoke(app, ["standings", str(toml), str(results), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert digest((out / "standings.csv").read_bytes()) == STANDINGS_PINS[name]
    res = runner.invoke(app, ["round", str(toml), "--round", "1", "-o", str(out)])
    assert res.exit_code == 0, res.output
    boards = b"".join(p.read_bytes() for p in sorted((out / "round-1").glob("table-*.json")))
    assert digest(boards) == ROUND_PINS[name]
