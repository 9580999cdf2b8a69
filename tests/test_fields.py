"""The one typed reader of data files (setupgen/core/fields.py): its
checks and words, and that the board, layout, tournament and almanac
loaders speak through it (each loader's own prefix kept)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from setupgen.core import almanac, layout
from setupgen.core.board import Board
from setupgen.core.errors import BoardFormatError, LayoutError, SetupgenError
from setupgen.core.fields import JSON_NAMES, Fields
from setupgen.tournament import model

ROOT = Path(__file__).resolve().parent.parent


class Problem(ValueError):
    pass


F = Fields(lambda where, problem: Problem(f"doc: {where}: {problem}"))
J = Fields(lambda where, problem: Problem(f"{where}: {problem}"), names=JSON_NAMES, unknown="field")


@pytest.mark.parametrize(
    "fields, table, key, typ, message",
    [
        (F, {}, "seed", str, "doc: final.seed: missing"),
        (F, {"seed": 3}, "seed", str, "doc: final.seed: expected str, got int"),
        (F, {"seed": True}, "seed", int, "doc: final.seed: expected int, got bool"),
        (F, {"seed": True}, "seed", (int, float), "doc: final.seed: expected int or float, got bool"),
        (F, {"seed": 1.5}, "seed", (int, type(None)), "doc: final.seed: expected int or NoneType, got float"),
        (J, {"seed": "x"}, "seed", (int, type(None)), "final.seed: expected an integer or null, got a string"),
        (J, {"seed": 1}, "seed", bool, "final.seed: expected true/false, got an integer"),
        (J, {"seed": {}}, "seed", list, "final.seed: expected a list, got an object"),
    ],
)
def test_a_wrong_value_is_named_by_key_and_type(fields, table, key, typ, message):
    with pytest.raises(Problem) as caught:
        fields.get(table, key, typ, where="final.")
    assert str(caught.value) == message


def test_values_of_the_right_type_and_defaults_come_back():
    assert F.get({"n": 3}, "n", int) == 3 and F.get({"b": False}, "b", bool) is False
    assert F.get({}, "n", int, None) is None and F.get({}, "n", int, []) == []
    assert F.get({"n": None}, "n", (int, type(None))) is None and F.get({"x": 2}, "x", (int, float)) == 2


def test_unknown_keys_tables_lists_and_ranges():
    with pytest.raises(Problem, match=r"^doc: rounds\.bar: unknown key \(known: foo, scenario\)$"):
        F.known({"scenario": 1, "zoo": 2, "bar": 3}, frozenset({"scenario", "foo"}), "rounds.")
    with pytest.raises(Problem, match=r"^zoo: unknown field \(known: key, count, source\)$"):
        J.known({"zoo": 1}, ("key", "count", "source"))  # a tuple keeps its order
    assert F.known({"a": 1}, {"a", "b"}) is None
    assert F.table({"a": 1}, "x") == {"a": 1}
    with pytest.raises(Problem, match=r"^doc: scenario\.base: expected a table$"):
        F.table([], "scenario.base")
    with pytest.raises(Problem, match=r"^doc: document: none$"):
        F.items([], "document", "none", empty=False)
    assert F.items([1], "d", "none") == [1] and F.texts([], "s", "names") == []
    for bad in ([1], "ab", None):
        with pytest.raises(Problem, match="names"):
            F.texts(bad, "s", "names")
    with pytest.raises(Problem, match="names"):
        F.texts([], "s", "names", empty=False)
    assert F.whole(0, "n", 0, 100) == 0 and F.whole(100, "n", 0, 100) == 100
    for bad in (-1, 101, True, 1.0, "5"):
        with pytest.raises(Problem, match=r"^doc: n: expected a whole number 0-100$"):
            F.whole(bad, "n", 0, 100)


json_values = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats(allow_nan=False) | hs.text(),
    lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(hs.text(), inner, max_size=3),
    max_leaves=8,
)


@given(
    hs.dictionaries(hs.sampled_from(["a", "b", "c"]), json_values, max_size=3),
    hs.sampled_from([str, int, bool, list, dict, (int, type(None))]),
)
def test_the_reader_gives_a_value_of_the_type_or_its_one_error(table, typ):
    try:
        value = J.get(table, "a", typ)
    except Problem as exc:
        assert str(exc).startswith("a: ") and "\n" not in str(exc)
        return
    types = typ if isinstance(typ, tuple) else (typ,)
    assert isinstance(value, types) and (bool in types or not isinstance(value, bool))


# ------------------------------------------------------------------ the loaders speak through it


def test_a_board_document_names_the_key_in_json_words():
    from setupgen import from_seed

    data = json.loads(from_seed("base-3-4", "fields").to_json())
    data["hexes"][2]["number"] = "8"
    with pytest.raises(BoardFormatError, match=r"^hexes\[2\]\.number: expected an integer or null, got a string$"):
        Board.from_dict(data)
    data["hexes"][2] = 5
    with pytest.raises(BoardFormatError, match=r"^hexes\[2\]: expected an object$"):
        Board.from_dict(data)


def test_a_layout_file_names_its_path_and_key(tmp_path):
    text = (ROOT / "layouts" / "base-3-4.toml").read_text(encoding="utf-8")
    path = tmp_path / "base-3-4.toml"
    assert "victory_points = 10" in text
    path.write_text(text.replace("victory_points = 10", "victory_points = true", 1), encoding="utf-8")
    with pytest.raises(LayoutError, match=r"base-3-4\.toml: victory_points: expected int, got bool$"):
        layout.Layout.from_file(path)


def test_a_tournament_file_names_its_path_and_key(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text('name = "T"\nseed = 5\nplayers = "p.csv"\n', encoding="utf-8")
    (tmp_path / "p.csv").write_text("id,name\na,A\nb,B\nc,C\nd,D\n", encoding="utf-8")
    with pytest.raises(model.TournamentError, match=r"t\.toml: seed: expected str, got int$"):
        model.load(path)
    path.write_text('name = "T"\nseed = "s"\nplayers = "p.csv"\ncolour = 1\n', encoding="utf-8")
    with pytest.raises(model.TournamentError, match=r"t\.toml: colour: unknown key \(known: "):
        model.load(path)


def test_almanac_data_names_its_file_and_key(tmp_path):
    folder = tmp_path / "almanac"
    shutil.copytree(almanac.almanac_dir(), folder)
    text = (folder / "sources.toml").read_text(encoding="utf-8")
    (folder / "sources.toml").write_text(text + '\n[[document]]\nname = "X"\ncolour = 1\n', encoding="utf-8")
    with pytest.raises(
        SetupgenError,
        match=r"sources\.toml: document\[5\]\.colour: unknown field "
        r"\(known: name, seed, lang\)$",
    ):
        almanac.source_documents(folder)
