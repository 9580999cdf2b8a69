"""The ``setupgen`` command line: thin commands over the library.

Each command parses its options, calls one library function and turns a
domain error (:class:`setupgen.core.errors.SetupgenError`) into one line on
stderr and exit code 2.
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # typer >= 0.29 vendors click
    from typer._click.exceptions import ClickException
except ImportError:  # pragma: no cover - older typer
    from click.exceptions import ClickException  # type: ignore[no-redef,assignment,unused-ignore]

from .core.errors import SetupgenError, quoted

EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_HANGUP = 129  # SIGHUP: the terminal closed
DEFAULT_OUTPUT = Path("output")


class _Stop(BaseException):
    """Ends a command from anywhere, passing every ``except Exception``
    (so staged output is still cleaned up by ``finally`` blocks): a signal,
    or standard output gone."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _on_signal(signum: int, _frame: object) -> None:
    """A signal ends the command with its exit code and one true line: held
    while output is being swapped into place (:mod:`setupgen.core.
    interrupts`), then "the output was written in full" once a swap is
    done, else "nothing was written". The stop is remembered, so a library
    that turns it into its own error (an import failing half-way) still
    ends the command as the signal says."""
    import signal

    from .core import interrupts

    if interrupts.holding():
        interrupts.hold(signum)
        return
    what = (
        "the output was written in full (the signal came as it was put in place)"
        if interrupts.written()
        else "nothing was written"
    )
    if signum == signal.SIGINT:
        stop = _Stop(EXIT_INTERRUPTED, f"interrupted; {what}")
    elif signum == getattr(signal, "SIGHUP", None):
        stop = _Stop(EXIT_HANGUP, f"hung up; {what}")
    else:
        stop = _Stop(EXIT_TERMINATED, f"terminated; {what}")
    _SIGNALLED.append(stop)
    raise stop


#: the stop a signal raised during this command (a library may have wrapped it in its own error)
_SIGNALLED: list[_Stop] = []


#: longest error line printed whole; a longer one (a value of thousands of characters echoed back) is cut
MAX_ERROR_LINE = 500


def _readable(line: str) -> str:
    """``line`` cut to :data:`MAX_ERROR_LINE` characters, its end kept
    (``… 4,760 characters left out …``), so a huge value given does not
    flood the terminal."""
    line = " ".join(line.split())
    if len(line) <= MAX_ERROR_LINE:
        return line
    cut = len(line) - MAX_ERROR_LINE + 40
    return f"{line[: MAX_ERROR_LINE - 60]} … {cut:,} characters left out … {line[-20:]}"


