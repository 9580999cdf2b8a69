"""Every rule ``check`` reports, each with a hand-made illegal board and the
exact violation expected (rule, message, hexes, severity), worked out by
hand from the board data below, never by the code under test. The boards
start from pinned data: the golden base board (tests/golden), boards of
fixed seeds (pinned by tests/test_streams.py) and the test fixtures; each
case changes one thing.

The pinned base board ``base-3-4-demo`` (land, axial q r terrain number)::

    (0,-2) pasture 4   (1,-2) forest 6   (2,-2) pasture 5
    (-1,-1) hills 11   (0,-1) hills 3    (1,-1) fields 2   (2,-1) fields 3
    (-2,0) fields 4    (-1,0) mountains 8  (0,0) desert    (1,0) hills 9  (2,0) fields 8
    (-2,1) pasture 11  (-1,1) forest 10  (0,1) forest 6   (1,1) forest 10
    (-2,2) mountains 9 (-1,2) mountains 5  (0,2) pasture 12

harbors (shuffled): (1,-3) f4 3:1, (3,-3) f4 wool, (-1,-2) f0 3:1,
(3,-1) f3 lumber, (-3,0) f0 3:1, (2,1) f2 ore, (-3,2) f0 brick,
(-2,3) f1 3:1, (0,3) f2 grain; robber (0,0).
"""

import json
import re
from pathlib import Path

import setupgen
from setupgen import check as checkmod
from setupgen.core import rules
from setupgen.generate import fixed

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "base-3-4-demo.json"
FIXTURE = ROOT / "tests" / "fixtures" / "oil-fixed-test-board.toml"
E, N = "error", "note"


def base() -> dict:
    return json.loads(GOLDEN.read_text())


def doc_of(scenario: str, seed: str = "rules") -> dict:
    return json.loads(setupgen.from_seed(scenario, seed).to_json())


def hexdoc(doc: dict, q: int, r: int) -> dict:
    return next(h for h in doc["hexes"] if (h["q"], h["r"]) == (q, r))


def found(doc: dict, layout=None, severity: str = E) -> list[tuple]:
    board = setupgen.Board.from_dict(doc)
    out = [(v.rule, v.message, v.hexes, v.severity) for v in checkmod.check(board, layout) if v.severity == severity]
    return out


def free(doc: dict) -> dict:
    """The base board's harbors judged as free harbors (they all lie on
    coast edges and keep apart, so the free rules see nothing wrong)."""
    doc["harbor_method"] = "free"
    return doc


# -- the pinned boards are legal (precondition of every case below) --------


def test_starting_boards_are_legal():
    assert found(base()) == []
    assert found(free(base())) == []
    assert found(doc_of("seafarers-sm2010")) == []
    assert found(doc_of("oil-springs")) == []


# -- hexes against the layout (docs/rules.md section 1) ---------------------


def test_hex_missing():
    doc = base()
    doc["hexes"] = [h for h in doc["hexes"] if (h["q"], h["r"]) != (0, -3)]
    assert found(doc) == [("hex-missing", "hex (0, -3) of the layout is missing", ((0, -3),), E)]


def test_hex_extra():
    doc = base()
    doc["hexes"].append(
        {"q": 5, "r": 0, "kind": "sea", "terrain": "sea", "number": None, "hidden": False, "oil_spring": False}
    )
    assert found(doc) == [("hex-extra", "hex (5, 0) is not part of the layout", ((5, 0),), E)]


def test_hex_kind():
    doc = base()
    hexdoc(doc, 0, -3)["kind"] = "frame"
    assert found(doc) == [("hex-kind", "hex (0, -3) is frame, the layout says sea", ((0, -3),), E)]
    doc = base()
    hexdoc(doc, 0, -3)["hidden"] = True
    assert found(doc) == [("hex-kind", "sea hex (0, -3) cannot lie face down or carry an oil spring", ((0, -3),), E)]


def test_hex_terrain():
    doc = base()
    hexdoc(doc, 0, -3)["terrain"] = "forest"
    assert found(doc) == [("hex-terrain", "sea hex (0, -3) has terrain forest", ((0, -3),), E)]
    doc = doc_of("seafarers-sm2010")
    hexdoc(doc, 0, 1)["terrain"] = "hills"  # the gold field of row 1
    assert found(doc) == [("hex-terrain", "hex (0, 1) must be gold, not hills", ((0, 1),), E)]


def test_land_hex_with_terrain_sea():
    doc = base()
    hexdoc(doc, 0, -2)["terrain"] = "sea"
    assert found(doc) == [
        ("hex-terrain", "land hex (0, -2) has terrain sea", ((0, -2),), E),
        (
            "terrain-pool",
            "region island: terrain differs from the pool (pasture 3 instead of 4, sea 1 instead of 0)",
            (),
            E,
        ),
    ]


def test_number_on_sea():
    doc = base()
    hexdoc(doc, 0, -3)["number"] = 5  # beside (0,-2)=4 only: no number rule broken
    assert found(doc) == [("number-on-sea", "sea hex (0, -3) has a number token", ((0, -3),), E)]


def test_hex_hidden_both_ways():
    doc = base()
    hexdoc(doc, 0, -2)["hidden"] = True
    assert found(doc) == [("hex-hidden", "hex (0, -2) must not lie face down", ((0, -2),), E)]
    doc = doc_of("seafarers-sm2010")
    hexdoc(doc, 0, 0)["hidden"] = False  # a face-down hex of row 0, shown face up
    assert found(doc) == [("hex-hidden", "hex (0, 0) must lie face down", ((0, 0),), E)]


