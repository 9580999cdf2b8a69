"""Docs that cannot drift from the command line: docs/cli.md is what
scripts/cli_reference.py writes from the Typer app, every option has a
help text, and the README's command tables name every command and every
option (as sqlite-utils tests its generated CLI reference)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import typer

from setupgen.cli import app

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "cli_reference.py"


def commands() -> dict:
    return typer.main.get_command(app).commands


def readme_commands_part() -> str:
    """The README's command sections: from "## Commands" to "## Interpretations" (the console and
    balance options are documented in their sections between)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text[text.index("## Commands") : text.index("## Interpretations and deviations")]


def undocumented(part: str) -> list[str]:
    """``command --option`` for every command not named as ``setupgen <command>`` in ``part``, and
    every long option of a command named nowhere in ``part``."""
    missing = []
    for name, command in commands().items():
        if f"setupgen {name}" not in part:
            missing.append(name)
        for p in command.params:
            if p.param_type_name != "option":
                continue
            flags = [*p.opts, *p.secondary_opts]
            if not any(re.search(re.escape(f) + r"(?![\w-])", part) for f in flags):
                missing.append(f"{name} {flags[0]}")
    return missing


def test_docs_cli_md_is_what_the_script_writes_from_the_app():
    run = subprocess.run([sys.executable, str(SCRIPT), "--check"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + "\n(run: python scripts/cli_reference.py)"
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert [f"## `setupgen {name}`" in text for name in commands()] == [True] * len(commands())
    assert "| `--count` | option | `1` |" in text and "| `--almanac` / `--no-almanac` | flag | on |" in text


def test_every_option_has_help_text_and_every_command_a_summary():
    bare = [
        f"{name} {p.opts[0]}"
        for name, command in commands().items()
        for p in command.params
        if p.param_type_name == "option" and not (p.help or "").strip()
    ]
    assert not bare, bare
    assert all((c.help or "").strip() for c in commands().values())


def test_the_readme_names_every_command_and_option():
    assert undocumented(readme_commands_part()) == []


def test_the_check_fails_on_an_option_added_without_docs():
    part = readme_commands_part()
    assert undocumented(part.replace("--max-terrain-cluster", "--max-t-cluster")) == [
        "board --max-terrain-cluster",
        "round --max-terrain-cluster",
    ]
    assert undocumented(part.replace("setupgen scenarios", "setupgen scenery")) == ["scenarios"]


def test_the_reference_goes_stale_when_an_option_changes(monkeypatch):
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import cli_reference
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    fresh = cli_reference.reference()
    assert fresh == (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    made = commands()
    (count,) = [p for p in made["board"].params if p.name == "count"]
    monkeypatch.setattr(count, "help", "changed")
    monkeypatch.setattr(cli_reference, "commands", lambda: list(made.items()))
    assert "| `--count` | option | `1` | changed |" in cli_reference.reference()
