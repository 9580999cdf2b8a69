"""Boards as the generator builds them (issue 29): ``Board.from_generated``
with its lazy index and setup ID text and its one-line JSON put together
from a layout's prepared pieces must be the same value, the same JSON and
the same pickle as a board built the ordinary way. The oracles are the
standard library's ``json.dumps`` over ``to_dict()`` and boards read back
with ``Board.from_json`` (which build their own tiles and never see the
generator's tables)."""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setupgen import generate
from setupgen.core import layout as layoutmod
from setupgen.core.balance import Limits
from setupgen.core.board import CODE_OIL, TERRAIN_CODES, Board, Harbor, Tile, TileTable
from setupgen.render import export

#: every shipped generated scenario with every method it accepts
COMBOS = [
    ("base-3-4", "swap", "shuffled"),
    ("base-3-4", "uniform", "free"),
    ("base-3-4", "spiral", "players"),
    ("base-5-6", "swap", "shuffled"),
    ("base-5-6", "spiral", "free"),
    ("cities-knights", "swap", "shuffled"),
    ("seafarers-sm2010", "swap", "free"),
    ("seafarers-sm2010", "uniform", "players"),
    ("oil-springs", "swap", "shuffled"),
    ("oil-springs-5-6", "swap", "free"),
]


def dumps_line(board: Board) -> str:
    """The one-line JSON the standard library writes for ``board.to_dict()``."""
    return json.dumps(board.to_dict(), ensure_ascii=True, separators=(",", ":"))


