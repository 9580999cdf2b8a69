"""Speed and quality of the seating scheduler (a script, not a test).

    python benchmarks/schedule_bench.py [--repeat N]

Times :func:`setupgen.tournament.schedule.plan` for 48 players x 3 rounds and 64
players x 4 rounds at tables of 4 (RULES.md section 6 / seed 002: the
Australian prefixed schedule) and prints players, rounds, seconds (best of
``--repeat`` runs), repeat pairs, seat repeats and group clashes.

Goals: zero repeated opponents, every player's starting positions all
different, each found in under 10 s, and the same schedule on every run.
Exits 1 if any goal is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from setupgen.tournament.model import Player  # noqa: E402
from setupgen.tournament.schedule import plan  # noqa: E402

CASES = ((48, 3), (64, 4))
TABLE_SIZE = 4
GOAL_SECONDS = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (best time shown)")
    ap.add_argument("--seed", default="bench", help="seed text")
    args = ap.parse_args()

    print(f"{'players':>7} {'rounds':>6} {'seconds':>8} {'repeat pairs':>12} {'seat repeats':>12} "
          f"{'group clashes':>13}  ok")
    failed = False
    for n, rounds in CASES:
        roster = [Player(f"p{i:03d}", f"Player {i}") for i in range(n)]
        times, csvs = [], set()
        for _ in range(max(1, args.repeat)):
            start = time.perf_counter()
            s = plan(roster, rounds, TABLE_SIZE, args.seed)
            times.append(time.perf_counter() - start)
            csvs.add(s.to_csv())
        q = s.quality(roster)
        ok = (q.repeat_pairs == 0 and q.seat_repeats == 0 and max(times) < GOAL_SECONDS
              and len(csvs) == 1)
        failed |= not ok
        print(f"{n:>7} {rounds:>6} {min(times):>8.3f} {q.repeat_pairs:>12} {q.seat_repeats:>12} "
              f"{q.group_clashes:>13}  {'yes' if ok else 'NO'}")
        if len(csvs) != 1:
            print(f"  runs gave {len(csvs)} different schedules")
    print("goals: 0 repeat pairs, 0 seat repeats, < 10 s each, identical on every run:",
          "missed" if failed else "met")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
