"""Board balance of board files and JSON Lines streams: what ``setupgen
stats`` prints and the metrics ``check`` adds on request (definitions in
``docs/balance.md``).

A *source* is a board file (``setupgen.board/1`` JSON, ``docs/format.md``,
one document, at most 10 MB), a JSON Lines file of boards (one board per
line; blank lines skipped; each line at most 10 MB, any number of lines),
or ``"-"``: standard input holding either. Which one: when the first
non-blank line is a JSON value by itself the source is JSON Lines, else
one document. A JSON Lines source is read and measured a batch of lines
at a time (in worker processes when there are several batches,
:mod:`setupgen.core.parallel`), so memory stays constant however long the
stream; every line is read as a whole board (``Board.from_json``), and
the first bad line ends the output with an error naming the source and
the line number (1-based, blank lines counted).

Each board is measured as the director sees it (face-down hexes count)
with the starting-settlement restrictions of its layout: the shipped
scenario it names, or the layout file given for it.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from .check import Violation, check
from .core import layout as layoutmod
from .core import parallel
from .core.balance import Balance, measure
from .core.board import Board, read_board
from .core.data import MAX_INPUT_BYTES
from .core.errors import SetupgenError, UnknownScenarioError, quoted
from .core.frames import layout_for
from .core.layout import Layout

__all__ = [
    "STATS_FORMATS",
    "TITLE",
    "STDIN",
    "BATCH",
    "Stream",
    "stats",
    "record",
    "metric_lines",
    "board_lines",
    "check_with_stats",
]

#: output formats: readable text (``TITLE``, then a block per board) or
#: one ``setupgen.balance/1`` JSON object per line
STATS_FORMATS = ("text", "json")
#: the first line of the text output
TITLE = "board balance (setupgen stats; metrics: docs/balance.md)"
#: the source name that stands for standard input
STDIN = "-"
#: lines of a JSON Lines source measured as one job
BATCH = 250
_BOM = b"\xef\xbb\xbf"


class Stream:
    """The output of :func:`stats`: iterating gives it as text pieces
    (``str``, each ending with ``\\n``, a batch of boards at a time);
    ``boards`` counts the boards given so far. Iterating raises
    :class:`SetupgenError` when a bad board is reached (the pieces before
    it have been given)."""

    def __init__(self, pieces: Iterator[tuple[str, int]]) -> None:
        self._pieces = pieces
        self.boards = 0

    def __iter__(self) -> Iterator[str]:
        for text, count in self._pieces:
            self.boards += count
            if text:
                yield text


def stats(source: str | Path, fmt: str = "text", layout_file: str | Path | None = None) -> Stream:
    """The balance of every board of ``source`` (a path or :data:`STDIN`)
    in ``fmt`` (:data:`STATS_FORMATS`). ``layout_file``: the layout every
    board is of, when it is not a shipped scenario. Raises
    :class:`SetupgenError` at once for an unknown format, an unreadable
    source or layout, and while iterating for a bad board (naming the
    source and, in JSON Lines, the line)."""
    if fmt not in STATS_FORMATS:
        raise SetupgenError(f"unknown format {quoted(fmt, 30)} (known: {', '.join(STATS_FORMATS)})", field="fmt")
    layout = None if layout_file is None else Layout.from_file(layout_file)
    stream, name = _open(source)
    return Stream(_pieces(stream, name, fmt, layout, stream is not _stdin()))


def _stdin() -> Any:
    return getattr(sys.stdin, "buffer", None)


def _open(source: str | Path) -> tuple[BinaryIO, str]:
    """The source as a binary stream and its name for messages."""
    if str(source) == STDIN:
        stream = _stdin()
        if stream is None:
            raise SetupgenError("cannot read standard input: it is closed")
        if stream.isatty():
            raise SetupgenError("standard input is a terminal; pipe the boards in (… | setupgen stats -)")
        return stream, "standard input"
    text = str(source)
    where = f"cannot read the board file {quoted(text, 120)}"
    if not text or "\0" in text:
        raise SetupgenError(f"{where}: not a file name")
    path = Path(text)
    try:
        if not path.is_file():
            raise SetupgenError(
                f"{where}: "
                + (
                    "it does not exist"
                    if not path.exists()
                    else "it is a folder"
                    if path.is_dir()
                    else "it is not a regular file"
                )
            )
        return open(path, "rb"), text
    except OSError as exc:
        raise SetupgenError(f"{where}: {exc.strerror or exc}") from None


def _pieces(stream: BinaryIO, name: str, fmt: str, layout: Layout | None, close: bool) -> Iterator[tuple[str, int]]:
    """``(text, boards)`` pieces of the output, in order."""
    try:
        if fmt == "text":
            yield TITLE + "\n", 0
        lines = _lines(stream, name)
        first = next(lines, None)
        if first is None:
            raise SetupgenError(f"{name}: no board in it (it is empty)")
        if not _one_line(first[1]):
            whole = first[1] + _rest(stream, name, first[1])
            text, count, problem = _measure_batch((fmt, name, layout), [(None, whole)])
            if problem is not None:
                raise SetupgenError(problem)
            yield text, count
            return
        batches = _batches(itertools.chain([first], lines))
        for text, count, problem in parallel.ordered(_measure_batch, (fmt, name, layout), batches):
            yield text, count
            if problem is not None:
                raise SetupgenError(problem)
    finally:
        if close:
            stream.close()


def _lines(stream: BinaryIO, name: str) -> Iterator[tuple[int, bytes]]:
    """``(line number, bytes)`` of every non-blank line (a byte-order mark
    before the first is dropped)."""
    number = 0
    while True:
        try:
            raw = stream.readline(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise SetupgenError(f"cannot read {name}: {exc.strerror or exc}") from None
        if not raw:
            return
        number += 1
        if len(raw) > MAX_INPUT_BYTES:
            raise SetupgenError(f"{name}: line {number}: longer than {MAX_INPUT_BYTES // 1_000_000} MB")
        if number == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        if raw.strip():
            yield number, raw


def _one_line(raw: bytes) -> bool:
    """Whether a line is a JSON value by itself (the source is JSON Lines)."""
    try:
        json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):  # not UTF-8, too deep, a huge number: a bad line, named by its number
        return True
    return True


def _rest(stream: BinaryIO, name: str, head: bytes) -> bytes:
    """The rest of a one-document source (at most 10 MB in all)."""
    try:
        rest = stream.read(MAX_INPUT_BYTES + 1 - len(head))
    except OSError as exc:
        raise SetupgenError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(head) + len(rest) > MAX_INPUT_BYTES:
        raise SetupgenError(f"{name}: larger than {MAX_INPUT_BYTES // 1_000_000} MB (a JSON Lines file may be longer)")
    return rest


def _batches(lines: Iterable[tuple[int, bytes]]) -> Iterator[list[tuple[int, bytes]]]:
    it = iter(lines)
    while batch := list(itertools.islice(it, BATCH)):
        yield batch


def _measure_batch(context: tuple[Any, ...], batch: list[tuple[int | None, bytes]]) -> tuple[str, int, str | None]:
    """One job: the output of a batch of ``(line number, bytes)`` (None:
    the whole source is one document), the boards in it, and the problem
    of the first bad line (then the output stops before it)."""
    fmt, name, layout = context
    out: list[str] = []
    for number, raw in batch:
        try:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise SetupgenError("it is not UTF-8 text") from None
            board = Board.from_json(text)
            result = measure(board, start_barred=_start_barred(board, layout))
        except SetupgenError as exc:
            return "".join(out), len(out), f"{name}: " + ("" if number is None else f"line {number}: ") + str(exc)
        if fmt == "json":
            out.append(json.dumps(record(board, result)) + "\n")
        else:
            out.append("\n" + "\n".join(board_lines(board, result)) + "\n")
    return "".join(out), len(out), None


def _start_barred(board: Board, layout: Layout | None) -> tuple[str, ...]:
    """What the board's layout bars from starting settlements."""
    if layout is not None:
        if layout.name != board.scenario:
            raise SetupgenError(f"the board is of scenario {board.scenario!r}, the layout file is {layout.name!r}")
        return layout.start_barred
    try:
        return layoutmod.load(board.scenario).start_barred
    except UnknownScenarioError as exc:  # a value of the file, not of the request
        raise SetupgenError(f"the board's {exc}; a board of a layout of your own needs its layout file") from None


