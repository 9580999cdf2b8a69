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
    assert res.stderr.strip() == (
        "error: terminated; the output was written in full (the signal came as it was put in place)"
    )
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


# -- one player per name: Unicode NFC ---------------------------------------------------------

E_ONE, E_TWO = "\u00e9", "e\u0301"  # "é" as one code point, and as e + combining acute


def test_two_ids_equal_after_nfc_are_one_duplicate(tmp_path):
    from setupgen.tournament import model

    (tmp_path / "p.csv").write_text(f"id,name\nren{E_ONE},René A\nbob,Bob\nren{E_TWO},René B\n", encoding="utf-8")
    with pytest.raises(model.TournamentError, match=f"line 4: player id 'ren{E_ONE}' already on line 2"):
        model.read_players(tmp_path / "p.csv")


def test_results_typed_in_another_form_name_the_same_player(tmp_path):
    from setupgen.tournament import standings as st

    text = f"round,table,player,vp,winner\n1,1,ren{E_TWO},10,yes\n1,1,bob,7,no\n1,1,cy,5,no\n"
    rows = st.read_results(
        text,
        source="r.csv",
        players={f"ren{E_ONE}", "bob", "cy"},
        thresholds={1: 10},
        tables={(1, 1): frozenset({f"ren{E_ONE}", "bob", "cy"})},
    )
    assert rows[0].player == f"ren{E_ONE}"


def test_a_late_entry_and_the_players_file_agree_on_the_form(tmp_path):
    from setupgen.tournament import entries, model

    (tmp_path / "p.csv").write_text(f"id,name\nz{E_TWO},Zo{E_TWO}\na,A\nb,B\n", encoding="utf-8")
    assert model.read_players(tmp_path / "p.csv")[0].id == f"z{E_ONE}"
    late = entries.Entry(entries.JOINED, 2, f"l{E_TWO}", f"L{E_TWO}")
    assert (late.player, late.name) == (f"l{E_ONE}", f"L{E_ONE}")


def test_a_final_bigger_than_the_field_is_refused_when_the_schedule_is_made(tmp_path):
    players = "".join(f"p{i:02d},Player {i}\n" for i in range(1, 13))
    (tmp_path / "players.csv").write_text("id,name\n" + players)
    (tmp_path / "t.toml").write_text(
        'name = "Twelve"\nseed = "twelve"\nplayers = "players.csv"\n'
        '[[rounds]]\nscenario = "base-3-4"\n[final]\nplayers = 16\nscenario = "base-3-4"\n'
    )
    out = tmp_path / "out"
    res = run("schedule", str(tmp_path / "t.toml"), "-o", str(out))
    assert res.exit_code == 2 and "final.players: finals of 16 need 16 ranked players, got 12" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and not out.exists()


def test_schedule_replace_on_a_full_disk_keeps_no_copy(tmp_path, monkeypatch):
    """The copy of the old schedule is kept only when the new one is written."""
    swiss = ROOT / "examples" / "swiss-2010" / "tournament.toml"
    out = tmp_path / "out"
    assert run("schedule", str(swiss), "-o", str(out)).exit_code == 0
    before = (out / "schedule.csv").read_bytes()
    real = atomic._stage

    def full(folder, name, data):
        if name == "schedule.csv":
            raise OSError(28, "No space left on device")
        return real(folder, name, data)

    monkeypatch.setattr(atomic, "_stage", full)
    text = swiss.read_text().replace('seed = "sm2010"', 'seed = "other"')
    (tmp_path / "t.toml").write_text(text)
    shutil.copy(swiss.parent / "players.csv", tmp_path / "players.csv")
    res = run("schedule", str(tmp_path / "t.toml"), "--replace", "-o", str(out))
    assert res.exit_code == 2 and "No space left on device" in res.stderr
    assert (out / "schedule.csv").read_bytes() == before
    assert not list(out.glob("schedule.before-*")) and hidden(out) == []


def scheduled_with_round_1(tmp_path: Path) -> tuple[Path, Path]:
    """The Swiss example copied to ``tmp_path/t.toml``, scheduled into
    ``tmp_path/out`` with round 1's pack made: (the example's folder, out)."""
    swiss = ROOT / "examples" / "swiss-2010"
    shutil.copy(swiss / "players.csv", tmp_path / "players.csv")
    (tmp_path / "t.toml").write_text((swiss / "tournament.toml").read_text())
    out = tmp_path / "out"
    assert run("schedule", str(tmp_path / "t.toml"), "-o", str(out)).exit_code == 0
    assert run("round", str(tmp_path / "t.toml"), "--round", "1", "--no-almanac", "-o", str(out)).exit_code == 0
    return swiss, out


