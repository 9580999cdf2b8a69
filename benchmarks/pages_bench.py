"""Speed of setupgen's pages (a script, not a test).

    python benchmarks/pages_bench.py [--tables N] [--repeat R]

Prints, each as the best of ``--repeat`` runs in fresh processes (so
imports count, as for a director):

- a base-3-4 round pack of ``--tables`` tables (default 100: 101 pages),
  wall time, and with one process only (``SETUPGEN_WORKERS=0``);
- a 12-table Seafarers pack with its key (``round.pdf`` and ``key.pdf``);
- ``schedule.pdf`` for 512 players x 7 rounds (planning aside: the
  schedule is planned once, then only the PDF is timed);
- the CPU cost per page of a table sheet, split into layout (the page
  description), SVG text and PDF drawing, measured in this process;
- the machine's load average at the time.

Goals (issue 10): the 100-table pack <= 3 s wall on 2 cores, the
Seafarers pack with key <= 1.5 s, schedule.pdf <= 1 s, <= 25 ms CPU a page.

    python benchmarks/pages_bench.py --ratio [--repeat R]

measures CPU instead, as a ratio to the calibration loop (``s = 0; for i
in range(6_000_000): s += (i * i) % 7`` in a fresh ``python3``): the loop
and each pack are run alternately as whole processes, ``R`` times (default
5), each pack against the mean of the loops just before and just after it
(this machine's speed drifts within seconds), their CPU (user + system, of the process and its workers) taken from
``getrusage(RUSAGE_CHILDREN)``, with Python's compiled modules kept
(``PYTHONDONTWRITEBYTECODE`` unset, as for an installed setupgen, whose
install compiles them); prints every ratio, the median and the absolute
seconds beside it. Goals (issue 26): the 100-table base-3-4 pack
with almanac <= 3.0x, the 12-table Seafarers pack with key <= 1.5x.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _run(args: list[str], env: dict | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "setupgen", *args],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env=dict(os.environ, **(env or {})),
    )
    return time.perf_counter() - start


def pack(scenario: str, tables: int, repeat: int, env: dict | None = None) -> float:
    best = float("inf")
    for i in range(repeat):
        with tempfile.TemporaryDirectory() as tmp:
            best = min(
                best,
                _run(
                    [
                        "round",
                        "--scenario",
                        scenario,
                        "--tables",
                        str(tables),
                        "--seed",
                        f"bench{i}",
                        "-o",
                        f"{tmp}/pack",
                    ],
                    env,
                ),
            )
    return best


def schedule_pdf(repeat: int) -> float:
    """Seconds to write schedule.pdf for 512 players x 7 rounds, in a fresh process."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = ["id,name,group"] + [f"p{i},Player {i:03d},club{i % 40}" for i in range(512)]
        (folder / "players.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        rounds = "".join('[[rounds]]\nscenario = "base-3-4"\n\n' for _ in range(7))
        (folder / "t.toml").write_text(
            'name = "Bench"\nseed = "bench"\nlanguage = "en"\npaper = "a4"\nplayers = "players.csv"\n'
            "table_size = 4\n\n[scoring]\nplacing_points = { 4 = [4, 3, 2, 1], 3 = [4, 2, 1] }\n\n" + rounds,
            encoding="utf-8",
        )
        _run(["schedule", str(folder / "t.toml"), "-o", str(folder / "out")])
        code = (
            "import sys, time, shutil; from pathlib import Path; import setupgen; "
            "from setupgen.tournament import jobs; t = setupgen.load_tournament(sys.argv[1]); "
            "s = jobs.read_schedule(Path(sys.argv[2])); t0 = time.perf_counter(); "
            "jobs.write_schedule(t, s, Path(sys.argv[3])); print(time.perf_counter() - t0)"
        )
        best = float("inf")
        for i in range(repeat):
            out = subprocess.run(
                [sys.executable, "-c", code, str(folder / "t.toml"), str(folder / "out"), str(folder / f"again{i}")],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            )
            best = min(best, float(out.stdout))
        return best


def per_page(n: int = 60) -> tuple[float, float, float, float]:
    """CPU ms a page: board generation, layout, SVG text, PDF drawing."""
    from setupgen import generate
    from setupgen.core import layout
    from setupgen.render import pdf, sheet

    lay = layout.load("base-3-4")
    t = time.process_time
    pdf.pages_to_pdf([sheet.sheet_page(generate.from_seed("base-3-4", "warm"), lay)])
    t0 = t()
    boards = [generate.from_seed("base-3-4", f"page{i}") for i in range(n)]
    t1 = t()
    pages = [sheet.sheet_page(b, lay, context=sheet.SheetContext("Bench", 1, i)) for i, b in enumerate(boards, start=1)]
    t2 = t()
    for p in pages:
        p.svg()
    t3 = t()
    pdf.pages_to_pdf(pages)
    t4 = t()
    return tuple(1000 * v / n for v in (t1 - t0, t2 - t1, t3 - t2, t4 - t3))  # type: ignore[return-value]


LOOP = "s = 0\nfor i in range(6_000_000):\n    s += (i * i) % 7\n"


def _cpu(args: list[str]) -> float:
    """CPU seconds (user + system) of one whole process and its children."""
    import resource

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # compiled once, as installed
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=ROOT, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def ratios(repeat: int) -> None:
    """The packs' CPU as ratios to the calibration loop, timed alternately."""
    import statistics

    packs = {
        "base-3-4 pack, 100 tables with almanac": ("base-3-4", "100", 3.0),
        "seafarers-sm2010 pack, 12 tables with key": ("seafarers-sm2010", "12", 1.5),
    }
    for name, (scenario, tables, goal) in packs.items():
        rows = []
        before = _cpu(["python3", "-c", LOOP])
        for i in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                cpu = _cpu(
                    [
                        sys.executable,
                        "-m",
                        "setupgen",
                        "round",
                        "--scenario",
                        scenario,
                        "--tables",
                        tables,
                        "--seed",
                        f"ratio{i}",
                        "-o",
                        f"{tmp}/pack",
                    ]
                )
            after = _cpu(["python3", "-c", LOOP])
            loop = (before + after) / 2  # the loops either side of the pack: the machine's speed around it
            before = after
            rows.append((cpu / loop, cpu, loop))
            print(f"  {name}: {cpu:.2f} s CPU, loop {loop:.2f} s: {cpu / loop:.2f}x")
        print(
            f"{name}: median {statistics.median(r[0] for r in rows):.2f}x the calibration loop "
            f"(pack {statistics.median(r[1] for r in rows):.2f} s, loop {statistics.median(r[2] for r in rows):.2f} s"
            f" CPU)   goal <= {goal}x"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--ratio", action="store_true", help="CPU as a ratio to the calibration loop (issue 26)")
    args = ap.parse_args()
    if args.ratio:
        print(f"load average: {' '.join(os.getloadavg().__repr__()[1:-1].split(', '))}; CPUs: {os.cpu_count()}")
        ratios(args.repeat)
        return
    print(f"load average: {' '.join(os.getloadavg().__repr__()[1:-1].split(', '))}; CPUs: {os.cpu_count()}")
    wall = pack("base-3-4", args.tables, args.repeat)
    serial = pack("base-3-4", args.tables, 1, {"SETUPGEN_WORKERS": "0"})
    print(
        f"base-3-4 pack, {args.tables} tables ({args.tables + 1} pages): {wall:.2f} s wall "
        f"(one process: {serial:.2f} s)   goal <= 3 s"
    )
    print(
        f"seafarers-sm2010 pack, 12 tables with key: {pack('seafarers-sm2010', 12, args.repeat):.2f} s   goal <= 1.5 s"
    )
    print(f"schedule.pdf, 512 players x 7 rounds: {schedule_pdf(args.repeat):.2f} s   goal <= 1 s")
    gen, lay, svg, draw = per_page()
    print(
        f"per page (CPU ms): board {gen:.1f}, layout {lay:.1f}, SVG {svg:.1f}, PDF {draw:.1f}, "
        f"total {gen + lay + svg + draw:.1f}   goal <= 25"
    )


if __name__ == "__main__":
    main()
