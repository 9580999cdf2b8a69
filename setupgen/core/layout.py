"""Board layouts as data: loading and validating ``layouts/*.toml``.

A layout says which hexes exist and of what kind, which land hexes draw
their terrain from which *region* pool, which number tokens a region's
number method lays, the harbor pool and places, robber and pirate start and
the default methods. The file format is documented in ``layouts/README.md``.

Coordinates are axial ``(q, r)`` (see :mod:`setupgen.core.hexgrid`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import hexgrid
from .balance import BARRABLE, Limits
from .balance import load_preset as load_balance_preset
from .board import PIECE_RANGES, Piece
from .data import DataFileError, data_dir, read_toml
from .errors import LayoutError, SetupgenError, UnknownScenarioError, quoted
from .fields import Fields
from .hexgrid import Hex
from .limits import MAX_VP, MIN_VP
from .oil import FixedSpring, OilSetup
from .rules import (
    HARBOR_METHODS,
    HARBOR_TYPES,
    KINDS,
    LAND_TERRAINS,
    NUMBER_METHODS,
    NUMBERS,
    PIECE_KINDS,
    PIECE_SPOTS,
    PIPS,
    coast_edge,
)


@dataclass(frozen=True, slots=True)
class HexSpec:
    """One hex of a layout.

    ``terrain`` is fixed for sea, frame and fixed land hexes (e.g. gold) and
    None for a land hex whose terrain comes from ``region``'s pool.
    ``number`` is a token fixed by the layout, or None. ``tokenless``: a
    land hex of fixed terrain that takes no number token (the small
    islands of Cloth for Catan). ``max_pips``: the most pips (dots) its
    token may have (The Forgotten Tribe's east coast: 3, no 5, 6, 8 or 9),
    or None.
    """

    hex: Hex
    kind: str
    region: str | None = None
    terrain: str | None = None
    number: int | None = None
    tokenless: bool = False
    max_pips: int | None = None


@dataclass(frozen=True, slots=True)
class Region:
    """A pool of land hexes set up together: ``terrain_pool`` is shuffled onto
    the region's hexes (``hidden``: they lie face down), and ``number_tokens``
    are laid by the number method on those of its hexes that are neither
    desert nor carry a fixed token."""

    name: str
    terrain_pool: tuple[str, ...]
    number_tokens: tuple[int, ...]
    hidden: bool = False

    @property
    def hides_sea(self) -> bool:
        """Whether the region's pool holds sea: its hexes may turn out sea
        and then take no token (face down: the fog of The Fog Islands; face
        up: the random islands of The New World, :attr:`open_sea`)."""
        return "sea" in self.terrain_pool

    @property
    def open_sea(self) -> bool:
        """Whether the region lies face up and its pool holds sea: each of
        its hexes is land or sea as the board deals it, so the coast (and
        with it every free harbor's edge) differs from board to board (The
        New World, docs/rules.md section 4b)."""
        return self.hides_sea and not self.hidden


@dataclass(frozen=True, slots=True)
class HarborPlace:
    """A harbor place: the sea hex and the direction (0-5) to the land hex
    whose shared edge it serves; ``type`` is set where the layout fixes
    which harbor lies there (harbor method ``fixed``)."""

    hex: Hex
    facing: int
    type: str | None = None


@dataclass(frozen=True, slots=True)
class Layout:
    """A scenario's layout (immutable; load with :func:`load` or
    :meth:`Layout.from_file`)."""

    name: str
    code: str
    path: str
    hexes: tuple[HexSpec, ...]
    regions: tuple[Region, ...]
    harbor_pool: tuple[str, ...]
    harbor_places: tuple[HarborPlace, ...]
    default_numbers: str
    default_harbors: str
    spiral: tuple[int, ...]
    robber: str | Hex | None  # "desert", a fixed hex, or None (off the board)
    pirate: Hex | None
    victory_points: int
    notes: tuple[str, ...]
    players: str
    reconstruction: bool = False
    edition: str = ""  # the published game whose map this is ("CATAN Seafarers, edition 2015"); "" for none named
    oil: OilSetup | None = None
    source: str = "map"  # "map", or "board-file": the board comes from a board file
    frame: str | None = None  # board-file scenarios: the layout whose hexes and pools the board must have
    start_barred: tuple[str, ...] = ()  # "hidden", "gold": no starting settlement touching such a hex
    balance: Limits | None = None  # balance limits every board of this layout must meet (None: none)
    red_barred: tuple[str, ...] = ()  # terrains no 6 or 8 may lie on ("gold"; docs/rules.md section 4b)
    harbor_methods: tuple[str, ...] = HARBOR_METHODS  # the harbor methods the layout offers
    pieces: tuple[Piece, ...] = ()  # the scenario's pieces on the map at the start (villages; docs/rules.md 4b)
    _index: Mapping[Hex, HexSpec] = field(init=False, compare=False, repr=False)
    _adjacency: Mapping[Hex, tuple[Hex, ...]] = field(init=False, compare=False, repr=False)
    _regions: Mapping[str, tuple[Hex, ...]] = field(init=False, compare=False, repr=False)
    _coast: tuple[tuple[Hex, int], ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        index = {s.hex: s for s in self.hexes}
        land = {h for h, s in index.items() if s.kind == "land"}
        adjacency = {h: tuple(n for n in hexgrid.neighbors(h) if n in land) for h in land}
        regions = {r.name: tuple(x.hex for x in self.hexes if x.region == r.name) for r in self.regions}
        object.__setattr__(self, "_index", MappingProxyType(index))
        object.__setattr__(self, "_regions", MappingProxyType(regions))
        kinds = {h: s.kind for h, s in index.items()}
        coast = tuple((s.hex, d) for s in self.hexes for d in range(6) if coast_edge(kinds, s.hex, d))
        open_cells = {h for r in self.regions if r.open_sea for h in regions[r.name]}
        if open_cells:  # The New World: the coast edges every board may have (Layout.coast_edges)
            coast = tuple(
                (s.hex, d)
                for s in self.hexes
                if s.kind == "sea" or s.hex in open_cells
                for d in range(6)
                if kinds.get(hexgrid.neighbor(s.hex, d)) == "land"
            )
        object.__setattr__(self, "_coast", coast)
        object.__setattr__(self, "_adjacency", MappingProxyType(adjacency))

    def __reduce__(self) -> tuple[type[Layout], tuple[Any, ...]]:
        """Pickled as its declared fields (the indexes are rebuilt from
        them), so a layout travels to a spawned worker process."""
        return (Layout, tuple(getattr(self, f.name) for f in dataclasses.fields(self) if f.init))

    @property
    def most_players(self) -> int:
        """The most players a table of this layout seats: the upper bound
        of ``players`` (``"3-4"`` 4, ``"5-6"`` 6, ``"3"`` 3), 4 when it names
        none."""
        bound = self.players.rsplit("-", 1)[-1].strip()
        return int(bound) if bound.isdigit() else 4

    @property
    def coast_edges(self) -> tuple[tuple[Hex, int], ...]:
        """Every edge a free harbor may serve, as (sea hex, direction to the
        land hex), in reading order of the sea hex, then direction (docs/rules.md
        section 3: a coast edge between a playable sea hex and land; frame
        half hexes never hold one). Where a region lies open to the sea
        (:attr:`Region.open_sea`), every edge that may be one: from a sea
        hex or a hex of such a region towards a land hex; a board's coast
        edges are those whose first hex it deals sea and second land."""
        return self._coast

    @property
    def adjacency(self) -> Mapping[Hex, tuple[Hex, ...]]:
        """Land hex -> its land neighbours (the hexes number rules compare)."""
        return self._adjacency

    def __repr__(self) -> str:
        return f"setupgen.load_layout({self.name!r})"

    @classmethod
    def from_file(cls, path: str | Path) -> Layout:
        """Load and validate one layout file. Raises :class:`LayoutError`."""
        return _load_path(Path(path))

    # -- derived views -------------------------------------------------
    def spec(self, h: Hex) -> HexSpec:
        """The spec of hex ``h``; ``KeyError`` if the layout has no such hex."""
        return self._index[h]

    def land(self) -> tuple[Hex, ...]:
        """Land hexes in reading order."""
        return tuple(s.hex for s in self.hexes if s.kind == "land")

    def region_hexes(self, region: str) -> tuple[Hex, ...]:
        """Hexes of one region in reading order (empty for an unknown name)."""
        return self._regions.get(region, ())


# --------------------------------------------------------------------------
# locating layout files


def layouts_dir() -> Path:
    """The folder of shipped layouts: ``layouts/`` beside the package in a
    source checkout, or the copy installed inside the package
    (:func:`setupgen.core.data.data_dir`)."""
    return data_dir("layouts")


def scenario_names() -> tuple[str, ...]:
    """Names of the shipped scenarios (layout file stems), sorted."""
    return tuple(sorted(p.stem for p in layouts_dir().glob("*.toml")))


def load(name: str) -> Layout:
    """The shipped layout ``name`` (e.g. ``"base-3-4"``); loaded once and
    cached.

    Raises :class:`UnknownScenarioError` for an unknown name and
    :class:`LayoutError` for a malformed file.
    """
    cached = _CACHE.get(name)
    if cached is not None:
        return cached
    known = scenario_names()
    if name not in known:
        raise UnknownScenarioError(f"unknown scenario {quoted(name)} (known: {', '.join(known)})", field="scenario")
    layout = _CACHE[name] = _load_path(layouts_dir() / f"{name}.toml")
    return layout


_CACHE: dict[str, Layout] = {}


def by_code(code: str) -> Layout:
    """The shipped layout whose setup-ID code is ``code``."""
    for name in scenario_names():
        layout = load(name)
        if layout.code == code.upper():
            return layout
    raise UnknownScenarioError(f"no scenario has the code {code!r}")


# --------------------------------------------------------------------------
# parsing

#: most hexes a layout may have, most tiles or pieces of one kind in a pool,
#: largest file read (checked before any work, so a huge layout fails fast)
MAX_HEXES = 1000
MAX_COORD = 100
MAX_COUNT = 1000
MAX_FILE_BYTES = 1_000_000
#: keys a layout file may have, top level and per table
TOP_KEYS = frozenset(
    {
        "name",
        "code",
        "players",
        "victory_points",
        "robber",
        "pirate",
        "notes",
        "reconstruction",
        "edition",
        "inherits",
        "source",
        "frame",
        "pieces",
        "regions",
        "numbers",
        "map",
        "harbors",
        "oil",
        "start_barred",
        "balance",
    }
)
REGION_KEYS = frozenset({"terrain", "numbers", "hidden"})
NUMBERS_KEYS = frozenset({"default", "placement_order", "spiral", "red_barred"})
HARBORS_KEYS = frozenset({"default", "pool", "places", "methods"})
PLACE_KEYS = frozenset({"q", "r", "facing", "type"})
ROW_KEYS = frozenset({"r", "q", "cells"})
LEGEND_KEYS = frozenset({"kind", "region", "terrain", "token", "max_pips"})
OIL_KEYS = frozenset({"numbered", "limit", "fixed"})


def _read_toml(path: Path) -> dict[str, Any]:
    """The layout file ``path`` (:func:`.data.read_toml`, at most
    :data:`MAX_FILE_BYTES`). Raises :class:`LayoutError` at ``(file)`` or
    ``(syntax)``."""
    try:
        return read_toml(path, "layout file", max_bytes=MAX_FILE_BYTES)
    except DataFileError as exc:
        if exc.syntax:
            raise LayoutError(str(path), "(syntax)", exc.problem) from None
        raise LayoutError(str(path), "(file)", f"cannot read: {exc.problem}") from None


#: longest chain of ``inherits`` a layout may use
MAX_INHERITS = 8


def _load_path(path: Path) -> Layout:
    return _parse(_resolve_inherits(path), path)


def _resolve_inherits(path: Path) -> dict[str, Any]:
    """The layout's top-level keys with its ``inherits`` chain resolved, to
    any depth: each file's keys replace its parent's. Raises
    :class:`LayoutError` for a missing parent, a cycle (naming the files) or
    a chain longer than :data:`MAX_INHERITS`."""
    chain = [path]
    levels = [_read_toml(path)]
    while "inherits" in levels[-1]:
        child = chain[-1]
        parent_name = _get(levels[-1], "inherits", str, child)
        parent_path = child.parent / f"{parent_name}.toml"
        if not parent_path.is_file():
            raise LayoutError(str(child), "inherits", f"no layout {parent_name!r} beside this file")
        if any(parent_path.resolve() == p.resolve() for p in chain):
            names = " -> ".join(p.name for p in [*chain, parent_path])
            raise LayoutError(str(path), "inherits", f"inheritance cycle: {names}")
        if len(chain) > MAX_INHERITS:
            raise LayoutError(str(path), "inherits", f"more than {MAX_INHERITS} levels of inheritance")
        chain.append(parent_path)
        levels.append(_read_toml(parent_path))
    merged: dict[str, Any] = {}
    for data in reversed(levels):
        merged.update({k: v for k, v in data.items() if k != "inherits"})
    return merged


def _get(
    data: dict[str, Any], key: str, typ: type | tuple[type, ...], path: Path, default: Any = ..., where: str = ""
) -> Any:
    """``data[key]`` of a layout file checked by the shared reader
    (:meth:`~setupgen.core.fields.Fields.get`). Raises :class:`LayoutError`."""
    return _fields(path).get(data, key, typ, default, where)


def _fields(path: Path) -> Fields:
    """The shared reader, its problems as :class:`LayoutError` of ``path``."""
    return Fields(lambda where, problem: LayoutError(str(path), where, problem))


def _hex_value(value: Any, path: Path, key: str) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise LayoutError(str(path), key, "expected a hex as [q, r]")
    return (value[0], value[1])


def _known(table: dict[str, Any], keys: frozenset[str], path: Path, where: str) -> None:
    """A layout table holds only the keys the format knows."""
    _fields(path).known(table, keys, where)


def _pool(table: Any, allowed: tuple[str, ...], path: Path, key: str) -> tuple[str, ...]:
    if not isinstance(table, dict):
        raise LayoutError(str(path), key, "expected a table of name = count")
    out: list[str] = []
    for name in sorted(table, key=lambda n: allowed.index(n) if n in allowed else -1):
        count = table[name]
        if name not in allowed:
            shown = name if name.isidentifier() else quoted(name)
            raise LayoutError(str(path), f"{key}.{shown}", f"unknown name; expected one of {', '.join(allowed)}")
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= MAX_COUNT:
            raise LayoutError(str(path), f"{key}.{name}", f"count must be a whole number from 0 to {MAX_COUNT}")
        out.extend([name] * count)
        if len(out) > MAX_COUNT:
            raise LayoutError(str(path), key, f"more than {MAX_COUNT} in all")
    return tuple(out)


def _numbers(value: Any, path: Path, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) > MAX_COUNT or not all(type(v) is int and v in NUMBERS for v in value):
        raise LayoutError(str(path), key, "expected a list of number tokens (whole numbers 2-12 except 7)")
    return tuple(value)


def _parse(data: dict[str, Any], path: Path) -> Layout:
    """A validated :class:`Layout` from a file's (inheritance-resolved)
    keys. Raises :class:`LayoutError` naming the key and problem."""
    p = str(path)
    _known(data, TOP_KEYS, path, "")
    name = _get(data, "name", str, path)
    if name != path.stem:
        raise LayoutError(p, "name", f"must match the file name {quoted(path.stem)}")
    code = _get(data, "code", str, path)
    if not re.fullmatch(r"[A-Z0-9]{2}", code):
        raise LayoutError(p, "code", "expected 2 upper-case letters or digits (A-Z, 0-9)")
    vp = _get(data, "victory_points", int, path)
    if not MIN_VP <= vp <= MAX_VP:
        raise LayoutError(p, "victory_points", f"{quoted(vp)} is not a plausible threshold ({MIN_VP}-{MAX_VP})")
    source = _get(data, "source", str, path, "map")
    if source not in ("map", "board-file"):
        raise LayoutError(p, "source", "expected 'map' or 'board-file'")
    if source == "board-file":
        return _parse_board_file_scenario(data, path, name, code)
    regions = _parse_regions(data, path)
    specs = _parse_map(data, path, {r.name for r in regions})
    hexes = tuple(specs[h] for h in hexgrid.row_order(specs))
    _check_region_counts(regions, hexes, path)
    default_numbers, spiral = _parse_numbers(data, path)
    red_barred = _red_barred(data, path)
    default_harbors, harbor_pool, places = _parse_harbors(data, path, specs)
    harbor_methods = _harbor_methods(data, path, default_harbors)
    robber, pirate = _parse_pieces(data, path, specs)
    oil = _parse_oil(data, path)
    _check_whole(regions, hexes, spiral, robber, oil, path)
    notes = _get(data, "notes", list, path, [])
    if not all(isinstance(n, str) for n in notes):
        raise LayoutError(p, "notes", "expected a list of template keys")
    return _check_code_is_free(
        Layout(
            name=name,
            code=code,
            path=p,
            hexes=hexes,
            regions=regions,
            harbor_pool=harbor_pool,
            harbor_places=places,
            default_numbers=default_numbers,
            default_harbors=default_harbors,
            spiral=spiral,
            robber=robber,
            pirate=pirate,
            victory_points=vp,
            notes=tuple(notes),
            players=_get(data, "players", str, path, ""),
            reconstruction=_get(data, "reconstruction", bool, path, False),
            edition=_get(data, "edition", str, path, ""),
            oil=oil,
            start_barred=_start_barred(data, path),
            balance=_balance(data, path),
            red_barred=red_barred,
            harbor_methods=harbor_methods,
            pieces=_parse_map_pieces(data, path, specs, {r.name for r in regions if r.open_sea}),
        )
    )


#: keys of one ``[[pieces]]`` entry
PIECE_KEYS = frozenset({"kind", "q", "r", "corner", "facing", "number", "count", "player", "order"})
#: the fields each kind of piece takes besides its place (all of them required)
PIECE_FIELDS = {
    "village": ("number", "count"),
    "vp": (),
    "card": (),
    "no-start": (),
    "settlement": ("player",),
    "ship": ("player",),
    "fortress": ("player", "count"),
    "lone-settlement": ("player",),
    "path": ("order",),
}


def _parse_map_pieces(
    data: dict[str, Any], path: Path, specs: dict[Hex, HexSpec], open_regions: set[str]
) -> tuple[Piece, ...]:
    """``[[pieces]]``: the scenario's pieces on the map at the start, each
    ``kind`` (:data:`PIECE_KINDS`) at ``corner`` (0-5) or on the edge
    towards ``facing`` (0-5) of hex ``q``, ``r`` of the map (a path step: on
    a sea hex), touching a hex that is land on every board (not one of a
    region open to the sea, ``open_regions``), with the fields its kind
    takes (:data:`PIECE_FIELDS`); no two on one intersection or edge; the
    path's steps numbered 1, 2, … once each."""
    p = str(path)
    items = _get(data, "pieces", list, path, [])
    if len(items) > MAX_COUNT:
        raise LayoutError(p, "pieces", f"at most {MAX_COUNT} pieces")
    land = {h for h, s in specs.items() if s.kind == "land" and s.region not in open_regions}
    out: list[Piece] = []
    for i, item in enumerate(items):
        key = f"pieces[{i}]"
        if not isinstance(item, dict):
            raise LayoutError(p, key, "expected a table")
        piece = _map_piece(item, path, key)
        if piece.hex not in specs or piece.kind == "path" and specs[piece.hex].kind != "sea":
            raise LayoutError(p, key, f"expected a {'sea ' if piece.kind == 'path' else ''}hex of the map")
        if not _touched(piece) & land:
            raise LayoutError(p, key, "the piece touches no hex that is land on every board")
        if any(o.spot == piece.spot and o.kind != "path" and piece.kind != "path" for o in out):
            raise LayoutError(p, key, "two pieces on one intersection or edge")
        out.append(piece)
    steps = sorted(o.order or 0 for o in out if o.kind == "path")
    if steps != list(range(1, len(steps) + 1)):
        raise LayoutError(p, "pieces", "the path's steps must be numbered 1, 2, 3, … once each")
    return tuple(out)


