"""Never lose a director's files, never a traceback: each case of the break
test (data loss, tracebacks, half-written output, signals, limits,
accepted-but-wrong input), with the exit code and the one error line.
These tests look only at exit codes, messages and files on disk, never at
how pages are drawn."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import one_error
from processes import wait_for_workers
from typer.testing import CliRunner

from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too) -> its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def tmp_leftovers(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.endswith(".tmp"))


# -- 1. round packs replace only what setupgen wrote -------------------------


def test_a_folder_with_a_manifest_of_someone_else_is_never_replaced(tmp_path):
    app_dir = tmp_path / "app"
    (app_dir / "src").mkdir(parents=True)
    (app_dir / "manifest.json").write_text("{}")
    (app_dir / "index.html").write_text("x")
    before = tree(app_dir)
    line = one_error(run("round", "--tables", "1", "--seed", "s", "-o", str(app_dir)))
    assert "not a setupgen round pack" in line
    assert tree(app_dir) == before and (app_dir / "src").is_dir()


def test_files_added_to_or_edited_in_an_earlier_pack_are_kept(tmp_path):
    pack = tmp_path / "pack"
    assert run("round", "--tables", "2", "--seed", "s", "-o", str(pack)).exit_code == 0
    assert run("round", "--tables", "2", "--seed", "s", "-o", str(pack)).exit_code == 0  # an untouched pack: replaced
    (pack / "notes.txt").write_text("director's notes")
    before = tree(pack)
    line = one_error(run("round", "--tables", "3", "--seed", "t", "-o", str(pack)))
    assert "files setupgen did not write: notes.txt" in line
    assert tree(pack) == before
    (pack / "notes.txt").unlink()
    (pack / "table-01.svg").write_text("<svg/>")  # edited by hand
    before = tree(pack)
    line = one_error(run("round", "--tables", "3", "--seed", "t", "-o", str(pack)))
    assert "table-01.svg (changed since it was written)" in line
    assert tree(pack) == before
    assert tmp_leftovers(tmp_path) == []


def test_a_pack_made_before_digests_needs_replace(tmp_path):
    pack = tmp_path / "pack"
    assert run("round", "--tables", "2", "--seed", "s", "-o", str(pack)).exit_code == 0
    manifest = json.loads((pack / "manifest.json").read_text())
    del manifest["files"]
    (pack / "manifest.json").write_text(json.dumps(manifest))
    line = one_error(run("round", "--tables", "2", "--seed", "s", "-o", str(pack)))
    assert "made before setupgen recorded its files" in line and "--replace to do it anyway" in line
    (pack / "extra.txt").write_text("mine")
    assert "extra.txt" in one_error(run("round", "--tables", "2", "--seed", "s", "-o", str(pack), "--replace"))
    (pack / "extra.txt").unlink()
    res = run("round", "--tables", "2", "--seed", "s", "-o", str(pack), "--replace")
    assert res.exit_code == 0, res.output
    assert "files" in json.loads((pack / "manifest.json").read_text())


# -- 2. a played schedule is never overwritten --------------------------------


def test_plain_schedule_after_a_replan_keeps_the_played_rounds(tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    toml, out = str(folder / "tournament.toml"), str(tmp_path / "out")
    assert run("schedule", toml, "-o", out).exit_code == 0
    assert run("schedule", toml, "-o", out).exit_code == 0  # the same schedule again: fine
    players = [ln for ln in (folder / "players.csv").read_text().splitlines() if not ln.startswith("ch48,")]
    (folder / "players.csv").write_text("\n".join(players) + "\n")
    assert run("schedule", toml, "--from-round", "2", "-o", out).exit_code == 0
    replanned = (Path(out) / "schedule.csv").read_bytes()
    line = one_error(run("schedule", toml, "-o", out))
    assert "holds another schedule" in line and "--replace to do it anyway" in line
    assert (Path(out) / "schedule.csv").read_bytes() == replanned
    assert run("schedule", toml, "-o", out, "--replace").exit_code == 0
    assert (Path(out) / "schedule.csv").read_bytes() != replanned


# -- 4. the tournament folder cannot be made ------------------------------------


def test_tournament_folder_problems_are_one_line(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x")
    toml = str(SWISS / "tournament.toml")
    assert "is a file" in one_error(run("schedule", toml, "-o", str(afile)))
    assert "is a file" in one_error(run("schedule", toml, "-o", str(afile / "x")))
    assert afile.read_text() == "x"


def not_writable(monkeypatch, *folders: Path) -> None:
    """Make ``folders`` (and what is under them) count as not writable, as
    for a user without write permission (the tests may run as root, who
    writes anywhere): os.access says no, and creating a folder there fails."""
    from setupgen.core import atomic

    real_access, real_mkdir = os.access, Path.mkdir
    inside = lambda p: any(Path(p) == f or f in Path(p).parents for f in folders)  # noqa: E731

    def access(path, mode, *a, **k):
        return False if mode & os.W_OK and inside(path) else real_access(path, mode, *a, **k)

    def mkdir(self, *a, **k):
        if inside(self.parent):
            raise PermissionError(13, "Permission denied", str(self))
        return real_mkdir(self, *a, **k)

    monkeypatch.setattr(atomic.os, "access", access)
    monkeypatch.setattr(Path, "mkdir", mkdir)


def test_read_only_folders_are_one_line(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir()
    not_writable(monkeypatch, locked)
    line = one_error(run("schedule", str(SWISS / "tournament.toml"), "-o", str(locked / "t")))
    assert line == f"error: -o: cannot create the folder '{locked / 't'}': Permission denied"
    assert list(locked.iterdir()) == []


def test_an_earlier_pack_that_cannot_be_removed_is_refused_first(tmp_path, monkeypatch):
    pack = tmp_path / "pack"
    assert run("round", "--tables", "1", "--seed", "s", "-o", str(pack)).exit_code == 0
    before = tree(pack)
    not_writable(monkeypatch, pack)
    assert "not writable, so it cannot be replaced" in one_error(
        run("round", "--tables", "1", "--seed", "s", "-o", str(pack))
    )
    assert tree(pack) == before and tmp_leftovers(tmp_path) == []


def test_a_rejected_tournament_command_leaves_no_folder(tmp_path):
    out = tmp_path / "new" / "folder"
    res = run("standings", str(SWISS / "tournament.toml"), str(tmp_path / "missing.csv"), "-o", str(out))
    one_error(res)
    assert not (tmp_path / "new").exists()
    res = run("round", str(SWISS / "tournament.toml"), "--round", "9", "-o", str(out))
    one_error(res)
    assert not (tmp_path / "new").exists()


# -- 5. standard output ---------------------------------------------------------


def cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "setupgen", *args], capture_output=True, cwd=kw.pop("cwd", ROOT), **kw)


def test_stdout_full_closed_or_cut_short():
    full = subprocess.run(
        f"{sys.executable} -m setupgen board --seed x --format json -o - > /dev/full",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert (
        full.returncode == 2
        and full.stderr.strip() == "error: cannot write to standard output: No space left on device"
    )
    closed = subprocess.run(
        f"{sys.executable} -m setupgen board --seed x --format json -o - >&-",
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert closed.returncode == 2 and "standard output" in closed.stderr and "Traceback" not in closed.stderr
    cut = subprocess.run(
        f"set -o pipefail; {sys.executable} -m setupgen board --seed x --format jsonl "
        f"--count 3000 -o - | head -c 100 > /dev/null",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert cut.returncode == 0 and cut.stderr == ""


# -- 6. arguments that are not text, or too long ---------------------------------


def test_arguments_not_utf8_or_too_long(tmp_path):
    res = subprocess.run(
        [sys.executable, "-m", "setupgen", "board", b"--seed", b"\xff", "--format", "json", "-o", "-"],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert res.returncode == 2 and res.stderr.startswith("error: ") and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
    assert "unknown scenario" in one_error(run("board", "--scenario", "x" * 300, "--seed", "s"))
    line = one_error(run("board", "--seed", "s", "-o", str(tmp_path / ("y" * 300 + ".pdf"))))
    assert "longer than 255 bytes" in line and len(line) < 400


# -- 10. all or nothing ------------------------------------------------------------


def test_standings_never_half_written(tmp_path, monkeypatch):
    from setupgen.core import atomic

    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    toml, out = str(folder / "tournament.toml"), tmp_path / "out"
    assert run("schedule", toml, "-o", str(out)).exit_code == 0
    from test_tournament import results_csv

    from setupgen.tournament import jobs, model

    t = model.load(toml)
    (tmp_path / "results.csv").write_text(results_csv(t, jobs.current_schedule(t, out)))
    real = atomic._stage
    calls = []

    def full_disk(folder_, name, data):
        calls.append(name)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(folder_, name, data)

    monkeypatch.setattr(atomic, "_stage", full_disk)
    line = one_error(run("standings", toml, str(tmp_path / "results.csv"), "-o", str(out)))
    assert "No space left on device" in line
    assert not (out / "standings.csv").exists() and not (out / "standings.pdf").exists()
    assert tmp_leftovers(out) == []


def test_a_failed_rename_puts_the_old_files_back(tmp_path, monkeypatch):
    from setupgen.core import atomic

    old_a, old_b = "round,table,seat,player\n1,1,1,a\n", "round,table,seat,player\n1,1,1,b\n"  # setupgen's
    (tmp_path / "a.csv").write_text(old_a)
    (tmp_path / "b.csv").write_text(old_b)
    real = os.replace
    seen = []

    def flaky(src, dst):
        seen.append(dst)
        if str(dst).endswith("b.csv"):
            raise OSError(5, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", flaky)
    with pytest.raises(atomic.OutputError, match="Input/output error"):
        atomic.write_files(tmp_path, {"a.csv": b"new a", "b.csv": b"new b"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert (tmp_path / "a.csv").read_text() == old_a and (tmp_path / "b.csv").read_text() == old_b
    assert tmp_leftovers(tmp_path) == []


# -- 11. signals ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "sig,code,word",
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"), (signal.SIGHUP, 129, "hung up")],
)
def test_a_signal_during_a_pack_leaves_nothing(tmp_path, sig, code, word):
    # the signal comes once the pack has provably started: its sheet worker runs (SETUPGEN_WORKERS=1
    # makes one whatever the machine's load); 400 tables take many seconds more to lay out
    proc = subprocess.Popen(
        [sys.executable, "-m", "setupgen", "round", "--tables", "400", "--seed", "sig", "-o", str(tmp_path / "pack")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "SETUPGEN_WORKERS": "1"},
    )
    wait_for_workers(proc)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err.strip() == f"error: {word}; nothing was written"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


# -- 3 and the rest: output paths and values accepted but wrong --------------------


def test_output_paths_that_mean_something_else(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "names a folder" in one_error(run("board", "--seed", "s", "-o", "sub/"))
    assert not (tmp_path / "sub").exists()
    assert "must not be empty" in one_error(run("board", "--seed", "s", "-o", ""))
    assert "must not be empty" in one_error(run("round", "--tables", "1", "--seed", "s", "-o", ""))
    assert "standard output" in one_error(run("round", "--tables", "1", "--seed", "s", "-o", "-"))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_empty_language_or_paper_is_an_error(tmp_path):
    assert "unknown language ''" in one_error(
        run("round", "--tables", "1", "--seed", "s", "--lang", "", "-o", str(tmp_path / "p"))
    )
    assert "unknown paper ''" in one_error(
        run("round", "--tables", "1", "--seed", "s", "--paper", "", "-o", str(tmp_path / "p"))
    )


def test_internal_error_is_one_line_and_a_file(tmp_path, monkeypatch):
    from setupgen.render import export

    def boom(*_a, **_k):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(export, "json_output", boom)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    line = one_error(run("board", "--seed", "s", "--format", "json", "-o", "-"), code=3)
    assert "internal error" in line and "a bug in setupgen" in line
    (crash,) = (tmp_path / "state" / "setupgen").glob("crash-*.txt")
    assert str(crash) in line and "ZeroDivisionError: a bug" in crash.read_text()


# -- 3. a generator never writes a board its own check rejects ------------------

BASE_LAYOUT = (ROOT / "layouts" / "base-3-4.toml").read_text()


def custom_layout(tmp_path: Path, name: str, *changes: tuple[str, str]) -> Path:
    text = BASE_LAYOUT.replace('name = "base-3-4"', f'name = "{name}"').replace('code = "B4"', 'code = "Z9"')
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


def test_spiral_layouts_that_would_break_a_rule_are_refused(tmp_path):
    spiral = "spiral = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]"
    other = custom_layout(
        tmp_path, "other", (spiral, "spiral = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 3]")
    )
    assert "the spiral sequence is not the tokens of region island" in one_error(
        run("board", "--layout", str(other), "--numbers", "spiral", "--seed", "s")
    )
    nodesert = custom_layout(
        tmp_path,
        "nodesert",
        ("mountains = 3, desert = 1 }", "mountains = 4 }"),
        ("numbers = [2, 3, 3,", "numbers = [2, 2, 3, 3,"),
    )
    assert "robber: 'desert', but the layout has no desert" in one_error(
        run("board", "--layout", str(nodesert), "--seed", "s")
    )


def test_spiral_that_puts_red_numbers_together_tries_the_other_corners():
    import random

    from setupgen.core import hexgrid
    from setupgen.generate import numbers

    land = [(0, 0), (1, 0), (2, 0), (3, 0)]  # a row: the spiral from either end
    with pytest.raises(Exception, match="red numbers side by side from every corner"):
        numbers.spiral(land, frozenset(), [6, 8, 5, 4], random.Random(0))
    laid = numbers.spiral(land, frozenset(), [6, 4, 8, 5], random.Random(0))
    assert not any(laid[h] in (6, 8) and laid.get(n) in (6, 8) for h in laid for n in hexgrid.neighbors(h))


def test_impossible_number_placement_fails_after_one_pass():
    from setupgen.generate import numbers

    row = [(q, 0) for q in range(6)]
    calls = []

    def pick(bag):
        calls.append(len(bag))
        return 0

    with pytest.raises(Exception, match="4 tokens 5 cannot lie apart on 6 hexes"):
        numbers.swap_with(row, [5, 5, 5, 5, 3, 4], {}, pick)
    assert len(calls) <= 12  # one pass of draws, not 1,000 restarts


def test_free_harbors_need_enough_sea_hexes(tmp_path):
    many = custom_layout(
        tmp_path, "many", ('pool = { "3:1" = 4,', 'pool = { "3:1" = 30,'), ('default = "shuffled"', 'default = "free"')
    )
    start = time.perf_counter()
    assert "harbors but only" in one_error(run("board", "--layout", str(many), "--seed", "s"))
    assert time.perf_counter() - start < 5


# -- 7. board files -------------------------------------------------------------------


def test_board_files_with_huge_coordinates_or_odd_text(tmp_path):
    board = json.loads(run("board", "--seed", "s", "--format", "json", "-o", "-").stdout)
    board["hexes"][0]["q"] = 10**30
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(board))
    assert "more than 100 steps from (0, 0)" in one_error(run("check", str(path)))
    assert "more than 100 steps from (0, 0)" in one_error(
        run("board", "--board", str(path), "-o", str(tmp_path / "x.svg"))
    )
    utf16 = tmp_path / "utf16.json"
    utf16.write_bytes(json.dumps(board).encode("utf-16"))
    assert "is not UTF-8 text" in one_error(run("check", str(utf16)))
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    assert "not a regular file" in one_error(run("check", str(fifo)))


# -- 8. layout files ------------------------------------------------------------------


@pytest.mark.parametrize(
    "change,fragment",
    [
        (
            ('"L" = { kind = "land", region = "island" }', '"L" = { kind = "land", region = ["island"] }'),
            "are names (text)",
        ),
        (('cells = "~ L L L ~" }', 'cells = "~ L:² L L ~" }'), "bad number token"),
        (("forest = 4,", "forest = 4611686018427387904,"), "count must be a whole number from 0 to 1000"),
        (("forest = 4,", "forest = 1000000000,"), "count must be a whole number from 0 to 1000"),
        (("numbers = [2, 3,", "numbers = [2.0, 3,"), "whole numbers 2-12"),
        (('code = "Z9"', 'code = "B4"'), "is the code of the shipped scenario base-3-4"),
        (('code = "Z9"', 'code = "Ä9"'), "expected 2 upper-case letters or digits"),
        (("victory_points = 10", "victory_points = -5"), "not a plausible threshold"),
        (("victory_points = 10", "victory_points = 9223372036854775808"), "not a plausible threshold"),
        (("victory_points = 10", 'victory_points = 10\ncolour = "red"'), "colour: unknown key"),
        (
            ('[harbors]\ndefault = "shuffled"', '[harbors]\nshape = 1\ndefault = "shuffled"'),
            "harbors.shape: unknown key",
        ),
    ],
)
def test_malformed_layouts_are_one_line_and_fast(tmp_path, change, fragment):
    text = BASE_LAYOUT.replace('name = "base-3-4"', 'name = "bad"').replace('code = "B4"', 'code = "Z9"')
    assert change[0] in text
    (tmp_path / "bad.toml").write_text(text.replace(change[0], change[1], 1))
    start = time.perf_counter()
    assert fragment in one_error(run("board", "--layout", str(tmp_path / "bad.toml"), "--seed", "s"))
    assert time.perf_counter() - start < 5


def test_layout_that_is_a_pipe_is_not_read(tmp_path):
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    assert "not a regular file" in one_error(run("board", "--layout", str(fifo), "--seed", "s"))


# -- 9. tournament files ------------------------------------------------------------------


def tournament_copy(tmp_path: Path, *changes: tuple[str, str], append: str = "") -> str:
    folder = tmp_path / "t"
    shutil.copytree(SWISS, folder)
    text = (folder / "tournament.toml").read_text()
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new)
    (folder / "tournament.toml").write_text(text + append)
    return str(folder / "tournament.toml")


@pytest.mark.parametrize(
    "changes,append,fragment",
    [
        ((('players = "players.csv"', 'players = "pla\\u0000yers.csv"'),), "", "players: not a file name"),
        (
            (
                (
                    "placing_points = { 4 = [4, 3, 2, 1], 3 = [4, 2, 1] }",
                    'placing_points = { "²" = [4, 3, 2, 1], 4 = [4, 3, 2, 1], 3 = [4, 2, 1] }',
                ),
            ),
            "",
            "scoring.placing_points.²",
        ),
        ((("table_size = 4", "table_size = 6"),), "", "but round 1 plays base-3-4"),
        (
            (('scenario = "cities-knights"', 'scenario = "cities-knights"\ncolour = 1'),),
            "",
            "final.colour: unknown key",
        ),
        ((("[scoring]", "[scoring]\nextra = 1"),), "", "scoring.extra: unknown key"),
        ((('name = "Schweizer Catan-Meisterschaft 2010"', 'name = "' + "N" * 10000 + '"'),), "", "at most 200"),
        ((), '\n[[rounds]]\nscenario = "base-3-4"\n' * 60, "at most 50"),
    ],
)
def test_malformed_tournament_files(tmp_path, changes, append, fragment):
    toml = tournament_copy(tmp_path, *changes, append=append)
    start = time.perf_counter()
    line = one_error(run("schedule", toml, "-o", str(tmp_path / "out")))
    assert fragment in line and len(line) < 600
    assert time.perf_counter() - start < 5
    assert not (tmp_path / "out").exists()


def test_players_file_with_an_unclosed_quote(tmp_path):
    toml = tournament_copy(tmp_path)
    (Path(toml).parent / "players.csv").write_text('id,name\n"ch01,Anna\nch02,Ben\nch03,Cy\n')
    assert "is a quote not closed?" in one_error(run("schedule", toml, "-o", str(tmp_path / "out")))


@pytest.mark.parametrize(
    "content,fragment",
    [
        (b"\xff\xfe", "is not UTF-8 text"),
        (b"round,table,seat,player\n" + b"1" * 4400 + b",1,1,ch01\n", "round must be a whole number"),
        (None, "does not seat"),  # cut short
    ],
)
def test_hand_edited_schedule_files(tmp_path, content, fragment):
    toml = tournament_copy(tmp_path)
    out = tmp_path / "out"
    assert run("schedule", toml, "-o", str(out)).exit_code == 0
    data = (out / "schedule.csv").read_bytes()
    (out / "schedule.csv").write_bytes(content if content is not None else data[: len(data) - 60])
    assert fragment in one_error(run("round", toml, "--round", "1", "-o", str(out)))


def test_results_with_thousands_of_digits(tmp_path):
    toml = tournament_copy(tmp_path)
    out = tmp_path / "out"
    assert run("schedule", toml, "-o", str(out)).exit_code == 0
    (tmp_path / "r.csv").write_text("round,table,player,vp,winner\n1,1,ch01," + "9" * 5000 + ",yes\n")
    res = run("standings", toml, str(tmp_path / "r.csv"), "-o", str(out))
    assert res.exit_code == 2 and "has more than 6 digits" in res.stderr and len(res.stderr) < 5000


# -- accepted but wrong, and limits checked before work ---------------------------------


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["board", "--seed", "a\x01b", "-o", "{tmp}/x.svg"], "holds a control character"),
        (["board", "--seed", "S" * 10000, "-o", "{tmp}/x.pdf"], "the seed is 10000 characters long; at most 200"),
        (["round", "--tables", "1", "--seed", "s", "--title", "T" * 10000, "-o", "{tmp}/p"], "the title is 10000"),
        (["round", "--tables", "1", "--seed", "s", "--round", str(10**30), "-o", "{tmp}/p"], "from 1 to 1000"),
        (
            ["finals", str(SWISS / "tournament.toml"), "x.csv", "--players", "16", "--winners", ",,,", "-o", "{tmp}/t"],
            "none empty",
        ),
    ],
)
def test_values_that_were_accepted_but_wrong(tmp_path, args, fragment):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    start = time.perf_counter()
    line = one_error(run(*args))
    assert fragment in line and len(line) < 400
    assert time.perf_counter() - start < 5
    assert list(tmp_path.iterdir()) == []


def test_binary_output_is_not_written_to_a_terminal():
    import pty

    master, slave = pty.openpty()
    try:
        res = subprocess.run(
            [sys.executable, "-m", "setupgen", "board", "--seed", "s", "--format", "pdf", "-o", "-"],
            stdout=slave,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
    finally:
        os.close(slave)
        os.close(master)
    assert res.returncode == 2 and "refusing to write a binary file" in res.stderr


def test_oil_board_whose_desert_moved_is_a_verdict_not_a_crash(tmp_path):
    board = json.loads(run("board", "--scenario", "oil-springs", "--seed", "x", "--format", "json", "-o", "-").stdout)
    desert = next(h for h in board["hexes"] if h["terrain"] == "desert")
    fields = next(h for h in board["hexes"] if h["terrain"] == "fields")
    desert["terrain"], fields["terrain"] = "fields", "desert"
    path = tmp_path / "moved.json"
    path.write_text(json.dumps(board))
    res = run("check", str(path))
    assert res.exit_code == 1 and "illegal:" in res.stdout and "Traceback" not in res.output
    res = run("board", "--board", str(path), "--scenario", "oil-springs-fixed", "-o", str(tmp_path / "x.svg"))
    assert res.exit_code == 2 and "does not fit oil-springs-fixed" in res.stderr


def test_all_or_nothing_on_a_file_system_without_hard_links(tmp_path, monkeypatch):
    from setupgen.core import atomic

    old_a, old_b = "round,table,seat,player\n1,1,1,a\n", "round,table,seat,player\n1,1,1,b\n"  # setupgen's
    (tmp_path / "a.csv").write_text(old_a)
    (tmp_path / "b.csv").write_text(old_b)

    def no_links(*_a, **_k):
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(atomic.os, "link", no_links)
    atomic.write_files(tmp_path, {"a.csv": b"new a", "b.csv": b"new b"})
    assert (tmp_path / "a.csv").read_text() == "new a" and (tmp_path / "b.csv").read_text() == "new b"
    assert tmp_leftovers(tmp_path) == []


def test_files_setupgen_did_not_write_are_never_replaced(tmp_path):
    mine = tmp_path / "keep.txt"
    mine.write_text("mine")
    assert "setupgen did not write it" in one_error(run("board", "--seed", "x", "-o", str(mine)))
    pdf = tmp_path / "mine.pdf"
    pdf.write_bytes(b"%PDF-1.4 someone else's")
    assert "setupgen did not write it" in one_error(run("board", "--seed", "x", "-o", str(pdf)))
    assert mine.read_text() == "mine" and pdf.read_bytes() == b"%PDF-1.4 someone else's"
    ours = tmp_path / "ours.pdf"
    assert run("board", "--seed", "x", "-o", str(ours)).exit_code == 0
    assert run("board", "--seed", "y", "-o", str(ours)).exit_code == 0  # setupgen's own: replaced
    out = tmp_path / "t"
    out.mkdir()
    (out / "schedule.pdf").write_text("my own schedule")
    assert "setupgen did not write it" in one_error(run("schedule", str(SWISS / "tournament.toml"), "-o", str(out)))
    assert (out / "schedule.pdf").read_text() == "my own schedule" and not (out / "schedule.csv").exists()


def test_no_fresh_seed_line_before_an_output_error(tmp_path):
    for args in (
        ["-o", ""],
        ["-o", str(tmp_path / "sub") + "/"],
        ["-o", str(tmp_path / "no" / "x.pdf")],
        ["--format", "jsonl", "--count", "0", "-o", "-"],
    ):
        res = run("board", *args)
        assert not res.stderr.startswith("seed:"), res.stderr
        one_error(res)
