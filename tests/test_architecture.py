"""The package's shape, computed from the code with ``ast``: every module has
a layer in the README's architecture table, imports only point down the
pipeline (core -> generate -> check -> render -> tournament -> console -> cli), the
import graph has no cycle, ``check`` and the tournament model depend on the
core only, nobody reaches into another module's private names, the library
never imports the CLI framework, and no function runs past ~60 lines."""

import ast
import re
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
        f"listed but missing: {sorted(set(listed) - set(modules()))}")
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
    graph = {name: {t for t, _, _ in imports(name, path) if t in modules() and t != name}
             for name, path in modules().items()}
    # a package's __init__ may re-export its own modules; a module importing
    # its own package's __init__ would close a cycle and is counted
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
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
            bad += [f"{path.relative_to(ROOT)}:{line}: {target}.{n}" for n in names
                    if n.startswith("_") and not n.startswith("__")]
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("setupgen")):
                        aliases.add(a.asname or a.name)
                    elif isinstance(node, ast.Import) and a.name.startswith("setupgen"):
                        aliases.add((a.asname or a.name).split(".")[0])
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value.id}.{node.attr}")
    assert not bad, "\n".join(bad)


def test_library_never_imports_the_cli_framework():
    bad = []
    for name, path in modules().items():
        if name in ("setupgen.cli", "setupgen.__main__"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
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
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and re.search(r"(^|\s)--[a-z]", sub.value):
                        bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {sub.value!r}")
    assert not bad, "\n".join(bad)


def test_no_function_over_sixty_lines():
    long = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name} has {length} lines")
    assert not long, "\n".join(long)


def test_docstrings_cite_the_projects_own_docs():
    """Code cites ``docs/…``, never ``../shared/`` (not part of the repository)."""
    bad = [f"{p.relative_to(ROOT)}" for p in modules().values() if "shared/" in p.read_text(encoding="utf-8")]
    assert not bad, bad
    for ref in sorted({m for p in modules().values() for m in re.findall(r"docs/[\w-]+\.md", p.read_text("utf-8"))}):
        assert (ROOT / ref).is_file(), f"code cites {ref}, which does not exist"


def test_library_type_checks_clean():
    """mypy over the package (configuration in pyproject.toml)."""
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "mypy", "--no-color-output"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Success: no issues found" in res.stdout