def _map_piece(item: dict[str, Any], path: Path, key: str) -> Piece:
    """One ``[[pieces]]`` table as a :class:`Piece` (its keys and values
    checked, its place of the kind's sort: :data:`PIECE_SPOTS`; where on
    the map is the caller's to check)."""
    p, where = str(path), key + "."
    _known(item, PIECE_KEYS, path, where)
    kind = _get(item, "kind", str, path, where=where)
    if kind not in PIECE_KINDS:
        raise LayoutError(p, f"{key}.kind", f"unknown piece {quoted(kind)} (known: {', '.join(PIECE_KINDS)})")
    h = (_get(item, "q", int, path, where=where), _get(item, "r", int, path, where=where))
    values = {k: _get(item, k, int, path, None, where=where) for k in PIECE_RANGES}
    for name, (low, high) in PIECE_RANGES.items():
        if values[name] is not None and not low <= values[name] <= high:
            raise LayoutError(p, f"{key}.{name}", f"expected {low}-{high}")
    if values["number"] is not None and values["number"] not in NUMBERS:
        raise LayoutError(p, f"{key}.number", "expected a number token: 2-12 without 7")
    spot = PIECE_SPOTS[kind]
    given = "corner" if values["corner"] is not None else "edge" if values["facing"] is not None else "hex"
    if given != spot or values["corner"] is not None and values["facing"] is not None:
        how = {"corner": "corner (0-5)", "edge": "facing (0-5)", "hex": "neither corner nor facing"}[spot]
        raise LayoutError(p, key, f"a {kind} stands on a{'n' if spot == 'edge' else ''} {spot}: give {how}")
    takes = PIECE_FIELDS[kind]
    missing = [n for n in takes if values[n] is None]
    if missing:
        raise LayoutError(p, key, f"a {kind} needs {' and '.join(missing)}")
    extra = [n for n in ("number", "count", "player", "order") if values[n] is not None and n not in takes]
    if extra:
        raise LayoutError(p, key, f"a {kind} takes no {' or '.join(extra)}")
    return Piece(kind, h, **values)