def test_terrain_pool():
    doc = base()
    hexdoc(doc, 0, -2)["terrain"] = "forest"  # pasture -> forest
    assert found(doc) == [
        (
            "terrain-pool",
            "region island: terrain differs from the pool (forest 5 instead of 4, pasture 3 instead of 4)",
            (),
            E,
        )
    ]


# -- number tokens (section 2) ----------------------------------------------


def test_number_fixed():
    doc = doc_of("seafarers-sm2010")
    hexdoc(doc, 0, 1)["number"] = 5  # the gold field's fixed 3; neighbours carry 10 and 8
    assert found(doc) == [("number-fixed", "hex (0, 1) must carry the fixed token 3", ((0, 1),), E)]


def test_number_on_desert():
    doc = base()
    hexdoc(doc, 0, 0)["number"] = 12  # neighbours 9, 2, 3, 8, 10, 6: no clash
    assert found(doc) == [("number-on-desert", "desert (0, 0) carries a number token", ((0, 0),), E)]


def test_number_missing_and_pool():
    doc = base()
    hexdoc(doc, 0, -2)["number"] = None
    assert found(doc) == [
        ("number-missing", "hex (0, -2) has no number token", ((0, -2),), E),
        ("number-pool", "region island: number tokens differ from the pool (4 1 instead of 2)", (), E),
    ]
    doc = base()
    hexdoc(doc, 0, -2)["number"] = 12  # 4 -> 12; neighbours 6, 11, 3
    assert found(doc) == [
        (
            "number-pool",
            "region island: number tokens differ from the pool (12 2 instead of 1, 4 1 instead of 2)",
            (),
            E,
        )
    ]


def test_equal_adjacent():
    doc = base()
    hexdoc(doc, 0, -2)["number"], hexdoc(doc, 2, -1)["number"] = 3, 4  # trade 4 and 3: pool kept
    assert found(doc) == [
        ("equal-adjacent", "equal numbers 3 at (0, -2) and 3 at (0, -1) are adjacent", ((0, -2), (0, -1)), E)
    ]


def test_red_adjacent_six_beside_six_and_eight():
    doc = base()
    hexdoc(doc, 0, -1)["number"], hexdoc(doc, 0, 1)["number"] = 6, 3  # trade 3 and 6: pool kept
    # (0,-1)=6 now touches (1,-2)=6 (both rules) and (-1,0)=8 (red); (0,1)=3 touches 10, 9, 10, 5, 12
    assert found(doc) == [
        ("equal-adjacent", "equal numbers 6 at (1, -2) and 6 at (0, -1) are adjacent", ((1, -2), (0, -1)), E),
        ("red-adjacent", "red numbers 6 at (1, -2) and 6 at (0, -1) are adjacent", ((1, -2), (0, -1)), E),
        ("red-adjacent", "red numbers 6 at (0, -1) and 8 at (-1, 0) are adjacent", ((0, -1), (-1, 0)), E),
    ]


def test_red_number_on_gold_where_the_layout_bars_it():
    """Through the Desert bars 6 and 8 from gold (``red_barred``). Worked on
    the pinned board of seed ``ttd``: the strip's gold (0, 3) holds 3 and the
    strip's forest (2, 1) 6; trading them keeps the strip's pool and puts
    the 6 on gold, beside no other token but a 4. The islands' gold (2, 7)
    traded with the pasture 8 at (5, 1) (both island hexes; their
    neighbours hold 9 and 5) gives the second violation."""
    doc = doc_of("seafarers-through-the-desert-3", "ttd")
    assert (hexdoc(doc, 0, 3)["terrain"], hexdoc(doc, 0, 3)["number"], hexdoc(doc, 2, 1)["number"]) == ("gold", 3, 6)
    assert (hexdoc(doc, 2, 7)["terrain"], hexdoc(doc, 2, 7)["number"], hexdoc(doc, 5, 1)["number"]) == ("gold", 11, 8)
    assert found(doc) == []
    hexdoc(doc, 0, 3)["number"], hexdoc(doc, 2, 1)["number"] = 6, 3
    assert found(doc) == [("red-on-barred-terrain", "gold (0, 3) carries the red number 6", ((0, 3),), E)]
    hexdoc(doc, 2, 7)["number"], hexdoc(doc, 5, 1)["number"] = 8, 11
    assert [v[1] for v in found(doc)] == [
        "gold (0, 3) carries the red number 6",
        "gold (2, 7) carries the red number 8",
    ]


def test_red_numbers_on_gold_are_allowed_where_the_layout_bars_nothing():
    """Heading for New Shores bars no terrain: a board with a 6 or 8 on gold
    is legal there (both sources of that map allow it, docs/rules.md 4b)."""
    for k in range(200):
        doc = doc_of("seafarers-new-shores-4", f"gold/{k}")
        if any(h["terrain"] == "gold" and h["number"] in (6, 8) for h in doc["hexes"]):
            assert found(doc) == []
            return
    raise AssertionError("no New Shores board of 200 had a 6 or 8 on gold")


