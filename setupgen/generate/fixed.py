"""Fixed boards: a board given completely in a file, and the Oil Springs
fixed setups built on one (``docs/rules.md`` section 5).

A board file is either docs/format.md JSON or a layout TOML in which every land
hex has a fixed terrain and (but for deserts) a fixed number token, with
typed harbor places (``harbors.default = "fixed"``) or none. Coordinates
are axial ``(q, r)``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from pathlib import Path

from ..core import layout as layoutmod
from ..core import setupid
from ..core.board import Board, read_board
from ..core.errors import SetupgenError
from ..core.frames import frame_problems, layout_for, layout_of_board
from ..core.hexgrid import Hex
from ..core.layout import Layout
from ..core.oil import fixed_spring_hex
from ..core.rng import DIGEST_BITS
from . import pipeline


def read_board_file(path: str | Path) -> tuple[Board, Layout]:
    """The board in ``path`` and the layout to check it against: for JSON
    the shipped layout of its scenario (or one made from the board itself
    when that scenario takes its board from a file); for TOML the file's
    own layout, every hex fixed. Raises :class:`SetupgenError`."""
    path = Path(path)
    if path.suffix.lower() == ".toml":
        layout = Layout.from_file(path)
        open_ = [s.hex for s in layout.hexes if s.region is not None]
        if open_:
            raise SetupgenError(
                f"{path}: hex {open_[0]!r} draws its terrain from a region; a fixed board fixes every hex"
            )
        if layout.default_harbors not in ("fixed", "players"):
            raise SetupgenError(f"{path}: harbors.default must be fixed (or players) for a fixed board")
        board = pipeline.generate(layout, random.Random(0))  # nothing random is left to draw
        return _stamp(board, layout, path.read_bytes()), layout
    board = read_board(path)
    return board, layout_for(board)


def oil_fixed_board(meta: Layout, board: Board) -> tuple[Board, Layout]:
    """Apply a fixed Oil Springs setup (``meta.oil.fixed``) to ``board``: every
    desert becomes a numbered oil spring (its number must be in the file),
    each :class:`FixedSpring` hex is found (turned into its terrain where
    the setup says so) and gets an oil spring; the robber leaves the board.

    Raises :class:`SetupgenError` when the board has no such hex, a desert
    has no number, or two springs would fall on one hex."""
    if meta.oil is None or not meta.oil.fixed:
        raise SetupgenError(f"scenario {meta.name!r} is not a fixed oil-springs setup")
    if meta.frame is not None:
        problems = frame_problems(board, layoutmod.load(meta.frame), pools=True)
        if problems:
            raise SetupgenError(
                f"the board file does not fit {meta.name} (a {meta.frame} board): {problems[0]}"
                + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else "")
            )
    tiles = {t.hex: t for t in board.tiles}
    land = [t for t in board.tiles if t.kind == "land"]
    cells = [(t.hex, t.terrain, t.number) for t in land]
    kinds = {t.hex: t.kind for t in board.tiles}
    springs: set[Hex] = set()
    for t in land:
        if t.terrain == "desert":
            if t.number not in meta.oil.numbered:
                raise SetupgenError(
                    f"the desert at ({t.hex[0]}, {t.hex[1]}) needs its oil-spring number "
                    f"({' or '.join(map(str, meta.oil.numbered))}) in the board file"
                )
            springs.add(t.hex)
    for spring in meta.oil.fixed:
        h = fixed_spring_hex(spring, cells, kinds)
        if h in springs:
            raise SetupgenError(
                f"the {spring.terrain} oil spring would fall on ({h[0]}, {h[1]}), which has one already"
            )
        if spring.turn:
            tiles[h] = dataclasses.replace(tiles[h], terrain=spring.terrain)
        springs.add(h)
    new_tiles = tuple(dataclasses.replace(tiles[t.hex], oil_spring=t.hex in springs) for t in board.tiles)
    fixed = dataclasses.replace(
        board, scenario=meta.name, tiles=new_tiles, robber=None, harbor_method="fixed" if board.harbors else "players"
    )
    layout = layout_of_board(fixed, meta)
    return _stamp(fixed, layout, fixed.to_json().encode("utf-8")), layout


def _stamp(board: Board, layout: Layout, content: bytes) -> Board:
    """Seed None, setup ID from the scenario code, methods and a digest of
    the file's content (a fixed board is regenerated from its file, not its
    ID)."""
    digest = int.from_bytes(hashlib.sha256(content).digest()[:8], "big") >> (64 - DIGEST_BITS)
    sid = setupid.encode(layout.code, board.number_method, board.harbor_method, digest)
    return dataclasses.replace(board, seed=None, setup_id=sid)


def board_from_file(path: str | Path, scenario: str | None = None) -> tuple[Board, Layout]:
    """The board of file ``path`` (see :func:`read_board_file`), with the
    fixed setup of ``scenario`` applied when one is given (it must be a
    scenario that takes its board from a file). Raises
    :class:`SetupgenError`."""
    board, layout = read_board_file(path)
    if scenario is None:
        return board, layout
    meta = layoutmod.load(scenario)
    if meta.source != "board-file":
        raise SetupgenError(
            f"scenario {scenario!r} makes its own boards; a board file goes with a board-file "
            f"scenario such as oil-springs-fixed",
            field="scenario",
        )
    return oil_fixed_board(meta, board)
