"""Board generation and JSON Lines speed against a pinned commit, and
catanatron's (a script, not a test; issue 29):

    python benchmarks/generate_bench.py [--against COMMIT] [--runs 5] [--seconds 2.0] [--slices 20]
                                        [--count 20000] [--catanatron auto|skip|DIR]

What it does:

1. checks ``COMMIT`` (default :data:`PINNED`, the code before issue 29) out
   into a temporary ``git worktree`` and makes a temporary venv whose only
   setupgen is that tree: the venv's ``.pth`` file puts the worktree first
   and this environment's site-packages after it, so both trees run on the
   same interpreter and the same library versions and only setupgen's code
   differs. Both trees are byte-compiled first, as an installed package is.
2. runs ``--runs`` rounds. A round measures the calibration loop, then
   each rate with one worker process per tree, the two taking turns in
   ``--slices`` short slices (0.1 s of CPU by default), so both see the
   same machine from moment to moment (its speed drifts by half within
   minutes), then the JSON Lines command for both trees back to back,
   in fresh processes (which tree goes first alternates by round): the
   calibration loop (``s = 0; for i in range(6_000_000): s +=
   (i * i) % 7``), ``setupgen.from_seed`` per case and ``Board.to_json(indent=
   None)`` (CPU time, ``time.process_time``),
   the JSON Lines command ``setupgen board --scenario base-3-4 --seed bench
   --format jsonl --count N -o FILE`` (the child's CPU time and peak
   resident memory from ``os.wait4``), and catanatron's ``build_map("BASE")``;
3. checks that both trees' JSON Lines files are the same bytes;
4. prints each figure's median over the rounds, the median (and range)
   of the rounds' speed-ups over the pinned tree, and this tree's figures
   as a share of the same round's calibration loop (CPU time) beside the
   absolute ones.

Goals (issue 29): ``from_seed`` >= 2.5x and the JSON Lines command >= 2.5x
the pinned commit; the JSON Lines command (end to end: start-up, boards,
JSON, writing) >= 5x catanatron's ``build_map`` rate.

catanatron: used when importable here; with ``auto`` (the default)
otherwise installed into the temporary folder with ``pip install --target``
(needs the network or pip's cache); ``DIR``: a folder holding it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
#: the commit before issue 29 (what "today's code" meant when it was filed)
PINNED = "ae444993bc372505880c814934d74b871421966c"

CASES = [
    ("base-3-4", "swap", "shuffled"),
    ("base-3-4", "to_json", "-"),
    ("base-3-4", "uniform", "shuffled"),
    ("base-3-4", "swap", "free"),
    ("base-5-6", "swap", "shuffled"),
    ("seafarers-sm2010", "swap", "free"),
    ("oil-springs", "swap", "shuffled"),
]
#: the case the goals are stated for
MAIN_CASE = "base-3-4 swap shuffled"

LOOP = "s = 0\nfor i in range(6_000_000):\n    s += (i * i) % 7\n"

#: a worker serving slices: each input line is a case (JSON) and a slice
#: length in CPU seconds; it answers how many calls it made and their CPU
#: time. Seeds continue across slices, so no board is made twice.
WORKER = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from setupgen.generate import from_seed
from setupgen.core.layout import load
clock = time.process_time
made = {}


def boards(lay):  # fresh boards with their setup ID made (as from_seed made it before issue 29)
    out = [from_seed(lay, f"json/{i}") for i in range(2000)]
    for b in out:
        b.setup_id
        b.to_json(indent=None)
    return out


for line in sys.stdin:
    (scenario, numbers, harbors), seconds = json.loads(line)
    lay = load(scenario)
    key = (scenario, numbers, harbors)
    if key not in made:
        made[key] = boards(lay) if numbers == "to_json" else 0
        if numbers != "to_json":
            for i in range(200):
                from_seed(lay, f"warm/{i}", numbers, harbors)
    n, start = 0, clock()
    if numbers == "to_json":
        todo = made[key]
        while clock() - start < seconds:
            for b in todo:
                b.to_json(indent=None)
            n += len(todo)
    else:
        first = made[key]
        while True:
            from_seed(lay, f"bench/{first + n}", numbers, harbors)
            n += 1
            if n % 16 == 0 and clock() - start >= seconds:
                break
        made[key] = first + n
    print(json.dumps([n, clock() - start]), flush=True)
"""

CATANATRON = r"""
import json, sys, time
if sys.argv[1]:
    sys.path.insert(0, sys.argv[1])
from catanatron.models.map import build_map
for _ in range(20):
    build_map("BASE")
seconds = float(sys.argv[2])
n, start = 0, time.process_time()
while time.process_time() - start < seconds:
    build_map("BASE")
    n += 1
print(json.dumps(n / (time.process_time() - start)))
"""


