"""Many pages at once: the page descriptions of a round's sheets are laid
out in worker processes (one per CPU this process may use, less the one
this process needs) while the calling process draws the finished ones
into the PDF, in order; ``key.pdf`` is made whole in a worker of its own.

The same input gives the same pages whatever the number of workers: each
page is a pure function of its board, layout, language, paper and context,
and results come back in the order asked. The workers are those of
:func:`setupgen.core.parallel.pool_map` (forked on Linux, spawned where
``fork`` is unsafe). ``SETUPGEN_WORKERS`` (a whole number, 0 = no worker
processes) overrides the count; fewer than :data:`MIN_PARALLEL` pages or
no spare core, and everything is laid out in this process. Before
forking, this process loads the libraries the pages need (shapely,
cairo), so the workers share them instead of loading them again.
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


def close(results: Iterator[Any]) -> None:
    """End the workers of :func:`sheets`' results (nothing for results
    laid out in this process)."""
    stop = getattr(results, "close", None)
    if stop is not None:
        stop()


def _map(fn: Callable[[Any, Any], Any], common: Any, jobs: Sequence[Any]) -> Iterator[Any]:
    """``fn(common, job)`` for every job, in order (:func:`parallel.pool_map`),
    in worker processes when it pays; the workers start at once, so they
    work while the caller goes on (their results wait in order)."""
    n = min(workers(), len(jobs))
    if len(jobs) < MIN_PARALLEL:
        n = 0
    if n and parallel.start_method() == "fork":
        _warm()
    return parallel.pool_map(fn, common, jobs, n, chunk=max(1, min(4, len(jobs) // (4 * max(1, n)))))


def _sheet(common: tuple[Layout, str, str, AlmanacRequest | None], job: tuple[Board, Any]) -> Any:
    from .almanac import render_almanac
    from .sheet import render_sheet

    layout, lang, paper, almanac = common
    board, context = job
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
    return _map(_sheet, (layout, lang, paper, almanac), list(zip(boards, contexts)))


def _apply_to(job: Any, fn: Callable[[Any], Any]) -> Any:
    return fn(job)


class Background:
    """A result computed in a worker process of its own (or at once, in
    this process, when workers are off or the job's ``size``, in pages, is
    below :data:`MIN_PARALLEL`): :meth:`result` waits for it;
    :meth:`close` ends the worker (also after an error). The job travels
    as the pool's context (forked: inherited; spawned: pickled once)."""

    def __init__(self, fn: Callable[[Any], Any], job: Any, size: int = MIN_PARALLEL) -> None:
        self._value: tuple[Any] | None = None
        self._results: Iterator[Any] | None = None
        if workers() < 1 or size < MIN_PARALLEL:
            self._value = (fn(job),)
            return
        if parallel.start_method() == "fork":
            _warm()
        self._results = parallel.pool_map(_apply_to, job, [fn], 1)

    def result(self) -> Any:
        """The value (raises what the work raised)."""
        if self._value is None:
            assert self._results is not None
            try:
                self._value = (next(self._results),)
            finally:
                self.close()
        return self._value[0]

    def close(self) -> None:
        if self._results is not None:
            close(self._results)
            self._results = None


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
