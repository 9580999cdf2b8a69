"""Turning boards into output bytes for the ``board`` command: JSON, JSONL,
SVG, PDF and PNG. Rendering libraries are imported only when needed."""

from __future__ import annotations

from pathlib import PurePath
from typing import Iterator

from . import generate as gen
from . import layout as layoutmod
from .board import Board
from .errors import SetupgenError

FORMATS = ("pdf", "svg", "png", "json", "jsonl")
MAX_COUNT = 100_000


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


def iter_jsonl(scenario: str, seed: str, count: int, numbers: str | None = None,
               harbors: str | None = None) -> Iterator[str]:
    """``count`` boards as JSON lines (each ends with ``\\n``), board ``i``
    seeded with :func:`jsonl_seed`. Raises :class:`SetupgenError` for a count
    outside 1..``MAX_COUNT`` (checked before anything is generated)."""
    if not 1 <= count <= MAX_COUNT:
        raise SetupgenError(f"count must be between 1 and {MAX_COUNT}, got {count}")
    layout = layoutmod.load(scenario)
    for i in range(1, count + 1):
        yield gen.from_seed(layout, jsonl_seed(seed, i), numbers, harbors).to_json(indent=None) + "\n"


def board_bytes(board: Board, fmt: str, *, lang: str = "en", paper: str = "a4") -> bytes:
    """One board as ``fmt`` (``json``, ``svg``, ``pdf`` or ``png``; a PNG is
    rendered at 150 dpi). Raises :class:`SetupgenError` for an unknown format,
    language or paper."""
    if fmt == "json":
        return (board.to_json() + "\n").encode("utf-8")
    if fmt not in ("svg", "pdf", "png"):
        raise SetupgenError(f"unknown format {fmt!r} for one board (known: json, svg, pdf, png)")
    from . import pdf, sheet

    layout = layoutmod.load(board.scenario)
    svg = sheet.render_sheet(board, layout, lang=lang, paper=paper)
    if fmt == "svg":
        return svg.encode("utf-8")
    if fmt == "pdf":
        return pdf.svgs_to_pdf([svg])
    return pdf.svg_to_png(svg)
