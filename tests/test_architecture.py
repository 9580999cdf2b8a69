"""The package's shape, computed from the code with ``ast``: every module has
a layer in the README's architecture table, imports only point down the
pipeline (core -> generate -> check -> render -> tournament -> console -> cli), the
import graph has no cycle, ``check`` and the tournament model depend on the
core only, nobody reaches into another module's private names, the library
never imports the CLI framework, and no function runs past ~60 lines."""

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "setupgen"
LAYERS = ("core", "generate", "check", "render", "tournament", "console", "cli", "api")
MAX_FUNCTION_LINES = 60


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        if "_data" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def readme_layers() -> dict[str, str]:
    """Module -> layer from the README's architecture table rows
    ``| `setupgen/x/y.py` | layer | ... |``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Architecture", 1)[1].split("\n## ", 1)[0]
    out = {}
    for path, layer in re.findall(r"^\| `(setupgen/[\w/]+\.py)` \| (\w+) \|", section, flags=re.M):
        parts = path[:-3].split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = layer
    return out


def imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported setupgen module, names taken from it, line) for every import
    in the module, function-level ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    known = modules()
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "setupgen":
                    out.append((alias.name, [], node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "setupgen":
                continue
            names = [a.name for a in node.names]
            # `from pkg import module` imports the module itself
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            rest = [n for n in names if f"{target}.{n}" not in known]
            out.extend((s, [], node.lineno) for s in subs)
            if rest or not subs:
                out.append((target, rest, node.lineno))
    return out


def layer_index(layer: str) -> int:
    return LAYERS.index(layer)


def test_every_module_has_a_layer_in_the_readme():
    listed = readme_layers()
    assert set(listed) == set(modules()), (
        f"not in the README: {sorted(set(modules()) - set(listed))}; "
        f"listed but missing: {sorted(set(listed) - set(modules()))}"
    )
    assert set(listed.values()) <= set(LAYERS)


def test_imports_point_down_the_pipeline():
    layer = readme_layers()
    upward = []
    for name, path in modules().items():
        for target, _, line in imports(name, path):
            if target in layer and layer_index(layer[target]) > layer_index(layer[name]):
                upward.append(f"{path.relative_to(ROOT)}:{line}: {layer[name]} imports {target} ({layer[target]})")
    assert not upward, "\n".join(upward)


def test_check_and_tournament_model_depend_on_the_core_only():
    layer = readme_layers()
    for name in ("setupgen.check", "setupgen.tournament.model"):
        bad = [t for t, _, _ in imports(name, modules()[name]) if t in layer and layer[t] != "core"]
        assert not bad, f"{name} imports {bad}"


def test_import_graph_has_no_cycle():
    graph = {
        name: {t for t, _, _ in imports(name, path) if t in modules() and t != name} for name, path in modules().items()
    }
    # a package's __init__ may re-export its own modules; a module importing
    # its own package's __init__ would close a cycle and is counted
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :] + [nxt]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)


def test_no_module_reaches_into_private_names():
    bad = []
    mods = modules()
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target, names, line in imports(name, path):
            if target == name:
                continue
            bad += [
                f"{path.relative_to(ROOT)}:{line}: {target}.{n}"
                for n in names
                if n.startswith("_") and not n.startswith("__")
            ]
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("setupgen")):
                        aliases.add(a.asname or a.name)
                    elif isinstance(node, ast.Import) and a.name.startswith("setupgen"):
                        aliases.add((a.asname or a.name).split(".")[0])
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert not bad, "\n".join(bad)


def test_library_never_imports_the_cli_framework():
    bad = []
    for name, path in modules().items():
        if name in ("setupgen.cli", "setupgen.__main__"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            )
            bad += [f"{name}: {n}" for n in names if n.split(".")[0] in ("typer", "click", "rich")]
    assert not bad, bad


def test_library_messages_name_no_command_line_flags():
    """Error messages are the library's words: a raise whose message names a
    ``--flag`` belongs in the CLI."""
    bad = []
    for name, path in modules().items():
        if name == "setupgen.cli":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                for sub in ast.walk(node.exc):
                    if (
                        isinstance(sub, ast.Constant)
                        and isinstance(sub.value, str)
                        and re.search(r"(^|\s)--[a-z]", sub.value)
                    ):
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {sub.value!r}")
    assert not bad, "\n".join(bad)


def test_no_function_over_sixty_lines():
    long = []
    for _name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} has {length} lines")
    assert not long, "\n".join(long)


def _tracked_texts() -> list[Path]:
    """Every text file of the repository (git's list; a checkout without
    git: every file under the project folder but the virtual environment)."""
    import subprocess

    found = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    names = (
        found.stdout.split("\n")
        if found.returncode == 0
        else [str(p.relative_to(ROOT)) for p in ROOT.rglob("*") if ".venv" not in p.parts and ".git" not in p.parts]
    )
    out = []
    for name in filter(None, names):
        path = ROOT / name
        if path.is_file() and path.suffix not in {".png", ".pdf", ".db"}:
            try:
                path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            out.append(path)
    return out


#: a reference to a file outside the repository (the shared digest, the seeds' folder, a seed by number)
_OUTSIDE = re.compile("(?<!docs/)(?:RULES|FORMAT|SHEET)" + r"\.md|\.\./shared|shared/seeds|(?i:\bseeds? 0\d\d\b)")


def test_every_reference_points_inside_the_repository():
    """Code, tests, layouts, examples, almanac data, docs and scripts cite
    ``docs/…`` (and its numbered sections and parts), never a file outside
    the repository; every cited doc, section and part exists."""
    files = _tracked_texts()
    assert any(p.name == "base-3-4.toml" for p in files) and any(p.parent.name == "tests" for p in files)
    outside = [
        f"{p.relative_to(ROOT)}:{n}: {m.group(0)}"
        for p in files
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), start=1)
        for m in _OUTSIDE.finditer(line)
        if p.name != "test_architecture.py"
    ]
    assert not outside, "\n".join(outside)
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = set(re.findall(r"^## (\d+)\. ", rules, re.MULTILINE))
    parts = set(re.findall(r"^\| (7\.\d) \|", rules, re.MULTILINE))
    assert sections >= {"1", "6", "7"} and parts == {f"7.{k}" for k in range(1, 9)}
    for p in files:
        text = p.read_text(encoding="utf-8")
        for ref in set(re.findall(r"docs/[\w-]+\.md", text)):
            assert (ROOT / ref).is_file(), f"{p.relative_to(ROOT)} cites {ref}, which does not exist"
        for number in re.findall(r"docs/rules\.md,? section (\d+)", text):
            assert number in sections, f"{p.relative_to(ROOT)} cites docs/rules.md section {number}"
        for part in re.findall(r"docs/rules\.md,? (7\.\d)", text):
            assert part in parts, f"{p.relative_to(ROOT)} cites docs/rules.md {part}"


def test_library_type_checks_clean():
    """mypy over the package (configuration in pyproject.toml)."""
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "mypy", "--no-color-output"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success: no issues found" in res.stdout


def test_mypy_strict_counts_match_the_readme():
    """``mypy --strict setupgen``, counted per package (``setupgen/cli.py``
    is ``setupgen/cli``), equals the README's table ("Development",
    issue 47): core, generate, check and tournament at 0, the others at
    their figures; a package missing from the table has 0."""
    import subprocess
    import sys

    res = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-color-output", "setupgen"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    found: dict[str, int] = {}
    for line in res.stdout.splitlines():
        m = re.match(r"(setupgen/[a-z_]+)(?:\.py|/)\S*:\d+: error:", line)
        if m:
            found[m.group(1)] = found.get(m.group(1), 0) + 1
    table = (ROOT / "README.md").read_text(encoding="utf-8").split("| package | `mypy --strict` errors |", 1)[1]
    listed = {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s*\| `(setupgen/[a-z_]+)` \| (\d+) \|", table, re.M)}
    assert {
        p: listed[p] for p in ("setupgen/core", "setupgen/generate", "setupgen/check", "setupgen/tournament")
    } == dict.fromkeys(("setupgen/core", "setupgen/generate", "setupgen/check", "setupgen/tournament"), 0)
    assert found == {p: n for p, n in listed.items() if n}, res.stdout[-3000:]


def test_every_imported_package_is_declared():
    """Each third-party module the package imports (anywhere in its
    source, lazily or not) comes from a distribution named in
    pyproject.toml's dependencies, and each one the tests, scripts and
    benchmarks import from one named there or in the test extras (issue
    47: numpy, markupsafe, click and rich arrived only as others'
    dependencies). Optional peers a benchmark or a test skips without
    (catanatron) are listed here by name."""
    import importlib.metadata
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(specs: list[str]) -> set[str]:
        return {re.split(r"[<>=!~\[ ;]", s, maxsplit=1)[0].lower().replace("_", "-") for s in specs}

    runtime, test = names(project["dependencies"]), names(project["optional-dependencies"]["test"])
    dists = importlib.metadata.packages_distributions()
    local = (
        {p.stem for p in (ROOT / "tests").glob("*.py")}
        | {p.stem for p in (ROOT / "scripts").glob("*.py")}
        | {p.stem for p in (ROOT / "benchmarks").glob("*.py")}
        | {"setupgen", "msvcrt", "catanatron"}
    )

    def imported(folder: str) -> set[str]:
        found = set()
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
        return {m for m in found if m not in sys.stdlib_module_names and m not in local}

    def undeclared(modules: set[str], declared: set[str]) -> list[str]:
        return sorted(m for m in modules if not {d.lower().replace("_", "-") for d in dists.get(m, [m])} & declared)

    assert undeclared(imported("setupgen"), runtime) == []
    assert undeclared(imported("tests") | imported("scripts") | imported("benchmarks"), runtime | test) == []


def test_ruff_format_and_check_are_clean():
    """``ruff format --check`` and ``ruff check`` over the repository
    (settings in pyproject.toml, ruff pinned in the test extras): a
    change that would be reformatted, or breaks a lint rule, fails here."""
    import shutil
    import subprocess

    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff, "ruff is not installed (pip install -e '.[test]')"
    for args in (["format", "--check", "."], ["check", "."]):
        res = subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True)
        assert res.returncode == 0, (args, res.stdout[-3000:] + res.stderr[-1000:])


def test_every_test_has_a_time_limit(request):
    """pytest-timeout is active with the configured limit, and the slow
    and browser tests get the longer one (tests/conftest.py), so a hang
    fails its test instead of using up CI's 90 minutes (issue 47)."""
    import conftest

    config = request.config
    assert config.pluginmanager.hasplugin("timeout") and float(config.getini("timeout")) == 300
    assert request.node.get_closest_marker("timeout") is None  # this one runs under the 300 s
    marked = [i for i in request.session.items if i.get_closest_marker("slow") or i.get_closest_marker("browser")]
    assert all(i.get_closest_marker("timeout").args == (conftest.SLOW_TIMEOUT,) for i in marked)


def test_the_newcomers_tour_names_every_package_and_only_real_paths():
    """docs/architecture.md (issue 48) names every package and top-level
    module of setupgen in its table, and every ``setupgen/…`` path it
    mentions exists (a moved module fails here until the tour follows)."""
    tour = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    parts = [
        p.name + ("/" if p.is_dir() else "")
        for p in (ROOT / "setupgen").iterdir()
        if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py" and not p.name.startswith("_"))
    ]
    table = tour.split("## The packages, one line each", 1)[1].split("##", 1)[0]
    assert [p for p in parts if f"`setupgen/{p}`" not in table] == []
    mentioned = set(re.findall(r"`(setupgen/[\w/]+(?:\.py|/))`", tour))
    assert mentioned and [m for m in sorted(mentioned) if not (ROOT / m).exists()] == []
