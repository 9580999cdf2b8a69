"""Mutation exercise for the verdicts: change the code that decides a
board's legality, a standing or a schedule's bound, one small change at a
time, run the fast tests that guard it, and report the changes no test
notices.

    python scripts/mutate_rules.py            every mutant (about 40 minutes on 2 cores)
    python scripts/mutate_rules.py --sample N  N mutants drawn with a fixed seed
    python scripts/mutate_rules.py --list      the mutants, not run
    python scripts/mutate_rules.py --stale     EQUIVALENT entries that no longer name a mutant

Mutants:
- deletions: every statement of setupgen/check.py that appends or returns a
  Violation, and the rule branches of setupgen/core/rules.py (RULE_MUTATIONS);
- operators, in the verdict functions of TARGETS (the checker, the
  schedule's bounds, the lots, the final placings, the balance limits,
  the number placement and its plan): a comparison flipped
  (== and !=, < and <=, > and >=, in and not in), a whole-number constant
  moved by one, a member left out of a tuple of constants, two neighbours
  of a tuple of names swapped (the official order), ``and`` and ``or``
  swapped.

Every run works on a copy of the tree in a temporary folder (never this
checkout), so the checkout can be used meanwhile. A mutant that survives
and does not change what the code computes is listed in EQUIVALENT with
the reason; any other survivor is reported MISSED and the exit code is 1.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPY = (
    "setupgen",
    "tests",
    "layouts",
    "templates",
    "almanac",
    "examples",
    "balance",
    "docs",
    "scripts",
    "pyproject.toml",
    "README.md",
)
#: file -> (the functions whose operators are mutated, the fast tests that guard them)
TARGETS = {
    "setupgen/check.py": (
        ("_number_rules", "_check_harbors", "_free_harbor_rules", "_check_hexes"),
        ["tests/test_check_rules.py", "tests/test_rules.py"],
    ),
    "setupgen/tournament/measures.py": (
        ("key", "_pair_bounds", "_clashes", "pigeonhole", "seat_optimum", "seat_off_bound"),
        ["tests/test_bounds.py", "tests/test_schedule_optimum.py"],
    ),
    "setupgen/tournament/standings.py": (("draw_lots",), ["tests/test_standings.py"]),
    "setupgen/tournament/placings.py": (
        ("stage_tables", "semi_final_winners", "_check_stage", "_order", "_decided", "placings"),
        ["tests/test_placings.py"],
    ),
    "setupgen/core/balance.py": (("first_failure", "terrain_groups", "land_pairs"), ["tests/test_balance.py"]),
    "setupgen/generate/numbers.py": (
        ("_swap_pass", "_walk_back", "swap_joint", "uniform_joint"),
        ["tests/test_swap_rule.py", "tests/test_generate.py", "tests/test_touching_regions.py"],
    ),
    "setupgen/generate/plan.py": (
        ("_before", "_regions_touch"),
        ["tests/test_touching_regions.py", "tests/test_generate.py", "tests/test_generated_boards.py"],
    ),
}
#: (old text, new text, what) in setupgen/core/rules.py
RULE_MUTATIONS = [
    ("    if a == b:\n        out += (RULE_EQUAL,)\n", "", "clashes: equal branch deleted"),
    ("    if a in RED_NUMBERS and b in RED_NUMBERS:\n        out += (RULE_RED,)\n", "", "clashes: red branch deleted"),
    ("    if a[0] == b[0]:\n        return RULE_ONE_PER_SEA\n", "", "harbor_conflict: one-per-sea branch deleted"),
    (
        "    if set(hexgrid.edge_corners(*a)) & set(hexgrid.edge_corners(*b)):\n        return RULE_CORNERS\n",
        "",
        "harbor_conflict: corners branch deleted",
    ),
    (
        '    return kinds.get(h) == "sea" and kinds.get(hexgrid.neighbor(h, facing)) == "land"',
        '    return kinds.get(h) == "sea"',
        "coast_edge: land test deleted",
    ),
    (
        "        if broken and (n not in equal_exempt or RULE_RED in broken):",
        "        if broken and n not in equal_exempt:",
        "fits: red rule for exempt hexes deleted",
    ),
]
#: mutants that compute the same as the original, by their description, with the reason
EQUIVALENT: dict[str, str] = {
    "setupgen/tournament/measures.py:_pair_bounds line 8 col 27: 2 -> 1 in pairs = n * (n - 1) // 2": "a larger C(n, 2) only weakens terms that never bind: total - C(n, 2) = sum(s - (n - 1)) / 2 <= sum(max(0, s - (n - 1))) / 2, and total / C(n, 2) = mean(s) / (n - 1) <= max(s) / (n - 1)",
    "setupgen/tournament/measures.py:_pair_bounds line 8 col 21: 1 -> 0 in pairs = n * (n - 1) // 2": "the same: n * n // 2 is larger than C(n, 2), and the terms it enters never bind",
    "setupgen/tournament/measures.py:_pair_bounds line 11 col 15: 1 -> 0 in most = max(1, -(-total // pairs), max(-(-s // (n - 1)) for s in slots.values()))": "past the early return total > 0, so some player has s >= 1 and max(ceil(s / (n - 1))) >= 1 already",
    "setupgen/tournament/measures.py:_pair_bounds line 12 col 20: <= -> < in repeated = 0 if extra <= 0 else -(-extra // max(1, rounds - 1))": "extra == 0 gives -(-0 // x) == 0 in the other branch too",
    "setupgen/tournament/measures.py:_pair_bounds line 12 col 52: 1 -> 0 in repeated = 0 if extra <= 0 else -(-extra // max(1, rounds - 1))": "max(0, rounds - 1) differs only for one round, where nobody meets twice and extra is 0",
    "setupgen/tournament/measures.py:_pair_bounds line 6 col 11: 2 -> 1 in if n < 2 or total == 0:": "one player meets nobody, so total == 0 returns the same",
    "setupgen/tournament/measures.py:seat_off_bound line 22 col 11: and -> or in if lo_sum > avail[s] and lo_max:": "lo_max == 0 means every lo is 0, so lo_sum > avail never holds; and with lo_max > 0 but lo_sum <= avail the ceiling of a shortfall <= 0 leaves best as it is",
    "setupgen/tournament/measures.py:seat_off_bound line 24 col 11: and -> or in if avail[s] > hi_sum and room_max:": "room_max == 0 means hi >= played for every player, so hi_sum >= the seats they fill >= avail; and with room_max > 0 but avail <= hi_sum the ceiling of an excess <= 0 leaves best as it is",
    "setupgen/tournament/measures.py:seat_off_bound line 22 col 11: > -> >= in if lo_sum > avail[s] and lo_max:": "at equality the shortfall is 0 and its ceiling 0 leaves best as it is",
    "setupgen/tournament/measures.py:seat_off_bound line 24 col 11: > -> >= in if avail[s] > hi_sum and room_max:": "at equality the excess is 0 and its ceiling 0 leaves best as it is",
    "setupgen/tournament/measures.py:seat_off_bound line 15 col 35: 0 -> 1 in short_bind = opt[p] > (0 if played % size == 0 else 1)": "differs only for a player with S | R and optimum 1 above the ideal 0, i.e. ceil((R - f) / (S - 1)) - f = 1, which puts R in (S f, S f + S - 1]: never a multiple of S",
    "setupgen/tournament/measures.py:seat_off_bound line 15 col 64: 1 -> 2 in short_bind = opt[p] > (0 if played % size == 0 else 1)": "differs only for a player with optimum 2, R mod S != 0 (then R // S = f + 1), and only in lo and hi at positions s < S (at S both give lo = hi = f); there neither branch ever fires: every lo <= R / S, so the lo summed <= (S F + (S - 1) H) / S <= F + H, the seats at s; every hi >= (R - f) / (S - 1), so the hi summed >= the (S - 1)(F + H) seats off position S over S - 1 = F + H",
    "setupgen/tournament/measures.py:seat_off_bound line 18 col 49: 1 -> 0 in hi = min(hi, full[p]) if s == size - 1 else hi": "the cap at position S never changes the bound: short tables binding, hi there is f already; not binding, f >= R // S = lo, so lo is unchanged, and hi summed at S stays >= the F seats there (each player's min(hi, f) >= f / S)",
    "setupgen/tournament/measures.py:seat_off_bound line 17 col 41: 1 -> 0 in hi = (full[p] if s == size - 1 else full[p] + opt[p]) if short_bind else lo + op": "at position S the next line caps hi at f again: min(f + opt, f) = f",
    "setupgen/tournament/placings.py:_check_stage line 5 col 46: 1 -> 0 in strays = sorted(set(by_table) - set(range(1, len(tables) + 1)))": "a table number comes from a results file, read as a positive whole number (standings.read_results refuses 0), so no table 0 is ever there to be called a stray",
    "setupgen/tournament/placings.py:_check_stage line 18 col 37: 0 -> 1 in st.placing_points(rows, [0] * len(rows)) # one winner, nobody above the winner": "placing_points is called here only for its checks (one winner, nobody above the winner); the points it is given are not used",
    "setupgen/tournament/placings.py:_order line 23 col 28: 0 -> 1 in Placing(0, r.player, stage, rank[r.player], k, pp[r.player], r.vp),": "a placeholder: placings() gives every placing its place at the end (dataclasses.replace(p, place=n))",
    "setupgen/tournament/placings.py:_decided line 8 col 31: members 2 and 3 swapped in by = next(name for name, a, b in zip(ORDER_KEYS, key, group[i + 1][0]) if a != b": "the keys of two neighbours are compared with !=, which does not care which is first",
    'setupgen/tournament/placings.py:placings line 46 col 20: 0 -> 1 in rest = [Placing(0, p, PRELIMINARY, rank[p], decided_by="preliminary_rank") for p': "a placeholder: every placing gets its place at the end (dataclasses.replace(p, place=n))",
    "setupgen/core/balance.py:terrain_groups line 18 col 8: members 1 and 2 swapped in for a, b in pairs:": "a pair joins two hexes of equal terrain whichever comes first: the test is symmetric and the union keeps the smaller root either way",
    "setupgen/core/balance.py:terrain_groups line 22 col 12: members 1 and 2 swapped in ra, rb = root(a), root(b)": "the union links the larger root to the smaller whichever is computed first",
    "setupgen/core/balance.py:first_failure line 12 col 47: 0 -> 1 in and max(facts.intersections(), default=0) > limits.max_intersection_pips": "only a board with no intersection a start may take uses the default, and a limit is at least 1 (Limits refuses 0): 1 > limit holds as little as 0 > limit",
    "setupgen/generate/numbers.py:uniform_joint line 26 col 11: == -> != in if attempt == 1:": "feasible() draws nothing and raises the same error for an impossible layout whenever it runs (and returns for a possible one); when it runs changes only the time",
    "setupgen/generate/numbers.py:uniform_joint line 26 col 22: 1 -> 2 in if attempt == 1:": "the same: the feasibility check one attempt later",
    "setupgen/generate/numbers.py:uniform_joint line 26 col 22: 1 -> 0 in if attempt == 1:": "the same: the feasibility check before the first attempt",
    "setupgen/generate/numbers.py:_walk_back line 17 col 23: 1 -> 0 in for j in range(k - 1, -1, -1):": "the walk then first tries the hex itself: putting c there breaks the rule it broke already, so the walk goes on to the hexes before, as before",
    "setupgen/generate/plan.py:_before line 10 col 35: members 1 and 2 swapped in rank[cell_of[h]] = (region.name, k)": "compared as (index, region) a neighbour is left out only when it has the hex's own index in a region sorted after it (or is the hex): such a hex is still empty when this one is filled, as every hex the original leaves out; hexes the original leaves out and this one keeps are empty too, so the checks find nothing more",
    "setupgen/generate/plan.py:_before line 15 col 93: < -> <= in tuple(n for n in ns if mine is None or n not in rank or rank[n][0] != mine[0] or": "an equal index in the same region is the hex itself, and no hex is its own neighbour",
    "setupgen/generate/plan.py:_before line 15 col 76: 0 -> 1 in tuple(n for n in ns if mine is None or n not in rank or rank[n][0] != mine[0] or": "compares a neighbour's index with the hex's region name: never equal, so every neighbour is kept; the ones the original leaves out are still empty when the hex is filled, so the checks find nothing more",
    "setupgen/generate/plan.py:_before line 15 col 87: 0 -> 1 in tuple(n for n in ns if mine is None or n not in rank or rank[n][0] != mine[0] or": "the same: a region name against an index, never equal, every neighbour kept",
    "setupgen/check.py:_free_harbor_rules line 25 col 52: members 1 and 2 swapped in stacked.setdefault(a.hex, set()).update((i, j))": "(j, i) adds the same two members to a set",
    "setupgen/check.py:_check_harbors line 26 col 113: 1 -> 2 in for (where, facing, htype), _n in sorted((want - got).items(), key=lambda kv: sp": "orders missing fixed harbors of one sea hex only; a layout holds one harbor per sea hex (docs/rules.md section 3), so no two of them share one",
    "setupgen/check.py:_check_harbors line 26 col 113: 1 -> 0 in for (where, facing, htype), _n in sorted((want - got).items(), key=lambda kv: sp": "the same: ties only between missing fixed harbors of one sea hex",
    "setupgen/check.py:_check_harbors line 18 col 113: 1 -> 0 in for (where, facing, htype), _n in sorted((got - want).items(), key=lambda kv: sp": "the key (row, column, the hex itself) ties exactly where spot_order ties short of the facing; sorted() is stable and the Counter keeps the board's order, which is already by facing within a sea hex (a Board sorts its harbors by spot_order)",
    "setupgen/check.py:_check_harbors line 45 col 97: 1 -> 0 in for (where, facing), n in sorted(used.items(), key=lambda kv: spot_order(kv[0][0": "the same: the board's harbors already come by facing within a sea hex",
}

_FLIP = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_OP_TEXT = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
}


def _functions(tree: ast.AST, names: tuple[str, ...]):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in names:
            yield node


def operator_mutants(rel: str, names: tuple[str, ...]) -> list[tuple[str, str]]:
    """(description, mutated source) of every operator mutant in the
    functions ``names`` of file ``rel``."""
    text = (ROOT / rel).read_text()
    tree = ast.parse(text)
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(node) -> tuple[int, int]:
        return offsets[node.lineno - 1] + node.col_offset, offsets[node.end_lineno - 1] + node.end_col_offset

    out: list[tuple[str, str]] = []

    def add(fn, node, new: str, what: str) -> None:
        a, b = at(node)
        where = f"{fn.name} line {node.lineno - fn.lineno + 1} col {node.col_offset}"
        out.append((f"{rel}:{where}: {what} in {_short(text, node)}", text[:a] + new + text[b:]))

    for fn in _functions(tree, names):
        annotations = {id(n) for a in ast.walk(fn) for ann in _annotations(a) for n in ast.walk(ann)}
        for node in ast.walk(fn):
            if id(node) in annotations:  # type hints compute nothing
                continue
            if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _FLIP:
                op = type(node.ops[0])
                seg = ast.get_source_segment(text, node) or ""
                left = ast.get_source_segment(text, node.left) or ""
                right = ast.get_source_segment(text, node.comparators[0]) or ""
                new = f"{left} {_OP_TEXT[_FLIP[op]]} {right}"
                if seg and left and right:
                    add(fn, node, new, f"{_OP_TEXT[op]} -> {_OP_TEXT[_FLIP[op]]}")
            elif isinstance(node, ast.Constant) and type(node.value) is int and not isinstance(node.value, bool):
                for v in (node.value + 1, node.value - 1):
                    if v >= 0:
                        add(fn, node, str(v), f"{node.value} -> {v}")
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) > 1
                and all(isinstance(e, ast.Constant) for e in node.elts)
            ):
                for i in range(len(node.elts)):
                    rest = [ast.get_source_segment(text, e) for j, e in enumerate(node.elts) if j != i]
                    add(
                        fn,
                        node,
                        "(" + ", ".join(rest) + ("," if len(rest) == 1 else "") + ")",
                        f"member {i + 1} ({ast.get_source_segment(text, node.elts[i])}) left out",
                    )
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) > 1
                and all(isinstance(e, (ast.Attribute, ast.Name)) for e in node.elts)
            ):
                parts = [ast.get_source_segment(text, e) or "" for e in node.elts]
                for i in range(len(parts) - 1):
                    swapped = parts[:i] + [parts[i + 1], parts[i]] + parts[i + 2 :]
                    add(fn, node, "(" + ", ".join(swapped) + ")", f"members {i + 1} and {i + 2} swapped")
            elif isinstance(node, ast.BoolOp) and len(node.values) == 2:
                seg = ast.get_source_segment(text, node) or ""
                a, b = (ast.get_source_segment(text, v) for v in node.values)
                word = "or" if isinstance(node.op, ast.And) else "and"
                if seg and a and b:
                    add(fn, node, f"({a}) {word} ({b})", f"{'and' if word == 'or' else 'or'} -> {word}")
    return out


def _annotations(node) -> list:
    """The type-hint expressions directly on ``node`` (a function's return
    and argument hints, an annotated assignment's)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = [*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs]
        return [x for x in [node.returns, *(a.annotation for a in args)] if x is not None]
    if isinstance(node, ast.AnnAssign):
        return [node.annotation]
    return []


def _short(text: str, node) -> str:
    """The line of ``node`` (its first), on one line, for the description."""
    return " ".join(text.splitlines()[node.lineno - 1].split())[:80]


def deletion_mutants() -> list[tuple[str, str, list[str]]]:
    """(description, file, tests) of the deletion mutants; the mutated
    source is made by :func:`deleted`."""
    out = []
    check = ROOT / "setupgen" / "check.py"
    text = check.read_text()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Expr, ast.Return)) and node.value is not None:
            src = ast.get_source_segment(text, node) or ""
            if "Violation(" in src and node.end_lineno is not None:
                out.append(
                    (
                        f"setupgen/check.py:{node.lineno}: deleted {src.splitlines()[0].strip()[:60]}",
                        (node.lineno, node.end_lineno, "return []" if isinstance(node, ast.Return) else "pass"),
                    )
                )
    return out


