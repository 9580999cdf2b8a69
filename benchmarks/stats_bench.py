"""Speed of ``setupgen stats`` over JSON Lines (a script, not a test):

    env -u PYTHONDONTWRITEBYTECODE .venv/bin/python benchmarks/stats_bench.py [--count 10000] [--scenario base-3-4] [--runs 3]

Writes ``--count`` boards with ``setupgen board --format jsonl`` into a
temporary folder, then times ``setupgen stats FILE --format json`` and
``--format text`` (output to ``/dev/null``) in fresh processes, with the
default worker count and with ``SETUPGEN_WORKERS=0`` (this process only),
best of ``--runs``; also the standard input path (``stats -`` fed from the
file). It checks that every variant writes the same bytes. Goal (issue
12): >= 3,000 boards/s over JSON Lines. Run it with bytecode writing on
(``env -u PYTHONDONTWRITEBYTECODE``), as an installed setupgen runs:
without cached bytecode every fresh process compiles the package first.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str], workers: str | None, stdin: Path | None = None) -> tuple[float, str]:
    """(wall seconds, SHA-256 of standard output) of ``python -m setupgen ARGS``."""
    env = dict(os.environ)
    env.pop("SETUPGEN_WORKERS", None)
    if workers is not None:
        env["SETUPGEN_WORKERS"] = workers
    start = time.perf_counter()
    with open(stdin if stdin is not None else os.devnull, "rb") as feed:
        res = subprocess.run(
            [sys.executable, "-m", "setupgen", *args], stdin=feed, env=env, cwd=ROOT, capture_output=True, check=False
        )
    seconds = time.perf_counter() - start
    if res.returncode:
        raise SystemExit(f"setupgen {' '.join(args)} failed: {res.stderr.decode()[-500:]}")
    return seconds, hashlib.sha256(res.stdout).hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--scenario", default="base-3-4")
    ap.add_argument("--runs", type=int, default=3)
    opts = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="setupgen-stats-bench-") as tmp:
        path = Path(tmp) / "boards.jsonl"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "setupgen",
                "board",
                "--scenario",
                opts.scenario,
                "--seed",
                "bench",
                "--format",
                "jsonl",
                "--count",
                str(opts.count),
                "-o",
                str(path),
            ],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        print(
            f"{opts.count:,} {opts.scenario} boards, {path.stat().st_size / 1e6:.0f} MB of JSON Lines; "
            f"best of {opts.runs} fresh processes",
            flush=True,
        )
        digests: dict[str, set[str]] = {}
        for fmt in ("json", "text"):
            for label, workers, stdin in (
                ("default workers", None, None),
                ("SETUPGEN_WORKERS=0", "0", None),
                ("stdin, default workers", None, path),
            ):
                source = "-" if stdin is not None else str(path)
                runs = [timed(["stats", source, "--format", fmt], workers, stdin) for _ in range(opts.runs)]
                best = min(s for s, _ in runs)
                digests.setdefault(fmt, set()).update(d for _, d in runs)
                print(f"  --format {fmt:<4}  {label:<24} {best:6.2f} s  {opts.count / best:7,.0f} boards/s", flush=True)
        same = all(len(d) == 1 for d in digests.values())
        print(f"same bytes from every variant: {same}")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
