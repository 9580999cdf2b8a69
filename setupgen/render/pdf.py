"""Pages to PDF and PNG (cairo, imported lazily so that importing the CLI
stays fast).

Pages rendered by setupgen (:class:`setupgen.render.canvas.SvgPage`) are
drawn straight onto one cairo PDF surface (every page in one document, no
joining) or an image surface. Other SVG text goes through cairosvg, one
page at a time, and pypdf joins the pages.

PDF output is byte-identical for the same input within one installation:
the document carries a fixed creation and modification date
(:data:`FIXED_DATE`) and names setupgen as its creator (cairo writes its
own version as the producer, so other installations may differ).
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import tempfile
from collections.abc import Iterable, Sequence
from typing import Any

from ..core.errors import SetupgenError

#: creation and modification date written into every PDF
FIXED_DATE = "D:20000101000000Z"
ISO_DATE = "2000-01-01T00:00:00Z"
PT_PER_MM = 72 / 25.4
PRODUCER = "setupgen"


def svgs_to_pdf(svgs: Sequence[str]) -> bytes:
    """One PDF with one page per SVG text, in order.

    Raises :class:`SetupgenError` when there is no page or cairo cannot
    render one.
    """
    if not svgs:
        raise SetupgenError("no pages to write")
    if all(hasattr(svg, "canvas") for svg in svgs):
        return pages_to_pdf(svgs)
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, ByteStringObject

    writer = PdfWriter()
    digest = hashlib.sha256()
    for i, svg in enumerate(svgs, start=1):
        data = svg.encode("utf-8")
        digest.update(hashlib.sha256(data).digest())
        page_pdf = _cairo("pdf", data, i)
        for page in PdfReader(io.BytesIO(page_pdf)).pages:
            writer.add_page(page)
    writer.add_metadata(
        {"/Producer": PRODUCER, "/Creator": PRODUCER, "/CreationDate": FIXED_DATE, "/ModDate": FIXED_DATE}
    )
    file_id = ByteStringObject(digest.digest()[:16])
    writer._ID = ArrayObject([file_id, file_id])  # fixed document /ID (pypdf has no public setter)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pages_to_pdf(pages: Iterable[Any]) -> bytes:
    """One PDF drawn by cairo from page descriptions
    (:class:`setupgen.render.canvas.Canvas`, sizes in mm, or pages that
    keep one as ``.canvas``), one page each, in order, each drawn as it
    arrives; fixed dates, creator ``setupgen``.

    Raises :class:`SetupgenError` when there is no page or cairo cannot be
    loaded.
    """
    it = (getattr(p, "canvas", p) for p in pages)
    first = next(it, None)
    if first is None:
        raise SetupgenError("no pages to write")
    cairo = _cairocffi()
    try:
        with tempfile.TemporaryDirectory(prefix="setupgen-pdf-") as tmp:
            target = os.path.join(tmp, "pages.pdf")  # cairo writes a named file itself, without a Python callback
            _draw_pdf(cairo, target, first, it)
            with open(target, "rb") as fh:
                return fh.read()
    except (OSError, cairo.CairoError) as exc:
        raise SetupgenError(f"cannot draw the PDF with cairo: {_one_line(exc)}") from None


def _draw_pdf(cairo: Any, target: str, first: Any, rest: Iterable[Any]) -> None:
    from .canvas import draw_cairo

    surface = cairo.PDFSurface(target, first.w * PT_PER_MM, first.h * PT_PER_MM)
    for key, value in (
        (cairo.PDF_METADATA_CREATE_DATE, ISO_DATE),
        (cairo.PDF_METADATA_MOD_DATE, ISO_DATE),
        (cairo.PDF_METADATA_CREATOR, PRODUCER),
    ):
        surface.set_metadata(key, value)
    patterns: dict = {}
    for page in itertools.chain([first], rest):
        surface.set_size(page.w * PT_PER_MM, page.h * PT_PER_MM)
        ctx = cairo.Context(surface)
        ctx.scale(PT_PER_MM, PT_PER_MM)
        draw_cairo(ctx, page.ops, patterns)
        surface.show_page()
    surface.finish()


def svg_to_png(svg: str, dpi: int = 150) -> bytes:
    """A PNG image of one SVG page at ``dpi`` dots per inch.

    Raises :class:`SetupgenError` for a dpi outside 10-1200 or when cairo
    cannot render the page.
    """
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 10 <= dpi <= 1200:
        raise SetupgenError(f"dpi must be a whole number from 10 to 1200, got {dpi!r}")
    canvas = getattr(svg, "canvas", None)
    if canvas is not None:
        return page_to_png(canvas, dpi)
    return _cairo("png", svg.encode("utf-8"), 1, dpi)


def page_to_png(page: Any, dpi: int = 150) -> bytes:
    """A PNG image (white background) of a page description at ``dpi``."""
    cairo = _cairocffi()
    from .canvas import draw_cairo

    scale = dpi / 25.4
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, max(1, round(page.w * scale)), max(1, round(page.h * scale)))
    ctx = cairo.Context(surface)
    ctx.set_source_rgb(1, 1, 1)
    ctx.paint()
    ctx.scale(scale, scale)
    draw_cairo(ctx, page.ops)
    out = io.BytesIO()
    surface.write_to_png(out)
    return out.getvalue()


def cairo_module() -> Any:
    """cairocffi, loaded (its first import parses cairo's C declarations,
    a third of a second). Raises :class:`SetupgenError` when cairo cannot
    be loaded."""
    return _cairocffi()


def _cairocffi() -> Any:
    try:
        import cairocffi
    except (ImportError, OSError) as exc:
        raise SetupgenError(f"cannot load cairo: {_one_line(exc)}") from None
    return cairocffi


def _cairo(kind: str, data: bytes, page: int, dpi: int = 96) -> bytes:
    try:
        import cairosvg
    except (ImportError, OSError) as exc:
        raise SetupgenError(f"cannot load cairosvg: {_one_line(exc)}") from None
    try:
        if kind == "pdf":
            return cairosvg.svg2pdf(bytestring=data, unsafe=False)
        return cairosvg.svg2png(bytestring=data, dpi=dpi, unsafe=False)
    except Exception as exc:  # cairo raises many kinds; report one line
        raise SetupgenError(f"cannot render page {page} with cairo: {_one_line(exc)}") from None


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[0].lower() + text[1:] if text else text
