"""Turning boards into output bytes: JSON, JSONL, SVG, PDF and PNG (what
the ``board`` command writes). Rendering libraries are imported only when
needed.

``setupgen board`` does one of five jobs, each a request type of its own
with its own function: a table sheet (:class:`SheetRequest`,
:func:`sheet_output`), the director's key (:class:`KeyRequest`,
:func:`key_output`), board JSON (:class:`JsonRequest`,
:func:`json_output`), a JSON Lines batch (:class:`BatchRequest`,
:func:`batch_output`) and a board read from a file
(:class:`BoardFileRequest`, :func:`board_file_output`); a tournament's
table is a sheet or key request made by
:func:`setupgen.tournament.jobs.table_sheet` (its context and rules).
:class:`BoardRequest` holds the command's options as given;
:func:`board_job` checks them and makes the job's request, which the
command hands to that job's function.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from .. import generate as gen
from ..core import almanac as rules
from ..core import layout as layoutmod
from ..core import templates
from ..core.almanac import AlmanacRequest
from ..core.balance import Limits
from ..core.board import Board
from ..core.errors import SetupgenError, quoted
from ..core.layout import Layout
from ..core.limits import check_text

FORMATS = ("pdf", "svg", "png", "json", "jsonl")
MAX_COUNT = 100_000
DEFAULT_SCENARIO = "base-3-4"


@dataclass(frozen=True, slots=True)
class BoardRequest:
    """What ``setupgen board`` was asked for. ``seed`` None: the caller picks
    a fresh one after :func:`check_board_request`. ``layout_file``: a layout
    TOML to use instead of a shipped scenario. ``almanac``: the almanac
    page to add to a sheet (pdf, svg, png; not to the key), None for none.
    ``context``: a :class:`setupgen.render.sheet.SheetContext` (a
    tournament's table), None for a sheet of its own. ``limits``: balance
    limits the board must meet (docs/balance.md); ``balance_line``: print
    the board's balance, as the table sees it, on the sheet."""

    scenario: str | None = None
    seed: str | None = None
    setup_id: str | None = None
    numbers: str | None = None
    harbors: str | None = None
    fmt: str | None = None
    count: int = 1
    output: str | None = None
    lang: str = "en"
    paper: str = "a4"
    layout_file: str | None = None
    key: bool = False
    board_file: str | None = None
    almanac: AlmanacRequest | None = None
    context: Any = None
    limits: Limits = Limits()
    balance_line: bool = False


@dataclass(frozen=True, slots=True)
class BoardOutput:
    """The bytes (or, for JSONL, the lines) to write, the file name to use
    when no ``-o`` was given, for a board read from a file what ``check``
    found in it, and the almanac page as a file of its own (SVG or PNG
    bytes; a PDF holds it as its second page), else None."""

    data: bytes | Iterator[str]
    default_name: str
    setup_id: str | None
    violations: tuple = ()
    almanac: bytes | None = None


def check_board_request(req: BoardRequest) -> tuple[str, Layout | None]:
    """Validate a request before any seed is chosen: returns the format and
    the layout (for a board file: the board-file scenario or None). Raises
    :class:`SetupgenError` with the first problem, its ``field`` naming the
    request value at fault."""
    fmt = pick_format(req.fmt, req.output)
    if fmt not in FORMATS:
        raise SetupgenError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})", field="fmt")
    if fmt != "jsonl" and req.count != 1:
        raise SetupgenError("a count of boards needs the jsonl format", field="count")
    if not 1 <= req.count <= MAX_COUNT:
        raise SetupgenError(f"count must be between 1 and {MAX_COUNT}, got {quoted(req.count, 30)}", field="count")
    if req.setup_id is not None:
        if req.seed is not None or req.scenario is not None or req.numbers is not None or req.harbors is not None:
            raise SetupgenError(
                "a setup id already names the scenario, methods and seed; give it alone", field="setup_id"
            )
        if fmt == "jsonl":
            raise SetupgenError("a setup id names one board; use the json format", field="setup_id")
    if req.layout_file is not None and req.scenario is not None:
        raise SetupgenError("give either a scenario or a layout file, not both", field="layout_file")
    if req.key and fmt in ("json", "jsonl"):
        raise SetupgenError(
            "the director's key is a sheet (pdf, svg or png); the board json already names every hex", field="key"
        )
    _check_almanac(fmt, req)
    if req.limits and (req.setup_id is not None or req.board_file is not None):
        raise SetupgenError(
            "balance limits choose among the boards of a seed; a setup id or a board file already names one board",
            field="balance",
        )
    if req.seed is not None:
        if not req.seed.strip():
            raise SetupgenError("the seed must not be empty", field="seed")
        check_text(req.seed, "the seed", field="seed")
    if req.board_file is not None:
        return fmt, _check_board_file_request(fmt, req)
    if req.layout_file is not None:
        layout = Layout.from_file(req.layout_file)
    elif req.setup_id is not None:
        layout = gen.setup_id_layout(req.setup_id)
    else:
        layout = layoutmod.load(DEFAULT_SCENARIO if req.scenario is None else req.scenario)
    if req.setup_id is None:
        gen.resolve_methods(layout, req.numbers, req.harbors)
    _check_render_options(fmt, req)
    return fmt, layout


