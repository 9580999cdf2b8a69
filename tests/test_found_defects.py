"""Crashes and defects found from outside (issue 22): each test failed
before its fix (exit 3 "internal error", a malformed page, a folder
changed by a refusal, a lost change)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from cli_helpers import error_line
from test_tournament import results_csv
from typer.testing import CliRunner

from setupgen import generate
from setupgen.cli import app
from setupgen.tournament import jobs as tj
from setupgen.tournament import model as tournament

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010" / "tournament.toml"
runner = CliRunner()


def test_finals_with_a_disqualified_player_seats_the_others(tmp_path):
    """A disqualified player has left the standings: the finals are seated
    without them (was a KeyError in jobs.finals_request: exit 3)."""
    t = tournament.load(SWISS)
    sched = tj.current_schedule(t, tmp_path)
    tj.write_schedule(t, sched, tmp_path / "out")  # finals rank by the saved schedule
    lines = results_csv(t, sched).splitlines()
    header, rows = lines[0] + ",status", lines[1:]
    out_rows = [r + ("," + ("disqualified" if i == 0 else "")) for i, r in enumerate(rows)]
    (tmp_path / "results.csv").write_text("\n".join([header, *out_rows]) + "\n")
    gone = rows[0].split(",")[2]
    res = runner.invoke(
        app, ["finals", str(SWISS), str(tmp_path / "results.csv"), "--players", "8", "-o", str(tmp_path / "out")]
    )
    assert res.exit_code == 0, res.output
    tables = [line for line in res.stdout.splitlines() if line.startswith("table ")]
    assert len(tables) == 2 and all(line.count(",") == 3 for line in tables)  # 1-4-5-8 / 2-3-6-7
    names = tj.display_names(t)
    assert names[gone] not in res.stdout


def test_check_of_an_oil_board_whose_desert_left_the_layout(tmp_path):
    """The desert moved to a hex off the layout: the hex errors, exit 1
    (was a KeyError in core/oil.py desert_assignments: exit 3)."""
    board = json.loads(generate.from_seed("oil-springs", "moved").to_json())
    desert = next(h for h in board["hexes"] if h["terrain"] == "desert")
    desert["q"], desert["r"] = 9, -9
    path = tmp_path / "moved.json"
    path.write_text(json.dumps(board))
    res = runner.invoke(app, ["check", str(path)])
    assert res.exit_code == 1, res.output
    assert "hex (9, -9) is not part of the layout" in res.output
    assert "internal error" not in res.output


def test_a_control_character_in_an_added_rule_is_refused(tmp_path):
    """Was accepted, and the almanac SVG was no longer well-formed XML."""
    text = SWISS.read_text(encoding="utf-8").replace(
        'preset = "swiss-2010"', 'preset = "swiss-2010"\nadd = ["Phones off\\u0007 please"]'
    )
    t_file = tmp_path / "tournament.toml"
    t_file.write_text(text, encoding="utf-8")
    (tmp_path / "players.csv").write_bytes((SWISS.parent / "players.csv").read_bytes())
    res = runner.invoke(app, ["schedule", str(t_file), "-o", str(tmp_path / "out")])
    assert res.exit_code == 2
    assert error_line(res) == f"error: {t_file}: rules: added rule 1: contains a control character (U+0007)"
    assert not (tmp_path / "out").exists()


def test_a_director_line_with_markup_characters_stays_well_formed_xml():
    from setupgen.core import layout
    from setupgen.core.almanac import AlmanacRequest
    from setupgen.render import almanac as A

    b = generate.from_seed("base-3-4", "xml")
    svg = A.render_almanac(b, layout.load("base-3-4"), request=AlmanacRequest(add=("Tea & <cake> \"at\" 'four'",)))
    root = ET.fromstring(svg)
    assert any("Tea & <cake>" in (e.text or "") for e in root.iter())


def test_an_empty_output_folder_is_refused_by_every_tournament_command(tmp_path, monkeypatch):
    """Was exit 0, writing into the current folder (board, quick round,
    stats and survey refused it already)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results.csv").write_text("round,table,player,vp,winner\n")
    for args in (
        ["schedule", str(SWISS)],
        ["standings", str(SWISS), "results.csv"],
        ["round", str(SWISS), "--round", "1"],
        ["finals", str(SWISS), "results.csv", "--players", "8"],
        ["placings", str(SWISS), "results.csv"],
        ["entry", str(SWISS), "--leave", "ch01", "--from-round", "2"],
    ):
        res = runner.invoke(app, [*args, "-o", ""])
        assert res.exit_code == 2, (args, res.output)
        assert error_line(res) == "error: -o: the output path must not be empty", args
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv"]


