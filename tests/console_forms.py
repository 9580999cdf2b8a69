"""What the console tests share about forms: the hidden fields a page
gives its form (the CSRF token, and on a result form the seating stamp
it was drawn for), read from the page as a browser would, and a result
form built from them."""

from __future__ import annotations

import hashlib
import re


class FormToken(str):
    """A page's CSRF token, with the ``seating`` stamp of the result form on
    the same page (None: the page has no result form)."""

    seating: str | None = None


def form_token(page_text: str) -> FormToken:
    """The CSRF token (and the result form's seating stamp) of a page's HTML."""
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', page_text)
    assert found, page_text[:500]
    token = FormToken(found.group(1))
    seat = re.search(r'name="seating" value="([0-9a-f]*)"', page_text)
    token.seating = seat.group(1) if seat else None
    return token


def result_form(token: str, vps, winner) -> dict:
    """A result form: VP per seat, the winner's seat, the token's fields."""
    form = {"csrf": token, "winner": str(winner)}
    if getattr(token, "seating", None) is not None:
        form["seating"] = token.seating
    form.update({f"vp{k}": str(v) for k, v in enumerate(vps, start=1)})
    return form


def stamp(players) -> str:
    """A seating's stamp worked out here (docs/console.md, "Results"):
    SHA-256 of the ids joined by line feeds, its first 16 hex digits."""
    return hashlib.sha256("\n".join(players).encode("utf-8")).hexdigest()[:16]