def test_a_printed_pack_is_never_orphaned_by_a_new_schedule(tmp_path):
    """round 1's pack, then schedule --replace with another seed: refused
    without --move-packs (nothing written); with it the pack is moved aside
    under a dated name (kept, never deleted) and the director told to make
    it again."""
    swiss, out = scheduled_with_round_1(tmp_path)
    old_pack = (out / "round-1" / "manifest.json").read_bytes()
    before = (out / "schedule.csv").read_bytes()
    (tmp_path / "t.toml").write_text((swiss / "tournament.toml").read_text().replace('seed = "sm2010"', 'seed = "x"'))
    res = run("schedule", str(tmp_path / "t.toml"), "--replace", "-o", str(out))
    assert res.exit_code == 2 and "round 1's pack" in res.stderr and "was made for the seating" in res.stderr
    assert (out / "schedule.csv").read_bytes() == before
    res = run("schedule", str(tmp_path / "t.toml"), "--replace", "--move-packs", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "round 1's pack was made for the old seating: moved to" in res.stderr and "make it again" in res.stderr
    moved = list(out.glob("round-1.before-*"))
    assert len(moved) == 1 and (moved[0] / "manifest.json").read_bytes() == old_pack
    assert not (out / "round-1").exists() and (out / "schedule.csv").read_bytes() != before


def test_replanning_with_the_same_seating_leaves_the_pack(tmp_path):
    _, out = scheduled_with_round_1(tmp_path)
    res = run("schedule", str(tmp_path / "t.toml"), "--replace", "-o", str(out))
    assert res.exit_code == 0 and (out / "round-1" / "manifest.json").is_file() and "moved" not in res.stderr


def test_a_broken_installation_is_an_environment_error_not_a_bug(monkeypatch, tmp_path):
    from setupgen.core import data
    from setupgen.tournament import known

    real = data.data_dir
    monkeypatch.setattr(known, "data_dir", lambda name: real("designs-gone"))
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"g{i:02d},G {i}\n" for i in range(1, 33)))
    (tmp_path / "t.toml").write_text(
        'name = "Golfers"\nseed = "golf"\nplayers = "players.csv"\n' + '[[rounds]]\nscenario = "base-3-4"\n' * 10
    )
    res = run("schedule", str(tmp_path / "t.toml"), "-o", str(tmp_path / "out"))  # 8 tables of 4: a known design
    assert res.exit_code == 2, res.output
    assert res.stderr.strip() == (
        "error: setupgen's data folder 'designs-gone' is missing: the installation is broken; install setupgen again"
    )
    assert not (tmp_path / "out").exists()


def test_a_refused_serve_leaves_the_folder_as_it_found_it(tmp_path):
    from setupgen.console import day as consoleday
    from setupgen.core.errors import SetupgenError

    swiss = ROOT / "examples" / "swiss-2010" / "tournament.toml"
    out = tmp_path / "out"
    out.mkdir()
    (out / "tournament.db").write_bytes(b"this is not a database" * 100)
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(SetupgenError):
        consoleday.open_day(swiss, out)
    assert sorted(p.name for p in out.iterdir()) == before