def all_mutants() -> list[tuple[str, str, str, list[str]]]:
    """(description, file, mutated source, tests) of every mutant, in a
    stable order."""
    out = []
    check = ROOT / "setupgen" / "check.py"
    lines = check.read_text().splitlines(keepends=True)
    tests = TARGETS["setupgen/check.py"][1]
    for what, (lo, hi, repl) in deletion_mutants():
        indent = lines[lo - 1][: len(lines[lo - 1]) - len(lines[lo - 1].lstrip())]
        out.append((what, "setupgen/check.py", "".join(lines[: lo - 1] + [indent + repl + "\n"] + lines[hi:]), tests))
    rules = (ROOT / "setupgen" / "core" / "rules.py").read_text()
    for old, new, what in RULE_MUTATIONS:
        if old not in rules:
            raise SystemExit(f"setupgen/core/rules.py: {what}: text not found (update RULE_MUTATIONS)")
        out.append(
            (
                f"setupgen/core/rules.py: {what}",
                "setupgen/core/rules.py",
                rules.replace(old, new),
                ["tests/test_check_rules.py", "tests/test_rules.py"],
            )
        )
    for rel, (names, tests) in TARGETS.items():
        out += [(what, rel, src, tests) for what, src in operator_mutants(rel, names)]
    return out


