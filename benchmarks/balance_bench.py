"""Balance speed goals (issues 12 and 30; not a timed test):

* a board under the ``fair`` preset: mean CPU per board <= 0.7 ms on
  base-3-4 and <= 5 ms on base-5-6 (issue 30: about 1/1,400 and 1/200 of
  the calibration loop's CPU), reported as ratios to the loop (run in a
  fresh ``python3`` before and after each measurement, their mean taken)
  and to a plain board of the same scenario; median and 90th percentile
  of the wall time beside them;
* a 100-table round with ``--even`` adds <= 1 s to the pack (boards
  generated under the even interval minus boards without limits);
* ``stats`` over JSON Lines: see ``benchmarks/stats_bench.py``.

Run: ``env -u PYTHONDONTWRITEBYTECODE .venv/bin/python benchmarks/balance_bench.py``
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

LOOP = "s = 0\nfor i in range(6_000_000):\n    s += (i * i) % 7\n"

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from setupgen import generate  # noqa: E402
from setupgen.core import balance, layout  # noqa: E402


def loop_seconds() -> float:
    """CPU seconds of the calibration loop in a fresh ``python3``."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["python3", "-c", LOOP], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def fair_board(scenario: str, count: int) -> tuple[float, float, float, float]:
    """(mean CPU ms of a fair board, of a plain board, median and 90th
    percentile wall ms of a fair board) over ``count`` seeds."""
    lay = layout.load(scenario)
    fair = balance.load_preset("fair")
    generate.from_seed_within(lay, "warm", fair)
    times = []
    cpu = time.process_time()
    for i in range(count):
        start = time.perf_counter()
        generate.from_seed_within(lay, f"bench/{i}", fair)
        times.append((time.perf_counter() - start) * 1000)
    fair_cpu = (time.process_time() - cpu) * 1000 / count
    cpu = time.process_time()
    for i in range(count * 10):
        generate.from_seed(lay, f"plain/{i}")
    plain_cpu = (time.process_time() - cpu) * 1000 / (count * 10)
    times.sort()
    return fair_cpu, plain_cpu, statistics.median(times), times[int(0.9 * count)]


def even_round_cost(tables: int = 100) -> float:
    """Seconds an even round of ``tables`` base-3-4 boards adds over the
    plain boards (boards only: the pages are the same work either way,
    plus the director's metrics, which every pack measures)."""
    lay = layout.load("base-3-4")
    low, high = balance.survey_interval("base-3-4", "swap")
    even = balance.Limits(min_score=low, max_score=high)
    start = time.perf_counter()
    for t in range(1, tables + 1):
        generate.from_seed(lay, f"even/t{t}")
    plain = time.perf_counter() - start
    start = time.perf_counter()
    for t in range(1, tables + 1):
        generate.from_seed_within(lay, f"even/t{t}", even)
    return time.perf_counter() - start - plain


def main() -> None:
    for scenario, goal, count in (("base-3-4", 0.7, 2000), ("base-5-6", 5.0, 400)):
        first = loop_seconds()
        fair, plain, med, p90 = fair_board(scenario, count)
        loop = (first + loop_seconds()) / 2
        print(
            f"fair {scenario}: {fair:.2f} ms CPU a board (goal <= {goal:g} ms) = 1/{loop * 1000 / fair:,.0f} "
            f"of the loop ({loop:.2f} s), {fair / plain:.1f} plain boards ({plain * 1000:.0f} us); "
            f"wall median {med:.2f} ms, p90 {p90:.2f} ms"
        )
    print(f"100-table --even round adds {even_round_cost():.3f} s to the boards (goal <= 1 s)")


if __name__ == "__main__":
    main()
