from pathlib import Path

import pytest

from setupgen.core import hexgrid as hg
from setupgen.core import layout as lay
from setupgen.core.errors import LayoutError, UnknownScenarioError


def test_base_3_4_matches_rules_section_1():
    L = lay.load("base-3-4")
    land = L.land()
    assert len(land) == 19 and (0, 0) in land
    assert all(hg.distance((0, 0), h) <= 2 for h in land)
    sea = [s.hex for s in L.hexes if s.kind == "sea"]
    assert len(sea) == 18 and all(hg.distance((0, 0), h) == 3 for h in sea)
    region = L.regions[0]
    assert sorted(region.terrain_pool) == sorted(
        ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3 + ["desert"]
    )
    assert sorted(region.number_tokens) == [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    assert sorted(L.harbor_pool) == sorted(["3:1"] * 4 + ["lumber", "wool", "grain", "brick", "ore"])
    places = {p.hex for p in L.harbor_places}
    assert len(places) == 9
    assert {(3, -3), (-3, 0), (0, 3)} <= places
    # every second ring hex: no two harbor places are neighbours
    assert not any(hg.distance(a, b) == 1 for a in places for b in places)
    assert L.spiral == (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)


def test_harbor_places_keep_corners_apart_and_face_land():
    for name in ("base-3-4", "base-5-6"):
        L = lay.load(name)
        seen = set()
        for p in L.harbor_places:
            assert L.spec(hg.neighbor(p.hex, p.facing)).kind == "land"
            corners = set(hg.edge_corners(p.hex, p.facing))
            assert not corners & seen
            seen |= corners


def test_base_5_6_rows_and_pools():
    L = lay.load("base-5-6")
    land = L.land()
    rows = {}
    for _q, r in land:
        rows[r] = rows.get(r, 0) + 1
    assert [rows[r] for r in sorted(rows)] == [3, 4, 5, 6, 5, 4, 3]
    assert len([s for s in L.hexes if s.kind == "sea"]) == 22
    assert len(L.harbor_places) == 11
    assert sorted(L.harbor_pool).count("wool") == 2 and L.harbor_pool.count("3:1") == 5
    tokens = L.regions[0].number_tokens
    assert len(tokens) == 28 and tokens.count(2) == 2 and tokens.count(12) == 2 and tokens.count(6) == 3
    assert len(L.spiral) == 28


def test_cities_knights_inherits_base_board():
    ck, base = lay.load("cities-knights"), lay.load("base-3-4")
    assert ck.hexes == base.hexes and ck.harbor_places == base.harbor_places
    assert ck.victory_points == 13 and ck.code == "CK"
    assert "robber-desert-barbarians" in ck.notes


def test_unknown_scenario():
    with pytest.raises(UnknownScenarioError, match="unknown scenario 'nope'"):
        lay.load("nope")
    with pytest.raises(UnknownScenarioError):
        lay.load("../base-3-4")


GOOD = (Path(lay.layouts_dir()) / "base-3-4.toml").read_text()


def _write(tmp_path, text, name="base-3-4"):
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    "change, key, problem",
    [
        (("desert = 1 }", "desert = 2 }"), "regions.island.terrain", "20 terrain tiles for 19 hexes"),
        (("numbers = [2, 3, 3,", "numbers = [2, 3,"), "regions.island.numbers", "17 tokens for 18 hexes"),
        (
            ("{ q = 3, r = -3, facing = 4 }", "{ q = 3, r = -3, facing = 1 }"),
            "harbors.places[0]",
            "does not point at a land hex",
        ),
        (("{ q = 3, r = -1, facing = 3 }", "{ q = 2, r = -1, facing = 3 }"), "harbors.places[1]", "is not a sea hex"),
        (("forest = 4", "jungle = 4"), "regions.island.terrain.jungle", "unknown name"),
        (('code = "B4"', 'code = "B44X"'), "code", "expected 2 upper-case"),
        (("victory_points = 10", 'victory_points = "ten"'), "victory_points", "expected int"),
        (
            ('"L" = { kind = "land", region = "island" }', '"L" = { kind = "land", region = "isle" }'),
            "map.legend",
            "unknown region",
        ),
        (('cells = "~ L L L ~" }', 'cells = "~ L X L ~" }'), "map.rows[1]", "unknown symbol 'X'"),
        (('default = "swap"', 'default = "magic"'), "numbers.default", "unknown method"),
        (('default = "swap"', 'default = "swap"\nred_barred = "gold"'), "numbers.red_barred", "expected list"),
        (('default = "swap"', 'default = "swap"\nred_barred = ["desert"]'), "numbers.red_barred", "expected a list"),
        (('default = "swap"', 'default = "swap"\nred_barred = ["gold", "gold"]'), "numbers.red_barred", "each once"),
        (('default = "swap"', 'default = "swap"\nred_barred = [6]'), "numbers.red_barred", "expected a list of forest"),
        (('default = "shuffled"', 'default = "shuffled"\nmethods = []'), "harbors.methods", "at least one"),
        (('default = "shuffled"', 'default = "shuffled"\nmethods = ["free", "free"]'), "harbors.methods", "each once"),
        (('default = "shuffled"', 'default = "shuffled"\nmethods = ["magic"]'), "harbors.methods", "expected a list"),
        (('default = "shuffled"', 'default = "shuffled"\nmethods = ["free"]'), "harbors.methods", "default method"),
    ],
)
def test_malformed_layout_names_file_key_and_problem(tmp_path, change, key, problem):
    old, new = change
    assert old in GOOD
    path = _write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(LayoutError) as info:
        lay.Layout.from_file(path)
    msg = str(info.value)
    assert str(path) in msg and key in msg and problem in msg


