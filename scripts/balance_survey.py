"""Write ``balance/surveys.toml``: the balance-score percentiles of every
variable scenario with its default number method (docs/balance.md,
"Survey"), the default score interval (p25..p75) of an even round.

    .venv/bin/python scripts/balance_survey.py [--count 10000] [--check]

Each scenario's boards are made exactly as ``setupgen survey --scenario S
--count N`` makes them (board i seeded ``survey/<i>``, no limits, measured
as the director sees them; percentiles by nearest rank), so a reviewer can
compare any row with that command. ``--check`` writes nothing and exits 1
when the file's figures differ from a fresh survey (the date line aside).
The figures change only when the generators or ``balance/score.toml`` do.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from setupgen.core import layout as layoutmod  # noqa: E402
from setupgen.render import survey  # noqa: E402

TARGET = ROOT / "balance" / "surveys.toml"
#: the variable scenarios (every shipped one that makes its own boards, but
#: the Cities & Knights board is the base board: it is surveyed all the same)
SCENARIOS = ("base-3-4", "base-5-6", "cities-knights", "seafarers-sm2010", "oil-springs", "oil-springs-5-6")

HEADER = """\
# Balance-score percentiles of the variable scenarios (issue 12;
# docs/balance.md, "Survey"): for each scenario and its default number
# method, {count:,} boards seeded survey/1 .. survey/{count}, made without
# limits and measured as the director sees them; percentiles by nearest
# rank (p25, p50, p75 of the 0-100 score). p25..p75 is the default score
# interval of an even round.
#
# Made by scripts/balance_survey.py on {date}; rerun it to remake this file
# (`.venv/bin/python scripts/balance_survey.py`; `--check` compares
# without writing). Any row can be compared with
# `setupgen survey --scenario NAME --count {count}`. The figures change
# only when the generators or balance/score.toml change.
"""


def body(count: int) -> str:
    """The tables of the file: ``[scenario.<name>.<method>]``."""
    parts = []
    for name in SCENARIOS:
        method = layoutmod.load(name).default_numbers
        result = survey.run(survey.SurveyRequest(name, count=count))
        p25, p50, p75 = (survey.percentile(result.values["score"], p) for p in (25, 50, 75))
        parts.append(f"\n[scenario.{name}.{method}]\np25 = {p25}\np50 = {p50}\np75 = {p75}\ncount = {count}\n")
        print(f"{name:<18} {method:<6} p25 {p25:5.1f}  p50 {p50:5.1f}  p75 {p75:5.1f}", flush=True)
    return "".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--check", action="store_true", help="compare with the file; write nothing")
    opts = ap.parse_args()
    tables = body(opts.count)
    if opts.check:
        old = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        same = old.endswith(tables) and f"{opts.count:,} boards" in old
        print("balance/surveys.toml is " + ("up to date" if same else "out of date"))
        raise SystemExit(0 if same else 1)
    text = HEADER.format(count=opts.count, date=datetime.date.today().isoformat()) + tables
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
