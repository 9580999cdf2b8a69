"""Write the rule table of docs/rules.md ("Almanac rules") from the data
files: every rule entry of almanac/ with where it is listed, its source,
the source's words, our English text and our reading.

    python scripts/almanac_rules_table.py          # rewrite the table
    python scripts/almanac_rules_table.py --check  # exit 1 if it is stale

tests/test_almanac_sources.py fails when the table in the docs is not the
one this script writes, so the docs cannot drift from the data."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DOC = ROOT / "docs" / "rules.md"
BEGIN = "<!-- almanac-rules-table: begin (scripts/almanac_rules_table.py writes this) -->"
END = "<!-- almanac-rules-table: end -->"


def cell(text: str) -> str:
    """``text`` fit for one Markdown table cell."""
    return " ".join(text.replace("|", "\\|").split())


def table() -> str:
    """The table's Markdown, one row per rule entry, in the data's order."""
    from setupgen.core import almanac
    from setupgen.core.templates import texts

    en = texts("en")
    rows = [
        "| key | listed in | when | source | the source's words | our English text | our reading |",
        "|---|---|---|---|---|---|---|",
    ]
    for where, rule in almanac.all_rules():
        text = en.data["almanac"]["rule"][rule.key].replace("\n", " ")
        when = rule.when + (f" ({', '.join(rule.scenarios)} only)" if rule.scenarios else "")
        rows.append(
            f"| `{rule.key}` | {where} | {when} | {cell(rule.source)} | "
            f"{cell(rule.quote) and '«' + cell(rule.quote) + '»'} | {cell(text)} | {cell(rule.reading)} |"
        )
    return "\n".join(rows)


def rewritten(doc: str) -> str:
    """``doc`` with the text between the markers replaced by :func:`table`."""
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{table()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    doc = DOC.read_text(encoding="utf-8")
    new = rewritten(doc)
    if "--check" in argv:
        return 0 if new == doc else 1
    if new != doc:
        DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
