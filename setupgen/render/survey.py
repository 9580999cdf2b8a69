"""The balance survey of a scenario (``setupgen survey``; ``docs/balance.md``,
"Survey"): ``count`` boards generated without limits (board ``i``, from 1,
seeded ``<seed>/<i>``), each measured as the director sees it; the
percentiles of every scalar metric, the share of boards meeting each limit
of the ``fair`` preset, of a few common single limits and of a preset
asked for; and a histogram of the scores as a page (SVG and PNG).

Percentiles are by *nearest rank*: the ``p``-th percentile of ``n``
sorted values is the value at rank ``ceil(p * n / 100)`` (1-based), always
one of the values. Histogram bins are 2.5 points wide, ``[0, 2.5)``,
``[2.5, 5)``, … (the last holds 100). The boards are measured in worker
processes (:mod:`setupgen.core.parallel`); the result is the same
whatever their number. Lengths in mm; texts at least 8 pt.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from .. import generate as gen
from ..core import layout as layoutmod
from ..core import parallel, templates
from ..core.balance import LIMIT_NAMES, LIMIT_RESOURCES, Limits, load_preset, measure
from ..core.errors import SetupgenError, quoted
from ..core.layout import Layout
from ..core.limits import check_text
from .canvas import Surface
from .page import add_path, add_rect, add_text, drawing, finish, fit, num, text_width

__all__ = [
    "DEFAULT_SEED",
    "DEFAULT_COUNT",
    "MAX_COUNT",
    "PERCENTILES",
    "SCALARS",
    "BIN",
    "SurveyRequest",
    "Survey",
    "check_request",
    "run",
    "percentile",
    "percentiles",
    "meets",
    "limit_label",
    "summary_lines",
    "plot_page",
    "plot_paths",
    "plot_files",
]

DEFAULT_SEED = "survey"
DEFAULT_COUNT = 10_000
MAX_COUNT = 100_000
#: the percentiles reported
PERCENTILES = (5, 25, 50, 75, 95)
#: the scalar metrics surveyed (``docs/balance.md``, "Metrics"), in order
SCALARS = (
    "score",
    "resource_spread",
    "intersection_max",
    "intersection_min",
    "intersections_11",
    "largest_cluster",
    "same_terrain_pairs",
    "repeated_numbers",
    "halves_imbalance",
)
#: decimals a metric is printed with (the others are whole numbers)
DECIMALS = {"score": 1, "halves_imbalance": 4}
#: width of a histogram bin, in score points
BIN = 2.5
#: single limits always reported besides the fair preset's
COMMON = (
    Limits(max_intersection_pips=11),
    Limits(max_intersection_pips=12),
    Limits(max_intersection_pips=13),
    Limits(max_terrain_cluster=1),
    Limits(max_terrain_cluster=2),
    Limits(max_terrain_cluster=3),
)
#: boards measured as one job
JOB = 250


@dataclass(frozen=True, slots=True)
class SurveyRequest:
    """What to survey: ``count`` boards (1..:data:`MAX_COUNT`) of
    ``scenario`` with the number and harbor methods (None: the layout's
    defaults), board ``i`` seeded ``<seed>/<i>``; ``preset``: a balance
    preset (name or file) whose pass shares to report besides ``fair``."""

    scenario: str = "base-3-4"
    numbers: str | None = None
    harbors: str | None = None
    count: int = DEFAULT_COUNT
    seed: str = DEFAULT_SEED
    preset: str | None = None


@dataclass(frozen=True, slots=True)
class Survey:
    """A survey's result. ``values``: metric of :data:`SCALARS` -> its
    value on each board, in board order; ``shares``: ``(label, boards
    meeting the limit)`` in report order; ``seed``: the seeds' stem."""

    scenario: str
    number_method: str
    harbor_method: str
    count: int
    seed: str
    values: Mapping[str, tuple[float, ...]]
    shares: tuple[tuple[str, int], ...]


def check_request(req: SurveyRequest) -> tuple[Layout, str, str]:
    """The layout and the number and harbor methods of a request, checked
    before any work. Raises :class:`SetupgenError` whose ``field`` names
    the value at fault (``count``, ``seed``, ``scenario``, ``numbers``,
    ``harbors``, ``balance``)."""
    if type(req.count) is not int or not 1 <= req.count <= MAX_COUNT:
        raise SetupgenError(f"count must be between 1 and {MAX_COUNT:,}, got {quoted(req.count, 30)}", field="count")
    if not req.seed.strip():
        raise SetupgenError("the seed must not be empty", field="seed")
    check_text(f"{req.seed}/{req.count}", "the seed of the last board", field="seed")
    layout = layoutmod.load(req.scenario)
    numbers, harbors = gen.resolve_methods(layout, req.numbers, req.harbors)
    if req.preset is not None:
        load_preset(req.preset)
    return layout, numbers, harbors


