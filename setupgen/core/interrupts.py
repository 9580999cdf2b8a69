"""Signals held back while output is swapped into place (docs/cli.md,
"Signals"; README, "Exit codes, errors and your files").

A command ended by a signal must say truly what happened: "nothing was
written" only when nothing was. The renames that put finished output in
place, and the clean-up of the old copies after them, run inside
:func:`critical`: a signal handler that asks :func:`holding` first records
the signal (:func:`hold`) instead of acting on it, and the signal is
raised again as soon as the block is over, the swap complete and nothing
hidden left behind. :func:`completed` records that output is in place, so
the handler can say so.

Only the process's main thread installs handlers; state is per process
and starts empty (:func:`reset`). Nothing happens at import time.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

__all__ = ["critical", "holding", "hold", "completed", "written", "reset"]


class _State:
    """This process's held signal, critical depth and whether output was put in place."""

    def __init__(self) -> None:
        self.depth = 0
        self.pending: int | None = None
        self.written = False


_STATE = _State()


def holding() -> bool:
    """Whether a signal arriving now is to be held (inside :func:`critical`)."""
    return _STATE.depth > 0


def hold(signum: int) -> None:
    """Record ``signum`` to be raised again when the critical block ends
    (the first one held wins)."""
    if _STATE.pending is None:
        _STATE.pending = signum


def completed() -> None:
    """Record that output was put in place (a swap finished)."""
    _STATE.written = True


def written() -> bool:
    """Whether output was put in place since :func:`reset`."""
    return _STATE.written


def reset() -> None:
    """Forget held signals and written output (a command's start)."""
    _STATE.depth, _STATE.pending, _STATE.written = 0, None, False


@contextlib.contextmanager
def critical() -> Iterator[None]:
    """Hold signals for the block; a signal held is raised again (through
    the handler installed for it) once the outermost block has ended,
    however it ended."""
    _STATE.depth += 1
    try:
        yield
    finally:
        _STATE.depth -= 1
        pending = _STATE.pending
        if _STATE.depth == 0 and pending is not None:
            _STATE.pending = None
            signal.raise_signal(pending)
