"""Mutation exercise for the rules: delete each rule branch of
setupgen/check.py (every statement that appends or returns a Violation)
and of the rule definitions in setupgen/core/rules.py, run the given fast
tests, and report which deletions no test notices.

    python scripts/mutate_rules.py [TEST FILES]   (default: test_check_rules, test_rules)

Each file is restored after its run (also on Ctrl-C). It edits the files
of this checkout while it runs: run nothing else in it meanwhile.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_TESTS = ["tests/test_check_rules.py", "tests/test_rules.py"]
#: (old text, new text, what) in setupgen/core/rules.py
RULE_MUTATIONS = [
    ("    if a == b:\n        out += (RULE_EQUAL,)\n", "", "clashes: equal branch deleted"),
    ("    if a in RED_NUMBERS and b in RED_NUMBERS:\n        out += (RULE_RED,)\n", "", "clashes: red branch deleted"),
    ("    if a[0] == b[0]:\n        return RULE_ONE_PER_SEA\n", "", "harbor_conflict: one-per-sea branch deleted"),
    ("    if set(hexgrid.edge_corners(*a)) & set(hexgrid.edge_corners(*b)):\n        return RULE_CORNERS\n", "",
     "harbor_conflict: corners branch deleted"),
    ('    return kinds.get(h) == "sea" and kinds.get(hexgrid.neighbor(h, facing)) == "land"',
     '    return kinds.get(h) == "sea"', "coast_edge: land test deleted"),
    ("        if broken and (n not in equal_exempt or RULE_RED in broken):",
     "        if broken and n not in equal_exempt:", "fits: red rule for exempt hexes deleted"),
]


def violation_statements(path: Path) -> list[tuple[int, int, str, str]]:
    """(first line, last line, replacement, first source line) of every
    statement appending or returning a Violation."""
    text = path.read_text()
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Expr, ast.Return)) and node.value is not None:
            src = ast.get_source_segment(text, node) or ""
            if "Violation(" in src and node.end_lineno is not None:
                repl = "return []" if isinstance(node, ast.Return) else "pass"
                out.append((node.lineno, node.end_lineno, repl, src.splitlines()[0][:90]))
    return sorted(out)


def caught(tests: list[str]) -> bool:
    """Whether the tests fail (the mutation is noticed)."""
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-m", "not slow", "-p", "no:cacheprovider",
                          *tests], cwd=ROOT, capture_output=True, text=True)
    return res.returncode != 0


def mutated(path: Path, new_text: str, tests: list[str]) -> bool:
    original = path.read_text()
    path.write_text(new_text)
    try:
        return caught(tests)
    finally:
        path.write_text(original)


def main() -> None:
    tests = sys.argv[1:] or DEFAULT_TESTS
    results = []
    check = ROOT / "setupgen" / "check.py"
    for lo, hi, repl, what in violation_statements(check):
        lines = check.read_text().splitlines(keepends=True)
        indent = lines[lo - 1][: len(lines[lo - 1]) - len(lines[lo - 1].lstrip())]
        new = "".join(lines[: lo - 1] + [indent + repl + "\n"] + lines[hi:])
        results.append((mutated(check, new, tests), f"check.py:{lo}: {what}"))
    rules = ROOT / "setupgen" / "core" / "rules.py"
    text = rules.read_text()
    for old, new, what in RULE_MUTATIONS:
        if old not in text:
            results.append((False, f"rules.py: {what}: text not found (update RULE_MUTATIONS)"))
            continue
        results.append((mutated(rules, text.replace(old, new), tests), f"rules.py: {what}"))
    for killed, what in results:
        print("caught  " if killed else "MISSED  ", what)
    print(f"{sum(k for k, _ in results)} of {len(results)} deletions caught")
    sys.exit(0 if all(k for k, _ in results) else 1)


if __name__ == "__main__":
    main()