def _touched(piece: Piece) -> frozenset[Hex]:
    """The hexes a piece touches: its hex (a path step: its sea hex and the
    hexes around it), those of its intersection, or for an edge those of
    its two end intersections."""
    if piece.corner is None and piece.facing is None:
        return frozenset((piece.hex, *hexgrid.neighbors(piece.hex)))
    if piece.facing is None:
        return piece.spot
    a, b = hexgrid.edge_corners(piece.hex, piece.facing)
    return a | b


def _start_barred(data: dict[str, Any], path: Path) -> tuple[str, ...]:
    """``start_barred``: what starting settlements may not touch (docs/balance.md)."""
    items = _get(data, "start_barred", list, path, [])
    if not all(isinstance(x, str) and x in BARRABLE for x in items) or len(set(items)) != len(items):
        raise LayoutError(str(path), "start_barred", f"expected a list of {', '.join(BARRABLE)} (each once)")
    return tuple(items)


def _balance(data: dict[str, Any], path: Path) -> Limits | None:
    """``[balance]``: a preset (``preset = "fair"``) and/or limits every
    board of the layout must meet (docs/balance.md, "Limits")."""
    table = _get(data, "balance", dict, path, None)
    if table is None:
        return None
    table = dict(table)
    preset = table.pop("preset", None)
    try:
        base = load_balance_preset(preset) if isinstance(preset, str) else Limits()
        if preset is not None and not isinstance(preset, str):
            raise SetupgenError("preset: expected a preset name")
        return base.merged(Limits.from_dict(table))
    except SetupgenError as exc:
        raise LayoutError(str(path), "balance", str(exc)) from None