def test_toml_syntax_error_and_name_mismatch(tmp_path):
    with pytest.raises(LayoutError, match=r"\(syntax\)"):
        lay.Layout.from_file(_write(tmp_path, GOOD + "\n[[[broken"))
    with pytest.raises(LayoutError, match="must match the file name"):
        lay.Layout.from_file(_write(tmp_path, GOOD, name="other"))


def test_a_layout_file_that_cannot_be_read_is_refused_in_plain_words(tmp_path):
    """Layouts are read by the one TOML reader (core.data.read_toml):
    missing, a folder, too large, not UTF-8, each at ``(file)``."""
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (lay.MAX_FILE_BYTES + 1))
    latin = tmp_path / "latin.toml"
    latin.write_bytes('name = "caf\xe9"'.encode("latin-1"))
    for path, problem in (
        (tmp_path / "none.toml", "cannot read: it does not exist"),
        (tmp_path, "cannot read: it is a folder"),
        (big, "cannot read: larger than 1 MB"),
        (latin, "cannot read: it is not UTF-8 text"),
    ):
        with pytest.raises(LayoutError) as info:
            lay.Layout.from_file(path)
        assert f"{path}: (file): {problem}" in str(info.value)


def test_layout_from_file_equals_shipped(tmp_path):
    assert lay.Layout.from_file(_write(tmp_path, GOOD)).hexes == lay.load("base-3-4").hexes


def test_readme_example_layout_generates_legal_boards(tmp_path):
    """The two-island example in layouts/README.md loads, generates and checks."""
    import random
    import re

    from setupgen import check, generate

    text = (Path(lay.layouts_dir()) / "README.md").read_text()
    toml = re.search(r"```toml\n(.*?)```", text, re.S).group(1)
    path = tmp_path / "two-islands.toml"
    path.write_text(toml)
    L = lay.Layout.from_file(path)
    assert len(L.land()) == 6 and L.default_harbors == "free"
    for i in range(100):
        b = generate.generate(L, random.Random(i))
        assert check.errors(b, L) == []
        assert len(b.harbors) == 3
        west = {t.terrain for t in b.tiles if t.hex in L.region_hexes("west")}
        assert west == {"forest", "hills", "fields"}


def test_inherits_resolves_a_chain_of_any_depth(tmp_path):
    """grandchild -> child -> base-3-4 copy: each level's keys replace its
    parent's (the two-level chain used to fail with "map: missing")."""
    from setupgen.core.layout import Layout

    base = (
        (Path(__file__).resolve().parent.parent / "layouts" / "base-3-4.toml")
        .read_text()
        .replace('name = "base-3-4"', 'name = "root"')
    )
    (tmp_path / "root.toml").write_text(base.replace('code = "B4"', 'code = "Q1"'))
    (tmp_path / "child.toml").write_text('inherits = "root"\nname = "child"\ncode = "Q2"\nvictory_points = 12\n')
    (tmp_path / "grandchild.toml").write_text('inherits = "child"\nname = "grandchild"\ncode = "Q3"\n')
    lay = Layout.from_file(tmp_path / "grandchild.toml")
    assert (lay.name, lay.code, lay.victory_points, len(lay.land())) == ("grandchild", "Q3", 12, 19)


def test_inherits_cycle_names_the_files(tmp_path):
    from setupgen.core.errors import LayoutError
    from setupgen.core.layout import Layout

    (tmp_path / "a.toml").write_text('inherits = "b"\nname = "a"\ncode = "QA"\n')
    (tmp_path / "b.toml").write_text('inherits = "a"\nname = "b"\ncode = "QB"\n')
    with pytest.raises(LayoutError, match=r"inherits: inheritance cycle: a\.toml -> b\.toml -> a\.toml"):
        Layout.from_file(tmp_path / "a.toml")
    (tmp_path / "self.toml").write_text('inherits = "self"\nname = "self"\ncode = "QS"\n')
    with pytest.raises(LayoutError, match=r"inheritance cycle: self\.toml -> self\.toml"):
        Layout.from_file(tmp_path / "self.toml")
    (tmp_path / "orphan.toml").write_text('inherits = "nowhere"\nname = "orphan"\ncode = "QO"\n')
    with pytest.raises(LayoutError, match="no layout 'nowhere' beside this file"):
        Layout.from_file(tmp_path / "orphan.toml")


def test_red_barred_is_read_from_the_numbers_table(tmp_path):
    """``numbers.red_barred`` names the terrains no 6 or 8 may lie on;
    without it a layout bars none."""
    text = GOOD.replace('default = "swap"', 'default = "swap"\nred_barred = ["hills", "forest"]', 1)
    path = _write(
        tmp_path, text.replace('code = "B4"', 'code = "ZZ"').replace('name = "base-3-4"', 'name = "mine"'), "mine"
    )
    assert lay.Layout.from_file(path).red_barred == ("hills", "forest")
    assert lay.load("base-3-4").red_barred == () and lay.load("seafarers-through-the-desert-3").red_barred == ("gold",)


def test_a_layout_offers_the_harbor_methods_it_names():
    """``harbors.methods`` narrows the harbor methods (in the project's
    order); a method left out is refused in one line naming the ones
    offered; without the key every method is offered."""
    from setupgen import generate
    from setupgen.core.errors import SetupgenError

    desert = lay.load("seafarers-through-the-desert-3")
    assert desert.harbor_methods == ("shuffled", "players")
    assert lay.load("base-3-4").harbor_methods == ("shuffled", "free", "players", "fixed")
    with pytest.raises(SetupgenError, match="does not offer harbor method free; use shuffled or players"):
        generate.from_seed(desert, "x", harbors="free")
    assert generate.from_seed(desert, "x", harbors="players").harbors == ()
