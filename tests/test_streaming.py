"""JSONL batches stream (issue 10, point 9): ``board --format jsonl
--count N -o FILE`` writes through the atomic temporary file chunk by chunk
in constant memory, with the same bytes as ``-o -`` and as the whole file
built at once, and every guarantee of :mod:`setupgen.core.atomic` kept: a
failure or a signal part way leaves neither the target nor a temporary
file, a file setupgen wrote stays as it was, a file of someone else's is
never touched, a full disk is one error line."""

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import one_error
from typer.testing import CliRunner

from setupgen.cli import app
from setupgen.core import atomic
from setupgen.core.errors import SetupgenError
from setupgen.render import export

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ["stream", "Zürich", "東京/1", "a b"]
OLD = '{"format":"setupgen.board/1","scenario":"base-3-4","seed":"old"}\n'  # a file setupgen wrote


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def jsonl_args(seed: str, count: int, out: str, scenario: str = "base-3-4") -> list[str]:
    return ["board", "--scenario", scenario, "--seed", seed, "--format", "jsonl", "--count", str(count), "-o", out]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# -- the same bytes everywhere ----------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("scenario", ["base-3-4", "seafarers-sm2010"])
def test_file_equals_stdout_equals_the_whole_batch(tmp_path, seed, scenario):
    count = 40  # > 2 chunks of export.CHUNK_BYTES
    out = tmp_path / "b.jsonl"
    to_file = run(*jsonl_args(seed, count, str(out), scenario))
    assert to_file.exit_code == 0, to_file.output
    to_stdout = run(*jsonl_args(seed, count, "-", scenario))
    assert to_stdout.exit_code == 0, to_stdout.output
    whole = "".join(export.iter_jsonl(scenario, seed, count)).encode("utf-8")  # how the file was made before
    assert out.read_bytes() == to_stdout.stdout_bytes == whole
    assert len(whole) > 2 * export.CHUNK_BYTES and whole.isascii()
    assert leftovers(tmp_path) == []


def test_file_equals_stdout_in_a_real_process(tmp_path):
    out = tmp_path / "b.jsonl"
    args = [sys.executable, "-m", "setupgen", *jsonl_args("Zürich", 60, str(out))]
    made = subprocess.run(args, cwd=ROOT, capture_output=True)
    assert made.returncode == 0 and made.stderr.decode().strip() == f"wrote {out}"
    piped = subprocess.run([*args[:-1], "-"], cwd=ROOT, capture_output=True)
    assert piped.returncode == 0 and piped.stderr == b""
    assert out.read_bytes() == piped.stdout and len(piped.stdout.splitlines()) == 60
    assert b"Z\\u00fcrich/60" in piped.stdout


def test_chunks_join_to_the_lines():
    lines = [f"{i:0{i % 7 + 1}d}\n" for i in range(5000)]
    chunks = list(export.chunked(lines, size=100))
    assert b"".join(chunks) == "".join(lines).encode()
    assert all(100 <= len(c) < 108 for c in chunks[:-1]) and chunks[-1]
    assert list(export.chunked([])) == []


# -- failures part way --------------------------------------------------------------


def failing_after(monkeypatch, boards: int, error: BaseException, folder: Path):
    """Make ``board_output`` yield ``boards`` real lines, check that the
    temporary file is being written, then raise ``error``."""
    real = export.iter_jsonl

    def broken(*args, **kw):
        lines = real(*args, **kw)
        for _ in range(boards):
            yield next(lines)
        (tmp,) = [folder / name for name in leftovers(folder)]
        assert tmp.stat().st_size > 0  # the stream was on its way to the file
        raise error

    monkeypatch.setattr(export, "iter_jsonl", broken)


@pytest.mark.parametrize("existing", [False, True])
def test_an_error_part_way_leaves_nothing(tmp_path, monkeypatch, existing):
    out = tmp_path / "b.jsonl"
    if existing:
        out.write_text(OLD)
    failing_after(monkeypatch, 40, SetupgenError("the tenth board broke"), tmp_path)
    assert one_error(run(*jsonl_args("s", 100, str(out)))) == "error: the tenth board broke"
    assert leftovers(tmp_path) == []
    assert (out.read_text() == OLD) if existing else not out.exists()


def test_a_bug_part_way_leaves_nothing(tmp_path, monkeypatch):
    out = tmp_path / "b.jsonl"
    out.write_text(OLD)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    failing_after(monkeypatch, 40, ZeroDivisionError("a bug"), tmp_path)
    assert "internal error" in one_error(run(*jsonl_args("s", 100, str(out))), code=3)
    assert leftovers(tmp_path) == [] and out.read_text() == OLD