def test_a_fog_hex_may_hide_sea_but_not_with_a_token_nor_face_up():
    """The Fog Islands: a face-down fog hex may hide sea (no token). Worked
    on seed ``fog``: the fog sea (1, 2) and the fog hills (2, 2) holding 4
    trade tokens: the sea gets a token, the hills none; a sea turned face
    up is a land hex with terrain sea that must lie face down; a
    main-island hex (0, 4) made sea breaks its region's pools too."""
    doc = doc_of("seafarers-fog-islands-3", "fog")
    assert [(hexdoc(doc, 1, 2)[k], hexdoc(doc, 2, 2)[k]) for k in ("terrain", "number", "hidden")] == [
        ("sea", "hills"),
        (None, 4),
        (True, True),
    ]
    assert found(doc) == []
    hexdoc(doc, 1, 2)["number"], hexdoc(doc, 2, 2)["number"] = 4, None
    assert [v[:2] for v in found(doc)] == [
        ("number-on-sea", "hex (1, 2) hides sea but has a number token"),
        ("number-missing", "hex (2, 2) has no number token"),
        ("number-pool", "region fog: number tokens differ from the pool (4 0 instead of 1)"),  # the 4 counts nowhere
    ]
    doc = doc_of("seafarers-fog-islands-3", "fog")
    hexdoc(doc, 1, 2)["hidden"] = False
    assert [v[:2] for v in found(doc)] == [
        ("hex-terrain", "land hex (1, 2) has terrain sea"),
        ("hex-hidden", "hex (1, 2) must lie face down"),
    ]
    doc = doc_of("seafarers-fog-islands-3", "fog")
    hexdoc(doc, 0, 4)["terrain"], hexdoc(doc, 0, 4)["number"] = "sea", None
    assert [v[0] for v in found(doc)] == ["hex-terrain", "terrain-pool", "number-missing", "number-pool"]


def test_a_new_world_hex_may_be_dealt_sea_but_only_as_open_sea():
    """The New World: a hex inside the frame may be dealt sea (a sea tile,
    face up, no token). Worked on seed ``nw``: (2, 1) was dealt sea, (4, 1)
    fields with 11. A token on the sea, the sea face down, a sea tile with
    a land terrain, and a ring hex made land each break a rule; turning
    (2, 1) into land and (4, 1) into sea (its 11 moved along) is another
    legal dealing, harbors aside (their coast moved with it)."""
    doc = doc_of("seafarers-new-world", "nw")
    assert [(hexdoc(doc, 2, 1)[k], hexdoc(doc, 4, 1)[k]) for k in ("kind", "terrain", "number")] == [
        ("sea", "land"),
        ("sea", "fields"),
        (None, 11),
    ]
    assert found(doc) == []
    hexdoc(doc, 2, 1)["number"] = 5
    assert [v[:2] for v in found(doc)] == [("number-on-sea", "sea hex (2, 1) has a number token")]
    doc = doc_of("seafarers-new-world", "nw")
    hexdoc(doc, 2, 1)["hidden"] = True
    assert [v[:2] for v in found(doc)] == [("hex-kind", "sea hex (2, 1) cannot lie face down or carry an oil spring")]
    doc = doc_of("seafarers-new-world", "nw")
    hexdoc(doc, 2, 1)["terrain"] = "forest"
    assert [v[:2] for v in found(doc)] == [
        ("hex-terrain", "sea hex (2, 1) has terrain forest"),
        ("terrain-pool", "region world: terrain differs from the pool (forest 6 instead of 5, sea 18 instead of 19)"),
    ]
    doc = doc_of("seafarers-new-world", "nw")
    hexdoc(doc, 2, 0).update(kind="land", terrain="forest", number=4)
    assert [v[0] for v in found(doc)][:1] == ["hex-kind"]
    doc = doc_of("seafarers-new-world", "nw")
    hexdoc(doc, 2, 1).update(kind="land", terrain="fields", number=11)
    hexdoc(doc, 4, 1).update(kind="sea", terrain="sea", number=None)
    assert [v[0] for v in found(doc) if not v[0].startswith("harbor")] == []


def test_cloth_villages_and_tokenless_islands_are_held_to_the_layout():
    """Cloth for Catan, seed ``cloth``: its 8 villages as the layout puts
    them (a village may be named from any hex of its intersection); a
    village moved, renumbered or missing, and a token on a small island,
    each break a rule."""
    doc = doc_of("seafarers-cloth-for-catan", "cloth")
    assert {k: v for k, v in doc["pieces"][0].items() if v is not None} == {
        "kind": "village",
        "q": 1,
        "r": 4,
        "corner": 1,
        "number": 10,
        "count": 5,
    }
    assert found(doc) == []
    doc["pieces"][0].update(q=1, r=3, corner=5)  # the same intersection, named from the hex above-left
    assert found(doc) == []
    doc["pieces"][0].update(corner=4)  # another intersection
    assert [v[:2] for v in found(doc)] == [
        ("pieces", "village at (1, 3) corner 4, number 10, 5 chits is not in the layout"),
        ("pieces", "village at (1, 4) corner 1, number 10, 5 chits of the layout is missing"),
    ]
    doc = doc_of("seafarers-cloth-for-catan", "cloth")
    doc["pieces"][1]["number"] = 8
    del doc["pieces"][7]
    assert [v[1] for v in found(doc)] == [
        "village at (1, 4) corner 4, number 8, 5 chits is not in the layout",
        "village at (1, 4) corner 4, number 9, 5 chits of the layout is missing",
        "village at (4, 4) corner 4, number 5, 5 chits of the layout is missing",
    ]
    doc = doc_of("seafarers-cloth-for-catan", "cloth")
    hexdoc(doc, 3, 3)["number"] = 4
    assert [v[:2] for v in found(doc)] == [("number-fixed", "hex (3, 3) takes no number token")]


