"""How long setupgen takes to refuse impossible or oversized requests (a
script, not a test; goal: every case in <= 5 s). Each case runs the command
line in a fresh process and prints its time and exit code.

    python benchmarks/impossible_bench.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "layouts" / "base-3-4.toml").read_text().replace('code = "B4"', 'code = "Z9"')


def layout(folder: Path, name: str, *changes: tuple[str, str]) -> str:
    text = BASE.replace('name = "base-3-4"', f'name = "{name}"')
    for old, new in changes:
        text = text.replace(old, new)
    (folder / f"{name}.toml").write_text(text)
    return str(folder / f"{name}.toml")


def big_map(folder: Path) -> str:
    """A 400-hex island of one region whose tokens are all 6s and 8s."""
    rows = "\n".join(f'  {{ r = {r}, q = 0, cells = "{" ".join(["L"] * 20)}" }},' for r in range(20))
    text = (
        f'name = "big"\ncode = "Z8"\nvictory_points = 10\nrobber = "off"\n'
        f"[regions.all]\nterrain = {{ forest = 400 }}\nnumbers = [{', '.join(['6', '8'] * 200)}]\n"
        f'[map]\nrows = [\n{rows}\n]\n[map.legend]\n"L" = {{ kind = "land", region = "all" }}\n'
    )
    (folder / "big.toml").write_text(text)
    return str(folder / "big.toml")


def main() -> int:
    folder = Path(tempfile.mkdtemp(prefix="setupgen-bench-"))
    cases = [
        ("400-hex layout, only red tokens", ["board", "--layout", big_map(folder), "--seed", "s", "--format", "json"]),
        (
            "18 sixes on the base island",
            [
                "board",
                "--layout",
                layout(
                    folder,
                    "sixes",
                    (
                        "numbers = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]",
                        "numbers = [" + ", ".join(["6"] * 18) + "]",
                    ),
                    ("spiral = [5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11]", ""),
                ),
                "--seed",
                "s",
                "--format",
                "json",
            ],
        ),
        (
            "a billion forests",
            ["board", "--layout", layout(folder, "billion", ("forest = 4,", "forest = 1000000000,")), "--seed", "s"],
        ),
        (
            "1,000 free harbors",
            [
                "board",
                "--layout",
                layout(
                    folder,
                    "harbors",
                    ('pool = { "3:1" = 4,', 'pool = { "3:1" = 991,'),
                    ('default = "shuffled"', 'default = "free"'),
                ),
                "--seed",
                "s",
            ],
        ),
        ("500 rounds", []),  # filled in below
        ("10 KB title", ["round", "--tables", "1", "--seed", "s", "--title", "T" * 10_000, "-o", str(folder / "p")]),
    ]
    toml = folder / "many.toml"
    toml.write_text(
        (ROOT / "examples" / "swiss-2010" / "tournament.toml")
        .read_text()
        .replace('players = "players.csv"', f'players = "{ROOT / "examples" / "swiss-2010" / "players.csv"}"')
        + '\n[[rounds]]\nscenario = "base-3-4"\n' * 500
    )
    cases[4] = ("500 rounds", ["schedule", str(toml), "-o", str(folder / "t")])
    worst = 0.0
    for label, args in cases:
        start = time.perf_counter()
        if args[0] == "board":
            args = [*args, "-o", str(folder / "out.json")]
        res = subprocess.run([sys.executable, "-m", "setupgen", *args], capture_output=True, text=True, cwd=ROOT)
        took = time.perf_counter() - start
        worst = max(worst, took)
        print(f"{label:<34} {took:6.2f} s  exit {res.returncode}  {res.stderr.strip()[:90]}")
    print(f"slowest {worst:.2f} s (goal <= 5 s): {'met' if worst <= 5 else 'NOT met'}")
    return 0 if worst <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