def _check_whole(
    regions: tuple[Region, ...],
    hexes: tuple[HexSpec, ...],
    spiral: tuple[int, ...],
    robber: str | Hex | None,
    oil: OilSetup | None,
    path: Path,
) -> None:
    """What the parts must agree on: a robber on the desert needs a desert,
    the spiral lays each region's own tokens, every desert gets a numbered
    oil-spring tile."""
    p = str(path)
    deserts = sum(r.terrain_pool.count("desert") for r in regions) + sum(
        1 for s in hexes if s.region is None and s.terrain == "desert"
    )
    if robber == "desert" and not deserts:
        raise LayoutError(p, "robber", "'desert', but the layout has no desert (use 'off' or a land hex)")
    for region in regions:
        if spiral and region.number_tokens and sorted(spiral) != sorted(region.number_tokens):
            raise LayoutError(p, "numbers.spiral", f"the spiral sequence is not the tokens of region {region.name}")
    if oil is not None and len(oil.numbered) < deserts:
        raise LayoutError(p, "oil.numbered", f"{len(oil.numbered)} numbered oil-spring tiles for {deserts} deserts")


def _check_code_is_free(layout: Layout) -> Layout:
    """A layout of one's own may not take a shipped scenario's code unless
    it is that scenario, unchanged: its setup IDs would regenerate the
    other board. Returns ``layout``."""
    if Path(layout.path).resolve().parent == layouts_dir().resolve():
        return layout
    for name in scenario_names():
        shipped = load(name)
        if shipped.code == layout.code and dataclasses.replace(layout, path=shipped.path) != shipped:
            raise LayoutError(
                layout.path, "code", f"{layout.code!r} is the code of the shipped scenario {name}; choose another"
            )
    return layout


