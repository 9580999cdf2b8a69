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
from typer.testing import CliRunner

from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def one_error(res, code: int = 2) -> str:
    """The single ``error:`` line of a failed command."""
    assert res.exit_code == code, (res.exit_code, res.output)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    return lines[0]


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
    assert line.startswith("error: --output: cannot create the folder") or "cannot create the folder" in line
    assert "Permission denied" in line
    assert list(locked.iterdir()) == []


def test_an_earlier_pack_that_cannot_be_removed_is_refused_first(tmp_path, monkeypatch):
    pack = tmp_path / "pack"
    assert run("round", "--tables", "1", "--seed", "s", "-o", str(pack)).exit_code == 0
    before = tree(pack)
    not_writable(monkeypatch, pack)
    assert "not writable, so it cannot be replaced" in one_error(run("round", "--tables", "1", "--seed", "s",
                                                                        "-o", str(pack)))
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
    return subprocess.run([sys.executable, "-m", "setupgen", *args], capture_output=True, cwd=kw.pop("cwd", ROOT),
                          **kw)


def test_stdout_full_closed_or_cut_short():
    full = subprocess.run(f"{sys.executable} -m setupgen board --seed x --format json -o - > /dev/full",
                          shell=True, capture_output=True, text=True, cwd=ROOT)
    assert full.returncode == 2 and full.stderr.strip() == \
        "error: cannot write to standard output: No space left on device"
    closed = subprocess.run(f"{sys.executable} -m setupgen board --seed x --format json -o - >&-",
                            shell=True, capture_output=True, text=True, cwd=ROOT)
    assert closed.returncode == 2 and "standard output" in closed.stderr and "Traceback" not in closed.stderr
    cut = subprocess.run(f"set -o pipefail; {sys.executable} -m setupgen board --seed x --format jsonl "
                         f"--count 3000 -o - | head -c 100 > /dev/null", shell=True, executable="/bin/bash",
                         capture_output=True, text=True, cwd=ROOT)
    assert cut.returncode == 0 and cut.stderr == ""


# -- 6. arguments that are not text, or too long ---------------------------------

def test_arguments_not_utf8_or_too_long(tmp_path):
    res = subprocess.run([sys.executable, "-m", "setupgen", "board", b"--seed", b"\xff", "--format", "json",
                          "-o", "-"], capture_output=True, text=True, cwd=ROOT)
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

    (tmp_path / "a.txt").write_text("old a")
    (tmp_path / "b.txt").write_text("old b")
    real = os.replace
    seen = []

    def flaky(src, dst):
        seen.append(dst)
        if str(dst).endswith("b.txt"):
            raise OSError(5, "Input/output error")
        return real(src, dst)

    monkeypatch.setattr(atomic.os, "replace", flaky)
    with pytest.raises(atomic.OutputError, match="Input/output error"):
        atomic.write_files(tmp_path, {"a.txt": b"new a", "b.txt": b"new b"})
    monkeypatch.setattr(atomic.os, "replace", real)
    assert (tmp_path / "a.txt").read_text() == "old a" and (tmp_path / "b.txt").read_text() == "old b"
    assert tmp_leftovers(tmp_path) == []


# -- 11. signals ----------------------------------------------------------------------

@pytest.mark.parametrize("sig,code,word", [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
def test_a_signal_during_a_pack_leaves_nothing(tmp_path, sig, code, word):
    proc = subprocess.Popen([sys.executable, "-m", "setupgen", "round", "--tables", "100", "--seed", "sig",
                             "-o", str(tmp_path / "pack")], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(2.5)
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
    assert "unknown language ''" in one_error(run("round", "--tables", "1", "--seed", "s", "--lang", "",
                                                  "-o", str(tmp_path / "p")))
    assert "unknown paper ''" in one_error(run("round", "--tables", "1", "--seed", "s", "--paper", "",
                                               "-o", str(tmp_path / "p")))


def test_internal_error_is_one_line_and_a_file(tmp_path, monkeypatch):
    from setupgen.render import export

    def boom(*_a, **_k):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(export, "board_output", boom)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    line = one_error(run("board", "--seed", "s", "--format", "json", "-o", "-"), code=3)
    assert "internal error" in line and "a bug in setupgen" in line
    (crash,) = (tmp_path / "state" / "setupgen").glob("crash-*.txt")
    assert str(crash) in line and "ZeroDivisionError: a bug" in crash.read_text()
