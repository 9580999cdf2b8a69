"""The public API: every name in ``setupgen.__all__`` resolves, none is a
module, importing the package loads nothing heavy, and the README's
"Use from Python" example runs as written."""

import re
import subprocess
import sys
from pathlib import Path

import setupgen

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_resolves_to_a_non_module():
    import inspect

    import setupgen.check  # noqa: F401  (binds the submodule on the package)
    import setupgen.generate  # noqa: F401

    assert setupgen.__all__ == sorted(setupgen.__all__)
    for name in setupgen.__all__:
        value = getattr(setupgen, name)
        assert not inspect.ismodule(value), name
    for must in ("load_layout", "from_seed", "from_setup_id", "check_board", "render_sheet", "svgs_to_pdf",
                 "read_board", "write_board", "load_tournament", "plan_schedule", "standings"):
        assert must in setupgen.__all__


def test_unknown_name_is_an_attribute_error():
    try:
        setupgen.no_such_thing  # noqa: B018
    except AttributeError as exc:
        assert "no_such_thing" in str(exc)
    else:
        raise AssertionError("no error")


def test_import_loads_no_renderer_or_cli_framework():
    code = "import sys, setupgen; print(sorted(m for m in sys.modules if m.split('.')[0] in ('svgwrite', 'shapely', 'cairosvg', 'typer', 'pypdf') or m.startswith('setupgen.')))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_readme_python_example_runs(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Use from Python", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, flags=re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.startswith("unknown number method 'zigzag'")


def test_read_and_write_board(tmp_path):
    board = setupgen.from_seed("base-5-6", "api")
    path = tmp_path / "b.json"
    setupgen.write_board(board, path)
    assert path.read_text().endswith("\n")
    assert setupgen.read_board(path) == board
    try:
        setupgen.read_board(tmp_path)
    except setupgen.BoardFormatError as exc:
        assert "a folder" in str(exc)
    else:
        raise AssertionError("no error")


def test_benchmark_and_script_modules_import():
    """The scripts in benchmarks/ and scripts/ import what they use and do
    nothing when imported (their work sits behind ``__main__``)."""
    import ast
    import runpy

    for path in sorted([*(ROOT / "benchmarks").glob("*.py"), *(ROOT / "scripts").glob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = [n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)]
        calls = [n for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                 and not ast.unparse(n.value.func) == "sys.path.insert"]
        assert guarded and not calls, f"{path.name}: top-level work outside `if __name__ == '__main__'`"
        runpy.run_path(str(path), run_name="imported_by_test")
