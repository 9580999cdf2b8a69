"""SVG pages to PDF and PNG (cairosvg and pypdf, imported lazily so that
importing the CLI stays fast).

PDF output is byte-identical for the same input within one installation:
the document carries a fixed creation and modification date
(:data:`FIXED_DATE`) and a document ``/ID`` derived from the input pages
(cairo writes its own version into each page stream, so other
installations may differ).
"""

from __future__ import annotations

import hashlib
import io
from typing import Sequence

from ..core.errors import SetupgenError

#: creation and modification date written into every PDF
FIXED_DATE = "D:20000101000000Z"
PRODUCER = "setupgen"


def svgs_to_pdf(svgs: Sequence[str]) -> bytes:
    """One PDF with one page per SVG text, in order.

    Raises :class:`SetupgenError` when there is no page or cairo cannot
    render one.
    """
    if not svgs:
        raise SetupgenError("no pages to write")
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
    writer.add_metadata({
        "/Producer": PRODUCER,
        "/Creator": PRODUCER,
        "/CreationDate": FIXED_DATE,
        "/ModDate": FIXED_DATE,
    })
    file_id = ByteStringObject(digest.digest()[:16])
    writer._ID = ArrayObject([file_id, file_id])  # fixed document /ID (pypdf has no public setter)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def svg_to_png(svg: str, dpi: int = 150) -> bytes:
    """A PNG image of one SVG page at ``dpi`` dots per inch.

    Raises :class:`SetupgenError` for a dpi outside 10-1200 or when cairo
    cannot render the page.
    """
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 10 <= dpi <= 1200:
        raise SetupgenError(f"dpi must be a whole number from 10 to 1200, got {dpi!r}")
    return _cairo("png", svg.encode("utf-8"), 1, dpi)


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
