"""Board generation speed, best of N runs, optionally against another
checkout of setupgen (a script, not a test):

    python benchmarks/generate_bench.py [--runs 5] [--seconds 1.0] [--against PATH]

With ``--against PATH`` the two source trees are measured alternately in
fresh processes (the machine's other load affects both alike) and the
ratio of the best runs is printed: the restructure goal is "no slower",
best of 5 within 5 %.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CASES = [
    ("base-3-4", "swap", "shuffled"),
    ("base-3-4", "uniform", "shuffled"),
    ("base-3-4", "swap", "free"),
    ("base-5-6", "swap", "shuffled"),
    ("seafarers-sm2010", "swap", "free"),
    ("oil-springs", "swap", "shuffled"),
]

MEASURE = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from setupgen.generate import from_seed
try:
    from setupgen.core.layout import load
except ImportError:
    from setupgen.layout import load
seconds = float(sys.argv[2])
out = {}
for scenario, numbers, harbors in json.loads(sys.argv[3]):
    lay = load(scenario)
    n, start = 0, time.perf_counter()
    while True:
        from_seed(lay, f"bench/{n}", numbers, harbors)
        n += 1
        if n % 16 == 0 and time.perf_counter() - start >= seconds:
            break
    out[f"{scenario} {numbers} {harbors}"] = n / (time.perf_counter() - start)
print(json.dumps(out))
"""


def measure(tree: Path, seconds: float) -> dict[str, float]:
    res = subprocess.run([sys.executable, "-c", MEASURE, str(tree), str(seconds), json.dumps(CASES)],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--against", type=Path, help="another source tree of setupgen to compare with")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent.parent
    trees = [here] + ([args.against.resolve()] if args.against else [])
    best: list[dict[str, float]] = [{} for _ in trees]
    for _ in range(args.runs):
        for i, tree in enumerate(trees):
            for case, rate in measure(tree, args.seconds).items():
                best[i][case] = max(best[i].get(case, 0.0), rate)
    head = f"{'case':<36} {'boards/s':>10}" + (f" {'against':>10} {'ratio':>7}" if args.against else "")
    print(f"best of {args.runs} runs of {args.seconds} s each")
    print(head)
    for case in best[0]:
        line = f"{case:<36} {best[0][case]:>10.0f}"
        if args.against:
            line += f" {best[1][case]:>10.0f} {best[0][case] / best[1][case]:>7.3f}"
        print(line)


if __name__ == "__main__":
    main()
