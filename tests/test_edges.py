"""No surprise at the edges (issue 46): signals at any moment say truly
what was written and leave nothing hidden; a swap a killed process left
half-done is finished or undone by the next writer; each injected at the
exact point, not by timing."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from setupgen import cli
from setupgen.cli import app
from setupgen.core import atomic, interrupts

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp"))


def dead_pid() -> int:
    """The id of a process that has ended (and been waited for)."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_a_signal_inside_a_lazy_import_is_the_signal_not_a_bug(monkeypatch, tmp_path):
    """A library that turns our stop into its own error while importing
    (numpy did: ImportError) must not make the command an internal error."""
    from setupgen.tournament import roundpack

    def importing(*_a, **_k):
        try:
            cli._on_signal(signal.SIGTERM, None)
        except BaseException as exc:  # what numpy's __init__ did with it
            raise ImportError("numpy failed to import") from exc

    monkeypatch.setattr(roundpack, "write_round", importing)
    res = run("round", "--tables", "2", "--seed", "lazy", "-o", str(tmp_path / "pack"))
    assert res.exit_code == 143, res.output
    assert res.stderr.strip() == "error: terminated; nothing was written"
    assert "internal error" not in res.output and not (tmp_path / "pack").exists()


def test_a_signal_during_the_swap_is_held_and_then_says_the_output_is_complete(monkeypatch, tmp_path):
    """SIGTERM arriving while the old pack is being removed (after both
    renames): the new pack is in place and whole, nothing hidden is left,
    and the line says so."""
    out = tmp_path / "pack"
    assert run("round", "--tables", "2", "--seed", "one", "-o", str(out)).exit_code == 0
    real = shutil.rmtree

    def signalled(path, *a, **k):
        if str(path).endswith(".old.tmp"):
            os.kill(os.getpid(), signal.SIGTERM)  # held: we are inside the swap
        return real(path, *a, **k)

    monkeypatch.setattr(atomic.shutil, "rmtree", signalled)
    res = run("round", "--tables", "2", "--seed", "two", "-o", str(out))
    assert res.exit_code == 143, res.output
    assert res.stderr.strip() == ("error: terminated; the output was written in full "
                                  "(the signal came as it was put in place)")
    assert "two" in (out / "manifest.json").read_text() and hidden(tmp_path) == []


def test_a_signal_between_the_standings_renames_is_held(monkeypatch, tmp_path):
    real = os.replace
    calls = []

    def replacing(src, dst):
        calls.append(dst)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # between the two files' renames
        return real(src, dst)

    (tmp_path / "a.csv").write_text("round,table,seat,player\n")
    monkeypatch.setattr(atomic.os, "replace", replacing)
    previous = signal.signal(signal.SIGINT, cli._on_signal)
    interrupts.reset()
    try:
        with pytest.raises(cli._Stop) as stop:
            atomic.write_files(tmp_path, {"a.csv": b"new a", "b.csv": b"new b"})
    finally:
        signal.signal(signal.SIGINT, previous)
    assert stop.value.code == 130 and "written in full" in stop.value.message
    assert (tmp_path / "a.csv").read_bytes() == b"new a" and (tmp_path / "b.csv").read_bytes() == b"new b"
    assert hidden(tmp_path) == []


def test_a_kill_between_the_renames_is_finished_by_the_next_writer(tmp_path):
    """kill -9 after the old pack went aside and before the new one came:
    the next write of that folder puts the staged (complete) copy in place,
    removes the old, says so, and then writes as asked."""
    out = tmp_path / "pack"
    assert run("round", "--tables", "2", "--seed", "one", "-o", str(out)).exit_code == 0
    pid = dead_pid()
    staged = tmp_path / f".pack.{pid}.k3x9q1ab.tmp"
    shutil.copytree(out, staged)
    out.rename(tmp_path / f".pack.{pid}.0a1b2c3d.old.tmp")
    assert not out.exists()
    res = run("round", "--tables", "2", "--seed", "two", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "note: " in res.stderr and "was finished (the new copy is in place)" in res.stderr
    assert "two" in (out / "manifest.json").read_text() and hidden(tmp_path) == []


def test_a_kill_with_only_the_old_copy_aside_is_undone(tmp_path):
    out = tmp_path / "pack"
    assert run("round", "--tables", "2", "--seed", "one", "-o", str(out)).exit_code == 0
    before = (out / "manifest.json").read_bytes()
    old = tmp_path / f".pack.{dead_pid()}.0a1b2c3d.old.tmp"
    out.rename(old)
    atomic.recover_swap(out)
    assert (out / "manifest.json").read_bytes() == before and hidden(tmp_path) == []
    assert atomic.take_notes() == [f"{atomic.shown(out)}: a write stopped half-way was undone (the old copy is back)"]


def test_a_live_writers_copies_are_never_touched(tmp_path):
    out = tmp_path / "pack"
    out.mkdir()
    mine = tmp_path / f".pack.{os.getpid()}.0a1b2c3d.old.tmp"
    mine.mkdir()
    atomic.recover_swap(out)
    assert mine.is_dir() and atomic.take_notes() == []
