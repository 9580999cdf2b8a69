"""Peak memory and time of ``setupgen board --format jsonl --count N`` to a
file and to standard output (a script, not a test):

    python benchmarks/jsonl_memory.py [--count 100000] [--scenario base-3-4] [--against PATH]

Each run is a fresh process; its peak resident set size is read with
``resource.getrusage(RUSAGE_CHILDREN)`` (kernel ``ru_maxrss``, the figure
``/usr/bin/time -v`` prints). The file and the standard output must be
byte for byte the same. With ``--against PATH`` (another source tree, e.g.
``git archive HEAD~1 | tar -x -C /tmp/old``) that tree is measured too and
its file compared with this one's. The goal (issue 10): <= 60 MB peak for
100,000 base-3-4 boards to a file. Figures are MiB (``time -v`` kbytes / 1024).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# a child that runs one command and reports its own peak RSS, so several
# runs from one parent do not share the RUSAGE_CHILDREN maximum
CHILD = r"""
import resource, subprocess, sys
with open(sys.argv[1], "wb") as sink:
    code = subprocess.call(sys.argv[2:], stdout=sink)
print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(tree: Path, args: list[str], sink: Path) -> tuple[float, float]:
    """(peak RSS in MiB, wall seconds) of ``python -m setupgen ARGS`` run
    from source tree ``tree``, standard output to ``sink``."""
    env = dict(os.environ, PYTHONPATH=str(tree))  # and cwd: `-m` puts the current folder first
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(sink), sys.executable, "-m", "setupgen", *args],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    seconds = time.perf_counter() - start
    if out[0] != "0":
        raise SystemExit(f"setupgen {' '.join(args)} failed (exit {out[0]})")
    return int(out[1]) / 1024, seconds  # ru_maxrss is in KiB on Linux


def run_tree(name: str, tree: Path, count: int, scenario: str, folder: Path) -> Path:
    """Measure ``tree`` to a file and to standard output; check both the
    same; return the file."""
    base = ["board", "--scenario", scenario, "--seed", "bench-mem", "--format", "jsonl", "--count", str(count)]
    target, piped = folder / f"{name}.jsonl", folder / f"{name}-stdout.jsonl"
    rss_file, sec_file = measure(tree, [*base, "-o", str(target)], Path(os.devnull))
    rss_out, sec_out = measure(tree, [*base, "-o", "-"], piped)
    same = filecmp.cmp(target, piped, shallow=False)
    print(
        f"{name:>8}: -o FILE {rss_file:7.1f} MiB peak {sec_file:6.1f} s | -o - {rss_out:7.1f} MiB peak "
        f"{sec_out:6.1f} s | {target.stat().st_size / 1e6:.0f} MB of JSONL, file == stdout: {same}",
        flush=True,
    )
    if not same:
        raise SystemExit("the file and standard output differ")
    piped.unlink()
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--scenario", default="base-3-4")
    parser.add_argument("--against", type=Path, help="another source tree to measure and compare with")
    opts = parser.parse_args()
    print(f"setupgen board --scenario {opts.scenario} --format jsonl --count {opts.count}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        mine = run_tree("this", ROOT, opts.count, opts.scenario, folder)
        if opts.against is not None:
            theirs = run_tree("against", opts.against.resolve(), opts.count, opts.scenario, folder)
            print(f"same bytes as {opts.against}: {filecmp.cmp(mine, theirs, shallow=False)}")


if __name__ == "__main__":
    main()
