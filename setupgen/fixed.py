"""Fixed boards: a board given completely in a file, and the Oil Springs
fixed setups built on one (``../shared/RULES.md`` section 5).

A board file is either FORMAT.md JSON or a layout TOML in which every land
hex has a fixed terrain and (but for deserts) a fixed number token, with
typed harbor places (``harbors.default = "fixed"``) or none. Coordinates
are axial ``(q, r)``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from pathlib import Path

from . import generate as gen
from . import hexgrid, setupid
from . import layout as layoutmod
from .board import Board, Tile
from .errors import SetupgenError
from .hexgrid import Hex
from .layout import HarborPlace, HexSpec, Layout
from .oil import FixedSpring
from .rng import DIGEST_BITS


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
            raise SetupgenError(f"{path}: hex {open_[0]!r} draws its terrain from a region; a fixed board fixes every hex")
        if layout.default_harbors not in ("fixed", "players"):
            raise SetupgenError(f"{path}: harbors.default must be fixed (or players) for a fixed board")
        board = gen.generate(layout, random.Random(0))  # nothing random is left to draw
        return _stamp(board, layout, path.read_bytes()), layout
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise SetupgenError(f"cannot read {str(path)!r}: {getattr(exc, 'strerror', None) or exc}") from None
    board = Board.from_json(text)
    return board, layout_for(board)


def layout_for(board: Board) -> Layout:
    """The layout to check ``board`` against: its shipped scenario, or for a
    board-file scenario that scenario joined with the board's own hexes."""
    meta = layoutmod.load(board.scenario)
    return meta if meta.source != "board-file" else layout_of_board(board, meta)