def test_tribe_gifts_and_east_coast_caps_are_held_to_the_layout():
    """The Forgotten Tribe, seed ``tribe``: a gift on an edge (named from
    either hex beside it), a gift moved to another edge, and a 5 on a hex
    of the east coast (at most 3 pips) each as the rules say."""
    doc = doc_of("seafarers-forgotten-tribe", "tribe")
    assert {k: v for k, v in doc["pieces"][0].items() if v is not None} == {"kind": "vp", "q": 2, "r": 1, "facing": 1}
    assert found(doc) == []
    doc["pieces"][0].update(q=3, r=0, facing=4)  # the same edge, named from the sea hex beyond it
    assert found(doc) == []
    doc["pieces"][0]["facing"] = 5
    assert [v[:2] for v in found(doc)] == [
        ("pieces", "vp at (3, 0) edge 5 is not in the layout"),
        ("pieces", "vp at (2, 1) edge 1 of the layout is missing"),
    ]
    doc = doc_of("seafarers-forgotten-tribe", "tribe")
    assert (hexdoc(doc, 5, 3)["number"], hexdoc(doc, 3, 3)["number"]) == (3, 5)
    hexdoc(doc, 5, 3)["number"], hexdoc(doc, 3, 3)["number"] = 5, 3
    assert [v[:2] for v in found(doc)] == [
        ("equal-adjacent", "equal numbers 3 at (3, 3) and 3 at (3, 4) are adjacent"),  # the 3 moved beside a 3
        ("pips-over-cap", "hex (5, 3) may carry at most 3 pips, not 5 (4)"),
    ]


def test_spiral_board_with_adjacent_sixes_is_illegal():
    """A spiral board promises only the red rule: equal neighbours are a
    note, but a 6 beside a 6 breaks the red rule too, so it is an error."""
    doc = base()
    doc["number_method"] = "spiral"
    hexdoc(doc, 0, -2)["number"], hexdoc(doc, 2, -1)["number"] = 3, 4  # equal 3s: a note only
    assert found(doc) == []
    assert found(doc, severity=N)[0] == (
        "equal-adjacent",
        "equal numbers 3 at (0, -2) and 3 at (0, -1) are adjacent",
        ((0, -2), (0, -1)),
        N,
    )
    doc = base()
    doc["number_method"] = "spiral"
    hexdoc(doc, 1, -2)["number"], hexdoc(doc, 0, 2)["number"] = 12, 6  # trade 6 and 12: (0,2)=6 beside (0,1)=6
    assert found(doc) == [("red-adjacent", "red numbers 6 at (0, 1) and 6 at (0, 2) are adjacent", ((0, 1), (0, 2)), E)]
    assert found(doc, severity=N) == [
        ("equal-adjacent", "equal numbers 6 at (0, 1) and 6 at (0, 2) are adjacent", ((0, 1), (0, 2)), N),
        ("setup-id", "setup id names other methods than the board", (), N),  # the pinned board was a swap board
    ]


def test_spiral_board_with_adjacent_sixes_fails_the_cli(tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    doc = base()
    doc["number_method"] = "spiral"
    hexdoc(doc, 1, -2)["number"], hexdoc(doc, 0, 2)["number"] = 12, 6
    path = tmp_path / "b.json"
    path.write_text(json.dumps(doc))
    res = CliRunner().invoke(app, ["check", str(path)])
    assert res.exit_code == 1
    assert res.stdout.splitlines() == [
        "note: equal-adjacent: equal numbers 6 at (0, 1) and 6 at (0, 2) are adjacent",
        "error: red-adjacent: red numbers 6 at (0, 1) and 6 at (0, 2) are adjacent",
        "note: setup-id: setup id names other methods than the board",
        "illegal: 1 violation(s)",
    ]


# -- harbors (sections 1 and 3) ---------------------------------------------


def test_harbor_method_players_lays_none():
    doc = base()
    doc["harbor_method"] = "players"
    assert found(doc) == [("harbor-method", "harbor method players lays no harbors, but the board has some", (), E)]


def test_harbor_pool():
    doc = base()
    next(h for h in doc["harbors"] if h["type"] == "wool")["type"] = "ore"
    assert found(doc) == [
        ("harbor-pool", "harbors differ from the pool (ore 2 instead of 1, wool 0 instead of 1)", (), E)
    ]


def test_harbor_place_of_a_shuffled_frame():
    doc = base()
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (1, -3))["facing"] = 5
    assert found(doc) == [
        ("harbor-place", "harbor at (1, -3) facing 5 is not a harbor place of the layout", ((1, -3),), E),
        ("harbor-place", "harbor place (1, -3) facing 4 is empty", ((1, -3),), E),
    ]


def test_harbor_place_of_a_fixed_layout():
    board, layout = fixed.read_board_file(FIXTURE)
    doc = json.loads(board.to_json())
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (3, -1))["facing"] = 4  # (3,-1) f4 serves (2,0)
    assert found(doc, layout) == [
        ("harbor-place", "3:1 harbor at (3, -1) facing 4 is not in the fixed layout", ((3, -1),), E),
        ("harbor-place", "the fixed 3:1 harbor at (3, -1) facing 3 is missing", ((3, -1),), E),
    ]


def test_harbors_off_a_fixed_layout_are_listed_in_board_order():
    # two harbors moved onto the sea hex (3, -1): the 3:1 there turned to facing 4, the wool from (-1, -2) put
    # on facing 3. Board order is (row, column, facing): the wool at facing 3 is named before the 3:1 at
    # facing 4, although "3:1" sorts before "wool" (mutate_rules: the facing in the sort key)
    board, layout = fixed.read_board_file(FIXTURE)
    doc = json.loads(board.to_json())
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (3, -1))["facing"] = 4
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2)).update(q=3, r=-1, facing=3)
    assert found(doc, layout) == [
        ("harbor-place", "wool harbor at (3, -1) facing 3 is not in the fixed layout", ((3, -1),), E),
        ("harbor-place", "3:1 harbor at (3, -1) facing 4 is not in the fixed layout", ((3, -1),), E),
        ("harbor-place", "the fixed wool harbor at (-1, -2) facing 0 is missing", ((-1, -2),), E),
        ("harbor-place", "the fixed 3:1 harbor at (3, -1) facing 3 is missing", ((3, -1),), E),
    ]


