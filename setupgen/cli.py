"""The ``setupgen`` command line: thin commands over the library.

Each command parses its options, calls one library function and turns a
domain error (:class:`setupgen.errors.SetupgenError`) into one line on
stderr and exit code 2.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Optional, Sequence

import typer
from typer.core import TyperGroup

try:  # typer >= 0.29 vendors click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer
    from click.exceptions import ClickException  # type: ignore[no-redef]

from .errors import SetupgenError

EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
DEFAULT_OUTPUT = Path("output")


class _OneLineErrors(TyperGroup):
    """Usage errors (unknown option, bad value) as one line and exit 2."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):  # type: ignore[override]
        args = list(sys.argv[1:] if args is None else args)
        if not args:
            args = ["--help"]  # a bare `setupgen` shows the help, exit 0
        try:
            rv = super().main(args=args, prog_name=prog_name or "setupgen", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except ClickException as exc:
            typer.echo(f"error: {exc.format_message()}", err=True)
            code = EXIT_BAD_INPUT
        except (typer.Abort, KeyboardInterrupt):
            typer.echo("error: interrupted; nothing was written", err=True)
            code = 130
        else:
            code = rv if isinstance(rv, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


app = typer.Typer(
    cls=_OneLineErrors,
    help="Legal random Catan boards and printable table sheets for tournaments.",
    epilog="Example: setupgen round --scenario base-3-4 --tables 12 --seed demo -o output/demo",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def _default_target(name: str) -> Path:
    """``output/<name>``, creating the default ``output/`` folder if needed."""
    try:
        DEFAULT_OUTPUT.mkdir(exist_ok=True)
    except OSError as exc:
        raise SetupgenError(f"cannot create the output folder {str(DEFAULT_OUTPUT)!r}: {exc.strerror or exc}") from None
    return DEFAULT_OUTPUT / name


def _seed_or_fresh(seed: Optional[str]) -> str:
    from . import rng

    if seed is None:
        seed = rng.fresh_seed()
        typer.echo(f"seed: {seed}", err=True)
    elif not seed.strip():
        raise SetupgenError("the seed must not be empty")
    return seed


@app.command(epilog="Examples:  setupgen board --scenario base-5-6 --seed club7 --format svg -o board.svg"
                    "  |  setupgen board --setup-id B4SS-5ABN-2V1N-9DM8 --format json -o -"
                    "  |  setupgen board --seed s --format jsonl --count 1000 -o boards.jsonl")
def board(
    scenario: Optional[str] = typer.Option(None, help="Scenario (see 'setupgen scenarios'); default base-3-4."),
    seed: Optional[str] = typer.Option(None, help="Seed text; default: a fresh random seed, printed."),
    setup_id: Optional[str] = typer.Option(None, "--setup-id", help="Regenerate the board of this setup ID."),
    numbers: Optional[str] = typer.Option(None, help="Number method: swap (default), spiral or uniform."),
    harbors: Optional[str] = typer.Option(None, help="Harbor method: shuffled, free or players (default: the scenario's)."),
    fmt: Optional[str] = typer.Option(None, "--format", help="pdf, svg, png, json or jsonl; default: from the -o file's extension, else pdf."),
    count: int = typer.Option(1, help="With --format jsonl: how many boards (board i is seeded SEED/i)."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="File to write, or - for stdout; default output/<scenario>-<setup id>.<format>."),
    lang: str = typer.Option("en", help="Sheet language: en or de."),
    paper: str = typer.Option("a4", help="Paper: a4 or letter."),
    layout_file: Optional[str] = typer.Option(None, "--layout", help="A layout TOML file to use instead of a shipped scenario."),
    key: bool = typer.Option(False, "--key", help="The director's key (face-down hexes revealed) instead of the table sheet."),
    board_file: Optional[str] = typer.Option(None, "--board", help="A complete board (board JSON, or a layout TOML with every hex fixed) to render and check; with --scenario oil-springs-fixed the fixed oil springs are added."),
) -> None:
    """One board (or a JSONL batch) as a sheet or board JSON."""
    from . import atomic, export

    request = export.BoardRequest(scenario, seed, setup_id, numbers, harbors, fmt, count, output,
                                  lang, paper, layout_file, key, board_file)
    try:
        export.check_board_request(request)
        if setup_id is None and board_file is None:
            request = dataclasses.replace(request, seed=_seed_or_fresh(seed))
        made = export.board_output(request)
        if output == "-":
            if isinstance(made.data, bytes):
                sys.stdout.buffer.write(made.data)
                sys.stdout.flush()
            else:
                for line in made.data:
                    sys.stdout.write(line)
            _report_violations(made.violations)
            return
        target = Path(output) if output is not None else _default_target(made.default_name)
        data = made.data if isinstance(made.data, bytes) else "".join(made.data).encode("utf-8")
        atomic.write_bytes(target, data)
        about = f" (setup id {made.setup_id})" if made.setup_id else ""
        typer.echo(f"wrote {target}{about}", err=True)
    except SetupgenError as exc:
        raise _fail(str(exc)) from None
    _report_violations(made.violations)


def _report_violations(found: Sequence) -> None:
    """After ``board --board``: the check of the file's board on stderr;
    exit 1 when it breaks a rule (the output is written all the same)."""
    if board_errors := [v for v in found if v.severity == "error"]:
        for v in found:
            typer.echo(str(v), err=True)
        typer.echo(f"illegal: {len(board_errors)} violation(s)", err=True)
        raise typer.Exit(EXIT_ILLEGAL)


@app.command("round", epilog="Example:  setupgen round --scenario base-3-4 --tables 12 --seed demo -o output/demo"
                             "  (table 3 alone: setupgen board --scenario base-3-4 --seed demo/t3)")
def round_(
    scenario: str = typer.Option("base-3-4", help="Scenario (see 'setupgen scenarios')."),
    tables: int = typer.Option(..., help="Number of tables (1-500)."),
    seed: Optional[str] = typer.Option(None, help="Round seed; table t is seeded SEED/t<t>. Default: fresh, printed."),
    output: Optional[str] = typer.Option(None, "-o", "--output", help="Folder for the pack (replaced whole); default output/<scenario>-<seed>."),
    numbers: Optional[str] = typer.Option(None, help="Number method: swap (default), spiral or uniform."),
    harbors: Optional[str] = typer.Option(None, help="Harbor method: shuffled, free or players."),
    lang: str = typer.Option("en", help="Sheet language: en or de."),
    paper: str = typer.Option("a4", help="Paper: a4 or letter."),
    title: Optional[str] = typer.Option(None, help="Tournament name printed on every sheet."),
    round_number: Optional[int] = typer.Option(None, "--round", help="Round number printed on every sheet."),
) -> None:
    """Make a round pack: a sheet per table, director's page, one PDF."""
    from . import atomic, export, roundpack

    try:
        roundpack.check_request(roundpack.RoundRequest(scenario, tables, "", numbers, harbors, lang, paper,
                                                       title, round_number))
        target = Path(output) if output is not None else None
        if target is not None:
            atomic.check_dir_target(target)
        seed = _seed_or_fresh(seed)
        request = roundpack.RoundRequest(scenario, tables, seed, numbers, harbors, lang, paper, title, round_number)
        if target is None:
            target = _default_target(f"{export.slug(scenario)}-{export.slug(seed)}")
        from rich.progress import Progress

        console = _stderr_console()
        with Progress(transient=True, console=console, disable=not console.is_terminal) as bar:
            task = bar.add_task("round pack", total=roundpack.steps(request))
            manifest = roundpack.write_round(request, target, lambda _step: bar.advance(task))
    except SetupgenError as exc:
        raise _fail(str(exc)) from None
    typer.echo(f"wrote {target}/{manifest['pdf']} ({tables} tables + director's page)", err=True)
    for entry in manifest["boards"]:
        typer.echo(f"table {entry['table']}: {entry['setup_id']}")


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


@app.command(epilog="Example:  setupgen check output/demo/table-03.json   (exit 0 legal, 1 illegal, 2 bad file)")
def check(
    board_file: Path = typer.Argument(..., metavar="BOARD.json", help="A board file (setupgen.board/1 JSON)."),
    layout_file: Optional[str] = typer.Option(None, "--layout", help="The layout TOML the board was made from, if not a shipped scenario."),
) -> None:
    """Check a board file against its scenario's rules."""
    from . import check as checkmod

    try:
        found = checkmod.check_file(board_file, layout_file)
    except SetupgenError as exc:
        raise _fail(str(exc)) from None
    errors = [v for v in found if v.severity == checkmod.ERROR]
    for v in found:
        typer.echo(str(v))
    if errors:
        typer.echo(f"illegal: {len(errors)} violation(s)")
        raise typer.Exit(EXIT_ILLEGAL)
    typer.echo("legal")


@app.command(epilog="Example:  setupgen scenarios")
def scenarios() -> None:
    """List the scenarios."""
    from . import layout as layoutmod

    try:
        for name in layoutmod.scenario_names():
            lay = layoutmod.load(name)
            extra = "  (reconstructed layout)" if lay.reconstruction else ""
            if lay.source == "board-file":
                typer.echo(f"{name:<22} {lay.players or '-':<4} players  {lay.victory_points} VP  "
                           f"fixed setup: needs --board FILE")
                continue
            typer.echo(f"{name:<22} {lay.players or '-':<4} players  {lay.victory_points} VP  "
                       f"numbers {lay.default_numbers}, harbors {lay.default_harbors}{extra}")
    except SetupgenError as exc:
        raise _fail(str(exc)) from None


def main() -> None:
    """Console-script entry point."""
    app()