def _check_board_file_request(fmt: str, req: BoardRequest) -> Layout | None:
    """A board read from a file takes nothing that makes a board; its
    scenario, if given, must be one that takes its board from a file."""
    given = [
        name
        for name, value in (
            ("seed", req.seed),
            ("setup id", req.setup_id),
            ("number method", req.numbers),
            ("harbor method", req.harbors),
            ("layout file", req.layout_file),
        )
        if value is not None
    ]
    if given:
        raise SetupgenError(f"a board file gives the whole board; it takes no {', '.join(given)}", field="board_file")
    if fmt == "jsonl":
        raise SetupgenError("a board file gives one board; use the json format", field="fmt")
    meta = layoutmod.load(req.scenario) if req.scenario is not None else None
    if meta is not None and meta.source != "board-file":
        takers = [n for n in layoutmod.scenario_names() if layoutmod.load(n).source == "board-file"]
        raise SetupgenError(
            f"scenario {meta.name!r} makes its own boards; a board file goes with a board-file "
            f"scenario ({', '.join(takers)}) or none",
            field="scenario",
        )
    _check_render_options(fmt, req)
    return meta


def _check_almanac(fmt: str, req: BoardRequest) -> None:
    """The almanac request, checked when it is printed: on a table sheet
    (board JSON and the director's key have no almanac; it is ignored)."""
    if req.almanac is not None and fmt in ("svg", "pdf", "png") and not req.key:
        rules.check_request(req.almanac)


def almanac_name(name: str) -> str:
    """The file name of a sheet's almanac page beside ``name``:
    ``board.svg`` -> ``board-almanac.svg``."""
    path = PurePath(name)
    return str(path.with_name(f"{path.stem}-almanac{path.suffix}"))


def _check_render_options(fmt: str, req: BoardRequest) -> None:
    if fmt in ("svg", "pdf", "png"):
        templates.texts(req.lang)
        templates.paper_size(req.paper)


# ---------------------------------------------------------------- the board command's jobs, one request type each


@dataclass(frozen=True, slots=True)
class BoardSource:
    """Which board: ``layout`` (a shipped scenario or a layout file) and a
    ``seed`` or a ``setup_id`` (one of them set), the number and harbor
    methods (None: the layout's) and balance ``limits`` (docs/balance.md)."""

    layout: Layout
    seed: str | None = None
    setup_id: str | None = None
    numbers: str | None = None
    harbors: str | None = None
    limits: Limits = Limits()

    def board(self) -> Board:
        """The board (of the setup ID, else the first of the seed's attempts
        meeting the limits). Raises :class:`SetupgenError`."""
        if self.setup_id is not None:
            return gen.from_setup_id(self.setup_id, self.layout)
        if self.seed is None:
            raise SetupgenError("a board needs a seed or a setup id")
        return gen.from_seed_within(self.layout, self.seed, self.limits, self.numbers, self.harbors)