class _OneLineErrors(TyperGroup):
    """Every way a command can end, as one line on stderr and an exit code
    (README, "Exit codes"): usage errors 2, Ctrl-C 130, SIGTERM 143, SIGHUP
    129, a bug 3
    (details to a file, never a traceback on the terminal)."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        import signal

        args = list(sys.argv[1:] if args is None else args)
        if not args:
            args = ["--help"]  # a bare `setupgen` shows the help, exit 0
        bad = next((a for a in args if not _is_text(a)), None)
        if bad is not None:
            typer.echo(f"error: an argument is not valid UTF-8 text: {quoted(bad, 80)}", err=True)
            if standalone_mode:
                sys.exit(EXIT_BAD_INPUT)
            return EXIT_BAD_INPUT
        previous = {}
        for sig in (signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])):
            try:
                previous[sig] = signal.signal(sig, _on_signal)
            except ValueError:  # not the main thread: signals stay as they are
                pass
        _WRITTEN.clear()
        _FRESH.clear()
        _ARGS[:] = [args]
        _SIGNALLED.clear()
        from .core import interrupts

        interrupts.reset()
        try:
            rv = super().main(
                args=args, prog_name=prog_name or "setupgen", complete_var=complete_var, standalone_mode=False, **extra
            )
            code = rv if isinstance(rv, int) else 0
        except ClickException as exc:
            typer.echo(f"error: {_readable(_lower_first(exc.format_message()))}", err=True)
            code = EXIT_BAD_INPUT
        except _Stop as stop:
            if stop.message:
                with contextlib.suppress(OSError):  # after SIGHUP the terminal may be gone
                    typer.echo(f"error: {stop.message}", err=True)
            code = stop.code
        except SetupgenError as exc:  # a command let one through: still bad input
            typer.echo(f"error: {_readable(str(exc))}", err=True)
            code = EXIT_BAD_INPUT
        except Exception:
            if _SIGNALLED:  # a signal's stop, turned into another error on its way (e.g. inside an import)
                with contextlib.suppress(OSError):
                    typer.echo(f"error: {_SIGNALLED[-1].message}", err=True)
                code = _SIGNALLED[-1].code
            else:
                code = _internal_error(args)
        finally:
            _ARGS.clear()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            from .core import atomic

            for line in atomic.take_notes():  # swaps a killed process left half-done, finished or undone
                with contextlib.suppress(OSError):
                    typer.echo(f"note: {line}", err=True)
        if standalone_mode:
            sys.exit(code)
        return code


def _is_text(arg: str) -> bool:
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes arrive as surrogates
        return False
    return True


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _internal_error(args: Sequence[str]) -> int:
    """A bug: the traceback goes to a file under the user's state folder
    (``$XDG_STATE_HOME/setupgen/`` or ``~/.local/state/setupgen/``), one
    line on stderr names it; exit 3."""
    import os
    import time
    import traceback

    details = f"setupgen {' '.join(args)!r}\n\n{traceback.format_exc()}"
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    folder = Path(base) / "setupgen"
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(details, encoding="utf-8")
        where = f"details in {folder / name}"
    except OSError:
        where = "the details could not be saved"
    typer.echo(f"error: internal error (a bug in setupgen, not your input); {where}", err=True)
    return EXIT_INTERNAL


def _out(line: str) -> None:
    """One line to standard output; a reader that closed the pipe early
    (``| head``) ends the command quietly with exit 0, a failing stdout
    (``> /dev/full``) with one error line and exit 2."""
    _write_stdout(lambda stream: stream.write(line + "\n"), text=True)


def _write_stdout(write, *, text: bool) -> None:
    import errno
    import os

    stream = sys.stdout if text else getattr(sys.stdout, "buffer", None)
    if stream is None:
        raise _Stop(EXIT_BAD_INPUT, "cannot write to standard output: it is closed")
    try:
        write(stream)
        stream.flush()
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            try:  # no second complaint when Python flushes at exit
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            raise _Stop(0) from None
        done = " (the output files were written all the same)" if _WRITTEN else ""
        raise _Stop(EXIT_BAD_INPUT, f"cannot write to standard output: {exc.strerror or exc}{done}") from None


#: set once a command has written its files: a later failure of standard
#: output says so (the files are complete)
_WRITTEN: list[bool] = []


def _files_written() -> None:
    _WRITTEN.append(True)


app = typer.Typer(
    cls=_OneLineErrors,
    help="Legal random Catan boards and printable table sheets for tournaments.",
    epilog="Example: setupgen round --scenario base-3-4 --tables 12 --seed demo -o output/demo",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


#: library request fields (:attr:`SetupgenError.field`) -> the option that sets them
FLAGS = {
    "plot": "--plot",
    "scenario": "--scenario",
    "seed": "--seed",
    "setup_id": "--setup-id",
    "numbers": "--numbers",
    "harbors": "--harbors",
    "fmt": "--format",
    "count": "--count",
    "output": "-o",
    "lang": "--lang",
    "paper": "--paper",
    "layout_file": "--layout",
    "key": "--key",
    "board_file": "--board",
    "tables": "--tables",
    "round": "--round",
    "title": "--title",
    "from_round": "--from-round",
    "results": "--results",
    "winners": "--winners",
    "players": "--players",
    "semi_finals": "--semi-finals",
    "table": "--table",
    "tournament": "--tournament",
    "replace": "--replace",
    "rules": "--rules",
    "variant": "--variant",
    "almanac": "--no-almanac",
    "balance": "--balance",
    "max_intersection_pips": "--max-intersection-pips",
    "max_terrain_cluster": "--max-terrain-cluster",
    "resource_pips": "--resource-pips",
    "min_score": "--min-score",
    "even": "--even",
    "console_url": "--console-url",
    "host": "--host",
    "port": "--port",
    "password_file": "--password-file",
    "referee_password_file": "--referee-password-file",
    "tls_cert": "--tls-cert",
    "session_hours": "--session-hours",
    "trust_console_url": "--trust-console-url",
    "drop_console_url": "--drop-console-url",
}

#: the help texts of the almanac options, shared by board and round
RULES_HELP = "House rules on the almanac page: swiss-2010, australian-2006 or none (default)."
VARIANT_HELP = "A variant on the almanac page, with its material: fishermen."
ALMANAC_HELP = "Add the almanac page (the rules this table plays by) behind each sheet."
BALANCE_HELP = {
    "balance": "Balance preset (fair) or a preset .toml file: limits every board must meet.",
    "max_intersection_pips": "Most pips at any intersection a starting settlement may take.",
    "max_terrain_cluster": "Largest group of one terrain, in hexes (1: no two equal terrains adjacent).",
    "resource_pips": "Pips per resource, e.g. lumber=9..16,ore=6..13.",
    "min_score": "Lowest balance score (0-100) a board may have.",
    "balance_line": "Print the board's balance (as the table sees it) on the sheet.",
}

# the balance options board and round share, declared once
BalanceOption = Annotated[str | None, typer.Option("--balance", help=BALANCE_HELP["balance"])]
MaxPipsOption = Annotated[
    int | None, typer.Option("--max-intersection-pips", help=BALANCE_HELP["max_intersection_pips"])
]
MaxClusterOption = Annotated[
    int | None, typer.Option("--max-terrain-cluster", help=BALANCE_HELP["max_terrain_cluster"])
]
ResourcePipsOption = Annotated[str | None, typer.Option("--resource-pips", help=BALANCE_HELP["resource_pips"])]
MinScoreOption = Annotated[float | None, typer.Option("--min-score", help=BALANCE_HELP["min_score"])]
BalanceLineOption = Annotated[bool, typer.Option("--balance-line", help=BALANCE_HELP["balance_line"])]


#: help texts of the options whose line would not fit (issue 47: each option one line)
_HELP = {
    "board.harbors": "Harbor method: shuffled, free or players (default: the scenario's).",
    "board.fmt": "pdf, svg, png, json or jsonl; default: from the -o file's extension, else pdf.",
    "board.output": "File to write, or - for stdout; default output/<scenario>-<setup id>.<format>.",
    "board.lang": "Sheet language: en (default), de or de-CH; with --tournament the tournament's.",
    "board.layout_file": "A layout TOML file to use instead of a shipped scenario.",
    "board.key": "The director's key (face-down hexes revealed) instead of the table sheet.",
    "board.tournament_file": "With --round and --table: regenerate one table of a tournament round.",
    "board.board_file": "A complete board (board JSON, or a layout TOML with every hex fixed) to render and check; with --scenario oil-springs-fixed the fixed oil springs are added.",
    "board.almanac": ALMANAC_HELP + " A pdf gets it as page 2, svg and png as a second file NAME-almanac.svg|png.",
    "round.tournament_file": "A tournament file: make the pack of --round N for the scheduled tables.",
    "round.output": "Folder for the pack (replaced whole); default output/<scenario>-<seed>. With a tournament file: the tournament folder (default output/<name>); the pack goes to its round-N.",
    "round.round_number": "Round number (printed on every sheet; with a tournament file: which round).",
    "round.replace": "Replace an earlier pack made before setupgen recorded its files (it cannot be verified).",
    "round.almanac": ALMANAC_HELP + " The PDF is then laid out for duplex printing.",
    "round.even": "Keep every table's balance score in one interval: the middle half of the scenario's surveyed scores, or --even-range.",
    "round.even_range": "The score interval of --even, e.g. 50..62 (implies --even).",
    "round.console_url": "With a tournament file: the director's console address (setupgen serve), e.g. http://192.168.1.20:8000; each sheet gets a QR code of its table's result page.",
    "round.drop_console_url": "With a tournament file: replace a pack made with QR codes to a console by one without them (or to another address).",
    "finals.results": "The preliminary rounds' results; default: the round packs' filled-in results-round-N.csv (and the console's results.csv) in the tournament folder.",
    "finals.players": "4 (one final table), 8 (final 1-4-5-8 / 2-3-6-7) or 16 (semi-finals 1-8-9-16 ...); default: as the tournament file's [final] players says (by attendance: from the players ranked).",
    "finals.output": "Tournament folder (default output/<tournament name>); the pack goes to its final/ or semi-final/.",
    "finals.replace": "Replace an earlier pack made before setupgen recorded its files.",
    "finals.almanac": ALMANAC_HELP + " The PDF is then laid out for duplex printing.",
    "serve.output": "Tournament folder (default output/<tournament name>); holds tournament.db, console.key, results.csv.",
    "serve.host": "Address to listen on; any other than this machine's (127.0.0.1) needs --password-file.",
    "serve.password_file": "A file whose first line is the director's password (at least 8 characters).",
    "serve.referee_password_file": "A file whose first line is the referees' password: they see the calls, "
    "rounds, tables and clock, mark calls and add time, nothing else (needs --password-file).",
    "serve.console_url": "The address the tables reach the console at (e.g. http://192.168.1.20:8000): packs made in the console get QR codes of each table's result page.",
    "serve.tls_cert": "Serve HTTPS with this PEM certificate (chain); with --tls-key.",
    "serve.session_hours": "The director's session ends after this many hours unused (0.1-72).",
    "serve.trust_console_url": "Take --console-url as it is (a console behind a reverse proxy): no check of its scheme, port and host against --tls-cert, --port and --host.",
}


def _fail(problem: SetupgenError | str) -> typer.Exit:
    """One ``error:`` line on stderr (naming the option at fault when the
    library says which value it was) and exit code 2."""
    _FRESH.clear()  # nothing was made from it
    field = getattr(problem, "field", None) or ""
    flag = FLAGS.get(field) if _given_on_command_line(field) else None
    replan = getattr(problem, "from_round", None)  # tournament.jobs.ReplanNeeded
    how = (
        ""
        if replan is None
        else (
            f" (setupgen schedule TOURNAMENT.toml --from-round {replan})"
            if replan >= 2
            else " (plan afresh: setupgen schedule TOURNAMENT.toml --replace)"
        )
    )
    remedy = FLAGS.get(getattr(problem, "remedy", None) or "")
    if remedy:
        how += f" ({remedy} to do it anyway)"
    needs = FLAGS.get(getattr(problem, "needs", None) or "")
    if needs:
        how += f" (give {needs})"
    line = f"{flag + ': ' if flag else ''}{problem}{how}"
    typer.echo("error: " + _readable("".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in line)), err=True)
    return typer.Exit(EXIT_BAD_INPUT)


def _given_on_command_line(field: str) -> bool:
    """Whether the running command's option for library field ``field``
    was typed on the command line (an error names only an option the user
    gave: a default, or a value read from a file, is named by the message
    itself). Outside :meth:`_OneLineErrors.main` (no arguments recorded):
    True."""
    flag = FLAGS.get(field)
    if flag is None:
        return False
    if not _ARGS:
        return True
    spellings = {flag, *_SPELLINGS.get(flag, ())}
    for arg in _ARGS[0]:
        if arg == "--":
            break
        if (
            arg in spellings
            or any(arg.startswith(s + "=") for s in spellings if s.startswith("--"))
            or (flag == "-o" and arg.startswith("-o"))
        ):
            return True
    return False


#: the command line's arguments while a command runs (one list, or none)
_ARGS: list[list[str]] = []
#: other spellings of an option in :data:`FLAGS`
_SPELLINGS = {"-o": ("--output",), "--no-almanac": ("--almanac",)}


def _default_target(name: str) -> Path:
    """``output/<name>``, creating the default ``output/`` folder if needed."""
    try:
        DEFAULT_OUTPUT.mkdir(exist_ok=True)
    except OSError as exc:
        raise SetupgenError(f"cannot create the output folder {str(DEFAULT_OUTPUT)!r}: {exc.strerror or exc}") from None
    return DEFAULT_OUTPUT / name


#: a fresh seed made for this command, printed once the command succeeded
#: (a failure stays one error line)
_FRESH: list[str] = []


def _announce_seed() -> None:
    """``seed: …`` on stderr for a fresh seed, after the work is done."""
    while _FRESH:
        typer.echo(f"seed: {_FRESH.pop()}", err=True)


def _seed_or_fresh(seed: str | None) -> str:
    from .core import rng

    if seed is None:
        seed = rng.fresh_seed()
        _FRESH.append(seed)
    elif not seed.strip():
        raise SetupgenError("the seed must not be empty", field="seed")
    from .core.limits import check_text

    check_text(seed, "the seed", field="seed")
    return seed


@app.command(
    epilog="Examples:  setupgen board --scenario base-5-6 --seed club7 --format svg -o board.svg"
    "  |  setupgen board --setup-id B4SS-5ABN-2V1N-9DMX --format json -o -"
    "  |  setupgen board --seed s --format jsonl --count 1000 -o boards.jsonl"
)
def board(
    scenario: str | None = typer.Option(None, help="Scenario (see 'setupgen scenarios'); default base-3-4."),
    seed: str | None = typer.Option(None, help="Seed text; default: a fresh random seed, printed."),
    setup_id: str | None = typer.Option(None, "--setup-id", help="Regenerate the board of this setup ID."),
    numbers: str | None = typer.Option(None, help="Number method: swap (default), spiral or uniform."),
    harbors: str | None = typer.Option(None, help=_HELP["board.harbors"]),
    fmt: str | None = typer.Option(None, "--format", help=_HELP["board.fmt"]),
    count: int = typer.Option(1, help="With --format jsonl: how many boards (board i is seeded SEED/i)."),
    output: str | None = typer.Option(None, "-o", "--output", help=_HELP["board.output"]),
    lang: str | None = typer.Option(None, help=_HELP["board.lang"]),
    paper: str | None = typer.Option(None, help="Paper: a4 (default) or letter; with --tournament the tournament's."),
    layout_file: str | None = typer.Option(None, "--layout", help=_HELP["board.layout_file"]),
    key: bool = typer.Option(False, "--key", help=_HELP["board.key"]),
    tournament_file: str | None = typer.Option(None, "--tournament", help=_HELP["board.tournament_file"]),
    round_number: int | None = typer.Option(None, "--round", help="With --tournament: the round."),
    table: int | None = typer.Option(None, "--table", help="With --tournament: the table."),
    board_file: str | None = typer.Option(None, "--board", help=_HELP["board.board_file"]),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP),
    variant: str | None = typer.Option(None, "--variant", help=VARIANT_HELP),
    almanac: bool = typer.Option(True, "--almanac/--no-almanac", help=_HELP["board.almanac"]),
    balance: BalanceOption = None,
    max_intersection_pips: MaxPipsOption = None,
    max_terrain_cluster: MaxClusterOption = None,
    resource_pips: ResourcePipsOption = None,
    min_score: MinScoreOption = None,
    balance_line: BalanceLineOption = False,
) -> None:
    """One board (or a JSONL batch) as a sheet or board JSON."""
    _board_command(SimpleNamespace(**locals()))


def _board_command(o: SimpleNamespace) -> None:
    """``board`` with its options ``o`` (the command's parameters by name)."""
    from .core import atomic
    from .render import export

    try:
        request = _board_request(o)
        if o.output not in (None, "-"):
            atomic.check_file_target(o.output)  # before a fresh seed is made and printed
        if o.setup_id is None and o.board_file is None:
            request = dataclasses.replace(request, seed=_seed_or_fresh(request.seed))
        made = _board_job(export.board_job(request))
        if o.output == "-":
            _to_stdout(made.data)
            if made.almanac is not None:
                typer.echo(
                    "note: the almanac page is a file of its own and was not written to standard output "
                    "(a pdf holds it as page 2)",
                    err=True,
                )
        else:
            _write_board(o.output if o.output is not None else _default_target(made.default_name), made)
        _announce_seed()
    except SetupgenError as exc:
        raise _fail(exc) from None
    _report_violations(made.violations)


def _board_request(o: SimpleNamespace) -> Any:
    """The checked :class:`~setupgen.render.export.BoardRequest` of
    ``board``'s options (a tournament table's when ``--tournament`` and
    its companions are given)."""
    from .core import balance as balancemod
    from .render import export

    limits = balancemod.options(o.balance, o.max_intersection_pips, o.max_terrain_cluster, o.resource_pips, o.min_score)
    sheet = not o.key and export.pick_format(o.fmt, o.output) not in ("json", "jsonl")
    what = "the director's key" if o.key else "board json"
    wanted = _almanac_request(o.rules, o.variant, o.almanac, sheet=sheet, what=what)
    request = export.BoardRequest(
        o.scenario,
        o.seed,
        o.setup_id,
        o.numbers,
        o.harbors,
        o.fmt,
        o.count,
        o.output,
        "en" if o.lang is None else o.lang,
        "a4" if o.paper is None else o.paper,
        o.layout_file,
        o.key,
        o.board_file,
        wanted,
        limits=limits,
        balance_line=o.balance_line,
    )
    if o.tournament_file is not None or o.round_number is not None or o.table is not None:
        request = _tournament_table_request(
            request, o.tournament_file, o.round_number, o.table, (o.lang, o.paper, o.rules, o.variant)
        )
    export.check_board_request(request)
    return request


def _board_job(job):
    """Do the one job ``board`` was asked for (:func:`setupgen.render.export.board_job`)."""
    from .render import export

    if isinstance(job, export.SheetRequest):
        return export.sheet_output(job)
    if isinstance(job, export.KeyRequest):
        return export.key_output(job)
    if isinstance(job, export.JsonRequest):
        return export.json_output(job)
    if isinstance(job, export.BatchRequest):
        return export.batch_output(job)
    return export.board_file_output(job)


def _almanac_request(rules: str | None, variant: str | None, almanac: bool, sheet: bool = True, what: str = ""):
    """The almanac request of ``--rules``/``--variant``, None for
    ``--no-almanac``; ``sheet`` False: the output (``what``) has no
    almanac, so those options are refused."""
    from .core.almanac import NO_PRESET, AlmanacRequest

    if not sheet and (rules is not None or variant is not None):
        raise SetupgenError(f"--rules and --variant print on the almanac page of a table sheet; {what} has none")
    if not almanac:
        if rules is not None or variant is not None:
            raise SetupgenError("--rules and --variant print on the almanac page; drop --no-almanac")
        return None
    return AlmanacRequest(preset=NO_PRESET if rules is None else rules, variant=variant)


def _write_board(target, made) -> None:
    """The board's file, and beside it its almanac page's own file (both or neither)."""
    from .core import atomic
    from .render import export

    about = f" (setup id {made.setup_id})" if made.setup_id else ""
    if made.almanac is not None:
        back = export.almanac_name(str(target))
        folder = Path(target).parent
        atomic.write_files(folder, {Path(target).name: made.data, Path(back).name: made.almanac})
        typer.echo(f"wrote {_abs(target)}{about} and {_abs(back)}", err=True)
        return
    if isinstance(made.data, bytes):
        atomic.write_bytes(target, made.data)
    else:  # JSONL: streamed through the temporary file, never held whole
        atomic.write_stream(target, export.chunked(made.data))
    typer.echo(f"wrote {_abs(target)}{about}", err=True)


def _abs(path: str | Path) -> Path:
    """The absolute path a "wrote" line names (docs/cli.md: every command
    says where its files are, wherever it was run from)."""
    return Path(path).absolute()


def _to_stdout(data) -> None:
    """``-o -``: the bytes, or the JSON lines chunk by chunk
    (:func:`~setupgen.render.export.chunked`), to standard output. A PDF or
    PNG is not written onto a terminal."""
    if isinstance(data, bytes):
        if not data.lstrip().startswith((b"{", b"<")) and sys.stdout is not None and sys.stdout.isatty():
            raise SetupgenError(
                "refusing to write a binary file (pdf or png) to the terminal; redirect it to a file or a pipe",
                field="output",
            )
        _write_stdout(lambda stream: stream.write(data), text=False)
        return
    from .render import export

    for chunk in export.chunked(data):  # the same bytes as a file gets
        _write_stdout(lambda stream, chunk=chunk: stream.write(chunk), text=False)


def _tournament_table_request(request, tournament_file, round_number, table, own):
    """``board --tournament FILE --round N --table T``: the request for that
    table's sheet and almanac, as in the round pack (its board, players,
    threshold, rules, language and paper). ``own``: the values of --lang,
    --paper, --rules and --variant as given (None: not given)."""
    from .tournament import jobs as tj

    if tournament_file is None or round_number is None or table is None:
        raise SetupgenError("--tournament, --round and --table go together")
    if request.limits or request.balance_line:
        raise SetupgenError(
            "a tournament table's balance limits come from the tournament file ([balance]); drop the balance options"
        )
    given = [
        flag
        for flag, value in (
            ("--scenario", request.scenario),
            ("--seed", request.seed),
            ("--setup-id", request.setup_id),
            ("--numbers", request.numbers),
            ("--harbors", request.harbors),
            ("--layout", request.layout_file),
            ("--board", request.board_file),
            ("--lang", own[0]),
            ("--paper", own[1]),
            ("--rules", own[2]),
            ("--variant", own[3]),
        )
        if value is not None
    ]
    if request.count != 1:
        given.append("--count")
    if given:
        raise SetupgenError(f"--tournament names the table's board, language and rules; drop {', '.join(given)}")
    t, folder = _load_tournament(tournament_file, None)
    sched = tj.current_schedule(t, folder)
    board, context = tj.table_sheet(t, round_number, table, sched)
    return dataclasses.replace(
        request,
        scenario=board.scenario,
        seed=board.seed,
        lang=t.language,
        paper=t.paper,
        context=context,
        almanac=None if request.almanac is None else t.almanac(round_number),
        limits=t.limits(round_number),
    )


def _report_violations(found: Sequence) -> None:
    """After ``board --board``: the check of the file's board on stderr;
    exit 1 when it breaks a rule (the output is written all the same)."""
    if board_errors := [v for v in found if v.severity == "error"]:
        for v in found:
            typer.echo(str(v), err=True)
        typer.echo(f"illegal: {len(board_errors)} violation(s)", err=True)
        raise typer.Exit(EXIT_ILLEGAL)


@app.command(
    "round",
    epilog="Examples:  setupgen round --scenario base-3-4 --tables 12 --seed demo -o output/demo"
    "  (table 3 alone: setupgen board --scenario base-3-4 --seed demo/t3)"
    "  |  setupgen round examples/swiss-2010/tournament.toml --round 1",
)
def round_(
    tournament_file: Path | None = typer.Argument(
        None, metavar="[TOURNAMENT.toml]", help=_HELP["round.tournament_file"]
    ),
    scenario: str | None = typer.Option(None, help="Scenario (see 'setupgen scenarios'); default base-3-4."),
    tables: int | None = typer.Option(None, help="Number of tables (1-500)."),
    seed: str | None = typer.Option(None, help="Round seed; table t is seeded SEED/t<t>. Default: fresh, printed."),
    output: str | None = typer.Option(None, "-o", "--output", help=_HELP["round.output"]),
    numbers: str | None = typer.Option(None, help="Number method: swap (default), spiral or uniform."),
    harbors: str | None = typer.Option(None, help="Harbor method: shuffled, free or players."),
    lang: str | None = typer.Option(None, help="Sheet language: en (default), de or de-CH."),
    paper: str | None = typer.Option(None, help="Paper: a4 or letter."),
    title: str | None = typer.Option(None, help="Tournament name printed on every sheet."),
    round_number: int | None = typer.Option(None, "--round", help=_HELP["round.round_number"]),
    replace: bool = typer.Option(False, "--replace", help=_HELP["round.replace"]),
    rules: str | None = typer.Option(None, "--rules", help=RULES_HELP + " With a tournament file: its [rules]."),
    variant: str | None = typer.Option(None, "--variant", help=VARIANT_HELP + " With a tournament file: its rounds'."),
    almanac: bool = typer.Option(True, "--almanac/--no-almanac", help=_HELP["round.almanac"]),
    balance: BalanceOption = None,
    max_intersection_pips: MaxPipsOption = None,
    max_terrain_cluster: MaxClusterOption = None,
    resource_pips: ResourcePipsOption = None,
    min_score: MinScoreOption = None,
    even: bool = typer.Option(False, "--even", help=_HELP["round.even"]),
    even_range: str | None = typer.Option(None, "--even-range", help=_HELP["round.even_range"]),
    balance_line: BalanceLineOption = False,
    console_url: str | None = typer.Option(None, "--console-url", help=_HELP["round.console_url"]),
    drop_console_url: bool = typer.Option(False, "--drop-console-url", help=_HELP["round.drop_console_url"]),
) -> None:
    """Make a round pack: a sheet per table, director's page, one PDF."""
    _round_command(SimpleNamespace(**locals()))


def _round_command(o: SimpleNamespace) -> None:
    """``round`` with its options ``o`` (the command's parameters by name)."""
    from .core import atomic
    from .core import balance as balancemod

    try:
        if o.output == "-":
            raise SetupgenError("a round pack is a folder of files; it cannot go to standard output", field="output")
        wanted = _almanac_request(o.rules, o.variant, o.almanac)
        limits = balancemod.options(
            o.balance, o.max_intersection_pips, o.max_terrain_cluster, o.resource_pips, o.min_score
        )
        request, folder, target = _round_request(o, wanted, limits)
        with atomic.folder_for(folder):
            lock = folder if o.tournament_file is not None else None
            manifest = _write_pack(request, target, o.replace, lock=lock)
        _files_written()
    except SetupgenError as exc:
        raise _fail(exc) from None
    _announce_seed()
    _pack_made(request, target, manifest, o.tournament_file is not None)


def _round_request(o: SimpleNamespace, wanted: Any, limits: Any) -> tuple[Any, Path, Path]:
    """The pack ``round`` makes: (request, tournament or output folder,
    pack folder), from a tournament file's round or from the quick form's
    options (``wanted``: the almanac request, ``limits``: the balance
    limits given)."""
    if o.tournament_file is not None:
        quick = (
            ("--scenario", o.scenario),
            ("--tables", o.tables),
            ("--seed", o.seed),
            ("--numbers", o.numbers),
            ("--harbors", o.harbors),
            ("--lang", o.lang),
            ("--paper", o.paper),
            ("--title", o.title),
            ("--rules", o.rules),
            ("--variant", o.variant),
            ("balance options", limits or None),
            ("--even", o.even or o.even_range or None),
            ("--balance-line", o.balance_line or None),
        )
        _no_quick_options(quick)
        made: tuple[Any, Path, Path] = _tournament_round(
            o.tournament_file, o.round_number, o.output, o.almanac, o.console_url, o.drop_console_url
        )
        return made
    _no_console_url(o.console_url, o.drop_console_url)
    limits = _even_limits(o.scenario, o.numbers, limits, o.even, o.even_range)
    request, target = _quick_round(
        o.scenario,
        o.tables,
        o.seed,
        o.output,
        o.numbers,
        o.harbors,
        o.lang,
        o.paper,
        o.title,
        o.round_number,
        o.replace,
        wanted,
        limits,
        o.balance_line,
    )
    return request, target.parent, target


def _pack_made(request, target: Path, manifest: dict, tournament: bool) -> None:
    """The lines of a round pack made: where its PDF is, where a
    tournament round's results are filled in, each table's setup ID."""
    typer.echo(f"wrote {_abs(Path(target) / manifest['pdf'])} ({_pack_summary(request, manifest)})", err=True)
    if tournament and manifest.get("results_template"):
        typer.echo(
            f"next: after the round, fill in VP and winner in "
            f"{_abs(Path(target) / manifest['results_template'])}; standings reads them there",
            err=True,
        )
    for entry in manifest["boards"]:
        _out(f"table {entry['table']}: {entry['setup_id']}")


def _no_quick_options(given) -> None:
    """A tournament file names the round: none of the quick form's options (name, value) may be set."""
    quick = [name for name, value in given if value is not None]
    if quick:
        raise SetupgenError(
            f"give either a tournament file with --round, or the quick form; not both ({', '.join(quick)})"
        )


def _no_console_url(console_url: str | None, drop_console_url: bool = False) -> None:
    if console_url is not None:
        raise SetupgenError(
            "a table's result page belongs to a tournament: give the tournament file", field="console_url"
        )
    if drop_console_url:
        raise SetupgenError(
            "--drop-console-url: a pack's QR codes belong to a tournament round; give the tournament file and --round"
        )


def _pack_summary(request, manifest: dict) -> str:
    """What the round PDF holds, for the closing line."""
    if manifest.get("duplex"):
        return f"{request.tables} tables, sheet and almanac each, + director's page; print duplex"
    return f"{request.tables} tables + director's page"


def _tournament_round(
    tournament_file: Path,
    round_number: int | None,
    output: str | None,
    almanac: bool,
    console_url: str | None = None,
    drop_console_url: bool = False,
):
    """``round T.toml --round N [--console-url URL]``: the request, the
    tournament folder and the pack folder ``round-N`` in it (with a console
    URL, the folder's console key is made when missing). A pack there made
    with QR codes to another console address (or with codes, when none is
    given) is refused unless ``drop_console_url``."""
    from .tournament import jobs as tj
    from .tournament import tokens

    if round_number is None:
        raise SetupgenError("with a tournament file, say which round: --round N")
    t, folder = _load_tournament(tournament_file, output)
    sched = tj.current_schedule(t, folder)
    console = None
    if console_url is not None:
        base = tokens.check_base_url(console_url)
        tj.round_request(t, sched, round_number, almanac=almanac)  # a bad round fails before the key is made
        from .core import atomic

        with atomic.folder_for(folder):
            console = (base, tokens.key(folder))
    request = tj.round_request(t, sched, round_number, almanac=almanac, console=console)
    from .tournament import roundpack

    roundpack.check_console(folder / f"round-{round_number}", request.console_url, drop_console_url)
    return request, folder, folder / f"round-{round_number}"


def _even_limits(scenario, numbers, limits, even: bool, even_range: str | None):
    """``--even`` / ``--even-range LO..HI``: the limits with the even
    round's score interval (the survey's middle half unless given)."""
    from .core import balance as balancemod
    from .core import layout as layoutmod

    if not even and even_range is None:
        return limits
    if even_range is not None:
        first, dots, last = even_range.partition("..")
        try:
            interval = (float(first), float(last)) if dots else None
        except ValueError:
            interval = None
        if interval is None:
            raise SetupgenError(f"expected a score interval such as 50..62, got {quoted(even_range, 30)}", field="even")
    else:
        lay = layoutmod.load("base-3-4" if scenario is None else scenario)
        interval = balancemod.survey_interval(lay.name, lay.default_numbers if numbers is None else numbers)
    low = interval[0] if limits.min_score is None else max(interval[0], limits.min_score)
    try:
        return limits.merged(balancemod.Limits(min_score=low, max_score=interval[1]))
    except SetupgenError as exc:
        raise SetupgenError(str(exc), field="even") from None


def _quick_round(
    scenario,
    tables,
    seed,
    output,
    numbers,
    harbors,
    lang,
    paper,
    title,
    round_number,
    replace,
    almanac,
    limits,
    balance_line,
):
    """``round --scenario S --tables N --seed SEED``: the request and the
    pack folder, checked before a fresh seed is made."""
    from .render import export
    from .tournament import roundpack

    if tables is None:
        raise SetupgenError("say how many tables: --tables N (or give a tournament file)")
    scenario = "base-3-4" if scenario is None else scenario
    lang = "en" if lang is None else lang
    paper = "a4" if paper is None else paper
    request = roundpack.RoundRequest(
        scenario,
        tables,
        "",
        numbers,
        harbors,
        lang,
        paper,
        title,
        round_number,
        almanac=almanac,
        limits=limits,
        balance_line=balance_line,
    )
    roundpack.check_request(request)
    if output is not None:
        roundpack.check_target(output, replace=replace)
    seed = _seed_or_fresh(seed)
    request = dataclasses.replace(request, seed=seed)
    target = Path(output) if output is not None else _default_target(f"{export.slug(scenario)}-{export.slug(seed)}")
    return request, target


def _write_pack(request, target: Path, replace: bool = False, lock: Path | None = None) -> dict:
    """A round pack with a progress bar on a terminal (``lock``: the
    tournament folder locked while the pack takes its place)."""
    from .tournament import roundpack

    if not sys.stderr.isatty():  # no bar to show: rich is not even loaded
        return roundpack.write_round(request, target, lambda _step: None, replace=replace, lock=lock)
    from rich.progress import Progress

    console = _stderr_console()
    with Progress(transient=True, console=console, disable=not console.is_terminal) as bar:
        task = bar.add_task("round pack", total=roundpack.steps(request))
        return roundpack.write_round(request, target, lambda _step: bar.advance(task), replace=replace, lock=lock)


def _fail_results(exc: SetupgenError) -> typer.Exit:
    """:func:`_fail`, and for a bad results file every further problem on
    its own line (``  line N: …``)."""
    from .tournament.standings import ResultsError

    out = _fail(exc)
    if isinstance(exc, ResultsError):
        shown = exc.problems[1 : MAX_PROBLEMS_SHOWN + 1]
        for problem in shown:
            typer.echo(f"  {problem}", err=True)
        if len(exc.problems) - 1 > len(shown):
            typer.echo(f"  … and {len(exc.problems) - 1 - len(shown)} more problems", err=True)
    return out


#: problems of a results file listed under the error line; the rest are counted
MAX_PROBLEMS_SHOWN = 20


def _tournament_folder(t, output: str | None) -> Path:
    """``-o DIR`` or ``output/<tournament name>``; ``-o DIR`` gets the checks
    of every output path (:func:`setupgen.core.atomic.check_path`: an empty
    one is refused, as ``board`` and ``round`` refuse it)."""
    from .core import atomic
    from .render import export

    return atomic.check_path(output) if output is not None else DEFAULT_OUTPUT / export.slug(t.name)


def _results_or_packs(t, sched, folder: Path, results: Path | None):
    """The results file given, else the round packs' filled-in results gathered (an explicit file wins)."""
    from .tournament import jobs as tj

    return results if results is not None else tj.gather_results(t, sched, folder)


def _load_tournament(tournament_file: Path, output: str | None):
    """The tournament (with the late entries of its folder's ``entries.csv``) and its folder."""
    from .tournament import jobs as tj
    from .tournament import model as tournament

    t = tournament.load(tournament_file)
    folder = _tournament_folder(t, output)
    return tj.with_entries(t, folder), folder


@app.command(
    epilog="Example:  setupgen schedule examples/swiss-2010/tournament.toml   "
    "(after drop-outs and late entries recorded with setupgen entry: --from-round 3)"
)
def schedule(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    from_round: int | None = typer.Option(
        None,
        "--from-round",
        help="Keep rounds before N as played (from the saved schedule.csv) and re-plan the rest for the current players (the players file with the changes of entries.csv).",
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="Tournament folder; default output/<tournament name>."
    ),
    replace: bool = typer.Option(
        False,
        "--replace",
        help="Plan afresh over an existing schedule.csv that holds another schedule (played or re-planned rounds are lost).",
    ),
    results: Path | None = typer.Option(
        None,
        "--results",
        metavar="RESULTS.csv",
        help='With --from-round N where round N is marked seating = "standings": the results so far; round N is seated by rank (1-4, 5-8, ...).',
    ),
    move_packs: bool = typer.Option(
        False,
        "--move-packs",
        help="With --replace: move round packs made for the old seating aside (kept as round-N.before-<time>/) instead of refusing; --from-round moves them always.",
    ),
) -> None:
    """Seat every preliminary round: tables and starting positions."""
    from .tournament import jobs as tj

    try:
        t, folder = _load_tournament(tournament_file, output)
        _, quality, moved = tj.schedule_job(t, folder, from_round, results, replace=replace, move_packs=move_packs)
        _files_written()
    except SetupgenError as exc:
        raise _fail_results(exc) from None
    for line in quality.lines():
        _out(line)
    for line in moved:
        typer.echo(f"note: {line}", err=True)
    typer.echo(f"wrote {_abs(folder / 'schedule.csv')} and {_abs(folder / 'schedule.pdf')}", err=True)


@app.command(
    epilog="Examples:  setupgen entry T.toml --leave ch07 --from-round 2"
    '  |  setupgen entry T.toml --join late1 --name "Lea Late" --group Basel --from-round 2'
    "  |  setupgen entry T.toml   (lists the changes)"
)
def entry(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    leave: str | None = typer.Option(
        None, "--leave", metavar="ID", help="A player who drops out: plays no round from --from-round on."
    ),
    join: str | None = typer.Option(
        None,
        "--join",
        metavar="ID",
        help="A late entry's new id: plays every round from --from-round on (with --name).",
    ),
    name: str | None = typer.Option(None, "--name", help="The late entry's name."),
    group: str | None = typer.Option(
        None, "--group", help="The late entry's group (club, family), kept apart like the players file's."
    ),
    from_round: int | None = typer.Option(
        None, "--from-round", help="The first round the change applies to (2 or later)."
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="Tournament folder; default output/<tournament name>."
    ),
) -> None:
    """Record a drop-out or a late entry in the tournament folder's entries.csv (players.csv is never written)."""
    from .tournament import entries
    from .tournament import jobs as tj

    try:
        t, folder = _load_tournament(tournament_file, output)
        if leave is None and join is None:
            if any(v is not None for v in (name, group, from_round)):
                raise SetupgenError("say which change: --leave ID or --join ID --name NAME")
            changes = tj.read_entries(t, folder)
        else:
            changes = tj.record_entry(t, folder, _entry_of(leave, join, name, group, from_round))
            _files_written()
    except SetupgenError as exc:
        raise _fail_results(exc) from None
    for change in changes:
        _out(change.describe())
    if leave is not None or join is not None:
        where = "" if output is None else f" -o {output}"
        typer.echo(
            f"wrote {_abs(folder / entries.ENTRIES_FILE)}; now re-plan: setupgen schedule {tournament_file} "
            f"--from-round {from_round}{where}",
            err=True,
        )
    elif not len(changes):
        typer.echo(f"no drop-outs or late entries in {folder / entries.ENTRIES_FILE}", err=True)


def _entry_of(leave: str | None, join: str | None, name: str | None, group: str | None, from_round: int | None):
    """The change ``entry`` records, from its options."""
    from .tournament import entries

    if leave is not None and join is not None:
        raise SetupgenError("one change at a time: --leave or --join, not both")
    if from_round is None:
        raise SetupgenError("say from which round: --from-round N")
    if leave is not None:
        if name is not None or group is not None:
            raise SetupgenError("--name and --group go with --join (a drop-out keeps the players file's)")
        return entries.Entry(entries.LEFT, from_round, leave.strip())
    if name is None:
        raise SetupgenError("a late entry needs a name: --name NAME")
    clean = None if group is None or not group.strip() else group.strip()
    return entries.Entry(entries.JOINED, from_round, (join or "").strip(), name.strip(), clean)


@app.command(epilog="Example:  setupgen standings examples/swiss-2010/tournament.toml results.csv")
def standings(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    results: Path | None = typer.Argument(
        None,
        metavar="[RESULTS.csv]",
        help="round,table,player,vp,winner: one row per player per game; default: the round packs' filled-in results-round-N.csv (and the console's results.csv) in the tournament folder.",
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="Tournament folder; default output/<tournament name>."
    ),
) -> None:
    """Rank the players by the tournament's ranking keys (default: placing points, VP, VP share, lots)."""
    from .tournament import jobs as tj
    from .tournament import standings as st

    try:
        t, folder = _load_tournament(tournament_file, output)
        sched = tj.saved_schedule(t, folder)
        ranked = tj.write_standings(t, sched, _results_or_packs(t, sched, folder, results), folder)
        _files_written()
    except SetupgenError as exc:
        raise _fail_results(exc) from None
    for line in st.standings_lines(ranked, tj.display_names(t), t.tie_breakers):
        _out(line)
    typer.echo(f"wrote {_abs(folder / 'standings.csv')} and {_abs(folder / 'standings.pdf')}", err=True)


@app.command(
    epilog="Examples:  setupgen finals examples/swiss-2010/tournament.toml results.csv --players 8"
    "  |  setupgen finals FILE results.csv --players 16 --winners au03,au11,au07,au01"
)
def finals(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    results: Path | None = typer.Argument(None, metavar="[RESULTS.csv]", help=_HELP["finals.results"]),
    players: int | None = typer.Option(None, help=_HELP["finals.players"]),
    winners: str | None = typer.Option(None, help="Comma-separated ids of the semi-final winners: seat their final."),
    output: str | None = typer.Option(None, "-o", "--output", help=_HELP["finals.output"]),
    replace: bool = typer.Option(False, "--replace", help=_HELP["finals.replace"]),
    almanac: bool = typer.Option(True, "--almanac/--no-almanac", help=_HELP["finals.almanac"]),
) -> None:
    """Seat the finals from the standings and make their round pack."""
    from .tournament import jobs as tj

    try:
        chosen = tuple(w.strip() for w in winners.split(",")) if winners is not None else ()
        if winners is not None and not all(chosen):
            raise SetupgenError("--winners: name the semi-final winners by id, comma-separated, none empty")
        t, folder = _load_tournament(tournament_file, output)
        sched = tj.saved_schedule(t, folder)
        results_in = _results_or_packs(t, sched, folder, results)
        request, tables = tj.finals_request(t, sched, results_in, players, chosen, almanac=almanac)
        ranked_count = len(tj.finals_ranking(t, sched, results_in))
        from .tournament import games

        label = games.FINAL if (chosen or request.stage == games.FINAL) else games.SEMI_FINAL
        target = folder / label
        from .core import atomic

        with atomic.folder_for(folder):
            manifest = _write_pack(request, target, replace, lock=folder)
        _files_written()
    except SetupgenError as exc:
        raise _fail_results(exc) from None
    names = tj.display_names(t)
    for k, table in enumerate(tables, start=1):
        _out(f"table {k}: " + ", ".join(names.get(p, p) for p in table))
    typer.echo(tj.finals_format_line(t, ranked_count), err=True)
    typer.echo(f"wrote {_abs(Path(target) / manifest['pdf'])}", err=True)
    if manifest.get("results_template"):
        filled = _abs(Path(target) / manifest["results_template"])
        if label == games.SEMI_FINAL:
            typer.echo(
                f"next: after the semi-finals, fill in VP and winner in {filled} (placings reads them "
                f"there) and seat the final: setupgen finals {tournament_file} --winners ID,ID,ID,ID",
                err=True,
            )
        else:
            typer.echo(
                f"next: after the final, fill in VP and winner in {filled}; setupgen placings reads them there",
                err=True,
            )


@app.command(
    epilog="Examples:  setupgen placings examples/swiss-2010/tournament.toml   (after filling in "
    "final/results-final-blank.csv)  |  setupgen placings FILE results.csv --final FINAL.csv"
)
def placings(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    results: Path | None = typer.Argument(
        None,
        metavar="[RESULTS.csv]",
        help="The preliminary rounds' results; default: the round packs' filled-in results-round-N.csv (and the console's results.csv) in the tournament folder.",
    ),
    final: Path | None = typer.Option(
        None,
        "--final",
        metavar="FINAL.csv",
        help="The final's results (round column: final); default: the rows filled in of the final pack's final/results-final-blank.csv and the tournament folder's results-final.csv (the console's).",
    ),
    semi_finals: Path | None = typer.Option(
        None,
        "--semi-finals",
        metavar="SEMI.csv",
        help="With 16 finalists, the semi-finals' results (round column: semi-final); default: the rows filled in of semi-final/results-semi-final-blank.csv and the tournament folder's results-semi-final.csv.",
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="Tournament folder; default output/<tournament name>."
    ),
) -> None:
    """The final placings: the final, then the semi-finals, then the preliminary rank."""
    from .tournament import jobs as tj
    from .tournament import placings as pl

    try:
        t, folder = _load_tournament(tournament_file, output)  # late entries named too
        sched = tj.saved_schedule(t, folder)
        results_in = _results_or_packs(t, sched, folder, results)
        sixteen = t.final is not None and t.final.finalists(len(tj.finals_ranking(t, sched, results_in))) == 16
        semi = semi_finals if semi_finals is not None or not sixteen else tj.gather_stage_results(folder, pl.SEMI_FINAL)
        placed = tj.write_placings(
            t,
            sched,
            results_in,
            folder,
            final if final is not None else tj.gather_stage_results(folder, pl.FINAL),
            semi,
        )
        _files_written()
    except SetupgenError as exc:
        raise _fail_results(exc) from None
    for line in pl.placings_lines(placed, tj.display_names(t)):
        _out(line)
    typer.echo(f"wrote {_abs(folder / 'placings.csv')} and {_abs(folder / 'placings.pdf')}", err=True)


@app.command(
    epilog="Example:  setupgen season examples/season/season.toml   (after the events' placings or "
    "standings are written)"
)
def season(
    season_file: Path = typer.Argument(
        ..., metavar="SEASON.toml", help="The season file: its events, point scheme, best N results, tie-breakers."
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="Folder for season.csv and season.pdf; default output/<season name>."
    ),
) -> None:
    """Rank a season across events: each event's final places as points, each player's best results summed."""
    from .core import atomic
    from .render import export
    from .tournament import season as sn

    try:
        found = sn.load_season(season_file)
        folder = atomic.check_path(output) if output is not None else DEFAULT_OUTPUT / export.slug(found.name)
        ranked, events = sn.write_season(found, folder)
        _files_written()
    except SetupgenError as exc:
        raise _fail(exc) from None
    for line in sn.look_alikes(ranked, events):
        typer.echo(line, err=True)
    for line in sn.season_lines(ranked, events):
        _out(line)
    typer.echo(f"wrote {_abs(folder / 'season.csv')} and {_abs(folder / 'season.pdf')}", err=True)


@app.command(
    epilog="Examples:  setupgen serve examples/swiss-2010/tournament.toml"
    "  |  setupgen serve T.toml --host 0.0.0.0 --password-file director.txt --console-url http://192.168.1.20:8000"
)
def serve(
    tournament_file: Path = typer.Argument(..., metavar="TOURNAMENT.toml", help="The tournament file."),
    output: str | None = typer.Option(None, "-o", "--output", help=_HELP["serve.output"]),
    host: str = typer.Option("127.0.0.1", "--host", help=_HELP["serve.host"]),
    port: int = typer.Option(8000, "--port", help="Port to listen on (1-65535)."),
    password_file: Path | None = typer.Option(None, "--password-file", help=_HELP["serve.password_file"]),
    console_url: str | None = typer.Option(None, "--console-url", help=_HELP["serve.console_url"]),
    tls_cert: Path | None = typer.Option(None, "--tls-cert", help=_HELP["serve.tls_cert"]),
    tls_key: Path | None = typer.Option(None, "--tls-key", help="The certificate's PEM private key."),
    session_hours: float = typer.Option(8.0, "--session-hours", help=_HELP["serve.session_hours"]),
    trust_console_url: bool = typer.Option(False, "--trust-console-url", help=_HELP["serve.trust_console_url"]),
    referee_password_file: Path | None = typer.Option(
        None, "--referee-password-file", help=_HELP["serve.referee_password_file"]
    ),
) -> None:
    """The director's console in a browser: rounds, results, live standings (docs/console.md)."""
    from .console import security

    try:
        tls, plain = _serve_checks(
            host, port, session_hours, tls_cert, tls_key, console_url, trust_console_url, password_file
        )
        from .console import app as consoleapp
        from .console import day as consoleday
        from .tournament import model as tournament

        referee_plain = _referee_password(referee_password_file, plain)
        t = tournament.load(tournament_file)
        day = consoleday.open_day(tournament_file, _tournament_folder(t, output), console_url)
        salt = security.password_salt(day.key)
        web = consoleapp.create_app(
            day,
            password=None if plain is None else security.hash_password(plain, salt),
            referee_password=None if referee_plain is None else security.hash_password(referee_plain, salt),
            allowed_hosts=consoleapp.hosts_for(host, console_url),
            tls=tls is not None,
            session_hours=session_hours,
        )
        if plain is not None and tls is None and not security.is_loopback(host):
            typer.echo(
                f"warning: the director's password and session travel in clear text over plain HTTP on "
                f"{host}; serve with --tls-cert and --tls-key, or use a network of your own "
                f'(docs/console.md, "Security")',
                err=True,
            )
        _serving(t.name, host, port, tls is not None, console_url)
        try:
            consoleapp.run(web, host, port, tls)
        except _Stop as stop:  # Ctrl-C ends the console as it should; SIGTERM as well, with its code
            typer.echo("console stopped; every acknowledged change is in tournament.db", err=True)
            raise typer.Exit(0 if stop.code == EXIT_INTERRUPTED else stop.code) from None
        finally:
            day.tasks.close()
    except SetupgenError as exc:
        raise _fail_results(exc) from None


def _serve_checks(
    host: str,
    port: int,
    session_hours: float,
    tls_cert: Path | None,
    tls_key: Path | None,
    console_url: str | None,
    trust_console_url: bool,
    password_file: Path | None,
) -> tuple[Any, str | None]:
    """``serve``'s options checked before anything is opened: (the TLS
    files or None, the director's password as typed or None). Raises
    :class:`SetupgenError`."""
    from .console import security

    if not 1 <= port <= 65535:
        raise SetupgenError(f"the port must be from 1 to 65535, got {port}", field="port")
    if not 0.1 <= session_hours <= 72:
        raise SetupgenError(f"the session hours must be from 0.1 to 72, got {session_hours:g}", field="session_hours")
    tls = _tls_files(tls_cert, tls_key)
    if console_url is not None and not trust_console_url:
        from .tournament import tokens

        security.check_console_url(tokens.check_base_url(console_url), host, port, tls is not None)
    plain = None if password_file is None else security.read_password(password_file)
    if not security.is_loopback(host) and plain is None:
        plain = _prompt_password(host)
    return tls, plain


def _referee_password(path: Path | None, director: str | None) -> str | None:
    """The referees' password as typed in its file (issue 49), None
    without one. Raises :class:`SetupgenError` without a director's
    password, or when both are the same."""
    from .console import security

    if path is None:
        return None
    if director is None:
        raise SetupgenError(
            "the referees' password needs the director's: referees log in beside a director's login",
            needs="password_file",
        )
    plain = security.read_password(path, field="referee_password_file")
    if plain == director:
        raise SetupgenError(
            "the referees' password must differ from the director's (a referee may not enter results)",
            field="referee_password_file",
        )
    return plain


def _serving(name: str, host: str, port: int, tls: bool, console_url: str | None) -> None:
    """The line that says where the console listens."""
    shown_host = f"[{host}]" if ":" in host else host
    where = f"http{'s' if tls else ''}://{shown_host}:{port}/" + (
        f", for the tables {console_url}" if console_url else ""
    )
    typer.echo(f"console of {name!r} on {where} (public page /public; Ctrl-C ends it)", err=True)


def _tls_files(cert: Path | None, key: Path | None):
    """``(certificate, key)`` checked, or None without TLS."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise SetupgenError("--tls-cert and --tls-key go together")
    from .console import app as consoleapp

    consoleapp.check_tls(cert, key)
    return str(cert), str(key)


def _prompt_password(host: str) -> str:
    """The director's password typed twice at a terminal, for a console
    other machines can reach; without a terminal, or on Ctrl-D at the
    prompt, an error."""
    from .console import security

    if not (sys.stdin is not None and sys.stdin.isatty()):
        raise SetupgenError(
            f"listening on {host!r} lets other machines in: the director's password is needed, in a file",
            needs="password_file",
        )
    try:
        typed = typer.prompt("director's password", hide_input=True, confirmation_prompt=True, err=True)
    except (EOFError, typer.Abort):  # Ctrl-D (end of input) at the prompt
        raise SetupgenError(
            f"no password was typed (end of input); the console needs one when it listens on {host!r}",
            needs="password_file",
        ) from None
    if len(typed.strip()) < security.MIN_PASSWORD:
        raise SetupgenError(
            f"the password must have at least {security.MIN_PASSWORD} characters", field="password_file"
        )
    return typed.strip()


def _stderr_console():
    from rich.console import Console

    return Console(stderr=True)


@app.command(epilog="Example:  setupgen check output/demo/table-03.json   (exit 0 legal, 1 illegal, 2 bad file)")
def check(
    board_file: Path = typer.Argument(..., metavar="BOARD.json", help="A board file (setupgen.board/1 JSON)."),
    layout_file: str | None = typer.Option(
        None, "--layout", help="The layout TOML the board was made from, if not a shipped scenario."
    ),
    with_stats: bool = typer.Option(
        False,
        "--stats",
        help="After the verdict, the board's balance metrics (docs/balance.md) under their own heading.",
    ),
) -> None:
    """Check a board file against its scenario's rules."""
    from . import check as checkmod

    measured = None
    try:
        if with_stats:
            from . import stats as statsmod

            found, measured = statsmod.check_with_stats(board_file, layout_file)
        else:
            found = checkmod.check_file(board_file, layout_file)
    except SetupgenError as exc:
        raise _fail(exc) from None
    errors = [v for v in found if v.severity == checkmod.ERROR]
    try:
        _print_verdict(found, errors, measured)
    except _Stop as stop:  # a reader that closed the pipe early still gets the verdict
        raise _Stop(EXIT_ILLEGAL if errors and stop.code == 0 else stop.code, stop.message) from None
    if errors:
        raise typer.Exit(EXIT_ILLEGAL)


def _print_verdict(found, errors, measured=None) -> None:
    """Violations and notes, the verdict, then (``check --stats``) a blank
    line and the metrics under the heading ``balance (docs/balance.md):``."""
    for v in found:
        _out(str(v))
    _out(f"illegal: {len(errors)} violation(s)" if errors else "legal")
    if measured is not None:
        from . import stats as statsmod

        _out("")
        _out("balance (docs/balance.md):")
        for line in statsmod.metric_lines(measured):
            _out(f"  {line}")


@app.command(
    "stats",
    epilog="Examples:  setupgen stats output/demo/table-03.json"
    "  |  setupgen board --seed s --format jsonl --count 1000 -o - | setupgen stats - --format json",
)
def stats_(
    source: str = typer.Argument(
        ...,
        metavar="BOARD.json|BOARDS.jsonl|-",
        help="A board file, a JSON Lines file of boards (one a line), or - to read either from standard input.",
    ),
    fmt: str | None = typer.Option(
        None,
        "--format",
        help="text (default: a block per board) or json (one setupgen.balance/1 object per board and line); default json for an -o file ending .json or .jsonl.",
    ),
    output: str | None = typer.Option(
        None, "-o", "--output", help="File to write instead of standard output (written whole or not at all)."
    ),
    layout_file: str | None = typer.Option(
        None, "--layout", help="The layout TOML the boards were made from, if not a shipped scenario."
    ),
) -> None:
    """Print the balance metrics of boards (docs/balance.md), streaming JSON Lines."""
    from . import stats as statsmod
    from .core import atomic

    try:
        fmt = _stats_format(fmt, output)
        if output not in (None, "-"):
            atomic.check_file_target(output)
        made = statsmod.stats(source, fmt, layout_file)
        if output in (None, "-"):
            for piece in made:  # streamed: boards before a bad line are printed already
                _write_stdout(lambda stream, piece=piece: stream.write(piece), text=True)
            return
        atomic.write_stream(output, (piece.encode("utf-8") for piece in made))
    except SetupgenError as exc:
        raise _fail(exc) from None
    typer.echo(f"wrote {_abs(output)} ({made.boards} board{'' if made.boards == 1 else 's'})", err=True)


def _stats_format(fmt: str | None, output: str | None) -> str:
    """``--format``, or json for an ``-o`` file ending ``.json``/``.jsonl``, else text."""
    ext = "" if output in (None, "-") else Path(output).suffix.lower()
    if fmt is None:
        return "json" if ext in (".json", ".jsonl") else "text"
    if fmt == "text" and ext in (".json", ".jsonl"):
        raise SetupgenError(f"format text does not match the file name {output!r}", field="fmt")
    return fmt


@app.command(
    epilog="Examples:  setupgen survey --scenario base-3-4"
    "  |  setupgen survey --scenario base-5-6 --count 2000 --balance fair --plot output/five-six"
)
def survey(
    scenario: str | None = typer.Option(None, help="Scenario (see 'setupgen scenarios'); default base-3-4."),
    numbers: str | None = typer.Option(None, help="Number method: swap (default), spiral or uniform."),
    harbors: str | None = typer.Option(
        None, help="Harbor method: shuffled, free or players (default: the scenario's)."
    ),
    count: int = typer.Option(10_000, help="How many boards (1-100,000)."),
    seed: str | None = typer.Option(
        None, help="Seed stem: board i is seeded SEED/i; default survey (survey/1, survey/2, ...)."
    ),
    balance: str | None = typer.Option(
        None,
        "--balance",
        help="A balance preset (name or .toml file): report the share of boards meeting each of its limits, besides fair's.",
    ),
    plot: str | None = typer.Option(
        None,
        "--plot",
        help="Write the score histogram as NAME.svg and NAME.png (both or neither); default output/survey-<scenario>-<numbers>.",
    ),
    no_plot: bool = typer.Option(False, "--no-plot", help="Write no plot."),
) -> None:
    """Percentiles of every balance metric over many boards, the share meeting each limit, a score histogram."""
    from .render import export
    from .render import survey as surveymod

    try:
        if plot is not None and no_plot:
            raise SetupgenError("--plot names the plot's files, --no-plot asks for none; give one")
        request = surveymod.SurveyRequest(
            "base-3-4" if scenario is None else scenario,
            numbers,
            harbors,
            count,
            surveymod.DEFAULT_SEED if seed is None else seed,
            balance,
        )
        layout, method, _ = surveymod.check_request(request)
        paths = None
        if not no_plot:
            name = plot if plot is not None else str(_default_target(f"survey-{export.slug(layout.name)}-{method}"))
            paths = _plot_targets(surveymod.plot_paths(name))
        result = surveymod.run(request)
        if paths is not None:
            svg, png = surveymod.plot_files(result)
            _write_plot(paths, svg, png)
    except SetupgenError as exc:
        raise _fail(exc) from None
    for line in surveymod.summary_lines(result):
        _out(line)
    if paths is not None:
        typer.echo(f"wrote {_abs(paths[0])} and {_abs(paths[1])}", err=True)


def _plot_targets(paths: tuple[str, str]) -> tuple[str, str]:
    """Both plot files checked as targets before any work (a problem is
    the fault of ``--plot``)."""
    from .core import atomic

    for path in paths:
        try:
            atomic.check_file_target(path)
        except SetupgenError as exc:
            raise SetupgenError(str(exc), field="plot") from None
    return paths


def _write_plot(paths: tuple[str, str], svg: bytes, png: bytes) -> None:
    """The plot's two files, both or neither."""
    from .core import atomic

    folder = Path(paths[0]).parent
    try:
        atomic.write_files(folder, {Path(paths[0]).name: svg, Path(paths[1]).name: png})
    except SetupgenError as exc:
        raise SetupgenError(str(exc), field="plot") from None
    _files_written()


@app.command(epilog="Example:  setupgen scenarios")
def scenarios() -> None:
    """List the scenarios."""
    from .core import layout as layoutmod

    try:
        names = layoutmod.scenario_names()
        width = max((len(n) for n in names), default=0)  # one column, however long the longest name
        for name in names:
            lay = layoutmod.load(name)
            extra = "  (reconstructed layout)" if lay.reconstruction else ""
            head = f"{name:<{width}} {lay.players or '-':<4} players  {lay.victory_points} VP  "
            if lay.source == "board-file":
                _out(head + "fixed setup: needs --board FILE")
                continue
            _out(head + f"numbers {lay.default_numbers}, harbors {lay.default_harbors}{extra}")
    except SetupgenError as exc:
        raise _fail(exc) from None


def main() -> None:
    """Console-script entry point."""
    app()