def layout_of_board(board: Board, meta: Layout) -> Layout:
    """A layout in which every hex of ``board`` is fixed (terrain, number
    token, harbors with their types), carrying the name, code, victory
    points, notes, robber rule and oil settings of ``meta``."""
    specs = tuple(HexSpec(t.hex, t.kind, None, t.terrain if t.kind == "land" else "sea", t.number)
                  for t in board.tiles)
    places = tuple(HarborPlace(h.hex, h.facing, h.type) for h in board.harbors)
    return dataclasses.replace(
        meta, hexes=specs, harbor_places=places, harbor_pool=tuple(h.type for h in board.harbors),
        default_harbors="fixed" if places else "players", source="map")


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
            raise SetupgenError(f"the board file does not fit {meta.name} (a {meta.frame} board): {problems[0]}"
                                + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
    tiles = {t.hex: t for t in board.tiles}
    land = [t for t in board.tiles if t.kind == "land"]
    springs: set[Hex] = set()
    for t in land:
        if t.terrain == "desert":
            if t.number not in meta.oil.numbered:
                raise SetupgenError(f"the desert at ({t.hex[0]}, {t.hex[1]}) needs its oil-spring number "
                                    f"({' or '.join(map(str, meta.oil.numbered))}) in the board file")
            springs.add(t.hex)
    for spring in meta.oil.fixed:
        h = _find(spring, land, tiles)
        if h in springs:
            raise SetupgenError(f"the {spring.terrain} oil spring would fall on ({h[0]}, {h[1]}), which has one already")
        if spring.turn:
            tiles[h] = dataclasses.replace(tiles[h], terrain=spring.terrain)
        springs.add(h)
    new_tiles = tuple(dataclasses.replace(tiles[t.hex], oil_spring=t.hex in springs) for t in board.tiles)
    fixed = dataclasses.replace(board, scenario=meta.name, tiles=new_tiles, robber=None,
                                harbor_method="fixed" if board.harbors else "players")
    layout = layout_of_board(fixed, meta)
    return _stamp(fixed, layout, fixed.to_json().encode("utf-8")), layout


def frame_problems(board: Board, frame: Layout, *, pools: bool) -> list[str]:
    """How ``board`` differs from the hexes of ``frame`` (and with ``pools``
    from its terrain, number-token and harbor pools; RULES.md section 1)."""
    from collections import Counter

    out = []
    want = {s.hex: s.kind for s in frame.hexes}
    have = {t.hex: t.kind for t in board.tiles}
    if want != have:
        missing, extra = sorted(set(want) - set(have)), sorted(set(have) - set(want))
        wrong = sorted(h for h in set(want) & set(have) if want[h] != have[h])
        what = (f"hex {missing[0]} is missing" if missing else f"hex {extra[0]} is not part of it" if extra
                else f"hex {wrong[0]} is {have[wrong[0]]}, not {want[wrong[0]]}")
        out.append(what)
    if not pools:
        return out
    terrain = Counter(t.terrain for t in board.tiles if t.kind == "land")
    pool = Counter(t for r in frame.regions for t in r.terrain_pool) + Counter(
        s.terrain for s in frame.hexes if s.kind == "land" and s.region is None)
    if terrain != pool:
        diff = ", ".join(f"{k} {terrain[k]} instead of {pool[k]}" for k in sorted(set(terrain) | set(pool)) if terrain[k] != pool[k])
        out.append(f"terrain differs from the set ({diff})")
    tokens = Counter(t.number for t in board.tiles if t.kind == "land" and t.terrain != "desert" and t.number is not None)
    token_pool = Counter(n for r in frame.regions for n in r.number_tokens)
    if tokens != token_pool:
        out.append("number tokens differ from the set")
    if board.harbors and Counter(h.type for h in board.harbors) != Counter(frame.harbor_pool):
        out.append(f"{len(board.harbors)} harbors differ from the set of {len(frame.harbor_pool)}")
    return out


def _find(spring: FixedSpring, land: list[Tile], tiles: dict[Hex, Tile]) -> Hex:
    """The hex a fixed oil spring goes on (RULES.md section 5)."""
    def north_east(t: Tile) -> tuple[float, int, int]:
        x, y = hexgrid.center(t.hex)
        return (round(x - y, 9), -t.hex[1], t.hex[0])

    bearing = [t for t in land if t.number == spring.number and (spring.turn or spring.east or t.terrain == spring.terrain)]
    what = f"hex bearing {spring.number}" if (spring.turn or spring.east) else f"{spring.terrain} with {spring.number}"
    if not bearing:
        raise SetupgenError(f"the board has no {what} for the {spring.terrain} oil spring")
    best = max(bearing, key=north_east)
    if not spring.east:
        return best.hex
    east = hexgrid.neighbor(best.hex, 0)
    if east not in tiles or tiles[east].kind != "land":
        raise SetupgenError(f"the hex east of ({best.hex[0]}, {best.hex[1]}) (bearing {spring.number}) is not land")
    return east


def _stamp(board: Board, layout: Layout, content: bytes) -> Board:
    """Seed None, setup ID from the scenario code, methods and a digest of
    the file's content (a fixed board is regenerated from its file, not its
    ID)."""
    digest = int.from_bytes(hashlib.sha256(content).digest()[:8], "big") >> (64 - DIGEST_BITS)
    sid = setupid.encode(layout.code, board.number_method, board.harbor_method, digest)
    return dataclasses.replace(board, seed=None, setup_id=sid)


def board_from_file(path: str | Path, scenario: str | None = None) -> tuple[Board, Layout]:
    """``setupgen board --board FILE [--scenario S]``: the file's board, with a
    fixed setup of ``scenario`` applied when that scenario takes its board
    from a file. Raises :class:`SetupgenError`."""
    board, layout = read_board_file(path)
    if scenario is None:
        return board, layout
    meta = layoutmod.load(scenario)
    if meta.source != "board-file":
        raise SetupgenError(f"scenario {scenario!r} makes its own boards; --board takes a board-file scenario "
                            f"such as oil-springs-fixed")
    return oil_fixed_board(meta, board)