@pytest.mark.parametrize(
    "args",
    [
        ["board", "--numbers", "y" * 10000],
        ["board", "--lang", "z" * 10000],
        ["round", str(ROOT / "examples" / "swiss-2010" / "tournament.toml"), "--round", "9" * 4000],
    ],
)
def test_a_huge_value_is_not_echoed_whole(tmp_path, args):
    res = run(*args, "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and len(res.stderr) < 600 and "characters left out" in res.stderr, res.stderr[:300]
    assert len(res.stderr.strip().splitlines()) == 1 and not (tmp_path / "out").exists()


def test_the_cli_day_reads_the_packs_results_files(tmp_path):
    """schedule, round 1's pack, its results-round-1.csv filled in place,
    then standings with no results file: read from the pack. A game typed
    differently in two files is refused naming both."""
    from setupgen.tournament import jobs, model

    swiss = ROOT / "examples" / "swiss-2010" / "tournament.toml"
    out = tmp_path / "out"
    assert run("schedule", str(swiss), "-o", str(out)).exit_code == 0
    assert run("round", str(swiss), "--round", "1", "--no-almanac", "-o", str(out)).exit_code == 0
    t = model.load(swiss)
    sched = jobs.current_schedule(t, out)
    blank = out / "round-1" / "results-round-1.csv"
    lines = blank.read_text().splitlines()
    filled, seat = [lines[0]], 0
    for line in lines[1:]:
        cells = line.split(",")
        table = int(cells[1])
        first = sched.table(1, table)[0] == cells[2]
        cells[-2:] = ["10" if first else "5", "yes" if first else "no"]
        filled.append(",".join(cells))
        seat += 1
    blank.write_text("\n".join(filled) + "\n")
    res = run("standings", str(swiss), "-o", str(out))
    assert res.exit_code == 0, res.output
    assert (out / "standings.csv").read_text().count("\n") == 1 + len(t.players)
    other = filled[:2] + [filled[2].replace(",5,no", ",6,no")]
    (out / "results.csv").write_text(
        "round,table,player,vp,winner\n"
        + "\n".join(",".join(c for i, c in enumerate(r.split(",")) if i != 3) for r in other[1:])
        + "\n"
    )
    res = run("standings", str(swiss), "-o", str(out))
    assert res.exit_code == 2 and "has other values in" in res.stderr and "results-round-1.csv" in res.stderr


def test_the_folder_lock_on_windows_uses_msvcrt_and_waits_on(tmp_path, monkeypatch):
    """We cannot run Windows here: a stand-in msvcrt that is busy twice (its
    10-second wait given up) and then grants the lock; the lock is taken on
    the file's first byte, and the wait goes on until then."""
    import types

    calls = []

    def locking(fd, mode, nbytes):
        calls.append((mode, nbytes, os.lseek(fd, 0, os.SEEK_CUR)))
        if len(calls) < 3:
            raise OSError(36, "Resource deadlock avoided")

    monkeypatch.setitem(sys.modules, "msvcrt", types.SimpleNamespace(locking=locking, LK_LOCK=1))
    fd = os.open(tmp_path / "lock", os.O_RDWR | os.O_CREAT)
    os.write(fd, b"x")
    try:
        atomic.lock_fd(fd, system="nt")
    finally:
        os.close(fd)
    assert calls == [(1, 1, 0)] * 3


def test_the_folder_lock_excludes_another_process(tmp_path):
    """POSIX: a second process waits for the lock the first holds."""
    code = (
        "import sys, time; from setupgen.core import atomic\n"
        "with atomic.folder_lock(sys.argv[1]):\n    print('in', flush=True); time.sleep(1.0)\n"
    )
    first = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert first.stdout.readline().strip() == "in"
    import time

    start = time.monotonic()
    with atomic.folder_lock(tmp_path):
        waited = time.monotonic() - start
    first.wait(10)
    assert waited > 0.5


def test_a_console_worker_ends_when_the_console_is_killed(tmp_path):
    """kill -9 of the console while its worker runs a long task: the worker
    sees its parent gone and ends within seconds (it used to run for good)."""
    import time

    code = (
        "import time\nfrom setupgen.console import worker\n"
        "tasks = worker.Tasks()\nex = tasks.executor()\nfut = ex.submit(time.sleep, 120)\n"
        "time.sleep(1.0)\nprint(*ex._processes, flush=True)\ntime.sleep(120)\n"
    )
    console = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    pids = [int(p) for p in console.stdout.readline().split()]
    assert pids
    console.kill()
    console.wait(10)
    deadline = time.monotonic() + 10
    alive = pids
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [
            p
            for p in pids
            if Path(f"/proc/{p}").exists() and "Z" not in Path(f"/proc/{p}/stat").read_text().split(")")[-1].split()[:1]
        ]
    assert alive == [], "the worker outlived its console"


def test_pools_spawn_where_fork_is_unsafe_and_give_the_same_bytes(monkeypatch, tmp_path):
    """Workers fork on Linux and spawn where forking is unsafe (macOS,
    after cairo or threads; Windows has no fork; a process running threads,
    the console): a round pack made by spawned workers (layouts, boards,
    almanac requests pickled) is byte for byte the one forked workers
    make (issue 48, part 3; issue 46)."""
    from setupgen.core import parallel
    from setupgen.render import batch

    assert parallel.start_method() == ("fork" if sys.platform.startswith("linux") else "spawn")
    assert parallel.start_method(threads=True) == "spawn"
    with monkeypatch.context() as m:
        m.setattr(sys, "platform", "darwin")
        assert parallel.start_method() == "spawn"
    monkeypatch.setenv("SETUPGEN_WORKERS", "2")
    args = ("round", "--tables", str(batch.MIN_PARALLEL), "--seed", "spawned", "--scenario", "seafarers-sm2010")
    used: list[str] = []
    real = parallel.start_pool

    def recorded(*a, method=None, **k):
        used.append(parallel.start_method() if method is None else method)
        return real(*a, method=method, **k)

    monkeypatch.setattr(parallel, "start_pool", recorded)
    assert run(*args, "-o", str(tmp_path / "forked")).exit_code == 0
    monkeypatch.setattr(parallel, "start_method", lambda threads=False: "spawn")
    assert run(*args, "-o", str(tmp_path / "spawned")).exit_code == 0
    assert used == ["fork", "fork", "spawn", "spawn"]  # the sheets' pool and the key's, each time
    for name in ("round.pdf", "key.pdf", "manifest.json"):
        assert (tmp_path / "forked" / name).read_bytes() == (tmp_path / "spawned" / name).read_bytes(), name


def test_no_results_anywhere_names_no_option_the_user_did_not_give(tmp_path):
    studio = str(ROOT / "examples" / "catan-studio" / "tournament.toml")
    assert run("schedule", studio, "-o", str(tmp_path / "out")).exit_code == 0
    before = sorted(p.name for p in (tmp_path / "out").iterdir())
    res = run("finals", studio, "-o", str(tmp_path / "out"))
    assert res.exit_code == 2 and res.stderr.startswith("error: no results yet: fill in the round packs'")
    assert "--results" not in res.stderr and sorted(p.name for p in (tmp_path / "out").iterdir()) == before


@pytest.mark.parametrize("command", ["standings", "finals", "placings"])
def test_ranking_commands_never_plan_a_schedule_they_were_not_asked_for(tmp_path, command):
    """standings -o OTHER with no schedule there: refused, nothing written
    (it used to plan one silently and rank results against it)."""
    swiss = str(ROOT / "examples" / "swiss-2010" / "tournament.toml")
    (tmp_path / "results.csv").write_text("round,table,player,vp,winner\n")
    res = run(command, swiss, str(tmp_path / "results.csv"), "-o", str(tmp_path / "other"))
    assert res.exit_code == 2 and res.stderr == (
        f"error: no schedule in '{tmp_path / 'other'}': the rounds are ranked by the saved schedule.csv of the "
        "tournament folder they were played from; plan it there first\n"
    )
    assert not (tmp_path / "other").exists()


@pytest.mark.parametrize(
    "setup_id,line",
    [
        # hand-encoded: Luhn mod 32 check characters from docs/format.md (SF, SS = swap/shuffled ...)
        (
            "SFSS-0000-0000-C1S6",
            "error: --setup-id: setup id 'SFSS-0000-0000-C1S6': its harbor letter S (shuffled) "
            "does not fit: scenario 'seafarers-sm2010' has no fixed harbor places",
        ),
        (
            "SFUX-0000-0000-C1SA",
            "error: --setup-id: setup id 'SFUX-0000-0000-C1SA': its harbor letter X (fixed) "
            "does not fit: scenario 'seafarers-sm2010' does not fix its harbors",
        ),
        (
            "SFPF-0000-0000-C1SP",
            "error: --setup-id: setup id 'SFPF-0000-0000-C1SP': its number letter P (spiral) "
            "does not fit: scenario 'seafarers-sm2010' has no spiral order",
        ),
        ("ZQSS-0000-0000-C1SJ", "error: --setup-id: setup id 'ZQSS-0000-0000-C1SJ': no scenario has the code 'ZQ'"),
    ],
)
def test_a_setup_ids_letters_are_named_as_the_id_not_as_options_never_given(tmp_path, setup_id, line):
    res = run("board", "--setup-id", setup_id, "-o", str(tmp_path / "b.json"))
    assert res.exit_code == 2 and res.stderr.strip() == line, res.stderr
    assert "--harbors" not in res.stderr and "--numbers" not in res.stderr and not list(tmp_path.iterdir())


def test_the_setup_ids_in_the_table_above_are_well_formed():
    """The IDs above pass their check character (so the test reaches the
    method letters): the check is Luhn mod 32, recomputed here by hand."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    for text in ("SFSS-0000-0000-C1S6", "SFUX-0000-0000-C1SA", "SFPF-0000-0000-C1SP", "ZQSS-0000-0000-C1SJ"):
        chars = text.replace("-", "")
        values = [alphabet.index(c) if c in alphabet else ord(c) % 32 for c in chars[:-1]][::-1]
        doubled = [(2 * v) // 32 + (2 * v) % 32 for v in values[0::2]]
        assert alphabet[-(sum(doubled) + sum(values[1::2])) % 32] == chars[-1]


def _readme_day() -> list[str]:
    """The lines of the README's "Tournament day on the command line" block."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Tournament day on the command line", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()


def _fill_in(path: Path) -> None:
    """VP and winner typed into a pack's results rows, as a director would:
    at each table the first player wins with the round's threshold (10 base,
    12 Seafarers, 13 the final), the others 2 to 9 by seat."""
    import csv

    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    threshold = {"3": 12, "final": 13}.get(rows[0]["round"], 10)
    first: set[str] = set()
    for k, row in enumerate(rows):
        won = row["table"] not in first
        first.add(row["table"])
        row["vp"], row["winner"] = (str(threshold), "yes") if won else (str(2 + k % 8), "no")
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_the_readme_cli_day_runs_as_written(tmp_path, monkeypatch):
    """Every line of the README's command-line day, run from a folder that
    holds a copy of the examples: each command exits 0 and names the
    absolute paths it wrote; the placings come out of the final typed into
    the finals pack, with no results file ever given."""
    import shlex

    shutil.copytree(ROOT / "examples" / "swiss-2010", tmp_path / "examples" / "swiss-2010")
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "output" / "Schweizer-Catan-Meisterschaft-2010"
    env: dict[str, str] = {}
    ran = []
    for line in _readme_day():
        if line.startswith("# fill in "):
            _fill_in(folder / line.removeprefix("# fill in ").strip())
            continue
        words = shlex.split(line, comments=True)
        if len(words) == 1 and "=" in words[0]:
            key, value = words[0].split("=", 1)
            env[key] = value
            continue
        assert words[0] == ".venv/bin/setupgen", line
        args = [env.get(w[1:], w) if w.startswith("$") else w for w in words[1:]]
        res = run(*args)
        assert res.exit_code == 0, (line, res.stderr)
        wrote = [ln for ln in res.stderr.splitlines() if ln.startswith("wrote ")]
        assert wrote and all(ln.split()[1].startswith(str(folder) + os.sep) for ln in wrote), (line, res.stderr)
        ran.append(args[0])
    assert ran == [
        "schedule",
        "round",
        "standings",
        "round",
        "entry",
        "schedule",
        "round",
        "standings",
        "finals",
        "placings",
    ]
    placings = (folder / "placings.csv").read_text(encoding="utf-8").splitlines()
    final = (folder / "final" / "results-final-blank.csv").read_text(encoding="utf-8").splitlines()[1:]
    winners = [row.split(",")[2] for row in final if row.endswith(",yes")]
    assert len(placings) == 1 + 48 and sorted(r.split(",")[1] for r in placings[1:3]) == sorted(winners)
    assert "ch07" not in {
        r.split(",")[2] for r in (folder / "schedule.csv").read_text().splitlines()[1:] if r.startswith("3,")
    }
    (folder / "results-final.csv").write_text(
        "round,table,player,name,vp,winner\n" + "\n".join([final[0].rsplit(",", 2)[0] + ",12,no"] + final[1:]) + "\n",
        encoding="utf-8",
    )
    res = run("placings", "examples/swiss-2010/tournament.toml")
    assert res.exit_code == 2 and "has other values in" in res.stderr, res.stderr
    shown = Path("output") / folder.name  # as the tournament folder was given: relative to where it ran
    assert res.stderr == (
        f"error: round final table 1 player {final[0].split(',')[2]} has other values in "
        f"'{shown / 'final' / 'results-final-blank.csv'}' than in "
        f"'{shown / 'results-final.csv'}'; keep one\n"
    )


@pytest.mark.parametrize(
    "args,written",
    [
        (["board", "--seed", "x", "-o", "b.pdf"], ["b.pdf", "b-almanac.pdf"]),
        (["board", "--seed", "x", "--no-almanac", "-o", "b.svg"], ["b.svg"]),
        (["board", "--seed", "x", "--format", "jsonl", "--count", "2", "-o", "b.jsonl"], ["b.jsonl"]),
        (["stats", "{board}", "-o", "s.json"], ["s.json"]),
        (["survey", "--count", "20", "--plot", "plot"], ["plot.svg", "plot.png"]),
    ],
)
def test_every_wrote_line_names_absolute_paths(tmp_path, monkeypatch, args, written):
    """Run from the folder the files go to, with relative names: the line
    names them absolutely (a director runs commands from anywhere)."""
    (tmp_path / "one.json").write_text((ROOT / "tests" / "golden" / "base-3-4-demo.json").read_text())
    monkeypatch.chdir(tmp_path)
    res = run(*[a.replace("{board}", "one.json") for a in args])
    assert res.exit_code == 0, res.stderr
    line = next(ln for ln in res.stderr.splitlines() if ln.startswith("wrote "))
    named = [w for w in line.split() if w.startswith(os.sep)]
    present = [str(tmp_path / name) for name in written if (tmp_path / name).exists()]
    assert present and all(p in named for p in present), line
    assert not any(w in line.split() for w in written)  # never the bare relative name
