"""Balance speed goals (issue 12; not a timed test):

* a board under the ``fair`` preset in <= 5 ms median (base-3-4) and
  <= 25 ms (base-5-6), 200 seeds each;
* a 100-table round with ``--even`` adds <= 1 s to the pack (boards
  generated under the even interval minus boards without limits);
* ``stats`` over JSON Lines: see ``benchmarks/stats_bench.py``.

Run: ``env -u PYTHONDONTWRITEBYTECODE .venv/bin/python benchmarks/balance_bench.py``
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from setupgen import generate  # noqa: E402
from setupgen.core import balance, layout  # noqa: E402


def fair_median(scenario: str, count: int = 200) -> tuple[float, float]:
    """Median and 90th percentile (ms) of one fair board."""
    lay = layout.load(scenario)
    fair = balance.load_preset("fair")
    generate.from_seed_within(lay, "warm", fair)
    times = []
    for i in range(count):
        start = time.perf_counter()
        generate.from_seed_within(lay, f"bench/{i}", fair)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.9 * count)]


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
    for scenario, goal in (("base-3-4", 5.0), ("base-5-6", 25.0)):
        med, p90 = fair_median(scenario)
        print(f"fair {scenario}: median {med:.2f} ms (goal <= {goal:g} ms), p90 {p90:.2f} ms")
    print(f"100-table --even round adds {even_round_cost():.3f} s to the boards (goal <= 1 s)")


if __name__ == "__main__":
    main()