@dataclass(frozen=True, slots=True)
class Print:
    """How a sheet is printed: ``fmt`` (``pdf``, ``svg``, ``png``),
    ``lang``, ``paper``, ``almanac`` (the page behind it, None: none),
    ``context`` (a :class:`setupgen.render.sheet.SheetContext`, None: a
    sheet of its own) and ``balance_line`` (the board's balance printed
    on it)."""

    fmt: str = "pdf"
    lang: str = "en"
    paper: str = "a4"
    almanac: AlmanacRequest | None = None
    context: Any = None
    balance_line: bool = False


@dataclass(frozen=True, slots=True)
class SheetRequest:
    """A table sheet of one board (and its almanac page): :func:`sheet_output`."""

    source: BoardSource
    print: Print = Print()


@dataclass(frozen=True, slots=True)
class KeyRequest:
    """The director's key of one board (face-down hexes revealed, no
    almanac): :func:`key_output`."""

    source: BoardSource
    print: Print = Print()


@dataclass(frozen=True, slots=True)
class JsonRequest:
    """One board as board JSON (``docs/format.md``): :func:`json_output`."""

    source: BoardSource


@dataclass(frozen=True, slots=True)
class BatchRequest:
    """``count`` boards as JSON Lines, board ``i`` seeded ``seed/i``
    (:func:`jsonl_seed`): :func:`batch_output`."""

    source: BoardSource
    count: int = 1


@dataclass(frozen=True, slots=True)
class BoardFileRequest:
    """A complete board read from ``board_file`` (board JSON, or a layout
    TOML with every hex fixed; ``scenario`` a board-file scenario or
    None), checked and written as ``print.fmt`` (``json`` too), its key
    when ``key``: :func:`board_file_output`."""

    board_file: str
    scenario: str | None = None
    key: bool = False
    print: Print = Print()


#: the requests :func:`board_job` makes, one per job of ``setupgen board``
BoardJob = SheetRequest | KeyRequest | JsonRequest | BatchRequest | BoardFileRequest


def board_job(req: BoardRequest) -> BoardJob:
    """The one job a ``board`` request asks for, checked
    (:func:`check_board_request`; ``req.seed`` or ``req.setup_id`` set,
    unless it names a board file). Raises :class:`SetupgenError`."""
    fmt, layout = check_board_request(req)
    look = Print(
        fmt,
        req.lang,
        req.paper,
        None if fmt in ("json", "jsonl") or req.key else req.almanac,
        req.context,
        req.balance_line and fmt not in ("json", "jsonl") and not req.key,
    )
    if req.board_file is not None:
        return BoardFileRequest(req.board_file, req.scenario, req.key, look)
    assert layout is not None  # only a board file comes without a layout
    source = BoardSource(layout, req.seed, req.setup_id, req.numbers, req.harbors, req.limits)
    if fmt == "jsonl":
        if req.seed is None:
            raise SetupgenError("a jsonl batch needs a seed")
        return BatchRequest(source, req.count)
    if req.setup_id is None and req.seed is None:
        raise SetupgenError("a board needs a seed or a setup id")
    if fmt == "json":
        return JsonRequest(source)
    return KeyRequest(source, look) if req.key else SheetRequest(source, look)


def sheet_output(req: SheetRequest) -> BoardOutput:
    """The table sheet (and its almanac page as a file of its own, for
    SVG and PNG). Raises :class:`SetupgenError`."""
    board = req.source.board()
    data, back = _sheet_bytes(board, req.source.layout, req.print, key=False)
    return BoardOutput(data, f"{board.scenario}-{board.setup_id}.{req.print.fmt}", board.setup_id, (), back)


