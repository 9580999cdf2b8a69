"""Mutation exercise for the rules (issue: every check rule tested): delete
each rule branch of setupgen/check.py (every statement that appends or
returns a Violation) and of the rule definitions in setupgen/core/rules.py,
run the given fast tests, and report which deletions no test notices.

    python scripts/mutate_rules.py [TEST FILES]   (default: test_check_rules, test_rules)

Each file is restored after its run (also on Ctrl-C)."""
import ast, subprocess, sys, shutil
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
TESTS = sys.argv[1:] or ["tests/test_check_rules.py", "tests/test_rules.py"]

def statements(path):
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expr, ast.Return)) and node.value is not None:
            src = ast.get_source_segment(path.read_text(), node)
            if "Violation(" in src:
                out.append((node.lineno, node.end_lineno, "return []" if isinstance(node, ast.Return) else "pass", src.splitlines()[0][:90]))
    return sorted(out)

def run(path, lo, hi, repl):
    original = path.read_text()
    lines = original.splitlines(keepends=True)
    indent = lines[lo - 1][: len(lines[lo - 1]) - len(lines[lo - 1].lstrip())]
    mutated = lines[: lo - 1] + [indent + repl + "\n"] + lines[hi:]
    path.write_text("".join(mutated))
    try:
        r = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-q", "-x", "-m", "not slow", *TESTS],
                           cwd=ROOT, capture_output=True, text=True)
        return r.returncode != 0
    finally:
        path.write_text(original)

check = ROOT / "setupgen/check.py"
results = []
for lo, hi, repl, what in statements(check):
    killed = run(check, lo, hi, repl)
    results.append((killed, f"check.py:{lo}: {what}"))
rules = ROOT / "setupgen/core/rules.py"
text = rules.read_text()
for old, new, what in [
    ("    if a == b:\n        out += (RULE_EQUAL,)\n", "", "clashes: equal branch deleted"),
    ("    if a in RED_NUMBERS and b in RED_NUMBERS:\n        out += (RULE_RED,)\n", "", "clashes: red branch deleted"),
    ("    if a[0] == b[0]:\n        return RULE_ONE_PER_SEA\n", "", "harbor_conflict: one-per-sea branch deleted"),
    ("    if set(hexgrid.edge_corners(*a)) & set(hexgrid.edge_corners(*b)):\n        return RULE_CORNERS\n", "", "harbor_conflict: corners branch deleted"),
    ('    return kinds.get(h) == "sea" and kinds.get(hexgrid.neighbor(h, facing)) == "land"', '    return kinds.get(h) == "sea"', "coast_edge: land test deleted"),
    ("        if broken and (n not in equal_exempt or RULE_RED in broken):", "        if broken and n not in equal_exempt:", "fits: red kept for exempt deleted"),
]:
    assert old in text, what
    rules.write_text(text.replace(old, new))
    try:
        r = subprocess.run([str(ROOT / ".venv/bin/python"), "-m", "pytest", "-q", "-x", "-m", "not slow", *TESTS],
                           cwd=ROOT, capture_output=True, text=True)
        results.append((r.returncode != 0, f"rules.py: {what}"))
    finally:
        rules.write_text(text)
for killed, what in results:
    print("killed " if killed else "SURVIVED", what)
print(sum(k for k, _ in results), "of", len(results), "killed")
