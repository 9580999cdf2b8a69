"""Work spread over forked worker processes, its results in the order the
jobs were given (``setupgen stats`` over JSON Lines, ``setupgen survey``;
docs/balance.md).

Each result is a pure function of its job and of a context fixed before
the workers start, so the results are the same whatever the number of
workers (none included). ``SETUPGEN_WORKERS`` (a whole number from 0 to
64, 0 = no worker processes) sets the count, as it does for round packs;
without it there is one worker per CPU this process may use (the calling
process only hands out jobs and takes results). Jobs are taken from their
iterable as they are needed, at most :data:`AHEAD` per worker ahead of
the results taken, so a long stream is read in constant memory.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import SetupgenError

__all__ = [
    "spare_cores",
    "load_average",
    "workers",
    "configured",
    "cpus",
    "quiet_worker",
    "fork_safe",
    "watch_parent",
    "fork_pool",
    "ordered",
    "AHEAD",
]

#: jobs handed out per worker ahead of the results taken
AHEAD = 4


def configured() -> int | None:
    """``SETUPGEN_WORKERS`` as a count, None when it is not set. Raises
    :class:`SetupgenError` for a value that is not a whole number from 0
    to 64."""
    text = os.environ.get("SETUPGEN_WORKERS")
    if text is None:
        return None
    if not text.strip().isdigit() or not 0 <= int(text) <= 64:
        raise SetupgenError(f"SETUPGEN_WORKERS must be a whole number from 0 to 64, got {text!r}")
    return int(text)


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def load_average() -> float | None:
    """The machine's load average over the last minute (runnable
    processes), None where the system has none."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system
        return None


def spare_cores() -> bool:
    """Whether a worker process would find a core of its own: more than
    one CPU this process may run on, and a load average (last minute,
    :func:`load_average`) below their count. When none is spare a worker
    only adds its start and the hand-over of its results to the same CPU
    time."""
    n = cpus()
    if n < 2:
        return False
    load = load_average()
    return load is None or load < n


def workers() -> int:
    """Worker processes to use: ``SETUPGEN_WORKERS`` if set, else the
    CPUs this process may run on (none when no core is spare,
    :func:`spare_cores`). Raises :class:`SetupgenError` as
    :func:`configured`."""
    n = configured()
    if n is None:
        return cpus() if spare_cores() else 0
    return n


#: (function, context) of the pool being started, read by its forked
#: workers (a context may hold values that do not pickle, such as layouts)
_CONTEXT: list[tuple[Callable[[Any, Any], Any], Any]] = []


def quiet_worker(parent: int | None = None) -> None:
    """Worker start: the calling process handles interrupts and ends the
    workers. With ``parent`` (the id of the process that started the
    pool) the worker also ends itself once that process is gone, however
    it ended (a signal landing while the pool was still starting, a kill
    -9): a thread looks at the worker's parent every
    :data:`WATCH_SECONDS`, so no worker outlives its caller holding the
    caller's output open."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closed: the caller ends the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _release(_ENDING)  # held while the pool was forked (:func:`fork_pool`)
    if parent is not None:
        watch_parent(parent)


#: the signals that end a command (its handlers raise; docs: README, "Exit codes")
_ENDING = frozenset(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


def _hold(signals: frozenset[int]) -> frozenset[int] | None:
    """Block ``signals`` for this thread (they wait, pending); the mask
    before, or None where the platform has no signal masks."""
    if not hasattr(signal, "pthread_sigmask"):
        return None
    return frozenset(signal.pthread_sigmask(signal.SIG_BLOCK, signals))


def _release(signals: frozenset[int] | None) -> None:
    """Unblock ``signals`` (None: nothing): one that came meanwhile is handled now."""
    if signals and hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signals)


def fork_pool(workers: int) -> Any:
    """A ``multiprocessing`` pool of ``workers`` forked processes
    (:func:`quiet_worker` each, watching this process). The signals that
    end a command are held while the workers are forked, so none lands
    half-way (a worker forked with the caller's pending handler would run
    it, and a pool half made would be left running): one that came
    meanwhile is handled once the pool is whole, after ending it. The
    caller ends the pool (``terminate``, ``join``) when done."""
    import multiprocessing

    held = _ENDING - (_hold(_ENDING) or frozenset())  # the ones this call blocked (others were already)
    try:
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=quiet_worker, initargs=(os.getpid(),))
    except BaseException:
        _release(held)
        raise
    try:
        _release(held)
    except BaseException:  # a signal came while the workers were forked
        pool.terminate()
        pool.join()
        raise
    return pool


#: how often a worker looks whether the process that started it is still there (seconds)
WATCH_SECONDS = 0.2


def fork_safe() -> bool:
    """Whether worker pools may fork here: only on Linux. Where ``fork``
    exists but is unsafe once cairo is loaded or threads run (macOS), and
    where it does not exist (Windows), the work runs in the calling process
    instead: slower, the same bytes (issue 46; README, "Dependencies")."""
    import multiprocessing
    import sys

    return sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()


def watch_parent(parent: int) -> None:
    """In a worker process: a daemon thread that ends the process at once
    when its parent is no longer ``parent`` (the caller died, however:
    a kill -9 included), so no worker outlives the process that started it."""
    import threading

    threading.Thread(target=_watch_parent, args=(parent,), name="setupgen-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    """End this worker process at once when its parent is no longer ``parent``."""
    import time

    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def _run(job: Any) -> Any:
    fn, context = _CONTEXT[-1]  # the worker's copy, taken when it was forked
    return fn(context, job)


def ordered(fn: Callable[[Any, Any], Any], context: Any, jobs: Iterable[Any], *, min_jobs: int = 2) -> Iterator[Any]:
    """``fn(context, job)`` for every job, in order: in worker processes
    (forked, so ``fn`` and ``context`` need not pickle; jobs and results
    must) when there are workers, ``fork`` is available and there are at
    least ``min_jobs`` jobs; else in this process. What ``fn`` raises is
    raised when its result's turn comes (an exception passed back from a
    worker loses attributes its constructor does not set, so ``fn``
    should return problems as values). Ending the iteration early ends
    the workers."""
    import itertools

    it = iter(jobs)
    head = list(itertools.islice(it, max(1, min_jobs)))
    n = workers()
    if n < 1 or len(head) < min_jobs or not fork_safe():
        return (fn(context, job) for job in itertools.chain(head, it))
    return _pooled(fn, context, itertools.chain(head, it), n)


def _pooled(fn: Callable[[Any, Any], Any], context: Any, jobs: Iterator[Any], n: int) -> Iterator[Any]:
    from collections import deque

    _CONTEXT.append((fn, context))
    try:
        pool = fork_pool(n)  # forks now
    finally:
        _CONTEXT.pop()
    pending: deque[Any] = deque()
    try:
        for job in jobs:
            pending.append(pool.apply_async(_run, (job,)))
            while len(pending) >= AHEAD * n:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()