def child_cpu(args: list[str], **kw) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MiB) of one child process run to its end."""
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(args, stdout=kw.pop("stdout", null), stderr=subprocess.PIPE, **kw)
        _, status, usage = os.wait4(proc.pid, 0)
        err = proc.stderr.read().decode() if proc.stderr else ""
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[:4])}... failed: {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def make_pinned(tmp: Path, tree: Path) -> str:
    """A venv running worktree ``tree`` (already checked out): its python.
    Every child runs in ``tmp``, so no checkout's folder shadows the tree."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp,
    ).stdout.strip()
    here = sysconfig.get_paths()["purelib"]
    Path(purelib, "setupgen-bench.pth").write_text(f"{tree}\n{here}\n")
    got = subprocess.run(
        [python, "-c", "import setupgen; print(setupgen.__file__)"], capture_output=True, text=True, check=True, cwd=tmp
    ).stdout.strip()
    if not got.startswith(str(tree)):
        raise SystemExit(f"the pinned venv imports setupgen from {got}, not the worktree")
    for root in (tree, ROOT):
        subprocess.run([python, "-m", "compileall", "-q", str(root / "setupgen")], check=True, cwd=tmp)
    return python


def find_catanatron(how: str, tmp: Path) -> str | None:
    """A folder to put on sys.path for catanatron ('' when importable here), or None."""
    if how == "skip":
        return None
    if how != "auto":
        return how
    probe = subprocess.run([sys.executable, "-c", "import catanatron"], capture_output=True)
    if probe.returncode == 0:
        return ""
    target = tmp / "catanatron"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(target),
            "catanatron",
        ],
        capture_output=True,
        text=True,
    )
    if res.returncode != 0:
        print(f"catanatron not available (pip: {res.stderr.strip().splitlines()[-1:] or res.returncode})")
        return None
    return str(target)