def _parse_regions(data: dict[str, Any], path: Path) -> tuple[Region, ...]:
    """``[regions.NAME]``: terrain pool, number tokens, face down or not."""
    p = str(path)
    regions: list[Region] = []
    for rname, rdata in sorted(_get(data, "regions", dict, path, {}).items()):
        if not isinstance(rdata, dict):
            raise LayoutError(p, f"regions.{rname}", "expected a table")
        where = f"regions.{rname}."
        _known(rdata, REGION_KEYS, path, where)
        hidden = _get(rdata, "hidden", bool, path, False, where=where)
        # a pool may hold sea: face down the fog of The Fog Islands, face up The New World's random
        # islands (docs/rules.md section 4b)
        pool = _pool(_get(rdata, "terrain", dict, path, where=where), LAND_TERRAINS + ("sea",), path, f"{where}terrain")
        tokens = _numbers(rdata.get("numbers", []), path, f"{where}numbers")
        regions.append(Region(rname, pool, tokens, hidden))
    return tuple(regions)


def _parse_legend(map_t: dict[str, Any], path: Path, region_names: set[str]) -> dict[str, dict[str, Any]]:
    """``map.legend``: symbol -> {kind, region or terrain}."""
    p = str(path)
    symbols: dict[str, dict[str, Any]] = {}
    for sym, spec in _get(map_t, "legend", dict, path, where="map.").items():
        key = f"map.legend.{quoted(sym)}"
        if not isinstance(spec, dict) or not isinstance(spec.get("kind"), str) or spec["kind"] not in KINDS:
            raise LayoutError(p, key, f"expected a table with kind one of {', '.join(KINDS)}")
        _known(spec, LEGEND_KEYS, path, key + ".")
        if not all(isinstance(spec.get(k, ""), str) for k in ("region", "terrain")):
            raise LayoutError(p, key, "region and terrain are names (text)")
        if spec["kind"] == "land":
            if ("region" in spec) == ("terrain" in spec):
                raise LayoutError(p, key, "a land symbol needs either region or terrain")
            if "region" in spec and spec["region"] not in region_names:
                raise LayoutError(p, key, f"unknown region {spec['region']!r}")
            if "terrain" in spec and spec["terrain"] not in LAND_TERRAINS:
                raise LayoutError(p, key, f"unknown terrain {spec['terrain']!r}")
        if "max_pips" in spec and (type(spec["max_pips"]) is not int or not 1 <= spec["max_pips"] <= 5):
            raise LayoutError(p, key, "max_pips: the most pips a token on the hex may have, 1-5")
        if "max_pips" in spec and (spec["kind"] != "land" or "token" in spec):
            raise LayoutError(p, key, "max_pips caps the token of a land hex that takes one")
        if "token" in spec and (spec["token"] is not False or "terrain" not in spec or spec["kind"] != "land"):
            raise LayoutError(
                p, key, "token: only false, on a land hex of fixed terrain (it then takes no number token)"
            )
        symbols[sym] = spec
    return symbols