def run(req: SurveyRequest) -> Survey:
    """Generate and measure the boards of ``req``. Raises
    :class:`SetupgenError` as :func:`check_request`, and
    :class:`GenerationError` should a board fail."""
    layout, numbers, harbors = check_request(req)
    jobs = [(start, min(start + JOB, req.count + 1)) for start in range(1, req.count + 1, JOB)]
    rows = [
        row for part in parallel.ordered(_measure_range, (layout, req.seed, numbers, harbors), jobs) for row in part
    ]
    values = {name: tuple(row[k] for row in rows) for k, name in enumerate(SCALARS)}
    shares = tuple(
        (label, sum(1 for row in rows if meets(_as_metrics(row), limits))) for label, limits in _limit_sets(req.preset)
    )
    return Survey(layout.name, numbers, harbors, req.count, req.seed, values, shares)


def _measure_range(context: tuple, span: tuple[int, int]) -> list[tuple]:
    """One job: the metrics of boards ``span[0]`` .. ``span[1] - 1`` as
    rows (the :data:`SCALARS`, then the pips of each of
    :data:`LIMIT_RESOURCES`)."""
    layout, seed, numbers, harbors = context
    out = []
    for i in range(*span):
        board = gen.from_seed(layout, f"{seed}/{i}", numbers, harbors)
        b = measure(board, start_barred=layout.start_barred)
        out.append(
            tuple(getattr(b, name) for name in SCALARS) + tuple(b.resource_pips.get(r, 0) for r in LIMIT_RESOURCES)
        )
    return out


def _as_metrics(row: tuple) -> dict[str, Any]:
    metrics: dict[str, Any] = dict(zip(SCALARS, row))
    metrics["resource_pips"] = dict(zip(LIMIT_RESOURCES, row[len(SCALARS) :]))
    return metrics


def meets(metrics: Mapping[str, Any], limits: Limits) -> bool:
    """Whether a board with these metrics (``largest_cluster``,
    ``intersection_max``, ``resource_pips``, ``score`` as
    :class:`~setupgen.core.balance.Balance` names them) meets every limit
    of ``limits`` (as :func:`~setupgen.core.balance.first_failure`
    decides it)."""
    if limits.max_terrain_cluster is not None and metrics["largest_cluster"] > limits.max_terrain_cluster:
        return False
    if limits.max_intersection_pips is not None and metrics["intersection_max"] > limits.max_intersection_pips:
        return False
    pips = metrics["resource_pips"]
    if any(not lo <= pips.get(r, 0) <= hi for r, lo, hi in limits.resource_pips):
        return False
    if limits.min_score is not None and metrics["score"] < limits.min_score:
        return False
    return limits.max_score is None or metrics["score"] <= limits.max_score


def _singles(limits: Limits) -> list[Limits]:
    """Each limit ``limits`` sets, alone."""
    return [Limits(**{name: getattr(limits, name)}) for name in LIMIT_NAMES if getattr(limits, name) not in (None, ())]


def limit_label(limits: Limits) -> str:
    """The limits as a preset file writes them: ``max_intersection_pips = 12``
    (several joined by ``, ``)."""
    parts = []
    for name, value in limits.to_dict().items():
        if name == "resource_pips":
            value = " ".join(f"{r} {lo}..{hi}" for r, (lo, hi) in value.items())
        parts.append(f"{name} = {value}")
    return ", ".join(parts)