class _FullDisk:
    """A file that takes ``room`` bytes, then fails like a full disk (on
    write, and again on the flush of close, as a real one does)."""

    def __init__(self, fh, room: int) -> None:
        self.fh, self.room = fh, room

    def write(self, data) -> int:
        self.room -= len(data)
        if self.room < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self.fh.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.fh.close()
        if self.room < 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("existing", [False, True])
def test_disk_full_part_way_is_one_error_and_leaves_nothing(tmp_path, monkeypatch, existing):
    out = tmp_path / "b.jsonl"
    if existing:
        out.write_text(OLD)
    real = os.fdopen
    monkeypatch.setattr(atomic.os, "fdopen", lambda fd, *a, **kw: _FullDisk(real(fd, *a, **kw), 100_000))
    line = one_error(run(*jsonl_args("s", 100, str(out))))
    monkeypatch.setattr(atomic.os, "fdopen", real)
    assert line == f"error: cannot write '{out}': No space left on device"
    assert leftovers(tmp_path) == []
    assert (out.read_text() == OLD) if existing else not out.exists()


def test_a_full_device_is_one_error():
    res = subprocess.run(
        [sys.executable, "-m", "setupgen", *jsonl_args("s", 30, "/dev/full")], cwd=ROOT, capture_output=True, text=True
    )
    assert res.returncode == 2 and res.stderr.strip() == "error: cannot write '/dev/full': No space left on device"


def test_someone_elses_file_is_refused_before_any_board_is_made(tmp_path, monkeypatch):
    out = tmp_path / "b.jsonl"
    out.write_text("my notes\n")
    monkeypatch.setattr(export, "iter_jsonl", lambda *a, **k: pytest.fail("a board was made"))
    assert "setupgen did not write it" in one_error(run(*jsonl_args("s", 100, str(out))))
    assert out.read_text() == "my notes\n" and leftovers(tmp_path) == []


@pytest.mark.parametrize(
    "sig,code,word",
    [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted"), (signal.SIGHUP, 129, "hung up")],
)
def test_a_signal_part_way_leaves_the_old_file(tmp_path, sig, code, word):
    out = tmp_path / "b.jsonl"
    out.write_text(OLD)
    proc = subprocess.Popen(
        [sys.executable, "-m", "setupgen", *jsonl_args("s", 100_000, str(out))],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not any(p.stat().st_size > 0 for p in tmp_path.glob(".*.tmp")) and time.monotonic() < deadline:
        time.sleep(0.05)  # until the temporary file is being written
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err
    assert err.strip() == f"error: {word}; nothing was written"
    assert leftovers(tmp_path) == [] and out.read_text() == OLD


# -- the library call -----------------------------------------------------------


def test_write_stream_raises_an_error_of_the_chunks_as_it_is(tmp_path):
    def chunks():
        yield b'{"format":"setupgen.board/1"}\n'
        raise FileNotFoundError(errno.ENOENT, "a layout went away")

    with pytest.raises(FileNotFoundError, match="a layout went away"):
        atomic.write_stream(tmp_path / "b.jsonl", chunks())
    assert list(tmp_path.iterdir()) == []


def test_write_files_takes_streamed_files_too(tmp_path):
    atomic.write_files(
        tmp_path, {"a.csv": b"round,table,seat,player\n", "b.jsonl": (b'{"format":"setupgen.board/1"', b"}\n")}
    )
    assert (tmp_path / "b.jsonl").read_bytes() == b'{"format":"setupgen.board/1"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.jsonl"]


# -- memory ---------------------------------------------------------------------

# a fresh process runs setupgen and reports its peak RSS, so no earlier child
# of the test process counts (RUSAGE_CHILDREN keeps the largest child)
PEAK = r"""
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_mib(tmp_path: Path, count: int) -> float:
    out = tmp_path / f"b{count}.jsonl"
    done = subprocess.run(
        [sys.executable, "-c", PEAK, sys.executable, "-m", "setupgen", *jsonl_args("mem", count, str(out))],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert len(out.read_bytes().splitlines()) == count
    return int(done.stdout) / 1024  # ru_maxrss: KiB on Linux


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
def test_memory_does_not_grow_with_the_count(tmp_path):
    few, many = peak_mib(tmp_path, 10), peak_mib(tmp_path, 3000)  # 3000 boards: 12 MB of JSONL
    assert many - few < 8, (few, many)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss in KiB is Linux's")
def test_twenty_thousand_boards_stay_small(tmp_path):
    assert peak_mib(tmp_path, 20_000) < 60  # 80 MB of JSONL; about 34 MiB measured