def _parse_map(data: dict[str, Any], path: Path, region_names: set[str]) -> dict[Hex, HexSpec]:
    """``[map]``: the rows of cells, each ``SYMBOL`` or ``SYMBOL:TOKEN``."""
    p = str(path)
    map_t = _get(data, "map", dict, path)
    _known(map_t, frozenset({"legend", "rows"}), path, "map.")
    symbols = _parse_legend(map_t, path, region_names)
    specs: dict[Hex, HexSpec] = {}
    for i, row in enumerate(_get(map_t, "rows", list, path, where="map.")):
        key = f"map.rows[{i}]"
        if not isinstance(row, dict):
            raise LayoutError(p, key, "expected a table {r, q, cells}")
        _known(row, ROW_KEYS, path, key + ".")
        r = _get(row, "r", int, path, where=key + ".")
        q0 = _get(row, "q", int, path, where=key + ".")
        for j, cell in enumerate(_get(row, "cells", str, path, where=key + ".").split()):
            h = (q0 + j, r)
            sym, _, num = cell.partition(":")
            if sym == ".":
                continue
            if sym not in symbols:
                raise LayoutError(p, key, f"unknown symbol {sym!r} in cell {cell!r}")
            if h in specs:
                raise LayoutError(p, key, f"hex {h!r} given twice")
            if len(specs) >= MAX_HEXES or not (abs(h[0]) <= MAX_COORD and abs(h[1]) <= MAX_COORD):
                raise LayoutError(p, key, f"at most {MAX_HEXES} hexes, within {MAX_COORD} steps of (0, 0)")
            spec = symbols[sym]
            number = None
            if num:
                if not re.fullmatch(r"[0-9]{1,2}", num) or int(num) not in NUMBERS:
                    raise LayoutError(p, key, f"bad number token in cell {cell!r}")
                if spec["kind"] != "land":
                    raise LayoutError(p, key, f"only land takes a number token: {cell!r}")
                number = int(num)
            kind = spec["kind"]
            terrain = spec.get("terrain") if kind == "land" else "sea"
            if num and "token" in spec:
                raise LayoutError(p, key, f"cell {cell!r} takes no number token (token = false)")
            if num and "max_pips" in spec and PIPS[int(num)] > spec["max_pips"]:
                raise LayoutError(p, key, f"cell {cell!r}: its token has more pips than max_pips = {spec['max_pips']}")
            specs[h] = HexSpec(h, kind, spec.get("region"), terrain, number, "token" in spec, spec.get("max_pips"))
    return specs