def test_harbor_one_per_sea_hex():
    doc = free(base())
    moved = next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2))
    moved.update(q=1, r=-3, facing=5)  # beside the 3:1 on (1,-3) facing 4
    assert found(doc) == [("harbor-one-per-sea-hex", "sea hex (1, -3) holds 2 harbors", ((1, -3),), E)]
    doc = base()  # a shuffled frame: two harbors on one place
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2)).update(q=1, r=-3, facing=4)
    assert ("harbor-one-per-sea-hex", "harbor place (1, -3) facing 4 holds 2 harbors", ((1, -3),), E) in found(doc)


def test_harbor_shared_intersection():
    doc = free(base())
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2)).update(q=2, r=-3, facing=5)
    # (2,-3) f5 serves (2,-2); its corner {(2,-3), (2,-2), (3,-3)} is a corner of the wool harbor (3,-3) f4
    assert found(doc) == [
        ("harbor-shared-intersection", "harbors at (2, -3) and (3, -3) share an intersection", ((2, -3), (3, -3)), E)
    ]


def test_harbor_coast():
    doc = free(base())
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2)).update(q=0, r=-3, facing=3)  # towards sea
    assert found(doc) == [("harbor-coast", "harbor at (0, -3) facing 3 does not serve a coast edge", ((0, -3),), E)]
    doc = free(base())
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (-1, -2)).update(q=0, r=0, facing=0)  # on land
    assert found(doc) == [("harbor-coast", "harbor at (0, 0) is not on a playable sea hex", ((0, 0),), E)]
    doc = free(doc_of("seafarers-sm2010"))
    next(h for h in doc["harbors"] if (h["q"], h["r"]) == (0, 2)).update(q=-1, r=1, facing=0)  # a frame half hex
    assert found(doc) == [("harbor-coast", "harbor at (-1, 1) is not on a playable sea hex", ((-1, 1),), E)]


# -- pieces -------------------------------------------------------------------


def test_robber():
    doc = base()
    doc["robber"] = {"q": 1, "r": 0}
    assert found(doc) == [("robber", "the robber must start on a desert", (), E)]
    doc = base()
    doc["robber"] = None
    assert found(doc) == [("robber", "the robber must start on a desert", (), E)]
    doc = doc_of("oil-springs")
    doc["robber"] = {"q": 2, "r": 0}
    assert found(doc) == [("robber", "the robber must start off the board", (), E)]


def test_pirate():
    doc = base()
    doc["pirate"] = {"q": 0, "r": -3}
    assert found(doc) == [("pirate", "the pirate must not be used", (), E)]
    doc = doc_of("seafarers-sm2010")
    doc["pirate"] = {"q": 4, "r": 0}
    assert found(doc) == [("pirate", "the pirate must start on (3, 0)", (), E)]


# -- oil springs (section 5) ---------------------------------------------------
# The oil-springs board of seed "rules" (land, q r terrain number, * = oil spring):
#   (0,-2) forest 4  (1,-2) pasture 8  (2,-2) hills 3
#   (-1,-1) forest 8  (0,-1) fields 2  (1,-1) hills 9  (2,-1) fields 10
#   (-2,0) fields 11  (-1,0) forest 10*  (0,0) hills 6  (1,0) fields 11  (2,0) desert 9*
#   (-2,1) mountains 6  (-1,1) mountains 9  (0,1) pasture 4  (1,1) pasture 5
#   (-2,2) forest 12  (-1,2) pasture 5*  (0,2) mountains 3
# Pastures 8, 4, 5, 5: levels 5, 4, 3 pips, the second-highest is 4 (the 5s);
# forests 4, 8, 10, 12: levels 1, 3, 5, the second-lowest is 3 (the 4 and the 10).


def oil() -> dict:
    return doc_of("oil-springs")


def test_oil_levels_are_explained_in_notes():
    assert found(oil(), severity=N) == [
        (
            "oil-levels",
            "pasture: pip levels 5, 4, 3; the oil spring goes on level 4; oil spring on (-1, 2) (5)",
            ((-1, 2),),
            N,
        ),
        (
            "oil-levels",
            "forest: pip levels 5, 3, 1; the oil spring goes on level 3; oil spring on (-1, 0) (10)",
            ((-1, 0),),
            N,
        ),
    ]


def test_oil_spring_off_its_level():
    doc = oil()
    hexdoc(doc, -1, 2)["oil_spring"], hexdoc(doc, 0, 1)["oil_spring"] = False, True  # onto the 4 (3 pips)
    assert found(doc) == [("oil-spring", "the pasture oil spring at (0, 1) is not on level 4", ((0, 1),), E)]


def test_oil_spring_count_and_terrain():
    doc = oil()
    hexdoc(doc, 1, -2)["oil_spring"] = True  # a second pasture, touching no spring
    assert found(doc) == [("oil-spring", "exactly one pasture must carry an oil spring, found 2", (), E)]
    doc = oil()
    hexdoc(doc, 2, -2)["oil_spring"] = True  # hills, touching no spring
    assert found(doc) == [("oil-spring", "hills (2, -2) may not carry an oil spring", ((2, -2),), E)]
    doc = base()
    hexdoc(doc, 0, -2)["oil_spring"] = True
    assert found(doc) == [("oil-spring", "hex (0, -2) carries an oil spring, the scenario has none", ((0, -2),), E)]


