"""Turning boards into output bytes for the ``board`` command: JSON, JSONL,
SVG, PDF and PNG. Rendering libraries are imported only when needed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Iterator

from . import generate as gen
from . import layout as layoutmod
from .board import Board
from .errors import SetupgenError
from .layout import Layout

FORMATS = ("pdf", "svg", "png", "json", "jsonl")
MAX_COUNT = 100_000
DEFAULT_SCENARIO = "base-3-4"


@dataclass(frozen=True, slots=True)
class BoardRequest:
    """What ``setupgen board`` was asked for. ``seed`` None: the caller picks
    a fresh one after :func:`check_board_request`. ``layout_file``: a layout
    TOML to use instead of a shipped scenario."""

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


@dataclass(frozen=True, slots=True)
class BoardOutput:
    """The bytes (or, for JSONL, the lines) to write, the file name to use
    when no ``-o`` was given, and for a board read from a file what
    ``check`` found in it."""

    data: bytes | Iterator[str]
    default_name: str
    setup_id: str | None
    violations: tuple = ()


def check_board_request(req: BoardRequest) -> tuple[str, Layout | None]:
    """Validate a request before any seed is chosen: returns the format and
    the layout (for ``--board``: the board-file scenario or None). Raises
    :class:`SetupgenError` with the first problem."""
    fmt = pick_format(req.fmt, req.output)
    if fmt not in FORMATS:
        raise SetupgenError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt != "jsonl" and req.count != 1:
        raise SetupgenError("--count needs --format jsonl")
    if req.setup_id is not None:
        if req.seed is not None or req.scenario is not None or req.numbers is not None or req.harbors is not None:
            raise SetupgenError("--setup-id already names the scenario, methods and seed; give it alone")
        if fmt == "jsonl":
            raise SetupgenError("--setup-id names one board; use --format json")
    if req.layout_file is not None and req.scenario is not None:
        raise SetupgenError("give either --scenario or --layout, not both")
    if req.key and fmt in ("json", "jsonl"):
        raise SetupgenError("--key makes a sheet (pdf, svg or png); the board json already names every hex")
    if req.seed is not None and not req.seed.strip():
        raise SetupgenError("the seed must not be empty")
    if req.board_file is not None:
        given = [name for name, value in (("--seed", req.seed), ("--setup-id", req.setup_id),
                                          ("--numbers", req.numbers), ("--harbors", req.harbors),
                                          ("--layout", req.layout_file)) if value is not None]
        if given or fmt == "jsonl":
            raise SetupgenError(f"--board gives the whole board; drop {', '.join(given) or '--format jsonl'}")
        meta = layoutmod.load(req.scenario) if req.scenario is not None else None
        if meta is not None and meta.source != "board-file":
            raise SetupgenError(f"scenario {meta.name!r} makes its own boards; with --board give a board-file "
                                f"scenario (oil-springs-fixed, oil-springs-5-6-fixed) or none")
        _check_render_options(fmt, req)
        return fmt, meta
    if req.layout_file is not None:
        layout = Layout.from_file(req.layout_file)
    elif req.setup_id is not None:
        from . import setupid

        layout = layoutmod.by_code(setupid.decode(req.setup_id).code)
    else:
        layout = layoutmod.load(DEFAULT_SCENARIO if req.scenario is None else req.scenario)
    if req.setup_id is None:
        gen.resolve_methods(layout, req.numbers, req.harbors)
    _check_render_options(fmt, req)
    return fmt, layout


def _check_render_options(fmt: str, req: BoardRequest) -> None:
    if fmt in ("svg", "pdf", "png"):
        from . import sheet_svg, templates

        templates.texts(req.lang)
        sheet_svg.paper_size(req.paper)


def board_output(req: BoardRequest) -> BoardOutput:
    """Generate what ``req`` asks for (``req.seed`` or ``req.setup_id`` must
    be set). Raises :class:`SetupgenError`."""
    fmt, layout = check_board_request(req)
    if req.board_file is not None:
        from . import check, fixed

        board, layout = fixed.board_from_file(req.board_file, req.scenario)
        data = board_bytes(board, fmt, lang=req.lang, paper=req.paper, layout=layout, key=req.key)
        return BoardOutput(data, f"{board.scenario}-{board.setup_id}.{fmt}", board.setup_id,
                           tuple(check.check(board, layout)))
    if fmt == "jsonl":
        if req.seed is None:
            raise SetupgenError("a jsonl batch needs a seed")
        return BoardOutput(iter_jsonl(layout, req.seed, req.count, req.numbers, req.harbors),
                           f"{layout.name}-{slug(req.seed)}.jsonl", None)
    if req.setup_id is not None:
        board = gen.from_setup_id(req.setup_id, layout)
    elif req.seed is not None:
        board = gen.from_seed(layout, req.seed, req.numbers, req.harbors)
    else:
        raise SetupgenError("a board needs a seed or a setup id")
    data = board_bytes(board, fmt, lang=req.lang, paper=req.paper, layout=layout, key=req.key)
    stem = f"{board.scenario}-{board.setup_id}" + ("-key" if req.key else "")
    return BoardOutput(data, f"{stem}.{fmt}", board.setup_id)


def slug(text: str) -> str:
    """``text`` made safe as a file name part (letters, digits, ``._-``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.") or "seed"


def pick_format(fmt: str | None, output: str | None) -> str:
    """The output format: ``fmt`` if given, else the extension of
    ``output`` when it names a format, else ``pdf``. Raises
    :class:`SetupgenError` when ``fmt`` contradicts a known extension of
    ``output`` (``--format json -o x.pdf``)."""
    ext = ""
    if output not in (None, "-"):
        ext = PurePath(output).suffix.lower().lstrip(".")
    if fmt is None:
        return ext if ext in FORMATS else "pdf"
    if ext in FORMATS and ext != fmt:
        raise SetupgenError(f"--format {fmt} does not match the file name {output!r}")
    return fmt


def jsonl_seed(seed: str, i: int) -> str:
    """Seed text of board ``i`` (1-based) of a JSONL batch seeded ``seed``."""
    return f"{seed}/{i}"


def iter_jsonl(scenario: str | Layout, seed: str, count: int, numbers: str | None = None,
               harbors: str | None = None) -> Iterator[str]:
    """``count`` boards as JSON lines (each ends with ``\\n``), board ``i``
    seeded with :func:`jsonl_seed`. Raises :class:`SetupgenError` for a count
    outside 1..``MAX_COUNT`` (checked before anything is generated)."""
    if not 1 <= count <= MAX_COUNT:
        raise SetupgenError(f"count must be between 1 and {MAX_COUNT}, got {count}")
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    for i in range(1, count + 1):
        yield gen.from_seed(layout, jsonl_seed(seed, i), numbers, harbors).to_json(indent=None) + "\n"


def board_bytes(board: Board, fmt: str, *, lang: str = "en", paper: str = "a4",
                layout: Layout | None = None, key: bool = False) -> bytes:
    """One board as ``fmt`` (``json``, ``svg``, ``pdf`` or ``png``; a PNG is
    rendered at 150 dpi). ``layout``: the board's layout when it is not a
    shipped scenario. ``key``: the director's key (hidden hexes revealed)
    instead of the table sheet. Raises :class:`SetupgenError` for an unknown
    format, language or paper, or ``key`` with JSON."""
    if fmt == "json":
        if key:
            raise SetupgenError("--key makes a sheet (pdf, svg or png); the board json already names every hex")
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