def test_concurrent_entries_lose_no_change(tmp_path):
    """Sixteen `setupgen entry --join` at once, pinned to one CPU: every
    change is in entries.csv (the file was read, changed and written with
    no lock, and some were lost)."""
    import os
    import shutil
    import subprocess
    import sys

    folder = tmp_path / "t"
    folder.mkdir()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    procs = [
        subprocess.Popen(
            [
                *pin,
                sys.executable,
                "-m",
                "setupgen",
                "entry",
                str(SWISS),
                "--join",
                f"late{i:02d}",
                "--name",
                f"Late {i}",
                "--from-round",
                "2",
                "-o",
                str(folder),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for i in range(16)
    ]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 16, [o[1].decode() for o in outs]
    rows = (folder / "entries.csv").read_text().splitlines()
    assert sorted(r.split(",")[2] for r in rows[1:]) == [f"late{i:02d}" for i in range(16)]


def test_sighup_ends_a_survey_with_one_line_and_no_traceback(tmp_path):
    """The terminal closed during a survey: one line, exit 129, the
    workers shut down quietly (they printed tracebacks)."""
    import os
    import signal
    import subprocess
    import sys

    from processes import wait_for_workers

    proc = subprocess.Popen(
        [sys.executable, "-m", "setupgen", "survey", "--count", "100000", "--no-plot"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SETUPGEN_WORKERS": "2"},
    )
    wait_for_workers(proc)  # the survey's workers run (issue 41: no fixed sleep)
    proc.send_signal(signal.SIGHUP)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 129, err
    assert err.strip() == "error: hung up; nothing was written"


def test_a_refused_console_start_leaves_the_folder_as_it_was(tmp_path):
    """A results.csv that does not read: the console refuses to start and
    makes no console.key nor tournament.db (it made both)."""
    from setupgen.console import day as consoleday
    from setupgen.core.errors import SetupgenError

    folder = tmp_path / "day"
    folder.mkdir()
    (folder / "results.csv").write_text("round,table,player,vp,winner\n1,1,nobody,10,yes\n")
    before = sorted(p.name for p in folder.iterdir())
    import pytest

    with pytest.raises(SetupgenError):
        consoleday.open_day(SWISS, folder)
    assert sorted(p.name for p in folder.iterdir()) == before == ["results.csv"]
    res = runner.invoke(app, ["serve", str(SWISS), "-o", str(folder)])
    assert res.exit_code == 2 and sorted(p.name for p in folder.iterdir()) == ["results.csv"]


def test_an_entries_file_saved_again_by_a_spreadsheet_takes_a_new_change(tmp_path):
    """A byte-order mark, CRLF line ends and an upper-case header: listed,
    and now also recorded to (was "setupgen did not write it")."""
    folder = tmp_path / "t"
    folder.mkdir()
    (folder / "entries.csv").write_bytes(b"\xef\xbb\xbfCHANGE,FROM_ROUND,ID,NAME,GROUP\r\nleft,2,ch01,,\r\n")
    res = runner.invoke(app, ["entry", str(SWISS), "-o", str(folder)])
    assert res.exit_code == 0 and "ch01" in res.stdout
    res = runner.invoke(app, ["entry", str(SWISS), "--leave", "ch02", "--from-round", "3", "-o", str(folder)])
    assert res.exit_code == 0, res.output
    assert (folder / "entries.csv").read_text() == "change,from_round,id,name,group\nleft,2,ch01,,\nleft,3,ch02,,\n"


def played_folder(tmp_path, rounds):
    t = tournament.load(SWISS)
    folder = tmp_path / "t"
    res = runner.invoke(app, ["schedule", str(SWISS), "-o", str(folder)])
    assert res.exit_code == 0, res.output
    sched = tj.current_schedule(t, folder)
    (folder / "results.csv").write_text(results_csv(t, sched, rounds))
    return folder


def test_finals_refuse_a_results_file_with_a_round_missing(tmp_path):
    """Was exit 0, seated from two rounds of three without a word."""
    folder = played_folder(tmp_path, [1, 2])
    res = runner.invoke(app, ["finals", str(SWISS), str(folder / "results.csv"), "--players", "8", "-o", str(folder)])
    assert res.exit_code == 2
    assert error_line(res) == (
        f"error: the finals are seated from every preliminary table's result: 12 "
        f"tables without one in {folder / 'results.csv'} (round 3 table 1, round 3 table 2, "
        f"round 3 table 3, round 3 table 4, round 3 table 5 ...)"
    )
    assert not (folder / "final").exists()


def test_finals_refuse_another_number_of_finalists_than_the_tournament_file(tmp_path):
    """Was: --players 16 silently overrode [final] players = 8."""
    folder = played_folder(tmp_path, [1, 2, 3])
    res = runner.invoke(app, ["finals", str(SWISS), str(folder / "results.csv"), "--players", "16", "-o", str(folder)])
    assert res.exit_code == 2
    assert error_line(res) == (
        "error: --players: the tournament file's [final] seats 8 finalists, not 16; change players there to seat 16"
    )
    assert not (folder / "semi-final").exists()


def test_schedule_replace_refuses_to_reseat_played_rounds(tmp_path):
    folder = played_folder(tmp_path, [1])
    before = (folder / "schedule.csv").read_bytes()
    res = runner.invoke(app, ["schedule", str(SWISS), "--replace", "-o", str(folder)])
    assert res.exit_code == 2
    assert error_line(res) == (
        f"error: --replace: round 1 has results in '{folder / 'results.csv'}' already: planning "
        f"afresh would re-seat it; re-plan from the first round not yet played"
    )
    assert (folder / "schedule.csv").read_bytes() == before


def test_an_almanac_made_too_long_by_added_lines_is_refused_at_schedule(tmp_path):
    """Was: `schedule` passed and only `round` failed."""
    lines = ", ".join(f'"Our own rule number {i}: keep the table tidy and the dice in the lid."' for i in range(46))
    text = SWISS.read_text(encoding="utf-8").replace('preset = "swiss-2010"', f'preset = "swiss-2010"\nadd = [{lines}]')
    t_file = tmp_path / "tournament.toml"
    t_file.write_text(text, encoding="utf-8")
    (tmp_path / "players.csv").write_bytes((SWISS.parent / "players.csv").read_bytes())
    res = runner.invoke(app, ["schedule", str(t_file), "-o", str(tmp_path / "out")])
    assert res.exit_code == 2
    import re

    assert re.fullmatch(
        rf"error: {re.escape(str(t_file))}: round 1: the almanac for base-3-4 is \d+ lines? too long "
        r"for one a4 page; drop rules or shorten the additions",
        error_line(res),
    )
    assert not (tmp_path / "out" / "schedule.csv").exists()


def test_ctrl_c_ends_the_console_with_one_line(tmp_path):
    """Start and stop the console four times with Ctrl-C once it listens:
    exit 0, its one line, no traceback (uvicorn's lifespan task printed a
    CancelledError on some stops; the console runs without it)."""
    import signal
    import socket
    import subprocess
    import sys
    import time

    for i in range(4):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = subprocess.Popen(
            [sys.executable, "-m", "setupgen", "serve", str(SWISS), "-o", str(tmp_path / f"d{i}"), "--port", str(port)],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert "Traceback" not in err and "CancelledError" not in err
        assert err.strip().splitlines()[-1] == "console stopped; every acknowledged change is in tournament.db"
