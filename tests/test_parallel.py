"""Worker pools that never outlive their caller (issue 41: found while
making the signal tests independent of the machine's load).

A signal that landed while a pool was forking its workers left a worker
running its caller's handler, a pool half made and, once the caller had
exited, an orphaned worker holding the caller's standard output open for
good (``setupgen survey`` then never seemed to end). Now the signals are
held while the workers are forked, and every worker ends itself when the
process that started it is gone."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from setupgen.core import parallel

ROOT = Path(__file__).resolve().parent.parent


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] if Path(f"/proc/{pid}").exists() else "X"
    return state not in ("Z", "X")  # a zombie has ended


class Stop(BaseException):
    pass


def test_a_signal_while_the_workers_are_forked_is_raised_once_the_pool_is_ended(monkeypatch):
    real = multiprocessing.context.ForkContext.Pool
    made = []

    def pool_then_signal(self, *args, **kwargs):
        pool = real(self, *args, **kwargs)
        made.append(pool)
        os.kill(os.getpid(), signal.SIGTERM)  # arrives while the workers are forked: held
        time.sleep(0.05)
        return pool

    def handler(_signum, _frame):
        raise Stop()

    monkeypatch.setattr(multiprocessing.context.ForkContext, "Pool", pool_then_signal)
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        with pytest.raises(Stop):
            parallel.start_pool(2)
    finally:
        signal.signal(signal.SIGTERM, previous)
    (pool,) = made
    pids = [w.pid for w in pool._pool]
    assert len(pids) == 2 and not any(alive(p) for p in pids)  # the pool was ended before the signal was raised
    assert signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # nothing left blocked


def test_a_pool_made_without_a_signal_works_and_leaves_nothing_blocked():
    pool = parallel.start_pool(1)
    try:
        assert pool.apply(os.getpid) != os.getpid()
    finally:
        pool.terminate()
        pool.join()
    assert not set(parallel._ENDING) & set(signal.pthread_sigmask(signal.SIG_BLOCK, []))


def test_a_worker_ends_when_the_process_that_started_it_is_gone():
    # the caller dies without a word (os._exit: no clean-up, as after kill -9) while its worker is busy
    # with a long job; the worker notices and ends, so the caller's output pipe closes (before, the worker
    # held it open until its job was done: here a minute, a survey's remaining boards in the field)
    code = (
        "import os, sys, time\n"
        "from setupgen.core import parallel\n"
        "pool = parallel.start_pool(1)\n"
        "print(pool.apply(os.getpid), flush=True)\n"
        "pool.apply_async(time.sleep, (60,))\n"
        "time.sleep(0.3)\n"
        "os._exit(0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30)
    worker = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(worker)


def test_workers_ignore_the_terminals_signals_and_end_on_sigterm():
    pool = parallel.start_pool(1)
    try:
        handlers = pool.apply(_handlers)
        assert handlers == {
            "SIGINT": signal.SIG_IGN,
            "SIGHUP": signal.SIG_IGN,
            "SIGTERM": signal.SIG_DFL,
            "blocked": [],
        }
    finally:
        pool.terminate()
        pool.join()


def _handlers() -> dict:
    return {
        "SIGINT": signal.getsignal(signal.SIGINT),
        "SIGHUP": signal.getsignal(signal.SIGHUP),
        "SIGTERM": signal.getsignal(signal.SIGTERM),
        "blocked": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, []) if s in parallel._ENDING),
    }