def key_output(req: KeyRequest) -> BoardOutput:
    """The director's key. Raises :class:`SetupgenError`."""
    board = req.source.board()
    data, _ = _sheet_bytes(board, req.source.layout, req.print, key=True)
    return BoardOutput(data, f"{board.scenario}-{board.setup_id}-key.{req.print.fmt}", board.setup_id)


def json_output(req: JsonRequest) -> BoardOutput:
    """The board JSON, one line and a newline. Raises :class:`SetupgenError`."""
    board = req.source.board()
    return BoardOutput(board_bytes(board, "json"), f"{board.scenario}-{board.setup_id}.json", board.setup_id)


def batch_output(req: BatchRequest) -> BoardOutput:
    """The JSON Lines, made as they are read (:func:`iter_jsonl`)."""
    src = req.source
    assert src.seed is not None
    return BoardOutput(
        iter_jsonl(src.layout, src.seed, req.count, src.numbers, src.harbors, src.limits),
        f"{src.layout.name}-{slug(src.seed)}.jsonl",
        None,
    )


def board_file_output(req: BoardFileRequest) -> BoardOutput:
    """The board of the file, written as asked, with what ``check`` finds
    in it (``violations``). Raises :class:`SetupgenError`."""
    from .. import check
    from ..generate import fixed

    board, layout = fixed.board_from_file(req.board_file, req.scenario)
    if req.print.fmt == "json":
        data, back = board_bytes(board, "json"), None
    else:
        data, back = _sheet_bytes(board, layout, req.print, key=req.key)
    return BoardOutput(
        data,
        f"{board.scenario}-{board.setup_id}.{req.print.fmt}",
        board.setup_id,
        tuple(check.check(board, layout)),
        back,
    )


def _sheet_bytes(board: Board, layout: Layout | None, look: Print, *, key: bool) -> tuple[bytes, bytes | None]:
    """The sheet's (or with ``key`` the director's key's) bytes as
    ``look.fmt`` (``pdf``, ``svg``, ``png``), and the almanac's own file
    (SVG/PNG), if any."""
    almanac = None if key else look.almanac
    line = look.balance_line and not key
    if almanac is None and look.context is None and not line:
        return board_bytes(board, look.fmt, lang=look.lang, paper=look.paper, layout=layout, key=key), None
    from . import pdf, sheet
    from .almanac import render_almanac

    layout = layoutmod.load(board.scenario) if layout is None else layout
    ctx = sheet.SheetContext() if look.context is None else look.context
    if line:
        from ..core import balance

        ctx = dataclasses.replace(
            ctx,
            balance=sheet.balance_line(balance.measure(board, start_barred=layout.start_barred, table=True), look.lang),
        )
    front = (
        _render_key(board, layout, look, ctx)
        if key
        else sheet.render_sheet(board, layout, lang=look.lang, paper=look.paper, context=ctx)
    )
    back = (
        None
        if almanac is None
        else render_almanac(board, layout, lang=look.lang, paper=look.paper, context=ctx, request=almanac)
    )
    if look.fmt == "pdf":
        return pdf.svgs_to_pdf([front] if back is None else [front, back]), None
    if look.fmt == "svg":
        return front.encode("utf-8"), None if back is None else back.encode("utf-8")
    return pdf.svg_to_png(front), None if back is None else pdf.svg_to_png(back)


def _render_key(board: Board, layout: Layout, look: Print, ctx: Any) -> str:
    """The director's key of ``board`` with the table's context."""
    from . import key as keymod

    return keymod.render_key(board, layout, lang=look.lang, paper=look.paper, context=ctx)


