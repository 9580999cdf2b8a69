"""The legend beside the board picture: what it explains, in which order,
and how each entry is drawn (docs/sheet.md, "Legend"). Lengths in mm.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.board import Board
from ..core.rules import LAND_TERRAINS, PIECE_KINDS, RED_NUMBERS
from ..core.templates import MIN_FONT_MM, Style, Texts
from .board import draw_swatch
from .canvas import Surface
from .page import (
    add_circle,
    add_text,
    draw_gift,
    draw_no_start,
    draw_oil,
    draw_path_step,
    draw_pirate,
    draw_player_piece,
    draw_robber,
    draw_token,
    draw_village,
    fit,
    hex_points,
    text_width,
    wrap,
)

__all__ = ["legend_entries", "legend_geometry", "legend_lines", "draw_legend"]


#: the pieces of a player set (The Pirate Islands), explained by one legend entry
PLAYER_PIECES = ("settlement", "ship", "fortress", "lone-settlement")

_LEGEND_KEYS = {
    "token": "sheet.number_token",
    "red": "sheet.red_number",
    "robber": "sheet.robber",
    "robber-off": "sheet.robber_off",
    "pirate": "sheet.pirate",
    "village": "sheet.village",
    "vp": "sheet.gift_vp",
    "card": "sheet.gift_card",
    "no-start": "sheet.no_start",
    "player-set": "sheet.player_sets",
    "path": "sheet.pirate_path",
    "hidden": "sheet.hidden",
    "hidden-covered": "sheet.hidden_covered",
    "oil": "sheet.oil",
    "harbor": "sheet.harbor",
    "row": "sheet.row_numbers",
}


def legend_entries(board: Board) -> list[str]:
    """What the legend explains, in order: visible land terrains, then
    ``token``, ``red``, ``robber``, ``pirate``, the pieces (their kinds in
    the order of :data:`~setupgen.core.rules.PIECE_KINDS`), ``hidden`` (or
    ``hidden-covered``: numbers face down too), ``oil``,
    ``harbor``, ``row`` as they occur (oil springs are explained here, so
    no note repeats it)."""
    visible = {t.terrain for t in board.tiles if t.kind == "land" and not t.hidden}
    out = [t for t in LAND_TERRAINS if t in visible]
    tokens = [n for n in map(board.table_number, board.tiles) if n is not None]
    if tokens:
        out.append("token")
    if any(n in RED_NUMBERS for n in tokens):
        out.append("red")
    if board.robber is not None:
        out.append("robber")  # a robber off the board is a note, not a legend entry
    if board.pirate is not None:
        out.append("pirate")
    kinds = {p.kind for p in board.pieces}
    # a player set's four pieces share one entry (its symbols side by side)
    out += list(dict.fromkeys("player-set" if k in PLAYER_PIECES else k for k in PIECE_KINDS if k in kinds))
    if any(t.hidden for t in board.tiles):
        out.append("hidden-covered" if board.numbers_covered else "hidden")
    if any(t.oil_spring for t in board.tiles):
        out.append("oil")
    if board.harbors:
        out.append("harbor")
    out.append("row")
    return out


def legend_geometry(w: float, st: Style) -> tuple[float, float, float, float]:
    """``(text size, line height, swatch size, text indent)`` in mm."""
    size = max(MIN_FONT_MM, st.mm("small"))
    sw = st.mm("swatch")
    return size, max(sw + 1.0, size * 1.45), sw, sw * 1.5 + 1.5


def legend_lines(e: str, w: float, tx: Texts, st: Style) -> list[str]:
    """The text lines of one legend entry (a terrain entry is one line)."""
    if e in LAND_TERRAINS:
        return [""]
    size, _, _, indent = legend_geometry(w, st)
    return wrap(tx.get(_LEGEND_KEYS[e]), w - indent, size)


def draw_legend(dwg: Surface, entries: Sequence[str], x: float, y: float, w: float, tx: Texts, st: Style) -> float:
    """The legend at top-left ``(x, y)`` in a column ``w`` mm wide, each
    entry one item ``legend`` (a terrain shows its fill and pattern);
    returns the y (mm) below it."""
    size, lh, sw, indent = legend_geometry(w, st)
    sx, tx_ = x + sw * 0.75, x + indent
    for e in entries:
        cy = y + lh / 2
        base = cy + size * 0.36
        dwg.begin("legend")
        if e in LAND_TERRAINS:
            draw_swatch(dwg, hex_points(sx, cy, sw * 0.55), e, st, stroke=st.colour["line"])
            label = tx.get(f"label.{e}")
            add_text(dwg, label, tx_, base, size, st, bold=True)
            lw = text_width(label + " ", size, bold=True)
            word, size2 = fit(tx.get(f"terrain.{e}"), w - indent - lw, size)
            add_text(dwg, word, tx_ + lw, base, size2, st)
            dwg.end()
            y += lh
            continue
        _legend_symbol(dwg, e, sx, cy, sw, size, tx, st)
        lines = legend_lines(e, w, tx, st)
        for i, line in enumerate(lines):
            add_text(dwg, line, tx_, base + i * size * 1.2, size, st)
        dwg.end()
        y += lh + (len(lines) - 1) * size * 1.2
    return y


def _legend_symbol(dwg: Surface, e: str, x: float, y: float, sw: float, size: float, tx: Texts, st: Style) -> None:
    """The symbol of legend entry ``e`` centred on ``(x, y)``."""
    if e in ("token", "red"):
        draw_token(dwg, x, y, sw * 0.5, 5 if e == "token" else 8, st)
    elif e == "robber":
        draw_robber(dwg, x, y, sw * 0.95, st)
    elif e == "pirate":
        draw_pirate(dwg, x, y, sw * 0.8, st)
    elif e == "village":
        draw_village(dwg, x, y, sw * 1.05, 5, st)
    elif e in ("vp", "card"):
        draw_gift(dwg, e, x, y, sw * 0.9, st)
    elif e == "no-start":
        draw_no_start(dwg, x, y, sw * 0.7, st)
    elif e == "path":
        draw_path_step(dwg, x, y, size * 0.95, 2, st)
    elif e == "player-set":  # settlement, ship / fortress, spot: two symbols a line, on the entry's first two
        for k, kind in enumerate(PLAYER_PIECES):
            draw_player_piece(dwg, kind, x + (k % 2 - 0.5) * sw * 0.62, y + (k // 2) * size * 1.2, size * 1.05, 1, st)
    elif e in ("hidden", "hidden-covered"):
        draw_swatch(dwg, hex_points(x, y, sw * 0.55), "hidden", st, stroke=st.colour["line"])
        add_text(dwg, tx.get("label.hidden"), x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "oil":
        draw_oil(dwg, x, y, sw * 0.9, st)
    elif e == "harbor":
        add_circle(
            dwg, x, y, sw * 0.45, fill=st.fill["harbor"], stroke=st.colour["ink"], width=st.mm("token_stroke") * 1.6
        )
        add_text(dwg, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle")
    elif e == "row":
        add_text(dwg, "1", x, y + size * 0.36, size, st, bold=True, anchor="middle", fill=st.colour["muted"])