def _check_region_counts(regions: tuple[Region, ...], hexes: tuple[HexSpec, ...], path: Path) -> None:
    """Each region's pools match its hexes: one terrain tile per hex, one
    token per hex that is neither desert nor fixed; and some hex is land
    on every board."""
    p = str(path)
    for region in regions:
        members = [s for s in hexes if s.region == region.name]
        key = f"regions.{region.name}"
        if len(members) != len(region.terrain_pool):
            raise LayoutError(
                p, f"{key}.terrain", f"pool has {len(region.terrain_pool)} terrain tiles for {len(members)} hexes"
            )
        free = sum(1 for s in members if s.number is None)
        deserts = region.terrain_pool.count("desert") + region.terrain_pool.count("sea")  # neither takes a token
        if region.number_tokens and len(region.number_tokens) != free - deserts:
            raise LayoutError(
                p, f"{key}.numbers", f"{len(region.number_tokens)} tokens for {free - deserts} hexes that take one"
            )
        if not region.number_tokens and free - deserts > 0:
            raise LayoutError(p, f"{key}.numbers", f"missing: {free - deserts} hexes take a token")
    if not any(s.kind == "land" and s.region is None for s in hexes) and all(
        t == "sea" for r in regions for t in r.terrain_pool
    ):
        raise LayoutError(p, "map", "no hex is land on any board")


def _parse_numbers(data: dict[str, Any], path: Path) -> tuple[str, tuple[int, ...]]:
    """``[numbers]``: the default method and the spiral sequence."""
    p = str(path)
    numbers_t = _get(data, "numbers", dict, path, {})
    _known(numbers_t, NUMBERS_KEYS, path, "numbers.")
    default_numbers = _get(numbers_t, "default", str, path, "swap", where="numbers.")
    if default_numbers not in NUMBER_METHODS:
        raise LayoutError(p, "numbers.default", f"unknown method {default_numbers!r}")
    order = _get(numbers_t, "placement_order", str, path, "rows", where="numbers.")
    if order != "rows":
        raise LayoutError(p, "numbers.placement_order", "only 'rows' is supported")
    return default_numbers, _numbers(numbers_t.get("spiral", []), path, "numbers.spiral")


def _red_barred(data: dict[str, Any], path: Path) -> tuple[str, ...]:
    """``numbers.red_barred``: the terrains no 6 or 8 may lie on, each a
    numbered land terrain, each once (e.g. ``["gold"]``)."""
    numbers_t = _get(data, "numbers", dict, path, {})
    items = _get(numbers_t, "red_barred", list, path, [], where="numbers.")
    allowed = tuple(t for t in LAND_TERRAINS if t != "desert")
    if not all(isinstance(x, str) and x in allowed for x in items) or len(set(items)) != len(items):
        raise LayoutError(str(path), "numbers.red_barred", f"expected a list of {', '.join(allowed)} (each once)")
    return tuple(items)


def _parse_harbors(
    data: dict[str, Any], path: Path, specs: dict[Hex, HexSpec]
) -> tuple[str, tuple[str, ...], tuple[HarborPlace, ...]]:
    """``[harbors]``: the default method, the pool and the places."""
    p = str(path)
    harbors_t = _get(data, "harbors", dict, path, {})
    _known(harbors_t, HARBORS_KEYS, path, "harbors.")
    default_harbors = _get(harbors_t, "default", str, path, "free", where="harbors.")
    if default_harbors not in HARBOR_METHODS:
        raise LayoutError(p, "harbors.default", f"unknown method {default_harbors!r}")
    harbor_pool = _pool(harbors_t.get("pool", {}), HARBOR_TYPES, path, "harbors.pool")
    places = tuple(
        _parse_place(place, i, path, specs)
        for i, place in enumerate(_get(harbors_t, "places", list, path, [], where="harbors."))
    )
    if default_harbors == "fixed":
        if any(pl.type is None for pl in places):
            raise LayoutError(p, "harbors.places", "harbor method fixed needs a type on every place")
        typed = tuple(sorted((pl.type for pl in places if pl.type is not None), key=HARBOR_TYPES.index))
        if harbor_pool and tuple(sorted(harbor_pool, key=HARBOR_TYPES.index)) != typed:
            raise LayoutError(p, "harbors.pool", "differs from the types on the places")
        harbor_pool = typed
    if default_harbors == "shuffled" and len(places) != len(harbor_pool):
        raise LayoutError(p, "harbors.places", f"{len(places)} places for {len(harbor_pool)} harbors")
    seen: set[Any] = set()
    for place in places:
        cs = set(hexgrid.edge_corners(place.hex, place.facing))
        if cs & seen:
            raise LayoutError(p, "harbors.places", f"harbor at {place.hex!r} shares an intersection with another")
        seen |= cs
    return default_harbors, harbor_pool, places


def _harbor_methods(data: dict[str, Any], path: Path, default_harbors: str) -> tuple[str, ...]:
    """``harbors.methods``: the harbor methods the layout offers (default:
    every method), each known, each once, the default among them."""
    harbors_t = _get(data, "harbors", dict, path, {})
    items = _get(harbors_t, "methods", list, path, list(HARBOR_METHODS), where="harbors.")
    if not items or not all(isinstance(x, str) and x in HARBOR_METHODS for x in items) or len(set(items)) != len(items):
        raise LayoutError(
            str(path), "harbors.methods", f"expected a list of {', '.join(HARBOR_METHODS)} (each once, at least one)"
        )
    if default_harbors not in items:
        raise LayoutError(str(path), "harbors.methods", f"does not offer the default method {default_harbors!r}")
    return tuple(m for m in HARBOR_METHODS if m in items)