def test_oil_adjacent():
    doc = oil()
    hexdoc(doc, -1, 2)["oil_spring"], hexdoc(doc, 1, 1)["oil_spring"] = False, True  # the other 5: beside the desert
    assert found(doc) == [("oil-adjacent", "oil springs at (2, 0) and (1, 1) are adjacent", ((2, 0), (1, 1)), E)]


def test_oil_desert():
    doc = oil()
    hexdoc(doc, 2, 0)["oil_spring"] = False
    assert found(doc) == [
        ("number-on-desert", "desert (2, 0) carries a number token", ((2, 0),), E),
        ("oil-desert", "desert (2, 0) must carry a numbered oil spring (5 or 9)", ((2, 0),), E),
    ]
    doc = oil()
    hexdoc(doc, 2, 0)["number"] = 4  # not a numbered oil-spring tile; neighbours 10, 11, 5
    assert found(doc) == [
        ("oil-desert", "desert (2, 0) must carry a numbered oil spring (5 or 9)", ((2, 0),), E),
        ("oil-desert", "the deserts' oil-spring numbers must be different numbered tiles", (), E),
    ]
    doc = oil()
    hexdoc(doc, 2, 0)["number"] = 5  # the 5 lies on (1,1) beside it, the 9 would not
    assert found(doc) == [
        (
            "oil-desert",
            "a desert's oil-spring number appears next to it although another numbered tile would not",
            ((2, 0),),
            E,
        )
    ]
    assert (
        "equal-adjacent",
        "the desert's oil-spring number and an equal number (allowed) 5 at (2, 0) and 5 at (1, 1) are adjacent",
        ((2, 0), (1, 1)),
        N,
    ) in found(doc, severity=N)


def test_fixed_board_rules():
    """The fixture (tests/fixtures/oil-fixed-test-board.toml) with the
    oil-springs-fixed setup: springs on the desert (0,2), the forest with 9
    (-2,1) and the north-eastern pasture with 10 (0,1)."""
    board, _ = fixed.board_from_file(FIXTURE, "oil-springs-fixed")
    doc = json.loads(board.to_json())
    assert found(doc) == []
    assert found(doc, severity=N) == [
        (
            "oil-adjacent",
            "oil springs at (0, 1) and (0, 2) are adjacent (as the fixed map has them)",
            ((0, 1), (0, 2)),
            N,
        )
    ]
    doc = json.loads(board.to_json())
    hexdoc(doc, 1, 1)["number"] = 12  # 11 -> 12: no longer the base set; neighbours 5, 6, 10, 5
    assert found(doc) == [("fixed-board", "not a base-3-4 board: number tokens differ from the set", (), E)]
    doc = json.loads(board.to_json())
    hexdoc(doc, -1, -1)["oil_spring"], hexdoc(doc, 0, 1)["oil_spring"] = True, False  # the other pasture with 10
    assert found(doc) == [
        ("oil-spring", "hex (0, 1) must carry an oil spring", ((0, 1),), E),
        ("oil-spring", "hex (-1, -1) carries an oil spring the fixed setup does not name", ((-1, -1),), E),
    ]
    doc = json.loads(board.to_json())
    hexdoc(doc, 0, 2)["terrain"] = "fields"  # no desert left
    assert found(doc) == [
        (
            "fixed-board",
            "not a base-3-4 board: terrain differs from the set (desert 0 instead of 1, fields 5 instead of 4)",
            (),
            E,
        ),
        ("fixed-board", "not a base-3-4 board: number tokens differ from the set", (), E),  # the desert's 5 counts now
        ("oil-desert", "a fixed oil-springs board needs a desert for the numbered oil spring", (), E),
        ("oil-spring", "hex (0, 2) carries an oil spring the fixed setup does not name", ((0, 2),), E),
    ]
    doc = json.loads(board.to_json())
    hexdoc(doc, -2, 1)["number"] = 12  # no forest with 9 left; neighbours 8, 5, 8, 4
    assert found(doc) == [
        ("fixed-board", "not a base-3-4 board: number tokens differ from the set", (), E),
        ("oil-spring", "the board has no forest with 9 for the forest oil spring", (), E),
        ("oil-spring", "hex (-2, 1) carries an oil spring the fixed setup does not name", ((-2, 1),), E),
    ]
    doc = json.loads(board.to_json())
    hexdoc(doc, 0, 2)["number"] = 4
    assert ("oil-desert", "desert (0, 2) must carry a numbered oil spring", ((0, 2),), E) in found(doc)


def test_setup_id_notes():
    doc = base()
    doc["setup_id"] = "B4SS-0000-0000-0000"
    assert found(doc, severity=N) == [
        ("setup-id", "setup id 'B4SS-0000-0000-0000' has a typo: its check character does not match", (), N)
    ]
    doc = base()
    doc["setup_id"] = setupgen.from_seed("base-5-6", "x").setup_id
    assert found(doc, severity=N)[0][:2] == ("setup-id", "setup id is for scenario code B6, not B4")
    doc = base()
    doc["number_method"] = "uniform"
    assert found(doc, severity=N) == [("setup-id", "setup id names other methods than the board", (), N)]


def test_every_rule_check_reports_has_a_case_here():
    """Every rule name of setupgen.core.rules.CHECK_RULES is asserted as an
    expected violation somewhere in this file."""
    text = Path(__file__).read_text(encoding="utf-8")
    missing = [name for name in rules.CHECK_RULES if not re.search(rf'\(\s*"{re.escape(name)}",\s', text)]
    assert missing == []


