"""Write docs/cli.md, the command-line reference, from the Typer app
itself: every command in the order ``setupgen --help`` lists them, its
summary, its arguments and every option with its metavar and help text.

    python scripts/cli_reference.py          # rewrite docs/cli.md
    python scripts/cli_reference.py --check  # exit 1 if it is stale

tests/test_cli_reference.py fails when docs/cli.md is not what this
script writes, when an option has no help text, and when the README's
command tables leave out a command or an option, so the docs cannot
drift from the code (as sqlite-utils generates its CLI reference)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DOC = ROOT / "docs" / "cli.md"
HEAD = """# Command-line reference

Written by `scripts/cli_reference.py` from the command line's own
definitions (`setupgen/cli.py`); do not edit by hand: a test fails when
this file and the code differ. What the commands are for, with examples:
the README, "Commands".
"""


def cell(text: str) -> str:
    """``text`` fit for one Markdown table cell."""
    return " ".join(text.replace("|", "\\|").split())


def commands() -> list[tuple[str, object]]:
    """(name, click command) of every command, in the app's order."""
    import typer

    from setupgen.cli import app

    group = typer.main.get_command(app)
    return list(group.commands.items())  # type: ignore[attr-defined]


def options(command) -> list[tuple[str, str, str, str]]:
    """(flags, kind, default, help) of every parameter of ``command``, from
    click's public parameter attributes (the same whatever Typer prints):
    kind ``argument``, ``option`` (takes a value) or ``flag``; ``--help``
    and hidden options left out."""
    out = []
    for p in command.params:
        if p.param_type_name == "argument":
            out.append((f"`{p.metavar or p.name.upper()}`", "argument", "", p.help or ""))
            continue
        if getattr(p, "hidden", False):
            continue
        flags = " / ".join(", ".join(f"`{f}`" for f in group) for group in (p.opts, p.secondary_opts) if group)
        default = p.default
        shown = (
            ""
            if default is None or default is False or default == () or callable(default)
            else (("on" if default else "off") if p.is_flag else f"`{default}`")
        )
        out.append((flags, "flag" if p.is_flag else "option", shown, p.help or ""))
    return out


def reference() -> str:
    """The whole of docs/cli.md."""
    parts = [HEAD]
    for name, command in commands():
        summary = (command.help or "").strip().split("\n\n")[0]  # type: ignore[attr-defined]
        parts.append(f"## `setupgen {name}`\n\n{' '.join(summary.split())}\n")
        rows = options(command)
        if rows:
            parts.append("| parameter | kind | default | what |\n|---|---|---|---|")
            parts.extend(
                f"| {cell(flags)} | {kind} | {cell(default)} | {cell(text)} |" for flags, kind, default, text in rows
            )
            parts.append("")
    return "\n".join(parts).rstrip("\n") + "\n"


def main(argv: list[str]) -> int:
    text = reference()
    if argv[1:] == ["--check"]:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC.relative_to(ROOT)} is stale: run python scripts/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    if argv[1:]:
        print(__doc__, file=sys.stderr)
        return 2
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
