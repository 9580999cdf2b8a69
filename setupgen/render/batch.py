"""Many pages at once: the page descriptions of a round's sheets are laid
out in worker processes (one per CPU this process may use, less the one
this process needs) while the calling process draws the finished ones
into the PDF, in order; ``key.pdf`` is made whole in a worker of its own.

The same input gives the same pages whatever the number of workers: each
page is a pure function of its board, layout, language, paper and context,
and results come back in the order asked. ``SETUPGEN_WORKERS`` (a whole
number, 0 = no worker processes) overrides the count; fewer than
:data:`MIN_PARALLEL` pages, no spare core, or a platform without ``fork``,
and everything is laid out in this process. Before forking, this process
loads the libraries the pages need (shapely, cairo), so the workers share
them instead of loading them again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from ..core import parallel
from ..core.almanac import AlmanacRequest
from ..core.board import Board
from ..core.layout import Layout

__all__ = ["workers", "sheets", "close", "key_document", "Background", "MIN_PARALLEL"]

#: fewer pages than this are laid out in the calling process (a worker's
#: start and the hand-over of its pages cost more CPU than it saves; below
#: about this many the wall time gains nothing either)
MIN_PARALLEL = 24


def _warm() -> None:
    """Load the libraries pages need before forking (the workers inherit
    them: a forked worker would otherwise load each again), and move every
    object so far out of the garbage collector's sight (``gc.freeze``, as
    Python's documentation advises before a fork): a collection in either
    process then no longer writes to the pages they share, which would copy
    them."""
    import gc

    import shapely  # noqa: F401  (the free-sea search of the board picture)

    from . import pdf

    pdf.cairo_module()
    gc.freeze()


def workers() -> int:
    """How many worker processes to use: ``SETUPGEN_WORKERS`` if set, else
    one less than the CPUs this process may run on (at least one when
    there are two or more; the calling process draws the PDF meanwhile),
    and none when no core is spare (:func:`setupgen.core.parallel.spare_cores`:
    one CPU, or a load average at least the CPUs' count).

    Raises :class:`SetupgenError` for a ``SETUPGEN_WORKERS`` that is not a
    whole number from 0 to 64."""
    n = parallel.configured()
    if n is None:
        return parallel.cpus() - 1 if parallel.spare_cores() else 0
    return n


#: the jobs of the running map, read by forked workers (layouts hold
#: read-only mappings that do not pickle, and need not travel: a forked
#: worker has them already)
_JOBS: list[tuple[Callable[[Any], Any], Sequence[Any]]] = []


def _run(i: int) -> Any:
    fn, jobs = _JOBS[-1]  # the worker's copy, taken when it was forked
    return fn(jobs[i])


def close(results: Iterator[Any]) -> None:
    """End the workers of :func:`sheets`' results (nothing for results
    laid out in this process)."""
    stop = getattr(results, "close", None)
    if stop is not None:
        stop()


def _map(fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]:
    """``fn(job)`` for every job, in order, in worker processes when it
    pays; the workers start at once, so they work while the caller goes
    on (their results wait in order)."""
    n = min(workers(), len(jobs))
    if n < 1 or len(jobs) < MIN_PARALLEL or not parallel.fork_safe():
        return map(fn, jobs)
    _warm()
    _JOBS.append((fn, jobs))
    try:
        pool = parallel.fork_pool(n)  # forks now: the workers see _JOBS as it is
    finally:
        _JOBS.pop()
    results = pool.imap(_run, range(len(jobs)), chunksize=max(1, min(4, len(jobs) // (4 * n))))
    return _Results(pool, results)


class _Results:
    """The results of a pool, in order; :meth:`close` ends the workers at
    once (also when the caller never started reading: a signal may come
    before the first result), and the last result closes them too."""

    def __init__(self, pool: Any, results: Iterator[Any]) -> None:
        self._pool: Any = pool
        self._results = results

    def __iter__(self) -> _Results:
        return self

    def __next__(self) -> Any:
        if self._pool is None:
            raise StopIteration
        try:
            return next(self._results)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _sheet(job: tuple) -> Any:
    from .almanac import render_almanac
    from .sheet import render_sheet

    board, layout, lang, paper, context, almanac = job
    back = (
        None
        if almanac is None
        else render_almanac(board, layout, lang=lang, paper=paper, context=context, request=almanac)
    )
    return render_sheet(board, layout, lang=lang, paper=paper, context=context), back, board.to_json()


def sheets(
    boards: Iterable[Board],
    layout: Layout,
    contexts: Iterable[Any],
    *,
    lang: str,
    paper: str,
    almanac: AlmanacRequest | None = None,
) -> Iterator[Any]:
    """``(sheet, almanac page, board JSON text)`` for each of ``boards``
    with its context, in order (the pages
    :class:`setupgen.render.canvas.SvgPage` objects, the almanac page
    None without an ``almanac`` request; the JSON without its final
    newline, as :meth:`Board.to_json`). An error of any page (an almanac
    too long) is raised when its turn comes. Call :func:`close` on the
    result when done with it early (it ends the workers)."""
    return _map(_sheet, [(b, layout, lang, paper, c, almanac) for b, c in zip(boards, contexts)])


class Background:
    """A result computed in a forked worker process (or at once, in this
    process, when workers are off or the job's ``size``, in pages, is
    below :data:`MIN_PARALLEL`): :meth:`result` waits for it;
    :meth:`close` ends the worker (also after an error)."""

    def __init__(self, fn: Callable[[Any], Any], job: Any, size: int = MIN_PARALLEL) -> None:
        self._value: Any = None
        self._pool: Any = None
        self._async: Any = None
        if workers() < 1 or size < MIN_PARALLEL or not parallel.fork_safe():
            self._value = (fn(job),)
            return
        _warm()
        _JOBS.append((fn, [job]))
        try:
            self._pool = parallel.fork_pool(1)
        finally:
            _JOBS.pop()
        self._async = self._pool.apply_async(_run, (0,))

    def result(self) -> Any:
        """The value (raises what the work raised)."""
        if self._value is None:
            try:
                self._value = (self._async.get(),)
            finally:
                self.close()
        return self._value[0]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _key_pdf(job: tuple) -> bytes:
    from .key import render_key, render_key_summary
    from .pdf import pages_to_pdf

    boards, layout, contexts, lang, paper, title, round_, seed, notes = job
    summary = render_key_summary(
        list(enumerate(boards, start=1)), lang=lang, paper=paper, title=title, round=round_, seed=seed, notes=notes
    )
    keys = (render_key(b, layout, lang=lang, paper=paper, context=c) for b, c in zip(boards, contexts))
    return pages_to_pdf([*summary, *keys])


def key_document(
    boards: Sequence[Board],
    layout: Layout,
    contexts: Sequence[Any],
    *,
    lang: str,
    paper: str,
    title: str | None,
    round: int | None,
    seed: str | None,
    notes: Sequence[str],
) -> Background:
    """``key.pdf`` (the key summary, then one key page per board) laid out
    and drawn in a worker process of its own while the caller draws the
    round's PDF; :meth:`Background.result` gives its bytes."""
    return Background(
        _key_pdf, (list(boards), layout, list(contexts), lang, paper, title, round, seed, list(notes)), size=len(boards)
    )