def record(board: Board, result: Balance) -> dict[str, Any]:
    """The ``setupgen.balance/1`` object of ``board`` (``docs/balance.md``,
    "JSON") with the board's ``setup_id`` added after ``format``."""
    data = result.to_dict()
    return {"format": data.pop("format"), "setup_id": board.setup_id, **data}


#: the text block's rows: metric, unit (singular, plural)
_ROWS = (
    ("score", ("", "")),
    ("resource_pips", ("", "")),
    ("resource_spread", ("pip", "pips")),
    ("pips_per_hex", ("", "")),
    ("intersection_max", ("pip", "pips")),
    ("intersection_min", ("pip", "pips")),
    ("intersections_11", ("with 11 pips or more", "with 11 pips or more")),
    ("largest_cluster", ("hex", "hexes")),
    ("same_terrain_pairs", ("pair", "pairs")),
    ("repeated_numbers", ("token", "tokens")),
    ("harbor_pips", ("", "")),
    ("halves_imbalance", ("(share of the pips)", "(share of the pips)")),
)


def metric_lines(result: Balance) -> list[str]:
    """The metrics as aligned text lines (``label  value unit``), in the
    order of ``docs/balance.md``; no indent."""
    data = result.to_dict()
    width = max(len(name) for name, _ in _ROWS) + 2
    out = []
    for name, (one, many) in _ROWS:
        value = data[name]
        if name == "score":
            text = f"{value:.1f} of 100 (higher is more balanced)"
        elif name == "harbor_pips":
            text = "  ".join(f"2:1 {h['type']} {h['pips']}" for h in value) or "no 2:1 harbor"
        elif isinstance(value, dict):
            text = "  ".join(f"{k} {v}" for k, v in value.items())
        else:
            text = f"{value} {one if value == 1 else many}".rstrip()
        out.append(f"{name.replace('_', ' '):<{width}}{text}")
    return out


def board_lines(board: Board, result: Balance) -> list[str]:
    """A board's text block: a head line (setup ID, scenario, seed), then
    :func:`metric_lines` indented by two spaces."""
    head = f"{board.setup_id}  {board.scenario}" + ("" if board.seed is None else f"  seed {board.seed}")
    return [head] + [f"  {line}" for line in metric_lines(result)]


def check_with_stats(path: str | Path, layout_file: str | Path | None = None) -> tuple[list[Violation], Balance]:
    """What :func:`setupgen.check.check_file` finds in a board file, and
    the board's balance, measured with the restrictions of the layout it
    is checked against. Raises :class:`SetupgenError` as ``check_file``."""
    board = read_board(path)
    layout = None if layout_file is None else Layout.from_file(layout_file)
    if layout is not None and layout.name != board.scenario:
        raise SetupgenError(f"the board is of scenario {board.scenario!r}, the layout file is {layout.name!r}")
    against = layout if layout is not None else layout_for(board)
    return check(board, against), measure(board, start_barred=against.start_barred)