def _limit_sets(preset: str | None) -> list[tuple[str, Limits]]:
    """The report's limits: each of the fair preset's and all of them,
    the common single limits, and each of ``preset``'s and all of them."""
    out: list[tuple[str, Limits]] = []
    for name in ["fair"] + ([] if preset is None else [preset]):
        limits = load_preset(name)
        label = limits.preset or name
        out += [(f"{limit_label(one)} ({label})", one) for one in _singles(limits)]
        out.append((f"{label}: all its limits", limits))
    return out + [(limit_label(one), one) for one in COMMON]


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0 < p <= 100) of ``values`` by nearest
    rank: the value at rank ``ceil(p * n / 100)`` of the sorted values.
    Raises :class:`SetupgenError` for no values or ``p`` out of range."""
    if not values:
        raise SetupgenError("a percentile needs at least one value")
    if not 0 < p <= 100:
        raise SetupgenError(f"a percentile must be above 0 and at most 100, got {quoted(p, 20)}")
    ordered = sorted(values)
    n = len(ordered)
    rank = -(-p * n // 100) if isinstance(p, int) else math.ceil(p * n / 100 - 1e-9)  # whole p: exact
    return ordered[max(1, rank) - 1]


def percentiles(survey: Survey, metric: str) -> tuple[float, ...]:
    """The :data:`PERCENTILES` of one metric of :data:`SCALARS`."""
    return tuple(percentile(survey.values[metric], p) for p in PERCENTILES)


def _figure(metric: str, value: float, extra: int = 0) -> str:
    decimals = DECIMALS.get(metric, 0) + extra
    return f"{value:,.{decimals}f}"


def summary_lines(survey: Survey) -> list[str]:
    """The survey as aligned text: a head line, the percentile table
    (with the mean) and the pass shares."""
    n = survey.count
    lines = [
        f"survey: {n:,} {survey.scenario} boards, numbers {survey.number_method}, harbors "
        f"{survey.harbor_method} (seeds {survey.seed}/1 .. {survey.seed}/{n})",
        "",
    ]
    head = ["metric"] + [f"p{p}" for p in PERCENTILES] + ["mean"]
    rows = [head] + [
        [name.replace("_", " ")]
        + [_figure(name, v) for v in percentiles(survey, name)]
        + [_figure(name, sum(survey.values[name]) / n, 1 if name not in DECIMALS else 0)]
        for name in SCALARS
    ]
    widths = [max(len(r[k]) for r in rows) for k in range(len(head))]
    lines += [
        "  ".join(c.ljust(widths[0]) if k == 0 else c.rjust(widths[k]) for k, c in enumerate(r)).rstrip() for r in rows
    ]
    lines += ["", "percentiles by nearest rank; scores 0-100, higher is more balanced (docs/balance.md)", ""]
    width = max(len(label) for label, _ in survey.shares)
    lines.append(f"{'limit':<{width}}  boards meeting it")
    lines += [f"{label:<{width}}  {_share(k, n):>5} %  ({k:,} of {n:,})" for label, k in survey.shares]
    return lines


def _share(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage: one decimal, two below 1 % (a few
    boards in 10,000 do not show as 0.0)."""
    share = 100 * k / n
    return f"{share:.2f}" if 0 < share < 1 else f"{share:.1f}"


# -- the plot --------------------------------------------------------------------

#: page size (mm) and the plot area's insets from the page's edges
PLOT_W, PLOT_H = 170.0, 100.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 22.0, 8.0, 30.5, 14.0
#: the page's margin, left of the title and above it
_MARGIN = 7.0
#: text sizes (mm): title, body, tick labels
_TITLE, _BODY, _TICK = 4.6, 3.3, 3.0
_BAR = "#b3b3b3"
_GRID = "#cccccc"


