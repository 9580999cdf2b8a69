"""What the command-line tests share: invoking ``setupgen`` with Typer's
CliRunner and reading the one ``error:`` line a failed command prints."""

from __future__ import annotations

from setupgen.cli import app


def run(runner, *args):
    """``setupgen ARGS`` (each argument as text) in ``runner``."""
    return runner.invoke(app, [str(a) for a in args])


def one_error(res, code: int = 2) -> str:
    """The single ``error:`` line of a command that failed with ``code``."""
    assert res.exit_code == code, (res.exit_code, res.output)
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert "Traceback" not in res.output
    return lines[0]


def error_line(res) -> str:
    """The single ``error:`` line of a command that failed with exit 2."""
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]
