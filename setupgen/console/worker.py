"""The console's heavy work in a process of its own (``docs/console.md``,
"Heavy work"): a re-plan and a pack are pure Python, which holds the
interpreter lock, so in a thread they would stall every report; in a
worker process the console keeps answering while they run.

:class:`Tasks` runs a function in the worker (one at a time, in the order
asked) and keeps, per task, what the pages show: running, done with its
message, or failed with its reason. A domain error in the worker comes
back as its message (exceptions do not always survive pickling); any
other error as "internal error". The worker is started on first use by
:func:`setupgen.core.parallel.executor` (``spawn``: a fresh interpreter,
nothing of the console's threads or database connections), and stopped by
:func:`setupgen.core.parallel.stop`, as every pool of setupgen.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import parallel
from ..core.errors import SetupgenError

__all__ = ["Task", "Tasks", "in_worker"]


def in_worker(fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """Run ``fn(*args)`` (in the worker): ``("ok", result)``, or
    ``("refused", message)`` for a :class:`SetupgenError`."""
    try:
        return "ok", fn(*args)
    except SetupgenError as exc:
        return "refused", str(exc)


@dataclass
class Task:
    """One piece of heavy work: ``label`` (``re-plan from round 3``),
    ``state`` (``running``, ``done``, ``failed``), the ``message`` the page
    shows when it ended (English), the ``facts`` a page words it from in the
    event's language (e.g. ``{"pdf": …, "tables": 12}``), and when it
    started and ended (Unix times)."""

    id: int
    label: str
    #: what the task is about, for the page that shows it (``("pack", 3)``, ``("replan",)``)
    about: tuple = ()
    state: str = "running"
    message: str = ""
    facts: dict = field(default_factory=dict)
    started: float = field(default_factory=time.time)
    ended: float | None = None
    done: threading.Event = field(default_factory=threading.Event, repr=False)

    def outcome(self) -> str:
        """Wait for the task; its message when done. Raises
        :class:`SetupgenError` with its reason when it failed."""
        self.done.wait()
        if self.state != "done":
            raise SetupgenError(self.message)
        return self.message

    def finish(self, state: str, message: str) -> None:
        """End the task (``done`` or ``failed``) with ``message``."""
        self.state, self.message, self.ended = state, message, time.time()
        self.done.set()


class Tasks:
    """The worker and its tasks. ``executor``: where the work runs (default
    a one-process pool, started on first use; a test may give a thread
    pool). ``keep``: how many ended tasks are remembered."""

    def __init__(self, executor: concurrent.futures.Executor | None = None, keep: int = 20) -> None:
        self._executor = executor
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.tasks: dict[int, Task] = {}
        self.keep = keep

    def executor(self) -> concurrent.futures.Executor:
        """The worker pool, started when first needed."""
        with self._lock:
            if self._executor is None:
                # spawned (the console runs threads), nice 10 so a re-plan on a shared core does not slow the
                # reports, ending itself when the console is gone however it died (issue 46)
                self._executor = parallel.executor(nice=10)
            return self._executor

    def start(
        self,
        label: str,
        fn: Callable[..., Any],
        args: tuple,
        then: Callable[[Any], str | tuple[str, dict]],
        failed: Callable[[str], None] = lambda _why: None,
        about: tuple = (),
        facts: dict | None = None,
    ) -> Task:
        """Run ``fn(*args)`` in the worker; when it returns, ``then(result)``
        runs here (in a thread of this process) and its text is the task's
        message (or its ``(text, facts)``: :attr:`Task.facts`); when it is refused or fails, ``failed(why)`` runs and the
        task fails with the reason. ``about``: what it is about
        (:meth:`latest`); ``facts``: what a page may word before it ends
        (:attr:`Task.facts`, the done ones added). Returns the task (running)."""
        task = Task(next(self._ids), label, about, facts={} if facts is None else dict(facts))
        with self._lock:
            self.tasks[task.id] = task
            for old in sorted(self.tasks)[: -self.keep]:
                if self.tasks[old].state != "running":
                    del self.tasks[old]
        future = self.executor().submit(in_worker, fn, *args)
        future.add_done_callback(lambda f: self._ended(task, f, then, failed))
        return task

    def _ended(
        self,
        task: Task,
        future: concurrent.futures.Future,
        then: Callable[[Any], str | tuple[str, dict]],
        failed: Callable[[str], None],
    ) -> None:
        try:
            kind, value = future.result()
            if kind == "ok":
                said = then(value)
                if isinstance(said, tuple):
                    said, more = said
                    task.facts = {**task.facts, **more}
                task.finish("done", said)
                return
            why = str(value)
        except SetupgenError as exc:  # refused by then()
            why = str(exc)
        except BaseException as exc:  # a bug, or the worker died
            why = f"internal error ({type(exc).__name__}: {str(exc)[:200]})"
        try:
            failed(why)
        finally:
            task.finish("failed", why)

    def get(self, task_id: int) -> Task | None:
        """The task of ``task_id`` (None when unknown or forgotten)."""
        return self.tasks.get(task_id)

    def latest(self, about: tuple, within: float = 300.0) -> Task | None:
        """The newest task about ``about`` that is running or ended less than
        ``within`` seconds ago (what its page shows), else None."""
        now = time.time()
        found = [t for t in self.tasks.values() if t.about == about and (t.ended is None or now - t.ended < within)]
        return max(found, key=lambda t: t.id) if found else None

    def running(self) -> list[Task]:
        """The tasks still running, oldest first."""
        return [t for t in self.tasks.values() if t.state == "running"]

    def close(self) -> None:
        """Stop the worker (waiting for the task it runs)."""
        with self._lock:
            if self._executor is not None:
                parallel.stop(self._executor)
                self._executor = None