def _parse_place(place: Any, i: int, path: Path, specs: dict[Hex, HexSpec]) -> HarborPlace:
    """One ``[[harbors.places]]`` entry: a sea hex, a facing towards land,
    an optional type."""
    p = str(path)
    key = f"harbors.places[{i}]"
    if not isinstance(place, dict):
        raise LayoutError(p, key, "expected a table {q, r, facing}")
    _known(place, PLACE_KEYS, path, key + ".")
    h = (_get(place, "q", int, path, where=key + "."), _get(place, "r", int, path, where=key + "."))
    facing = _get(place, "facing", int, path, where=key + ".")
    if specs.get(h) is None or specs[h].kind != "sea":
        raise LayoutError(p, key, f"hex {h!r} is not a sea hex of the map")
    if not 0 <= facing < 6 or specs.get(hexgrid.neighbor(h, facing), HexSpec(h, "sea")).kind != "land":
        raise LayoutError(p, key, f"facing {facing!r} does not point at a land hex")
    htype = _get(place, "type", str, path, None, where=key + ".")
    if htype is not None and htype not in HARBOR_TYPES:
        raise LayoutError(p, f"{key}.type", f"unknown harbor type {htype!r}")
    return HarborPlace(h, facing, htype)


def _parse_pieces(data: dict[str, Any], path: Path, specs: dict[Hex, HexSpec]) -> tuple[str | Hex | None, Hex | None]:
    """``robber`` ("desert", "off" or a land hex) and ``pirate`` (a sea hex)."""
    p = str(path)
    robber_v = data.get("robber", "desert")
    robber: str | Hex | None
    if robber_v == "desert":
        robber = "desert"
    elif robber_v == "off":
        robber = None
    else:
        robber = _hex_value(robber_v, path, "robber")
        if robber not in specs or specs[robber].kind != "land":
            raise LayoutError(p, "robber", "must be 'desert', 'off' or a land hex")
    pirate = None
    if "pirate" in data:
        pirate = _hex_value(data["pirate"], path, "pirate")
        if pirate not in specs or specs[pirate].kind != "sea":
            raise LayoutError(p, "pirate", "must be a sea hex")
    return robber, pirate


def _parse_oil(data: dict[str, Any], path: Path) -> OilSetup | None:
    if "oil" not in data:
        return None
    p = str(path)
    oil_t = _get(data, "oil", dict, path)
    _known(oil_t, OIL_KEYS, path, "oil.")
    numbered = _numbers(oil_t.get("numbered", [5, 9]), path, "oil.numbered")
    limit = _get(oil_t, "limit", int, path, where="oil.")
    if limit < 1:
        raise LayoutError(p, "oil.limit", "must be 1 or more")
    fixed = []
    for terrain, spec in sorted(_get(oil_t, "fixed", dict, path, {}, where="oil.").items()):
        key = f"oil.fixed.{terrain}"
        if terrain not in ("pasture", "forest") or not isinstance(spec, dict):
            raise LayoutError(p, key, "expected pasture or forest = { number = N, east = bool, turn = bool }")
        number = _get(spec, "number", int, path, where=key + ".")
        if number not in NUMBERS:
            raise LayoutError(p, f"{key}.number", f"{number!r} is not a number token")
        fixed.append(
            FixedSpring(
                terrain,
                number,
                _get(spec, "east", bool, path, False, where=key + "."),
                _get(spec, "turn", bool, path, False, where=key + "."),
            )
        )
    return OilSetup(numbered, limit, tuple(fixed))


def _parse_board_file_scenario(data: dict[str, Any], path: Path, name: str, code: str) -> Layout:
    """A scenario whose board comes from a file (``source = "board-file"``):
    no map of its own; :mod:`setupgen.generate.fixed` joins it with the board."""
    p = str(path)
    for key in ("map", "regions", "harbors"):
        if key in data:
            raise LayoutError(p, key, "a board-file scenario takes its board from a board file")
    robber_v = data.get("robber", "off")
    if robber_v not in ("off", "desert"):
        raise LayoutError(p, "robber", "must be 'desert' or 'off' for a board-file scenario")
    notes = _get(data, "notes", list, path, [])
    frame = _get(data, "frame", str, path)
    if not (path.parent / f"{frame}.toml").is_file():
        raise LayoutError(p, "frame", f"no layout {frame!r} beside this file")
    return Layout(
        name=name,
        code=code,
        path=p,
        hexes=(),
        regions=(),
        harbor_pool=(),
        harbor_places=(),
        default_numbers="swap",
        default_harbors="fixed",
        spiral=(),
        robber=None if robber_v == "off" else "desert",
        pirate=None,
        victory_points=_get(data, "victory_points", int, path),
        notes=tuple(notes),
        players=_get(data, "players", str, path, ""),
        oil=_parse_oil(data, path),
        source="board-file",
        frame=frame,
    )
