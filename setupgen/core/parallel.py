"""Work spread over worker processes, its results in the order the jobs
were given: the one pool behind round packs and their key
(:mod:`setupgen.render.batch`), ``setupgen stats`` over JSON Lines and
``setupgen survey`` (docs/balance.md), and the start and stop of the
console's long-lived worker (:mod:`setupgen.console.worker`).

Each result is a pure function of its job and of a context fixed before
the workers start, so the results are the same whatever the number of
workers (none included) and however they start (:func:`start_method`:
``fork`` on Linux, ``spawn`` where ``fork`` is unsafe). ``SETUPGEN_WORKERS``
(a whole number from 0 to 64, 0 = no worker processes) sets the count;
without it there is one worker per CPU this process may use (the calling
process only hands out jobs and takes results). Jobs are taken from their
iterable as they are needed, at most :data:`AHEAD` chunks per worker
ahead of the results taken, so a long stream is read in constant memory.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .errors import SetupgenError

__all__ = [
    "spare_cores",
    "load_average",
    "workers",
    "configured",
    "cpus",
    "worker_start",
    "watch_parent",
    "start_method",
    "start_pool",
    "executor",
    "stop",
    "Pooled",
    "pool_map",
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


def start_method(threads: bool = False) -> str:
    """How worker processes start here: ``fork`` on Linux for a process
    that runs no threads of its own (the workers share the loaded
    libraries and start in milliseconds); ``spawn`` (a fresh interpreter,
    given its function and context pickled) where ``fork`` is unsafe:
    macOS (forking after cairo or threads are loaded), Windows (no
    ``fork``), and a process that runs threads (``threads``: the console's
    server). The same work gives the same bytes either way (README,
    "Dependencies")."""
    import multiprocessing

    linux = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
    return "fork" if linux and not threads else "spawn"


#: in a worker process: (function, context) its jobs run with (set by :func:`worker_start`)
_WORK: list[tuple[Callable[[Any, Any], Any], Any]] = []


def worker_start(
    parent: int, fn: Callable[[Any, Any], Any] | None, context: Any, nice: int = 0, quiet: bool = True
) -> None:
    """Every worker's start, for each pool here (:func:`start_pool`,
    :func:`executor`). With ``quiet`` the worker leaves interrupts to the
    caller, which ends the workers: Ctrl-C and a closed terminal are
    ignored, SIGTERM ends it. It ends itself once ``parent`` (the process
    that started the pool) is gone, however that ended (a signal landing
    while the pool was still starting, a kill -9), so no worker outlives
    its caller holding the caller's output open (:func:`watch_parent`);
    lowers its priority by ``nice``; keeps ``fn`` and ``context`` for its
    jobs (:func:`_run_chunk`)."""
    if quiet:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if hasattr(signal, "SIGHUP"):
            signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closed: the caller ends the workers
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _release(_ENDING)  # held while the pool started (:func:`start_pool`)
    watch_parent(parent)
    if nice:
        try:
            os.nice(nice)
        except OSError:  # not allowed here: the worker runs at the caller's priority
            pass
    if fn is not None:
        _WORK[:] = [(fn, context)]


def start_pool(
    workers: int, fn: Callable[[Any, Any], Any] | None = None, context: Any = None, *, method: str | None = None
) -> Any:
    """A ``multiprocessing`` pool of ``workers`` processes started by
    ``method`` (default :func:`start_method`), each started by
    :func:`worker_start` with ``fn`` and ``context`` (forked: inherited,
    so they need not pickle; spawned: pickled once per worker). The
    signals that end a command are held while the workers start, so none
    lands half-way (a worker forked with the caller's pending handler would
    run it, and a pool half made would be left running): one that came
    meanwhile is handled once the pool is whole, after ending it. End it
    with :func:`stop`."""
    import multiprocessing

    how = start_method() if method is None else method
    held = _ENDING - (_hold(_ENDING) or frozenset())  # the ones this call blocked (others were already)
    try:
        pool = multiprocessing.get_context(how).Pool(
            workers, initializer=worker_start, initargs=(os.getpid(), fn, context)
        )
    except BaseException:
        _release(held)
        raise
    try:
        _release(held)
    except BaseException:  # a signal came while the workers started
        stop(pool)
        raise
    return pool


def executor(*, nice: int = 0) -> Any:
    """A ``concurrent.futures`` pool of one long-lived worker process for a
    process that runs threads (the console's heavy work): started by
    ``spawn`` (:func:`start_method` with threads) and by
    :func:`worker_start` (interrupts as usual, watching this process,
    ``nice``). End it with :func:`stop`."""
    import concurrent.futures
    import multiprocessing

    return concurrent.futures.ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context(start_method(threads=True)),
        initializer=worker_start,
        initargs=(os.getpid(), None, None, nice, False),
    )


def stop(pool: Any) -> None:
    """End a pool of :func:`start_pool` at once (its workers terminated and
    waited for), or shut down an :func:`executor` (waiting for the job it
    runs, the ones queued cancelled)."""
    if hasattr(pool, "terminate"):
        pool.terminate()
        pool.join()
    else:
        pool.shutdown(wait=True, cancel_futures=True)


#: how often a worker looks whether the process that started it is still there (seconds)
WATCH_SECONDS = 0.2


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


def _run_chunk(jobs: list[Any]) -> list[Any]:
    fn, context = _WORK[-1]  # set when this worker started
    return [fn(context, job) for job in jobs]


class Pooled:
    """``fn(context, job)`` for every job, in order, computed in
    ``workers`` worker processes (:func:`start_pool`, started at once, so
    they work while the caller goes on). Jobs are taken from their
    iterable as needed, in chunks of ``chunk``, at most :data:`AHEAD`
    chunks per worker ahead of the results taken, so a long stream is read
    in constant memory; jobs and results must pickle. What ``fn`` raises is
    raised when its chunk's turn comes (an exception passed back from a
    worker loses attributes its constructor does not set, so ``fn`` should
    return problems as values). :meth:`close` ends the workers at once
    (also before the first result); the last result ends them too."""

    def __init__(
        self,
        fn: Callable[[Any, Any], Any],
        context: Any,
        jobs: Iterable[Any],
        workers: int,
        *,
        chunk: int = 1,
        method: str | None = None,
    ) -> None:
        import itertools
        from collections import deque

        it = iter(jobs)
        self._chunks: Iterator[list[Any]] = iter(lambda: list(itertools.islice(it, chunk)), [])
        self._window = AHEAD * workers
        self._pending: deque[Any] = deque()
        self._ready: deque[Any] = deque()
        self._pool: Any = start_pool(workers, fn, context, method=method)
        try:
            self._fill()
        except BaseException:
            self.close()
            raise

    def _fill(self) -> None:
        while len(self._pending) < self._window:
            chunk = next(self._chunks, None)
            if chunk is None:
                return
            self._pending.append(self._pool.apply_async(_run_chunk, (chunk,)))

    def __iter__(self) -> Pooled:
        return self

    def __next__(self) -> Any:
        if not self._ready:
            if self._pool is None or not self._pending:
                self.close()
                raise StopIteration
            try:
                self._ready.extend(self._pending.popleft().get())
                self._fill()
            except BaseException:
                self.close()
                raise
        return self._ready.popleft()

    def close(self) -> None:
        """End the workers now (nothing when they have ended)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            stop(pool)


