"""What the tests that signal a running command share: waiting until the
command has provably started its work (issue 41), instead of sleeping a
fixed time that a loaded machine can outrun."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path


def children(pid: int) -> list[int]:
    """The ids of ``pid``'s child processes (Linux: ``/proc/PID/task/*/children``)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # the task ended meanwhile
            continue
    return out


def wait_for_workers(proc: subprocess.Popen, timeout: float = 120.0) -> None:
    """Wait until ``proc`` has forked a worker process: by then its signal
    handlers are in place (they are set before any command runs) and its
    work has begun. Fails when it ends first or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not children(proc.pid):
        if proc.poll() is not None:
            raise AssertionError(f"the command ended (exit {proc.returncode}) before it started a worker")
        if time.monotonic() > deadline:
            raise AssertionError(f"no worker process after {timeout} s")
        time.sleep(0.01)