# --- differential tests against an independent checker (issue 22) ----------------------

import copy as _copy  # noqa: E402
import json as _json  # noqa: E402
import random as _random  # noqa: E402

import check_oracle  # noqa: E402
import pytest  # noqa: E402

#: pinned boards of every generated scenario and every number and harbor method
DIFF_CASES = [
    (s, n, h)
    for s in (
        "base-3-4",
        "base-5-6",
        "cities-knights",
        "seafarers-sm2010",
        "oil-springs",
        "oil-springs-5-6",
        "seafarers-through-the-desert-4",
        "seafarers-new-world",
        "seafarers-cloth-for-catan",
        "seafarers-forgotten-tribe",
        "seafarers-wonders",
        "seafarers-pirate-islands",
    )
    for n in ("swap", "spiral", "uniform")
    for h in ("shuffled", "free", "players")
    if not (s in ("seafarers-sm2010",) and h == "shuffled")
    and not (s.startswith(("oil", "seafarers-through")) and n == "spiral")
    and not (s.startswith("seafarers-through") and h == "free")
    and not (s == "seafarers-new-world" and (n == "spiral" or h == "shuffled"))
    and not (
        s in ("seafarers-cloth-for-catan", "seafarers-forgotten-tribe", "seafarers-wonders", "seafarers-pirate-islands")
        and (n == "spiral" or h == "free")
    )
]


def _diff_board(scenario, numbers, harbors):
    from setupgen import generate as _gen

    try:
        return _json.loads(_gen.from_seed(scenario, f"diff/{numbers}/{harbors}", numbers, harbors).to_json())
    except Exception as exc:  # a method the scenario does not take
        pytest.skip(str(exc))


def _perturb(board, rng):
    """One random change of the kinds the issue lists: two tokens swapped,
    two terrains swapped, a harbor moved or retyped, an oil spring moved, a
    hex removed or added, the harbor method claimed as fixed."""
    b = _copy.deepcopy(board)
    land = [t for t in b["hexes"] if t["kind"] == "land"]
    kind = rng.randrange(8)
    if kind <= 1 and len(land) > 1:
        x, y = rng.sample([t for t in land if t["number"] is not None] or land, 2)
        x["number"], y["number"] = y["number"], x["number"]
    elif kind == 2 and len(land) > 1:
        x, y = rng.sample(land, 2)
        x["terrain"], y["terrain"] = y["terrain"], x["terrain"]
    elif kind == 3 and b["harbors"]:
        h = rng.choice(b["harbors"])
        sea = [t for t in b["hexes"] if t["kind"] == "sea"]
        t = rng.choice(sea)
        h["q"], h["r"], h["facing"] = t["q"], t["r"], rng.randrange(6)
    elif kind == 4 and b["harbors"]:
        rng.choice(b["harbors"])["type"] = rng.choice(["3:1", "lumber", "wool", "grain", "brick", "ore"])
    elif kind == 5:
        springs = [t for t in land if t.get("oil_spring")]
        if springs:
            s, t = rng.choice(springs), rng.choice(land)
            s["oil_spring"], t["oil_spring"] = t["oil_spring"], s["oil_spring"]
    elif kind == 6:
        if rng.random() < 0.5:
            b["hexes"].remove(rng.choice(b["hexes"]))
        else:
            b["hexes"].append(
                {
                    "q": 9,
                    "r": rng.randrange(-3, 3),
                    "kind": "sea",
                    "terrain": "sea",
                    "number": None,
                    "hidden": False,
                    "oil_spring": False,
                }
            )
    else:
        b["harbor_method"] = "fixed" if b["harbor_method"] == "shuffled" else b["harbor_method"]
        if b["harbors"]:
            h = rng.choice(b["harbors"])
            h["facing"] = (h["facing"] + 1) % 6
    return b


def _check_errors(board):
    from setupgen.core.board import Board as _Board

    b = _Board.from_dict(board)
    return {
        (v.rule, frozenset(v.hexes))
        for v in checkmod.check(b)
        if v.severity == "error" and v.rule in check_oracle.RULES
    }


@pytest.mark.parametrize("scenario,numbers,harbors", DIFF_CASES)
def test_check_agrees_with_an_independent_checker_on_perturbed_boards(scenario, numbers, harbors):
    board = _diff_board(scenario, numbers, harbors)
    lay = check_oracle.layout_of(scenario)
    assert check_oracle.errors(board, lay) == set() == _check_errors(board)  # the pinned board is legal
    rng = _random.Random(f"{scenario}/{numbers}/{harbors}")
    differ = 0
    for _ in range(120):
        b = _perturb(board, rng)
        try:
            got = _check_errors(b)
        except Exception:  # the board format refuses it (a duplicate hex...): nothing to compare
            continue
        want = check_oracle.errors(b, lay)
        assert got == want, (b["harbor_method"], sorted(got ^ want, key=str)[:4])
        differ += got != set()
    assert differ > 10  # the perturbations do break rules


