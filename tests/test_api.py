"""The public API: every name in ``setupgen.__all__`` resolves, none is a
module, importing the package loads nothing heavy, and the README's
"Use from Python" example runs as written."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import setupgen
from setupgen.core.almanac import AlmanacRequest
from setupgen.core.errors import SetupgenError

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_name_resolves_to_a_non_module():
    import inspect

    import setupgen.check  # noqa: F401  (binds the submodule on the package)
    import setupgen.generate  # noqa: F401

    assert setupgen.__all__ == sorted(setupgen.__all__)
    for name in setupgen.__all__:
        value = getattr(setupgen, name)
        assert not inspect.ismodule(value), name
    for must in (
        "load_layout",
        "from_seed",
        "from_setup_id",
        "check_board",
        "render_sheet",
        "svgs_to_pdf",
        "read_board",
        "write_board",
        "load_tournament",
        "plan_schedule",
        "standings",
    ):
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
        calls = [
            n
            for n in tree.body
            if isinstance(n, ast.Expr)
            and isinstance(n.value, ast.Call)
            and not ast.unparse(n.value.func) == "sys.path.insert"
        ]
        assert guarded and not calls, f"{path.name}: top-level work outside `if __name__ == '__main__'`"
        runpy.run_path(str(path), run_name="imported_by_test")


# ------------------------------------------------------------------ the board command's jobs, one request type each


def test_each_job_of_the_board_command_is_a_request_type_of_its_own():
    from setupgen.render import export

    R = export.BoardRequest
    cases = [
        (R(seed="s"), export.SheetRequest),
        (R(seed="s", fmt="svg"), export.SheetRequest),
        (R(seed="s", key=True, scenario="seafarers-sm2010"), export.KeyRequest),
        (R(seed="s", fmt="json"), export.JsonRequest),
        (R(setup_id=None, seed="s", fmt="jsonl", count=3), export.BatchRequest),
        (
            R(board_file="tests/fixtures/oil-5-6-fixed-test-board.json", scenario="oil-springs-5-6-fixed"),
            export.BoardFileRequest,
        ),
    ]
    for request, kind in cases:
        assert type(export.board_job(request)) is kind, request
    job = export.board_job(R(seed="s", fmt="jsonl", count=3, numbers="spiral"))
    assert (job.source.seed, job.source.numbers, job.count, job.source.layout.name) == ("s", "spiral", 3, "base-3-4")
    sheet = export.board_job(R(seed="s", fmt="png", lang="de", balance_line=True))
    assert (sheet.print.fmt, sheet.print.lang, sheet.print.balance_line) == ("png", "de", True)
    assert export.board_job(R(seed="s", fmt="json", balance_line=True)).source.seed == "s"  # no print for json
    with pytest.raises(SetupgenError, match="needs a seed or a setup id"):
        export.board_job(R())


def test_the_jobs_make_what_the_command_writes(tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app
    from setupgen.render import export

    R = export.BoardRequest
    run = CliRunner().invoke(app, ["board", "--seed", "jobs", "--format", "json", "-o", "-"])
    assert (
        run.exit_code == 0 and export.json_output(export.board_job(R(seed="jobs", fmt="json"))).data == run.stdout_bytes
    )
    made = export.batch_output(export.board_job(R(seed="jobs", fmt="jsonl", count=4)))
    lines = list(made.data)
    assert made.default_name == "base-3-4-jobs.jsonl" and len(lines) == 4
    assert lines[0] == export.board_job(R(seed="jobs/1", fmt="json")).source.board().to_json(indent=None) + "\n"
    key = export.key_output(export.board_job(R(seed="jobs", fmt="svg", key=True, scenario="seafarers-sm2010")))
    assert key.default_name.endswith("-key.svg") and key.almanac is None and key.data.startswith(b"<")
    sheet = export.sheet_output(export.board_job(R(seed="jobs", fmt="svg", almanac=AlmanacRequest())))
    assert sheet.almanac is not None and sheet.default_name == f"base-3-4-{sheet.setup_id}.svg"
