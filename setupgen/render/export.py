"""Turning boards into output bytes: JSON, JSONL, SVG, PDF and PNG (what
the ``board`` command writes). Rendering libraries are imported only when
needed."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Iterable, Iterator

from .. import generate as gen
from ..core import layout as layoutmod
from ..core import almanac as rules
from ..core import setupid, templates
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
            raise SetupgenError("a setup id already names the scenario, methods and seed; give it alone",
                                field="setup_id")
        if fmt == "jsonl":
            raise SetupgenError("a setup id names one board; use the json format", field="setup_id")
    if req.layout_file is not None and req.scenario is not None:
        raise SetupgenError("give either a scenario or a layout file, not both", field="layout_file")
    if req.key and fmt in ("json", "jsonl"):
        raise SetupgenError("the director's key is a sheet (pdf, svg or png); the board json already names "
                            "every hex", field="key")
    _check_almanac(fmt, req)
    if req.limits and (req.setup_id is not None or req.board_file is not None):
        raise SetupgenError("balance limits choose among the boards of a seed; a setup id or a board file already "
                            "names one board", field="balance")
    if req.seed is not None:
        if not req.seed.strip():
            raise SetupgenError("the seed must not be empty", field="seed")
        check_text(req.seed, "the seed", field="seed")
    if req.board_file is not None:
        return fmt, _check_board_file_request(fmt, req)
    if req.layout_file is not None:
        layout = Layout.from_file(req.layout_file)
    elif req.setup_id is not None:
        layout = layoutmod.by_code(setupid.decode(req.setup_id).code)
    else:
        layout = layoutmod.load(DEFAULT_SCENARIO if req.scenario is None else req.scenario)
    if req.setup_id is None:
        gen.resolve_methods(layout, req.numbers, req.harbors)
    _check_render_options(fmt, req)
    return fmt, layout


def _check_board_file_request(fmt: str, req: BoardRequest) -> Layout | None:
    """A board read from a file takes nothing that makes a board; its
    scenario, if given, must be one that takes its board from a file."""
    given = [name for name, value in (("seed", req.seed), ("setup id", req.setup_id),
                                      ("number method", req.numbers), ("harbor method", req.harbors),
                                      ("layout file", req.layout_file)) if value is not None]
    if given:
        raise SetupgenError(f"a board file gives the whole board; it takes no {', '.join(given)}",
                            field="board_file")
    if fmt == "jsonl":
        raise SetupgenError("a board file gives one board; use the json format", field="fmt")
    meta = layoutmod.load(req.scenario) if req.scenario is not None else None
    if meta is not None and meta.source != "board-file":
        takers = [n for n in layoutmod.scenario_names() if layoutmod.load(n).source == "board-file"]
        raise SetupgenError(f"scenario {meta.name!r} makes its own boards; a board file goes with a board-file "
                            f"scenario ({', '.join(takers)}) or none", field="scenario")
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


def board_output(req: BoardRequest) -> BoardOutput:
    """Generate what ``req`` asks for (``req.seed`` or ``req.setup_id`` must
    be set). Raises :class:`SetupgenError`."""
    fmt, layout = check_board_request(req)
    if req.board_file is not None:
        from .. import check
        from ..generate import fixed

        board, layout = fixed.board_from_file(req.board_file, req.scenario)
        data, back = _sheet_bytes(board, fmt, req, layout)
        return BoardOutput(data, f"{board.scenario}-{board.setup_id}.{fmt}", board.setup_id,
                           tuple(check.check(board, layout)), back)
    assert layout is not None  # only a board file comes without a layout
    if fmt == "jsonl":
        if req.seed is None:
            raise SetupgenError("a jsonl batch needs a seed")
        return BoardOutput(iter_jsonl(layout, req.seed, req.count, req.numbers, req.harbors, req.limits),
                           f"{layout.name}-{slug(req.seed)}.jsonl", None)
    if req.setup_id is not None:
        board = gen.from_setup_id(req.setup_id, layout)
    elif req.seed is not None:
        board = gen.from_seed_within(layout, req.seed, req.limits, req.numbers, req.harbors)
    else:
        raise SetupgenError("a board needs a seed or a setup id")
    data, back = _sheet_bytes(board, fmt, req, layout)
    stem = f"{board.scenario}-{board.setup_id}" + ("-key" if req.key else "")
    return BoardOutput(data, f"{stem}.{fmt}", board.setup_id, (), back)


def _sheet_bytes(board: Board, fmt: str, req: BoardRequest, layout: Layout | None) -> tuple[bytes, bytes | None]:
    """The main file's bytes and the almanac's own file (SVG/PNG), if any."""
    almanac = None if fmt in ("json", "jsonl") or req.key else req.almanac
    line = req.balance_line and fmt not in ("json", "jsonl") and not req.key
    if almanac is None and req.context is None and not line:
        return board_bytes(board, fmt, lang=req.lang, paper=req.paper, layout=layout, key=req.key), None
    from . import pdf, sheet
    from .almanac import render_almanac

    layout = layoutmod.load(board.scenario) if layout is None else layout
    ctx = sheet.SheetContext() if req.context is None else req.context
    if line:
        from ..core import balance

        ctx = dataclasses.replace(ctx, balance=sheet.balance_line(
            balance.measure(board, start_barred=layout.start_barred, table=True), req.lang))
    front = (_render_key(board, layout, req, ctx) if req.key else
             sheet.render_sheet(board, layout, lang=req.lang, paper=req.paper, context=ctx))
    back = None if almanac is None else render_almanac(board, layout, lang=req.lang, paper=req.paper, context=ctx,
                                                       request=almanac)
    if fmt == "pdf":
        return pdf.svgs_to_pdf([front] if back is None else [front, back]), None
    if fmt == "svg":
        return front.encode("utf-8"), None if back is None else back.encode("utf-8")
    if fmt == "png":
        return pdf.svg_to_png(front), None if back is None else pdf.svg_to_png(back)
    return board_bytes(board, fmt, lang=req.lang, paper=req.paper, layout=layout), None


def _render_key(board: Board, layout: Layout, req: BoardRequest, ctx: Any) -> str:
    """The director's key of ``board`` with the table's context."""
    from . import key as keymod

    return keymod.render_key(board, layout, lang=req.lang, paper=req.paper, context=ctx)


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


def iter_jsonl(scenario: str | Layout, seed: str, count: int, numbers: str | None = None,
               harbors: str | None = None, limits: Limits = Limits()) -> Iterator[str]:
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


def board_bytes(board: Board, fmt: str, *, lang: str = "en", paper: str = "a4",
                layout: Layout | None = None, key: bool = False) -> bytes:
    """One board as ``fmt`` (``json``, ``svg``, ``pdf`` or ``png``; a PNG is
    rendered at 150 dpi). ``layout``: the board's layout when it is not a
    shipped scenario. ``key``: the director's key (hidden hexes revealed)
    instead of the table sheet. Raises :class:`SetupgenError` for an unknown
    format, language or paper, or ``key`` with JSON."""
    if fmt == "json":
        if key:
            raise SetupgenError("the director's key is a sheet (pdf, svg or png); the board json already names "
                                "every hex", field="key")
        return (board.to_json() + "\n").encode("utf-8")
    if fmt not in ("svg", "pdf", "png"):
        raise SetupgenError(f"unknown format {fmt!r} for one board (known: json, svg, pdf, png)")
    from . import pdf
    from . import sheet

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
