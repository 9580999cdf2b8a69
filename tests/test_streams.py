"""Boards never change by accident: every shipped scenario, number method and
harbor mode is pinned by a digest of a whole stream of boards
(``tests/golden/streams.txt``, made by ``tests/golden/streams.py``), every
board of a stream regenerates from its setup ID, and the fixed boards made
from the test fixtures are pinned too. Made through the command line, so
moving code inside the package cannot hide a change."""

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen.cli import app

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("golden_streams", HERE / "golden" / "streams.py")
streams = importlib.util.module_from_spec(spec)
spec.loader.exec_module(streams)

PINS = [line.split() for line in (HERE / "golden" / "streams.txt").read_text().splitlines() if line.strip()]


def test_every_accepted_combination_is_pinned():
    assert sorted(tuple(p[:3]) for p in PINS) == sorted(streams.combos())
    assert (
        len(PINS) == 122
    )  # 49, then issue 50: cities-knights-5-6 (9), new-shores-3/-4 (6 each), four-islands-3/-4 (8 each),
    # through-the-desert-3/-4 (4 each: no free harbors); issue 51: fog-islands-3/-4 (4 each), new-world (4); issue 52: cloth-for-catan, forgotten-tribe, wonders, pirate-islands (4 each)


@pytest.mark.parametrize("scenario,numbers,harbors,count,digest", PINS, ids=["-".join(p[:3]) for p in PINS])
def test_stream_digest(scenario, numbers, harbors, count, digest):
    data = streams.jsonl(scenario, numbers, harbors, int(count))
    assert len(data.splitlines()) == int(count)
    assert hashlib.sha256(data).hexdigest()[:24] == digest


@pytest.mark.parametrize("scenario,numbers,harbors", sorted({tuple(p[:3]) for p in PINS if p[1] != "uniform"}))
def test_setup_ids_round_trip(scenario, numbers, harbors):
    runner = CliRunner()
    lines = streams.jsonl(scenario, numbers, harbors, 3).decode().splitlines()
    for line in lines:
        made = json.loads(line)
        res = runner.invoke(app, ["board", "--setup-id", made["setup_id"], "--format", "json", "-o", "-"])
        assert res.exit_code == 0, res.output
        again = json.loads(res.stdout)
        assert again["seed"] is None and made["seed"].startswith("pin/")
        made["seed"] = None
        assert again == made


FIXED = [
    ("oil-springs-fixed", "oil-fixed-test-board.toml", "26d67138934607f360e9e728"),
    ("oil-springs-5-6-fixed", "oil-5-6-fixed-test-board.json", "6906ee6b2dc13bd618be8642"),
]


@pytest.mark.parametrize("scenario,fixture,digest", FIXED, ids=[f[0] for f in FIXED])
def test_fixed_boards_pinned(scenario, fixture, digest):
    res = CliRunner().invoke(
        app,
        ["board", "--scenario", scenario, "--board", str(HERE / "fixtures" / fixture), "--format", "json", "-o", "-"],
    )
    assert res.exit_code == 0, res.output
    assert hashlib.sha256(res.stdout_bytes).hexdigest()[:24] == digest