def slug(text: str) -> str:
    """``text`` made safe as a file name part (letters, digits, ``._-``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "seed"


def pick_format(fmt: str | None, output: str | None) -> str:
    """The output format: ``fmt`` if given, else the extension of
    ``output`` when it names a format, else ``pdf``. Raises
    :class:`SetupgenError` when ``fmt`` contradicts a known extension of
    ``output`` (format ``json`` for a file ``x.pdf``)."""
    ext = ""
    if output not in (None, "-"):
        ext = PurePath(output).suffix.lower().lstrip(".")
    if fmt is None:
        return ext if ext in FORMATS else "pdf"
    if fmt not in FORMATS:
        raise SetupgenError(f"unknown format {quoted(fmt, 30)} (known: {', '.join(FORMATS)})", field="fmt")
    if ext in FORMATS and ext != fmt:
        raise SetupgenError(f"format {fmt} does not match the file name {output!r}", field="fmt")
    return fmt


def jsonl_seed(seed: str, i: int) -> str:
    """Seed text of board ``i`` (1-based) of a JSONL batch seeded ``seed``."""
    return f"{seed}/{i}"


def iter_jsonl(
    scenario: str | Layout,
    seed: str,
    count: int,
    numbers: str | None = None,
    harbors: str | None = None,
    limits: Limits = Limits(),
) -> Iterator[str]:
    """``count`` boards as JSON lines (each ends with ``\\n``), board ``i``
    seeded with :func:`jsonl_seed` (under balance ``limits``, if any).
    Raises :class:`SetupgenError` for a count outside 1..``MAX_COUNT``
    (checked before anything is generated)."""
    if not 1 <= count <= MAX_COUNT:
        raise SetupgenError(f"count must be between 1 and {MAX_COUNT}, got {count}", field="count")
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    for i in range(1, count + 1):
        yield gen.from_seed_within(layout, jsonl_seed(seed, i), limits, numbers, harbors).to_json(indent=None) + "\n"


#: bytes gathered into one chunk of a JSONL stream (about 16 base boards)
CHUNK_BYTES = 1 << 16


def chunked(lines: Iterable[str], size: int = CHUNK_BYTES) -> Iterator[bytes]:
    """``lines`` (JSON lines, ASCII) as UTF-8 byte chunks of about ``size``
    bytes each, made as they are consumed: what a JSONL stream is written
    as, to a file (:func:`~setupgen.core.atomic.write_stream`) and to
    standard output alike, so both get the same bytes in constant memory."""
    part: list[str] = []
    held = 0
    for line in lines:
        part.append(line)
        held += len(line)
        if held >= size:
            yield "".join(part).encode("utf-8")
            part, held = [], 0
    if part:
        yield "".join(part).encode("utf-8")


def board_bytes(
    board: Board, fmt: str, *, lang: str = "en", paper: str = "a4", layout: Layout | None = None, key: bool = False
) -> bytes:
    """One board as ``fmt`` (``json``, ``svg``, ``pdf`` or ``png``; a PNG is
    rendered at 150 dpi). ``layout``: the board's layout when it is not a
    shipped scenario. ``key``: the director's key (hidden hexes revealed)
    instead of the table sheet. Raises :class:`SetupgenError` for an unknown
    format, language or paper, or ``key`` with JSON."""
    if fmt == "json":
        if key:
            raise SetupgenError(
                "the director's key is a sheet (pdf, svg or png); the board json already names every hex", field="key"
            )
        return (board.to_json() + "\n").encode("utf-8")
    if fmt not in ("svg", "pdf", "png"):
        raise SetupgenError(f"unknown format {fmt!r} for one board (known: json, svg, pdf, png)")
    from . import pdf, sheet

    layout = layoutmod.load(board.scenario) if layout is None else layout
    if key:
        from . import key as keymod

        svg = keymod.render_key(board, layout, lang=lang, paper=paper)
    else:
        svg = sheet.render_sheet(board, layout, lang=lang, paper=paper)
    if fmt == "svg":
        return svg.encode("utf-8")
    if fmt == "pdf":
        return pdf.svgs_to_pdf([svg])
    return pdf.svg_to_png(svg)