def run(mutant: tuple[str, str, str, list[str]], tree: Path) -> bool:
    """Whether the fast tests fail on ``mutant`` (it is killed), run in the
    copy ``tree``, the mutated file written there and put back after."""
    _, rel, src, tests = mutant
    path = tree / rel
    original = path.read_text()
    path.write_text(src)
    try:
        res = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-m", "not slow", "-p", "no:cacheprovider", *tests],
            cwd=tree,
            capture_output=True,
            text=True,
            timeout=180,
            env={**os.environ, "PYTHONPATH": str(tree), "PYTHONDONTWRITEBYTECODE": "1"},
        )
        return res.returncode != 0
    except subprocess.TimeoutExpired:
        return True  # a mutant that hangs the tests is noticed
    finally:
        path.write_text(original)


def copy_tree(to: Path) -> Path:
    to.mkdir(parents=True)
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, to / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif src.exists():
            shutil.copy2(src, to / name)
    return to


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=0, help="run N mutants drawn with a fixed seed")
    ap.add_argument("--list", action="store_true", help="list the mutants, run none")
    ap.add_argument("--stale", action="store_true", help="list the EQUIVALENT entries that name no mutant, run none")
    ap.add_argument("--only", default="", help="run only the mutants whose description holds this text")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants run at once (default: the cores)")
    args = ap.parse_args(argv)
    mutants = all_mutants()
    stale = sorted(set(EQUIVALENT) - {m[0] for m in mutants})
    if args.stale:
        for what in stale:
            print(f"STALE      {what}")
        print(f"{len(stale)} stale equivalent mutants" if stale else "no stale equivalent mutants")
        return 1 if stale else 0
    if args.list:
        for what, *_ in mutants:
            print(what)
        print(f"{len(mutants)} mutants")
        return 0
    mutants = [m for m in mutants if args.only in m[0]]
    if args.sample:
        mutants = random.Random(22).sample(mutants, min(args.sample, len(mutants)))
    jobs = max(1, args.jobs)
    with tempfile.TemporaryDirectory(prefix="setupgen-mutants-") as tmp:
        trees = [copy_tree(Path(tmp) / str(k)) for k in range(jobs)]
        free = list(trees)
        lock = threading.Lock()

        def one(m):
            with lock:
                tree = free.pop()
            try:
                return m, run(m, tree)
            finally:
                with lock:
                    free.append(tree)

        missed = 0
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for m, killed in pool.map(one, mutants):
                why = EQUIVALENT.get(m[0])
                state = "killed    " if killed else ("equivalent" if why else "MISSED    ")
                missed += not killed and why is None
                print(f"{state} {m[0]}" + (f"  ({why})" if why and not killed else ""), flush=True)
    print(f"{len(mutants) - missed} of {len(mutants)} mutants killed or listed as equivalent")
    for what in stale:  # listed as equivalent, but no such mutant: its reason must be looked at again
        print(f"STALE      {what}")
    return 1 if missed or stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