def test_several_harbor_faults_are_listed_in_reading_order():
    """Violations come in a stable order: by sea hex in reading order (row,
    then column), then facing. Worked by hand on the fixed fixture: two
    types swapped and two facings turned give four harbors not in the
    layout and four fixed ones missing."""
    board, layout = fixed.read_board_file(FIXTURE)
    doc = json.loads(board.to_json())
    at = {(h["q"], h["r"]): h for h in doc["harbors"]}
    at[(1, -3)]["type"], at[(-1, -2)]["type"] = "wool", "3:1"
    at[(3, -1)]["facing"], at[(-3, 2)]["facing"] = 4, 5
    got = [m for rule, m, _, _ in found(doc, layout) if rule == "harbor-place"]
    assert got == [
        "wool harbor at (1, -3) facing 4 is not in the fixed layout",
        "3:1 harbor at (-1, -2) facing 0 is not in the fixed layout",
        "3:1 harbor at (3, -1) facing 4 is not in the fixed layout",
        "grain harbor at (-3, 2) facing 5 is not in the fixed layout",
        "the fixed 3:1 harbor at (1, -3) facing 4 is missing",
        "the fixed wool harbor at (-1, -2) facing 0 is missing",
        "the fixed 3:1 harbor at (3, -1) facing 3 is missing",
        "the fixed grain harbor at (-3, 2) facing 0 is missing",
    ]


def test_two_stacked_places_are_listed_in_reading_order():
    """A shuffled frame with two places holding two harbors each: (3, -3)
    comes before (-3, 2) in reading order (row -3 before row 2), though
    its column is the larger."""
    doc = base()
    free_places = [h for h in doc["harbors"] if (h["q"], h["r"]) not in ((3, -3), (-3, 2))]
    free_places[0].update(q=3, r=-3, facing=4)
    free_places[1].update(q=-3, r=2, facing=0)
    got = [m for rule, m, _, _ in found(doc) if rule == "harbor-one-per-sea-hex"]
    assert got == ["harbor place (3, -3) facing 4 holds 2 harbors", "harbor place (-3, 2) facing 0 holds 2 harbors"]


def test_two_faults_on_one_sea_hex_are_listed_by_facing():
    """Two harbors of the fixed fixture on sea hex (1, -3), facing 5 and
    facing 3 (the first comes first on the board): listed facing 3 first."""
    board, layout = fixed.read_board_file(FIXTURE)
    doc = json.loads(board.to_json())
    at = {(h["q"], h["r"]): h for h in doc["harbors"]}
    at[(1, -3)]["facing"] = 5
    at[(3, -3)].update(q=1, r=-3, facing=3)
    doc["harbors"].sort(key=lambda h: -h["facing"])  # facing 5 first on the board, so the order is the check's
    got = [m for rule, m, _, _ in found(doc, layout) if rule == "harbor-place" and "not in the fixed layout" in m]
    assert got == [
        "3:1 harbor at (1, -3) facing 3 is not in the fixed layout",
        "3:1 harbor at (1, -3) facing 5 is not in the fixed layout",
    ]


def test_faults_in_one_row_are_listed_by_column():
    """Row -3 of the fixed fixture: (1, -3) turned to facing 5 and (3, -3)
    to facing 3 are listed by column, (1, -3) first, whatever the facings."""
    board, layout = fixed.read_board_file(FIXTURE)
    doc = json.loads(board.to_json())
    at = {(h["q"], h["r"]): h for h in doc["harbors"]}
    at[(1, -3)]["facing"], at[(3, -3)]["facing"] = 5, 3
    got = [m for rule, m, _, _ in found(doc, layout) if rule == "harbor-place"]
    assert got == [
        "3:1 harbor at (1, -3) facing 5 is not in the fixed layout",
        "3:1 harbor at (3, -3) facing 3 is not in the fixed layout",
        "the fixed 3:1 harbor at (1, -3) facing 4 is missing",
        "the fixed 3:1 harbor at (3, -3) facing 4 is missing",
    ]


def test_missing_fixed_harbors_are_listed_in_reading_order_whatever_the_file_order(tmp_path):
    """The fixture with its harbor places listed bottom row first: the
    missing fixed harbors still come in reading order (row, column,
    facing), not in the file's."""
    text = FIXTURE.read_text(encoding="utf-8")
    head, rest = text.split("places = [\n", 1)
    places, tail = rest.split("]\n", 1)
    rows = [line for line in places.splitlines() if line.strip()]
    (tmp_path / FIXTURE.name).write_text(
        head + "places = [\n" + "\n".join(reversed(rows)) + "\n]\n" + tail, encoding="utf-8"
    )
    board, layout = fixed.read_board_file(tmp_path / FIXTURE.name)
    doc = json.loads(board.to_json())
    at = {(h["q"], h["r"]): h for h in doc["harbors"]}
    at[(3, -3)]["facing"], at[(1, -3)]["facing"], at[(-3, 2)]["facing"], at[(2, 1)]["facing"] = 3, 5, 5, 3
    got = [m for rule, m, _, _ in found(doc, layout) if rule == "harbor-place" and "missing" in m]
    assert got == [
        "the fixed 3:1 harbor at (1, -3) facing 4 is missing",
        "the fixed 3:1 harbor at (3, -3) facing 4 is missing",
        "the fixed ore harbor at (2, 1) facing 2 is missing",
        "the fixed grain harbor at (-3, 2) facing 0 is missing",
    ]


def test_stacked_harbors_in_one_row_are_listed_by_column():
    """Row 3 of a shuffled frame: two harbors at (-2, 3) facing 2 and two at
    (0, 3) facing 1 (neither a place): listed (-2, 3) first, by column, not
    by facing."""
    doc = base()
    movers = [h for h in doc["harbors"] if h["r"] != 3][:4]
    for h, (q, f) in zip(movers, ((-2, 2), (-2, 2), (0, 1), (0, 1))):
        h.update(q=q, r=3, facing=f)
    got = [m for rule, m, _, _ in found(doc) if rule == "harbor-one-per-sea-hex"]
    assert got == ["harbor place (-2, 3) facing 2 holds 2 harbors", "harbor place (0, 3) facing 1 holds 2 harbors"]