def sha_id(code: str, numbers: str, harbors: str, seed: str) -> str:
    """The setup ID of docs/format.md worked out here, independently of
    setupgen.core.setupid: the digest, Crockford base 32, Luhn mod 32."""
    return id_of(code, numbers, harbors, int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big") >> 9)


def id_of(code: str, numbers: str, harbors: str, digest: int) -> str:
    """The setup ID text of a digest, character by character."""
    alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    body = "".join(alphabet[(digest >> (5 * k)) & 31] for k in range(10, -1, -1))
    head = (
        code
        + {"swap": "S", "spiral": "P", "uniform": "U"}[numbers]
        + {"shuffled": "S", "free": "F", "players": "P", "fixed": "X"}[harbors]
    )
    values = [alphabet.index(c) if c in alphabet else ord(c) % 32 for c in head + body]
    total = 0
    for k, v in enumerate(reversed(values)):
        a = v * (2 if k % 2 == 0 else 1)
        total += a // 32 + a % 32
    body += alphabet[-total % 32]
    return f"{head}-{body[:4]}-{body[4:8]}-{body[8:]}"


@pytest.mark.parametrize("scenario,numbers,harbors", COMBOS)
def test_generated_json_is_the_standard_encoders(scenario, numbers, harbors):
    lay = layoutmod.load(scenario)
    for i in range(60):
        board = generate.from_seed(lay, f"fast/{i}", numbers, harbors)
        line = board.to_json(indent=None)
        assert line == dumps_line(board)
        again = Board.from_json(line)  # an ordinary board: no prepared pieces
        assert again == board and hash(again) == hash(board)
        assert again.to_json(indent=None) == line and again.to_json() == board.to_json()
        assert repr(again) == repr(board)
        assert board.setup_id == sha_id(lay.code, numbers, harbors, f"fast/{i}")


def test_setup_id_text_is_made_on_first_read_and_kept():
    board = generate.from_seed("base-3-4", "lazy")
    with pytest.raises(AttributeError):
        object.__getattribute__(board, "setup_id")  # not made yet
    assert board.setup_id == sha_id("B4", "swap", "shuffled", "lazy")
    assert object.__getattribute__(board, "setup_id") == board.setup_id
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        board.nonsense  # noqa: B018
    regenerated = generate.from_setup_id(board.setup_id)
    assert regenerated.tiles == board.tiles and regenerated.harbors == board.harbors
    assert regenerated.to_json(indent=None) == dumps_line(regenerated)
    assert regenerated.seed is None and regenerated.setup_id == board.setup_id


def test_tile_index_is_made_on_first_use():
    board = generate.from_seed("seafarers-sm2010", "index")
    with pytest.raises(AttributeError):
        object.__getattribute__(board, "tiles")  # not made yet
    assert len(board.tiles) == 52 and object.__getattribute__(board, "tiles") is board.tiles
    for t in board.tiles:
        assert board.tile(t.hex) is t
    assert board.tile((99, 99)) is None


def test_generate_without_a_seed_keeps_an_empty_setup_id():
    board = generate.generate(layoutmod.load("base-5-6"), random.Random(5))
    assert board.setup_id == "" and board.seed is None
    assert board.to_json(indent=None) == dumps_line(board)
    assert '"setup_id":""' in board.to_json(indent=None)


def test_balanced_boards_write_the_same_json():
    lay = layoutmod.load("base-3-4")
    limits = Limits(max_intersection_pips=11)
    for i in range(20):
        board = generate.from_seed_within(lay, f"bal/{i}", limits)
        assert board.balance is not None and board.balance.limits == limits
        line = board.to_json(indent=None)
        assert line == dumps_line(board) and '"balance":{' in line
        assert Board.from_json(line) == board


def test_pickle_and_copy_keep_the_value_not_the_tables():
    board = generate.from_seed("base-5-6", "pickle")
    data = pickle.dumps(board)
    assert len(data) < 4000  # the value only: not the layout's tile tables
    for other in (pickle.loads(data), copy.copy(board), copy.deepcopy(board)):
        assert other == board and other.setup_id == board.setup_id
        assert other.to_json(indent=None) == board.to_json(indent=None)


def test_replace_makes_an_ordinary_board():
    import dataclasses

    board = generate.from_seed("base-3-4", "replace")
    moved = dataclasses.replace(board, robber=None)
    assert moved.robber is None and moved.setup_id == board.setup_id
    assert moved.to_json(indent=None) == dumps_line(moved)
    assert '"robber":null' in moved.to_json(indent=None)


def test_tile_table_codes_worked_by_hand():
    table = TileTable([(0, 0), (1, 0)], ["land", "sea"], [True, False])
    hills_8_oil = table.tile(0, TERRAIN_CODES["hills"] + 8 + CODE_OIL)
    assert hills_8_oil == Tile((0, 0), "land", "hills", 8, True, True)
    desert = table.tile(0, TERRAIN_CODES["desert"])
    assert desert == Tile((0, 0), "land", "desert", None, True, False)
    sea = table.tile(1, TERRAIN_CODES["sea"])
    assert sea == Tile((1, 0), "sea", "sea", None, False, False)
    assert table.tile(0, TERRAIN_CODES["hills"] + 8 + CODE_OIL) is hills_8_oil  # made once, shared
    codes = [TERRAIN_CODES["forest"] + 12, TERRAIN_CODES["sea"]]
    assert table.tiles(codes) == (Tile((0, 0), "land", "forest", 12, True, False), sea)
    assert table.json(codes) == (
        '{"q":0,"r":0,"kind":"land","terrain":"forest","number":12,"hidden":true,"oil_spring":false},'
        '{"q":1,"r":0,"kind":"sea","terrain":"sea","number":null,"hidden":false,"oil_spring":false}'
    )


def test_from_generated_worked_by_hand():
    table = TileTable([(0, 0), (1, 0)], ["land", "sea"], [False, False])
    harbor = Harbor((1, 0), 3, "wool")
    item = '{"q":1,"r":0,"facing":3,"type":"wool"}'
    board = Board.from_generated(
        "tiny",
        "s",
        "",
        "swap",
        "shuffled",
        table,
        [TERRAIN_CODES["hills"] + 6, TERRAIN_CODES["sea"]],
        (harbor,),
        item,
        (0, 0),
        None,
    )
    plain = Board(
        "tiny",
        "s",
        "",
        "swap",
        "shuffled",
        (Tile((0, 0), "land", "hills", 6), Tile((1, 0), "sea", "sea")),
        (harbor,),
        (0, 0),
        None,
    )
    assert board == plain and board.to_json(indent=None) == plain.to_json(indent=None)
    assert board.to_json(indent=None) == dumps_line(plain)


def test_jsonl_lines_are_the_standard_encoders():
    lines = list(export.iter_jsonl("seafarers-sm2010", "stream", 30))
    for i, line in enumerate(lines, start=1):
        board = Board.from_json(line)
        assert line == dumps_line(board) + "\n"
        assert board.seed == f"stream/{i}"


@settings(max_examples=60, deadline=None)
@given(seed=st.text(min_size=1, max_size=40).filter(str.isprintable), combo=st.sampled_from(COMBOS))
def test_any_seed_gives_the_standard_json(seed, combo):
    scenario, numbers, harbors = combo
    board = generate.from_seed(scenario, seed, numbers, harbors)
    line = board.to_json(indent=None)
    assert line == dumps_line(board)
    assert line.isascii()
    assert Board.from_json(line) == board


@settings(max_examples=300, deadline=None)
@given(
    digest=st.integers(0, 2**55 - 1),
    code=st.text(alphabet="0123456789ABCDEFGHJKMNPQRSTVWXYZ!x", min_size=2, max_size=2),
    numbers=st.sampled_from(["swap", "spiral", "uniform"]),
    harbors=st.sampled_from(["shuffled", "free", "players", "fixed"]),
)
def test_setup_id_text_matches_an_encoder_written_char_by_char(digest, code, numbers, harbors):
    from setupgen.core import setupid

    text = setupid.encode(code, numbers, harbors, digest)
    assert text == id_of(code, numbers, harbors, digest)
    if code.isalnum() and code.upper() == code:
        assert setupid.decode(text).digest == digest