def _bins(scores: Sequence[float]) -> tuple[float, float, list[int]]:
    """The x range (whole tens holding every score) and the boards per
    2.5-point bin in it."""
    tenths = [round(s * 10) for s in scores]
    lo = min(min(tenths) // 100 * 10, 90)
    hi = min(100, (max(tenths) // 100 + 1) * 10)
    counts = [0] * round((hi - lo) / BIN)
    first = round(lo / BIN)
    for t in tenths:
        counts[min(len(counts) - 1, t // 25 - first)] += 1  # 100 goes into the last bin
    return float(lo), float(hi), counts


def _nice_step(top: float) -> float:
    """A tick step (1, 2 or 5 times a power of ten) giving at most 6 ticks up to ``top``."""
    raw = max(top, 1e-9) / 6
    power = 10 ** math.floor(math.log10(raw))
    return next(k * power for k in (1, 2, 5, 10) if k * power >= raw)


def plot_page(survey: Survey) -> Any:
    """The histogram of the survey's scores as one page
    (:class:`~setupgen.render.canvas.SvgPage`, :data:`PLOT_W` x
    :data:`PLOT_H` mm): bars of 2.5 points in grey outlined in black, the
    share of boards on the y axis, the 25th, 50th and 75th percentiles as
    labelled lines (the median solid, the quartiles dashed): legible in
    black and white."""
    st = templates.style()
    ink, muted = st.colour["ink"], st.colour["muted"]
    cv = drawing(PLOT_W, PLOT_H)
    n = survey.count
    title = f"Balance score of {n:,} {survey.scenario} boards"
    add_text(
        cv, fit(title, PLOT_W - 2 * _MARGIN, _TITLE, bold=True)[0], _MARGIN, _MARGIN + _TITLE, _TITLE, st, bold=True
    )
    sub = (
        f"numbers {survey.number_method}, harbors {survey.harbor_method}; seeds {survey.seed}/1 .. "
        f"{survey.seed}/{n}; bins of {BIN} points"
    )
    t, size = fit(sub, PLOT_W - 2 * _MARGIN, _BODY)
    add_text(cv, t, _MARGIN, _MARGIN + _TITLE + 5.5, size, st, fill=muted)
    lo, hi, counts = _bins(survey.values["score"])
    x0, x1, y0, y1 = _LEFT, PLOT_W - _RIGHT, PLOT_H - _BOTTOM, _TOP
    top = max(counts) * 100 / n
    step = _nice_step(top)
    ymax = step * math.ceil(top / step + 0.15)

    def xs(v: float) -> float:
        return x0 + (v - lo) / (hi - lo) * (x1 - x0)

    def ys(share: float) -> float:
        return y0 - share / ymax * (y0 - y1)

    _y_axis(cv, st, x0, x1, ys, step, ymax)
    for k, c in enumerate(counts):
        if c:
            left = xs(lo + k * BIN)
            add_rect(
                cv,
                left,
                ys(c * 100 / n),
                xs(lo + (k + 1) * BIN) - left,
                y0 - ys(c * 100 / n),
                fill=_BAR,
                stroke=ink,
                width=0.2,
            )
    _x_axis(cv, st, lo, hi, xs, y0)
    _quartiles(cv, st, survey, xs, y0, y1)
    return finish(cv)


def _y_axis(cv: Surface, st: Any, x0: float, x1: float, ys: Any, step: float, ymax: float) -> None:
    """Grid lines and labels of the share axis, and its title above it."""
    k = 0
    while k * step <= ymax + 1e-9:
        y = ys(k * step)
        add_path(
            cv,
            f"M{num(x0)},{num(y)} L{num(x1)},{num(y)}",
            stroke=_GRID if k else st.colour["ink"],
            width=0.15 if k else 0.3,
        )
        label = f"{k * step:g}"
        add_text(cv, label, x0 - 1.5, y + _TICK * 0.35, _TICK, st, anchor="end")
        k += 1
    add_text(cv, "boards (%)", x0 - 1.5 - text_width("00", _TICK), ys(ymax) - 4.5, _BODY, st)


def _x_axis(cv: Surface, st: Any, lo: float, hi: float, xs: Any, y0: float) -> None:
    """Ticks every 5 points (labelled every 10) and the axis title."""
    ink = st.colour["ink"]
    v = lo
    while v <= hi + 1e-9:
        major = round(v) % 10 == 0
        add_path(
            cv, f"M{num(xs(v))},{num(y0)} L{num(xs(v))},{num(y0 + (1.8 if major else 1.0))}", stroke=ink, width=0.25
        )
        if major:
            add_text(cv, f"{v:g}", xs(v), y0 + 2.2 + _TICK, _TICK, st, anchor="middle")
        v += 5
    label = "balance score (0-100, higher is more balanced; docs/balance.md)"
    add_text(cv, label, (xs(lo) + xs(hi)) / 2, y0 + 4.5 + _TICK + _BODY, _BODY, st, anchor="middle")


def _quartiles(cv: Surface, st: Any, survey: Survey, xs: Any, y0: float, y1: float) -> None:
    """The 25th, 50th and 75th percentiles: lines over the bars, labels
    above the plot (the quartiles' left and right of their lines, the
    median's centred a row higher, so they never overlap)."""
    ink = st.colour["ink"]
    p25, p50, p75 = (percentile(survey.values["score"], p) for p in (25, 50, 75))
    for value, dash, width, label, anchor, dx, dy in (
        (p25, "1.2,0.8", 0.35, f"p25 {p25:.1f}", "end", -0.8, 1.5),
        (p75, "1.2,0.8", 0.35, f"p75 {p75:.1f}", "start", 0.8, 1.5),
        (p50, None, 0.5, f"median {p50:.1f}", "middle", 0.0, 1.5 + _BODY + 1.2),
    ):
        x = xs(value)
        add_path(cv, f"M{num(x)},{num(y0)} L{num(x)},{num(y1 - 1.0)}", stroke=ink, width=width, dash=dash)
        add_text(cv, label, x + dx, y1 - dy, _BODY, st, bold=dash is None, anchor=anchor)


def plot_paths(name: str) -> tuple[str, str]:
    """The two files of plot ``name``: ``NAME.svg`` and ``NAME.png`` (a
    final ``.svg`` or ``.png`` of ``name`` is dropped first). Raises
    :class:`SetupgenError` (``field="plot"``) for a name that is empty,
    ``-`` or a folder's (ending in ``/``)."""
    if not name.strip() or name == "-" or name.endswith(("/", "\\")):
        raise SetupgenError(
            f"a plot is two files, NAME.svg and NAME.png; give a file name, not {quoted(name, 40)}", field="plot"
        )
    path = PurePath(name)
    if path.suffix.lower() in (".svg", ".png"):
        name = str(path.with_suffix(""))
    return f"{name}.svg", f"{name}.png"


def plot_files(survey: Survey) -> tuple[bytes, bytes]:
    """The plot as SVG bytes and as a PNG image (150 dpi)."""
    from .pdf import svg_to_png

    page = plot_page(survey)
    return page.encode("utf-8"), svg_to_png(page)
