"""Board streams pinned by digest: every shipped scenario with every number
method and harbor mode it accepts. ``tests/test_streams.py`` compares
them; after a deliberate change of the stream run

    python tests/golden/streams.py > tests/golden/streams.txt

and say in the commit why (every board printed before can no longer be
regenerated from its seed). Boards are made through the command line, so
the pins do not depend on how the package is laid out inside."""

import hashlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

SEED = "pin"
#: boards per stream: fewer for the slow uniform method on 5-6 boards
COUNTS = {"uniform": 12}
DEFAULT_COUNT = 60


def jsonl(scenario: str, numbers: str, harbors: str, count: int) -> bytes:
    """The JSON Lines of a stream, through the CLI (``board --format jsonl``)."""
    from typer.testing import CliRunner

    from setupgen.cli import app

    res = CliRunner().invoke(
        app,
        [
            "board",
            "--scenario",
            scenario,
            "--numbers",
            numbers,
            "--harbors",
            harbors,
            "--seed",
            SEED,
            "--count",
            str(count),
            "--format",
            "jsonl",
            "-o",
            "-",
        ],
    )
    if res.exit_code != 0:
        raise RuntimeError(f"{scenario} {numbers} {harbors}: exit {res.exit_code}: {res.output}")
    return res.stdout_bytes


def combos():
    """(scenario, numbers, harbors) the CLI accepts, from `setupgen scenarios`."""
    from typer.testing import CliRunner

    from setupgen.cli import app

    names = [line.split()[0] for line in CliRunner().invoke(app, ["scenarios"]).stdout.splitlines()]
    for name in names:
        for numbers in ("swap", "spiral", "uniform"):
            for harbors in ("shuffled", "free", "players", "fixed"):
                res = CliRunner().invoke(
                    app,
                    [
                        "board",
                        "--scenario",
                        name,
                        "--numbers",
                        numbers,
                        "--harbors",
                        harbors,
                        "--seed",
                        SEED,
                        "--format",
                        "json",
                        "-o",
                        "-",
                    ],
                )
                if res.exit_code == 0:
                    yield name, numbers, harbors


if __name__ == "__main__":
    for scenario, numbers, harbors in combos():
        count = COUNTS.get(numbers, DEFAULT_COUNT)
        digest = hashlib.sha256(jsonl(scenario, numbers, harbors, count)).hexdigest()[:24]
        print(scenario, numbers, harbors, count, digest)