def pool_map(
    fn: Callable[[Any, Any], Any],
    context: Any,
    jobs: Iterable[Any],
    workers: int,
    *,
    chunk: int = 1,
    method: str | None = None,
) -> Iterator[Any]:
    """``fn(context, job)`` for every job, in order: the one way setupgen
    spreads work over processes (round packs, the key, ``stats``,
    ``survey``). In :class:`Pooled` worker processes when ``workers`` is
    at least 1, else lazily in this process; either way the same results,
    as each is a pure function of its job and context. The result has a
    ``close()`` that ends the workers early."""
    if workers < 1:
        return (fn(context, job) for job in jobs)
    return Pooled(fn, context, jobs, workers, chunk=chunk, method=method)


def ordered(fn: Callable[[Any, Any], Any], context: Any, jobs: Iterable[Any], *, min_jobs: int = 2) -> Iterator[Any]:
    """:func:`pool_map` over :func:`workers` worker processes when there
    are at least ``min_jobs`` jobs (else in this process); ``context`` and
    ``fn`` travel once per worker (``spawn``: pickled), jobs and results
    one by one. Ending the iteration early ends the workers."""
    import itertools

    it = iter(jobs)
    head = list(itertools.islice(it, max(1, min_jobs)))
    n = workers() if len(head) >= min_jobs else 0
    return pool_map(fn, context, itertools.chain(head, it), n)
