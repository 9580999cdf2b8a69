"""The board: immutable values and the ``setupgen.board/1`` JSON format
(``docs/format.md``).

Coordinates are axial ``(q, r)``; tiles are kept in reading order (row by
row from the top, left to right), harbors sorted by hex.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii as _encode  # what json.dumps(ensure_ascii=True) writes
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from . import atomic
from .balance import Limits
from .data import read_text
from .errors import BoardFormatError, SetupgenError, quoted
from .fields import JSON_NAMES, MISSING, Fields
from .hexgrid import Hex, corners, neighbor, row_order
from .rules import HARBOR_METHODS, HARBOR_TYPES, KINDS, NUMBER_METHODS, NUMBERS, PIECE_KINDS, TERRAINS
from .setupid import SetupId, encode

FORMAT = "setupgen.board/1"


@dataclass(frozen=True, slots=True)
class Tile:
    """One hex of a board: its kind (``land``/``sea``/``frame``), terrain,
    number token (or None), whether it lies face down, and whether it
    carries an oil spring."""

    hex: Hex
    kind: str
    terrain: str
    number: int | None = None
    hidden: bool = False
    oil_spring: bool = False


@dataclass(frozen=True, slots=True)
class Harbor:
    """A harbor on sea hex ``hex`` serving the edge towards direction
    ``facing`` (0-5); ``type`` is ``"3:1"`` or a resource (2:1)."""

    hex: Hex
    facing: int
    type: str


@dataclass(frozen=True, slots=True)
class Piece:
    """A scenario piece the map carries at the start (docs/rules.md
    section 4b): ``kind`` one of :data:`setupgen.core.rules.PIECE_KINDS`,
    standing on corner ``corner`` (0-5, an intersection:
    :func:`setupgen.core.hexgrid.corners`) of hex ``hex`` (axial ``(q,
    r)``), on its edge towards ``facing`` (0-5,
    :func:`setupgen.core.hexgrid.neighbor`), or, with neither, on the hex
    itself (:data:`setupgen.core.rules.PIECE_SPOTS` says which). ``number``:
    the roll on which it hands out; ``count``: the chits it holds at the
    start; ``player``: the player set (1-4) it belongs to; ``order``: its
    place in a sequence (the pirate fleet's path, 1 its start). Each None
    where the kind has none."""

    kind: str
    hex: Hex
    corner: int | None = None
    facing: int | None = None
    number: int | None = None
    count: int | None = None
    player: int | None = None
    order: int | None = None

    @property
    def spot(self) -> frozenset[Hex]:
        """Where it stands, the same whichever hex names it: the three hexes
        meeting at its intersection, the two beside its edge, or its hex."""
        if self.corner is not None:
            return corners(self.hex)[self.corner]
        if self.facing is not None:
            return frozenset((self.hex, neighbor(self.hex, self.facing)))
        return frozenset((self.hex,))


@dataclass(frozen=True, slots=True)
class BalanceRecord:
    """How a board made under balance limits was found: the ``limits`` it
    meets and the ``attempt`` (0-based) of the seed's attempt stream that
    met them first (``docs/balance.md``; recorded in the board JSON as the
    added field ``balance``)."""

    limits: Limits
    attempt: int

    def to_dict(self) -> dict[str, Any]:
        return {"limits": self.limits.to_dict(), "preset": self.limits.preset, "attempt": self.attempt}


def hides_sea(tiles: Iterable[Tile]) -> bool:
    """Whether one of ``tiles`` is a face-down hex hiding sea (a fog hex of
    The Fog Islands; docs/rules.md section 4b)."""
    return any(t.hidden and t.terrain == "sea" for t in tiles)


@dataclass(frozen=True, slots=True)
class Board:
    """A complete board. ``seed`` is None when the board was regenerated from
    its setup ID alone (the seed text is not recoverable from the ID).
    ``balance``: how a board made under balance limits was found (None:
    made without limits).

    A generator builds its boards with :meth:`from_generated`: the hex
    index is then made on the first :meth:`tile` call, the setup ID text
    and the tiles on the first read of ``setup_id`` and ``tiles``; the
    board is the same value either way (equality, ``repr``, JSON)."""

    scenario: str
    seed: str | None
    setup_id: str
    number_method: str
    harbor_method: str
    tiles: tuple[Tile, ...]
    harbors: tuple[Harbor, ...] = ()
    robber: Hex | None = None
    pirate: Hex | None = None
    balance: BalanceRecord | None = None
    #: the scenario's pieces on the map at the start, in the layout's order (most scenarios: none)
    pieces: tuple[Piece, ...] = ()
    _index: Mapping[Hex, Tile] | None = field(default=None, init=False, compare=False, repr=False)
    #: whether the face-down numbers lie face down too (:meth:`table_number`), made on first use
    _covered: bool | None = field(default=None, init=False, compare=False, repr=False)
    #: a generated board's setup ID before its text is made
    _sid: SetupId | tuple[str, str, str, int] | None = field(default=None, init=False, compare=False, repr=False)
    #: a generated board's tiles as codes of its layout's :class:`TileTable`
    _codes: tuple[int, ...] | None = field(default=None, init=False, compare=False, repr=False)
    _table: TileTable | None = field(default=None, init=False, compare=False, repr=False)
    #: a generated board's harbors as one-line JSON (the ``harbors`` array's items)
    _harbors_json: str | None = field(default=None, init=False, compare=False, repr=False)

    @classmethod
    def from_generated(
        cls,
        scenario: str,
        seed: str | None,
        setup_id: SetupId | tuple[str, str, str, int] | str,
        number_method: str,
        harbor_method: str,
        table: TileTable,
        codes: Sequence[int],
        harbors: tuple[Harbor, ...],
        harbors_json: str,
        robber: Hex | None,
        pirate: Hex | None,
        balance: BalanceRecord | None = None,
        pieces: tuple[Piece, ...] = (),
    ) -> Board:
        """A board as a generator made it, without checking it again: tile
        ``i`` is ``table.tile(i, codes[i])``; ``harbors`` are sorted by hex
        (row, then column, then facing) and ``harbors_json`` is their
        one-line JSON items joined by commas (what :meth:`to_json` would
        write). ``setup_id``: its text, or a :class:`SetupId` or the
        ``(code, number method, harbor method, digest)`` of one, whose text
        is made when first read (:func:`setupgen.core.setupid.encode`), as
        the ``tiles`` tuple is (a JSON line needs neither the tiles nor the
        index)."""
        board = object.__new__(cls)
        put = object.__setattr__
        codes = tuple(codes)
        if isinstance(setup_id, str):
            put(board, "setup_id", setup_id)
            put(board, "_sid", None)
        else:
            put(board, "_sid", setup_id)
        put(board, "scenario", scenario)
        put(board, "seed", seed)
        put(board, "number_method", number_method)
        put(board, "harbor_method", harbor_method)
        put(board, "harbors", harbors)
        put(board, "robber", robber)
        put(board, "pirate", pirate)
        put(board, "balance", balance)
        put(board, "pieces", pieces)
        put(board, "_index", None)
        put(board, "_covered", None)
        put(board, "_codes", codes)
        put(board, "_table", table)
        put(board, "_harbors_json", harbors_json)
        return board

    def __getattr__(self, name: str) -> Any:
        # only reached for a slot not yet set: a generated board's setup_id or tiles
        if name == "setup_id":
            sid = object.__getattribute__(self, "_sid")
            value: Any = encode(*sid) if type(sid) is tuple else str(sid)
        elif name == "tiles":
            value = object.__getattribute__(self, "_table").tiles(object.__getattribute__(self, "_codes"))
        else:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        object.__setattr__(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"setupgen.Board.from_json({self.to_json(indent=None)!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickle and copy the board's value, not its layout's shared tables
        return (
            Board,
            (
                self.scenario,
                self.seed,
                self.setup_id,
                self.number_method,
                self.harbor_method,
                self.tiles,
                self.harbors,
                self.robber,
                self.pirate,
                self.balance,
                self.pieces,
            ),
        )

    def tile(self, h: Hex) -> Tile | None:
        """The tile at ``h`` or None."""
        index = self._index
        if index is None:
            index = MappingProxyType({t.hex: t for t in self.tiles})
            object.__setattr__(self, "_index", index)
        return index.get(h)

    @property
    def numbers_covered(self) -> bool:
        """Whether the tokens of this board's face-down hexes lie face down
        too: when a face-down hex hides sea (The Fog Islands), for a number
        there would tell land from sea (docs/rules.md section 4b)."""
        covered = self._covered
        if covered is None:
            covered = hides_sea(self.tiles)
            object.__setattr__(self, "_covered", covered)
        return covered

    def table_number(self, t: Tile) -> int | None:
        """The number token a table sees on tile ``t`` of this board: its
        own, none on a face-down hex when :attr:`numbers_covered`."""
        return None if t.hidden and self.numbers_covered else t.number

    def numbers(self) -> dict[Hex, int]:
        """Hex -> number token for every tile that has one."""
        return {t.hex: t.number for t in self.tiles if t.number is not None}

    def with_balance(self, record: BalanceRecord) -> Board:
        """This board with ``balance`` set to ``record`` (a generated board
        stays one: its JSON is written as fast)."""
        if self._table is None or self._codes is None or self._harbors_json is None:
            return dataclasses.replace(self, balance=record)
        sid = self.setup_id if self._sid is None else self._sid
        return Board.from_generated(
            self.scenario,
            self.seed,
            sid,
            self.number_method,
            self.harbor_method,
            self._table,
            self._codes,
            self.harbors,
            self._harbors_json,
            self.robber,
            self.pirate,
            record,
            self.pieces,
        )

    # -- JSON ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The board as a docs/format.md document (plain dicts and lists, keys in
        the fixed order of docs/format.md)."""
        return {
            "format": FORMAT,
            "scenario": self.scenario,
            "seed": self.seed,
            "setup_id": self.setup_id,
            "number_method": self.number_method,
            "harbor_method": self.harbor_method,
            "hexes": [_tile_dict(t) for t in self.tiles],
            "harbors": [_harbor_dict(h) for h in self.harbors],
            "robber": None if self.robber is None else {"q": self.robber[0], "r": self.robber[1]},
            "pirate": None if self.pirate is None else {"q": self.pirate[0], "r": self.pirate[1]},
            **({"pieces": [_piece_dict(p) for p in self.pieces]} if self.pieces else {}),
            **({} if self.balance is None else {"balance": self.balance.to_dict()}),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """docs/format.md JSON text: fixed key order, ASCII only, ``\\n`` line ends,
        no trailing newline. ``indent=None`` gives one line (for JSONL); a
        generated board's line is put together from its layout's
        precomputed pieces (:class:`TileTable`), the same text as
        ``json.dumps`` of :meth:`to_dict` gives."""
        if indent is None and self._table is not None and self._codes is not None and self._harbors_json is not None:
            return self._line()
        if indent is None:
            return _one_line(self.to_dict())
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=True, separators=(",", ": "))

    def _line(self) -> str:
        """The one-line JSON of a generated board (see :meth:`to_json`)."""
        assert self._table is not None and self._codes is not None and self._harbors_json is not None
        enc = _encode
        return "".join(
            (
                '{"format":"',
                FORMAT,
                '","scenario":',
                enc(self.scenario),
                ',"seed":',
                "null" if self.seed is None else enc(self.seed),
                ',"setup_id":',
                enc(self.setup_id),
                ',"number_method":',
                enc(self.number_method),
                ',"harbor_method":',
                enc(self.harbor_method),
                ',"hexes":[',
                self._table.json(self._codes),
                '],"harbors":[',
                self._harbors_json,
                '],"robber":',
                _hex_json(self.robber),
                ',"pirate":',
                _hex_json(self.pirate),
                ',"pieces":' + _one_line([_piece_dict(p) for p in self.pieces]) if self.pieces else "",
                "}" if self.balance is None else ',"balance":' + _one_line(self.balance.to_dict()) + "}",
            )
        )

    @classmethod
    def from_json(cls, text: str) -> Board:
        """Parse docs/format.md JSON. Raises :class:`BoardFormatError` naming the
        first problem."""
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BoardFormatError(f"not valid json: {str(exc)[:1].lower()}{str(exc)[1:]}") from None
        except RecursionError:
            raise BoardFormatError("not a board: json nested too deeply") from None
        except ValueError as exc:  # an integer with thousands of digits
            why = "a number has more than 4300 digits" if "digits" in str(exc) else str(exc).lower()
            raise BoardFormatError(f"not valid json: {why}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Board:
        """Build a board from a parsed docs/format.md document. Raises
        :class:`BoardFormatError`."""
        if not isinstance(data, dict):
            raise BoardFormatError("a board document must be a json object")
        if data.get("format") != FORMAT:
            got = "it is missing" if "format" not in data else f"got {quoted(data['format'])}"
            raise BoardFormatError(f"format: must be {FORMAT!r}; {got}")
        scenario = _text(_field(data, "scenario", str), "scenario")
        seed = _field(data, "seed", (str, type(None)))
        if seed is not None:
            _text(seed, "seed")
        setup_id = _text(_field(data, "setup_id", str), "setup_id")
        number_method = _field(data, "number_method", str)
        if number_method not in NUMBER_METHODS:
            raise BoardFormatError(f"number_method: unknown method {quoted(number_method)}")
        harbor_method = _field(data, "harbor_method", str)
        if harbor_method not in HARBOR_METHODS:
            raise BoardFormatError(f"harbor_method: unknown method {quoted(harbor_method)}")
        tiles: dict[Hex, Tile] = {}
        for i, item in enumerate(_field(data, "hexes", list)):
            tile = _quick_tile(item) or _checked_tile(item, f"hexes[{i}]")
            if tile.hex in tiles:
                raise BoardFormatError(f"hexes[{i}]: hex ({tile.hex[0]}, {tile.hex[1]}) appears twice")
            tiles[tile.hex] = tile
        harbors = [
            _quick_harbor(item) or _checked_harbor(item, f"harbors[{i}]")
            for i, item in enumerate(_field(data, "harbors", list))
        ]
        robber = _opt_hex(data, "robber")
        pirate = _opt_hex(data, "pirate")
        record = _balance_record(data["balance"]) if data.get("balance") is not None else None
        pieces = tuple(
            _checked_piece(p, f"pieces[{i}]") for i, p in enumerate(_field(data, "pieces", list, default=[]))
        )

        return cls(
            scenario=scenario,
            seed=seed,
            setup_id=setup_id,
            number_method=number_method,
            harbor_method=harbor_method,
            tiles=tuple(tiles[h] for h in row_order(tiles)),
            harbors=tuple(sorted(harbors, key=lambda x: spot_order(x.hex, x.facing))),
            robber=robber,
            pirate=pirate,
            balance=record,
            pieces=pieces,
        )


def spot_order(h: Hex, facing: int) -> tuple[int, int, int]:
    """Where a harbor on sea hex ``h`` (axial) facing ``facing`` comes in a
    board's harbors (docs/format.md): by row, then column, then facing."""
    return (h[1], h[0], facing)


def _tile_dict(t: Tile) -> dict[str, Any]:
    """A hex entry of the board JSON."""
    return {
        "q": t.hex[0],
        "r": t.hex[1],
        "kind": t.kind,
        "terrain": t.terrain,
        "number": t.number,
        "hidden": t.hidden,
        "oil_spring": t.oil_spring,
    }


def _piece_dict(p: Piece) -> dict[str, Any]:
    """A piece entry of the board JSON (our extension of the shared format: docs/format.md)."""
    return {
        "kind": p.kind,
        "q": p.hex[0],
        "r": p.hex[1],
        "corner": p.corner,
        "facing": p.facing,
        "number": p.number,
        "count": p.count,
        "player": p.player,
        "order": p.order,
    }


def _harbor_dict(h: Harbor) -> dict[str, Any]:
    """A harbor entry of the board JSON."""
    return {"q": h.hex[0], "r": h.hex[1], "facing": h.facing, "type": h.type}


def _one_line(value: Any) -> str:
    """``value`` as one-line board JSON (the separators of ``to_json(indent=None)``)."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def harbor_json(h: Harbor) -> str:
    """A harbor's item in the one-line board JSON (``{"q":..,"r":..,"facing":..,"type":..}``)."""
    return _one_line(_harbor_dict(h))


def _hex_json(h: Hex | None) -> str:
    """The robber's or pirate's one-line JSON (``null`` or ``{"q":..,"r":..}``)."""
    if h is None:
        return "null"
    if type(h[0]) is int and type(h[1]) is int:  # json writes an int as its repr
        return f'{{"q":{h[0]!r},"r":{h[1]!r}}}'
    return _one_line({"q": h[0], "r": h[1]})


#: a tile's code in a :class:`TileTable`: its terrain's code (the index in
#: ``TERRAINS`` times ``CODE_TERRAIN``, :data:`TERRAIN_CODES`) plus its
#: number token (0: none) plus ``CODE_OIL`` for an oil spring
CODE_TERRAIN = 26
CODE_OIL = 13
TERRAIN_CODES: Mapping[str, int] = MappingProxyType({t: i * CODE_TERRAIN for i, t in enumerate(TERRAINS)})


class TileTable:
    """The tiles one layout's boards can hold, shared by every board made
    from it: tile ``(cell, code)`` is the tile at the layout's ``cell``-th
    hex (``hexes[cell]``, axial ``(q, r)``; its kind and face-down flag are
    the cell's, except that a face-up land cell dealt sea is a sea tile:
    The New World) with the terrain, number token and oil spring of ``code``
    (:data:`CODE_TERRAIN`), made on first use with its one-line JSON.
    Tiles are immutable, so sharing them is safe; a table holds at most
    ``len(hexes) * 208`` of them."""

    __slots__ = ("hexes", "kinds", "hidden", "_tiles", "_json")

    def __init__(self, hexes: Sequence[Hex], kinds: Sequence[str], hidden: Sequence[bool]) -> None:
        self.hexes = tuple(hexes)
        self.kinds = tuple(kinds)
        self.hidden = tuple(hidden)
        size = len(TERRAINS) * CODE_TERRAIN
        self._tiles: list[list[Tile | None]] = [[None] * size for _ in self.hexes]
        self._json: list[list[str | None]] = [[None] * size for _ in self.hexes]

    def tile(self, cell: int, code: int) -> Tile:
        """The tile of ``cell`` with ``code``. Raises ``IndexError`` for a
        cell or code out of range."""
        tile = self._tiles[cell][code]
        if tile is None:
            terrain, rest = divmod(code, CODE_TERRAIN)
            oil, number = divmod(rest, CODE_OIL)
            kind, hidden = self.kinds[cell], self.hidden[cell]
            if kind == "land" and not hidden and TERRAINS[terrain] == "sea":  # The New World: a hex dealt sea
                kind = "sea"
            tile = self._tiles[cell][code] = Tile(
                self.hexes[cell], kind, TERRAINS[terrain], number or None, hidden, oil == 1
            )
        return tile

    def tiles(self, codes: Sequence[int]) -> tuple[Tile, ...]:
        """The tiles of ``codes`` (one per cell, in cell order)."""
        tiles = tuple(map(list.__getitem__, self._tiles, codes))
        if all(tiles):  # a Tile is never false: None marks one not yet made
            return tiles  # type: ignore[return-value]
        return tuple(self.tile(i, c) for i, c in enumerate(codes))

    def json(self, codes: Sequence[int]) -> str:
        """The ``hexes`` array's items of one-line board JSON for ``codes``,
        joined by commas."""
        items = list(map(list.__getitem__, self._json, codes))
        if not all(items):  # an item is never empty: None marks one not yet made
            items = [self._json[i][c] or self._item(i, c) for i, c in enumerate(codes)]
        return ",".join(items)  # type: ignore[arg-type]

    def _item(self, cell: int, code: int) -> str:
        item = self._json[cell][code] = _one_line(_tile_dict(self.tile(cell, code)))
        return item


_KIND_SET = frozenset(KINDS)
_TERRAIN_SET = frozenset(TERRAINS)
_NUMBER_SET = frozenset(NUMBERS)
_HARBOR_TYPE_SET = frozenset(HARBOR_TYPES)
#: tiles and harbors already read, by their exactly typed values (they are
#: immutable, so boards share them; a board file or a JSON Lines stream
#: repeats a few hundred of them): reading one is a lookup
_SEEN: dict[tuple[Any, ...], Any] = {}
#: entries :data:`_SEEN` holds at most (then it starts afresh)
_SEEN_MAX = 20_000


def _quick_tile(item: Any) -> Tile | None:
    """The tile of a hex entry as ``json.loads`` gives a well-formed one
    (exact types, known values), or None for anything else, which
    :func:`_checked_tile` then accepts or names the problem of: the fast
    path of reading a board, with the same outcome. Types are checked
    before the lookup in :data:`_SEEN`, where ``True == 1``."""
    if type(item) is not dict:
        return None
    try:
        key = q, r, kind, terrain, number, hidden, oil = (
            item["q"],
            item["r"],
            item["kind"],
            item["terrain"],
            item["number"],
            item["hidden"],
            item["oil_spring"],
        )
    except KeyError:
        return None
    if not (
        type(q) is int
        and type(r) is int
        and type(kind) is str
        and type(terrain) is str
        and (number is None or type(number) is int)
        and type(hidden) is bool
        and type(oil) is bool
    ):
        return None
    tile = _SEEN.get(key)
    if tile is None:
        if not (
            -MAX_COORD <= q <= MAX_COORD
            and -MAX_COORD <= r <= MAX_COORD
            and kind in _KIND_SET
            and terrain in _TERRAIN_SET
            and (number is None or number in _NUMBER_SET)
        ):
            return None
        tile = _remember(key, Tile((q, r), kind, terrain, number, hidden, oil))
    return tile


T = TypeVar("T")


def _remember(key: tuple[Any, ...], value: T) -> T:
    if len(_SEEN) >= _SEEN_MAX:
        _SEEN.clear()
    _SEEN[key] = value
    return value


def _checked_tile(item: Any, where: str) -> Tile:
    """The tile of hex entry ``item`` (``where``: ``hexes[i]``). Raises
    :class:`BoardFormatError` naming the first problem."""
    h = _hex(item, where)
    kind = _field(item, "kind", str, where)
    if kind not in KINDS:
        raise BoardFormatError(f"{where}.kind: unknown kind {quoted(kind)}")
    terrain = _field(item, "terrain", str, where)
    if terrain not in TERRAINS:
        raise BoardFormatError(f"{where}.terrain: unknown terrain {quoted(terrain)}")
    number = _field(item, "number", (int, type(None)), where)
    if number is not None and number not in NUMBERS:
        raise BoardFormatError(f"{where}.number: {quoted(number)} is not a number token")
    hidden = _field(item, "hidden", bool, where)
    oil = _field(item, "oil_spring", bool, where)
    return Tile(h, kind, terrain, number, hidden, oil)


def _quick_harbor(item: Any) -> Harbor | None:
    """:func:`_quick_tile` for a harbor entry."""
    if type(item) is not dict:
        return None
    try:
        key = q, r, facing, htype = item["q"], item["r"], item["facing"], item["type"]
    except KeyError:
        return None
    if not (type(q) is int and type(r) is int and type(facing) is int and type(htype) is str):
        return None
    harbor = _SEEN.get(key)
    if harbor is None:
        if not (
            -MAX_COORD <= q <= MAX_COORD
            and -MAX_COORD <= r <= MAX_COORD
            and 0 <= facing < 6
            and htype in _HARBOR_TYPE_SET
        ):
            return None
        harbor = _remember(key, Harbor((q, r), facing, htype))
    return harbor


def _checked_harbor(item: Any, where: str) -> Harbor:
    """The harbor of entry ``item`` (``where``: ``harbors[i]``). Raises
    :class:`BoardFormatError` naming the first problem."""
    h = _hex(item, where)
    facing = _field(item, "facing", int, where)
    if not 0 <= facing < 6:
        raise BoardFormatError(f"{where}.facing: must be 0-5, got {quoted(facing)}")
    htype = _field(item, "type", str, where)
    if htype not in HARBOR_TYPES:
        raise BoardFormatError(f"{where}.type: unknown harbor type {quoted(htype)}")
    return Harbor(h, facing, htype)


def _checked_piece(item: Any, where: str) -> Piece:
    """The piece of entry ``item`` (``where``: ``pieces[i]``). Raises
    :class:`BoardFormatError` naming the first problem."""
    kind = _field(item, "kind", str, where)
    if kind not in PIECE_KINDS:
        raise BoardFormatError(f"{where}.kind: unknown piece {quoted(kind)} (known: {', '.join(PIECE_KINDS)})")
    h = _hex(item, where)
    values = {k: _field(item, k, (int, type(None)), where, None) for k in PIECE_RANGES}
    for key, (low, high) in PIECE_RANGES.items():
        v = values[key]
        if v is not None and not low <= v <= high:
            raise BoardFormatError(f"{where}.{key}: must be {low}-{high} or null, got {quoted(v)}")
    if values["number"] is not None and values["number"] not in NUMBERS:
        raise BoardFormatError(f"{where}.number: must be 2-12 without 7, or null; got {values['number']}")
    if values["corner"] is not None and values["facing"] is not None:
        raise BoardFormatError(f"{where}: a piece stands on a corner, an edge or a hex: not both corner and facing")
    return Piece(kind, h, **values)


#: the whole-number fields of a piece and their ranges
PIECE_RANGES = {
    "corner": (0, 5),
    "facing": (0, 5),
    "number": (2, 12),
    "count": (0, 99),
    "player": (1, 4),
    "order": (1, 99),
}
#: the most chits a piece may hold (a village's cloth: 5)
MAX_PIECE_COUNT = PIECE_RANGES["count"][1]


def _balance_record(item: Any) -> BalanceRecord:
    """The added field ``balance`` (docs/balance.md): limits and attempt."""
    if not isinstance(item, dict):
        raise BoardFormatError("balance: expected an object with limits, preset and attempt")
    attempt = item.get("attempt")
    if type(attempt) is not int or not 0 <= attempt <= 10**9:
        raise BoardFormatError(f"balance.attempt: expected a whole number >= 0, got {quoted(attempt)}")
    limits = item.get("limits")
    preset = item.get("preset")
    if not isinstance(limits, dict) or not (preset is None or isinstance(preset, str) and len(preset) <= 200):
        raise BoardFormatError("balance: expected limits (an object) and preset (a name or null)")
    try:
        return BalanceRecord(Limits.from_dict(limits, preset=preset), attempt)
    except SetupgenError as exc:
        raise BoardFormatError(f"balance.limits: {exc}") from None


def read_board(path: str | Path) -> Board:
    """The board in file ``path`` (``docs/format.md`` JSON, UTF-8, a
    byte-order mark allowed; a regular file). Raises
    :class:`BoardFormatError` for an unreadable or malformed file."""
    try:
        text = read_text(path, "board file")
    except SetupgenError as exc:
        raise BoardFormatError(str(exc)) from None
    try:
        return Board.from_json(text)
    except BoardFormatError as exc:
        raise BoardFormatError(f"{path}: {exc}") from None


def write_board(board: Board, path: str | Path) -> None:
    """Write ``board`` as ``docs/format.md`` JSON (with a final newline) to
    ``path``, atomically. Raises :class:`~setupgen.core.atomic.OutputError`."""
    atomic.write_text(path, board.to_json() + "\n")


def _field(data: Any, key: str, typ: Any, where: str = "", default: Any = MISSING) -> Any:
    """``data[key]`` of a board document checked by the shared reader
    (:class:`~setupgen.core.fields.Fields`, JSON type names); ``where``
    the object's dotted key (``hexes[3]``), empty at the top. Raises
    :class:`BoardFormatError` (``hexes[3].number: expected an integer or
    null, got a string``)."""
    return _BOARD_FIELDS.get(
        _BOARD_FIELDS.table(data, where or "document", "expected an object"),
        key,
        typ,
        default,
        where=f"{where}." if where else "",
    )


_BOARD_FIELDS = Fields(lambda where, problem: BoardFormatError(f"{where}: {problem}"), names=JSON_NAMES)


def _text(value: str, key: str) -> str:
    """A text field of at most 200 printable characters."""
    if len(value) > 200 or not value.isprintable():
        raise BoardFormatError(f"{key}: {quoted(value)} is not a short line of text")
    return value


#: how far from (0, 0) a board's hexes may lie (a real board spans under 10)
MAX_COORD = 100


def _hex(item: Any, where: str) -> Hex:
    q, r = _field(item, "q", int, where), _field(item, "r", int, where)
    if abs(q) > MAX_COORD or abs(r) > MAX_COORD:
        raise BoardFormatError(
            f"{where}: hex ({quoted(q, 20)}, {quoted(r, 20)}) is more than {MAX_COORD} steps from (0, 0)"
        )
    return (q, r)


def _opt_hex(data: dict[str, Any], key: str) -> Hex | None:
    value = _field(data, key, (dict, type(None)))
    return None if value is None else _hex(value, key)