def rates(trees: list[tuple[str, Path, str]], args, tmp: Path, env: dict[str, str]) -> dict[str, dict[str, float]]:
    """Calls per CPU second of every case for each tree: one worker
    process per tree, served ``--slices`` slices of ``--seconds /
    --slices`` each, the trees taking turns slice by slice, so that both
    see the same machine from moment to moment."""
    workers = {
        name: subprocess.Popen(
            [python, "-c", WORKER, str(tree)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=tmp,
        )
        for name, tree, python in trees
    }
    out: dict[str, dict[str, float]] = {name: {} for name in workers}
    try:
        for case in CASES:
            key = "to_json base-3-4" if case[1] == "to_json" else " ".join(case)
            done = {name: [0, 0.0] for name in workers}
            for k in range(args.slices):
                for name in list(workers) if k % 2 == 0 else list(workers)[::-1]:
                    proc = workers[name]
                    assert proc.stdin is not None and proc.stdout is not None
                    proc.stdin.write(json.dumps([case, args.seconds / args.slices]) + "\n")
                    proc.stdin.flush()
                    n, cpu = json.loads(proc.stdout.readline())
                    done[name][0] += n
                    done[name][1] += cpu
            for name, (n, cpu) in done.items():
                out[name][key] = n / cpu
    finally:
        for proc in workers.values():
            if proc.stdin:
                proc.stdin.close()
            proc.wait()
    return out


def run_once(
    trees: list[tuple[str, Path, str]],
    args,
    tmp: Path,
    cat: str | None,
    runs: dict[str, list[dict[str, float]]],
    files: dict[str, Path],
) -> None:
    """One round of every measurement: the calibration loop, the rates
    (:func:`rates`), then the JSON Lines command for both trees back to
    back (in ``trees``' order)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    loop, _ = child_cpu([sys.executable, "-c", LOOP], env=env, cwd=tmp)
    got = rates(trees, args, tmp, env)
    for name, _tree, python in trees:
        cpu, rss = child_cpu(
            [
                python,
                "-m",
                "setupgen",
                "board",
                "--scenario",
                "base-3-4",
                "--seed",
                "bench",
                "--format",
                "jsonl",
                "--count",
                str(args.count),
                "-o",
                str(files[name]),
            ],
            cwd=tmp,
            env=env,
        )
        got[name]["jsonl cpu"], got[name]["jsonl rss"] = cpu, rss
    if cat is not None:
        out = subprocess.run(
            [sys.executable, "-c", CATANATRON, cat, str(args.seconds)], capture_output=True, text=True, env=env, cwd=tmp
        )
        if out.returncode == 0:
            got["catanatron"] = {"build_map": json.loads(out.stdout)}
    got["loop"] = {"cpu": loop}
    for name, figures in got.items():
        runs.setdefault(name, []).append(figures)


def report(runs: dict[str, list[dict[str, float]]], args) -> None:
    """The table of figures (see the module doc): medians over the rounds,
    each round's speed-up from figures taken back to back."""
    new, old, loops = runs["this"], runs["pinned"], [r["cpu"] for r in runs["loop"]]
    print(f"{len(loops)} rounds; calibration loop median {median(loops):.3f} s CPU ({min(loops):.3f}-{max(loops):.3f})")
    print(f"{'case':<34} {'this/s':>9} {'pinned/s':>9} {'speed-up (range)':>19}  {'this: loop share':>16}")
    for case in [c for c in new[0] if c not in ("jsonl cpu", "jsonl rss")]:
        ups = [a[case] / b[case] for a, b in zip(new, old)]
        share = median([1 / (a[case] * lp) for a, lp in zip(new, loops)])
        print(
            f"{case:<34} {median([a[case] for a in new]):>9.0f} {median([b[case] for b in old]):>9.0f} "
            f"{median(ups):>6.2f}x ({min(ups):.2f}-{max(ups):.2f})  1/{1 / share:>14,.0f}"
        )
    n = args.count
    print(f"\nJSON Lines: setupgen board --format jsonl --count {n} (whole command, CPU)")
    for name, figs in (("this", new), ("pinned", old)):
        cpu = median([f["jsonl cpu"] for f in figs])
        share = median([f["jsonl cpu"] / lp for f, lp in zip(figs, loops)])
        print(
            f"  {name:<7} {cpu:6.2f} s = {share:5.2f} loops, {n / cpu:7.0f} boards/s, "
            f"peak {max(f['jsonl rss'] for f in figs):.0f} MiB"
        )
    ups = [b["jsonl cpu"] / a["jsonl cpu"] for a, b in zip(new, old)]
    print(f"  speed-up {median(ups):.2f}x ({min(ups):.2f}-{max(ups):.2f}; goal >= 2.5x)")
    ups = [a[MAIN_CASE] / b[MAIN_CASE] for a, b in zip(new, old)]
    print(f"from_seed {MAIN_CASE}: speed-up {median(ups):.2f}x ({min(ups):.2f}-{max(ups):.2f}; goal >= 2.5x)")
    cats = runs.get("catanatron")
    if not cats:
        print("catanatron: not measured")
        return
    cat = median([c["build_map"] for c in cats])
    print(f"catanatron build_map('BASE'): {cat:.0f} maps/s")
    for name, figs in (("this", new), ("pinned", old)):
        boards = [a[MAIN_CASE] / c["build_map"] for a, c in zip(figs, cats)]
        lines = [n / a["jsonl cpu"] / c["build_map"] for a, c in zip(figs, cats)]
        print(
            f"  {name:<7} from_seed {MAIN_CASE}: {median(boards):5.1f}x catanatron; "
            f"JSON Lines end to end: {median(lines):5.1f}x ({min(lines):.1f}-{max(lines):.1f}; goal >= 5x)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", default=PINNED, help="the commit to compare with (default: the pinned one)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per rate and tree in a round")
    ap.add_argument("--slices", type=int, default=20, help="turns the trees take within each rate")
    ap.add_argument("--count", type=int, default=20000, help="boards of the JSON Lines command")
    ap.add_argument("--catanatron", default="auto", help="auto, skip, or a folder holding catanatron")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="setupgen-bench-") as name:
        tmp = Path(name)
        tree = tmp / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(tree), args.against], check=True
        )
        try:
            python = make_pinned(tmp, tree)
            cat = find_catanatron(args.catanatron, tmp)
            trees = [("this", ROOT, sys.executable), ("pinned", tree, python)]
            runs: dict[str, list[dict[str, float]]] = {}
            files = {"this": tmp / "this.jsonl", "pinned": tmp / "pinned.jsonl"}
            started = time.perf_counter()
            for k in range(args.runs):
                run_once(trees if k % 2 == 0 else trees[::-1], args, tmp, cat, runs, files)
            digests = {k: hashlib.sha256(p.read_bytes()).hexdigest() for k, p in files.items()}
            if digests["this"] != digests["pinned"]:
                raise SystemExit(f"the JSON Lines files differ: {digests}")
            print(
                f"JSON Lines files identical (sha256 {digests['this'][:16]}...); {time.perf_counter() - started:.0f} s"
            )
            report(runs, args)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


if __name__ == "__main__":
    main()
