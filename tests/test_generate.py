import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setupgen import check, generate
from setupgen.core import hexgrid, layout, rng, setupid
from setupgen.core.board import Board
from setupgen.core.errors import SetupgenError, SetupIdError
from setupgen.generate import numbers

SCENARIOS = ("base-3-4", "base-5-6", "cities-knights")


def test_same_seed_same_board_and_setup_id_regenerates_it():
    a = generate.from_seed("base-3-4", "demo")
    b = generate.from_seed("base-3-4", "demo")
    assert a == b and a.to_json() == b.to_json()
    again = generate.from_setup_id(a.setup_id)
    assert again.tiles == a.tiles and again.harbors == a.harbors and again.robber == a.robber
    assert again.seed is None and again.setup_id == a.setup_id
    # lower case and without dashes reads the same
    assert generate.from_setup_id(a.setup_id.lower().replace("-", "")).tiles == a.tiles


def test_setup_id_carries_scenario_and_methods():
    b = generate.from_seed("base-5-6", "club", numbers="uniform", harbors="free")
    sid = setupid.decode(b.setup_id)
    assert (sid.code, sid.number_method, sid.harbor_method) == ("B6", "uniform", "free")
    assert sid.digest == rng.digest("club")
    assert b.setup_id.startswith("B6UF-")
    regenerated = generate.from_setup_id(b.setup_id)
    assert regenerated.scenario == "base-5-6" and regenerated.tiles == b.tiles


@pytest.mark.parametrize(
    "bad, why",
    [
        ("", "must have 16"),
        ("B4SS", "must have 16"),
        ("B4ZZ-0000-0000-0000", "number-method letter"),
        ("B4SS-0000-0000-000U", "not a setup-id character"),
        ("B4SS-0000-0000-00000", "must have 16"),
    ],
)
def test_bad_setup_ids(bad, why):
    with pytest.raises(SetupIdError, match=why):
        setupid.decode(bad)


def test_setup_id_check_character_catches_every_single_typo_and_most_swaps():
    sid = generate.from_seed("base-3-4", "demo").setup_id
    assert sid == "B4SS-5ABN-2V1N-9DMX"
    chars = [i for i, ch in enumerate(sid) if ch != "-" and i >= 4]
    for i in chars:
        for other in setupid.ALPHABET:
            if other != sid[i]:
                with pytest.raises(SetupIdError):
                    setupid.decode(sid[:i] + other + sid[i + 1 :])
    swapped = 0
    for a, b in zip(chars, chars[1:]):
        if b == a + 1 and sid[a] != sid[b]:
            t = sid[:a] + sid[b] + sid[a] + sid[b + 1 :]
            try:
                setupid.decode(t)
            except SetupIdError:
                swapped += 1
    assert swapped >= 8


def test_unknown_scenario_code_in_setup_id():
    with pytest.raises(SetupgenError, match="no scenario has the code 'QQ'"):
        generate.from_setup_id("QQSS-0000-0000-000E")


def test_rng_stream_is_pinned():
    """SHA-256 digest of the seed, Random(int) and random() alone: these
    values must never change (they pin every board ever printed)."""
    assert rng.digest("demo") == 0x154BA8B61AA5B4
    r = rng.from_seed("demo")
    assert [rng.randbelow(r, 10) for _ in range(12)] == [2, 9, 9, 2, 0, 0, 5, 7, 1, 4, 4, 1]
    items = list(range(10))
    rng.shuffle(rng.from_seed("x"), items)
    assert items == [7, 5, 1, 3, 8, 6, 9, 0, 4, 2]


def test_shuffle_is_unbiased_chi_square():
    # position of element 0 after shuffling 6 items, 12,000 times: chi-square df=5
    r = rng.from_seed("chi-shuffle")
    counts = Counter()
    n = 12_000
    for _ in range(n):
        items = list(range(6))
        rng.shuffle(r, items)
        counts[items.index(0)] += 1
    expected = n / 6
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(6))
    assert chi2 < 20.52  # p = 0.001 for df = 5


def test_terrain_is_uniform_per_hex_chi_square():
    """Each land hex sees each terrain with probability count/19 (base 3-4);
    chi-square per hex, df = 5, fixed seeds, critical value at p = 0.001."""
    L = layout.load("base-3-4")
    pool = Counter(L.regions[0].terrain_pool)
    n = 3800
    per_hex = {h: Counter() for h in L.land()}
    for i in range(n):
        b = generate.generate(L, rng.from_seed(f"chi/{i}"), harbors="players")
        for t in b.tiles:
            if t.kind == "land":
                per_hex[t.hex][t.terrain] += 1
    worst = 0.0
    for h, counts in per_hex.items():
        chi2 = sum((counts[t] - n * c / 19) ** 2 / (n * c / 19) for t, c in pool.items())
        worst = max(worst, chi2)
        assert chi2 < 20.52, (h, counts)
    assert worst > 0  # the statistic was computed


def test_shuffled_harbor_types_uniform_per_place():
    L = layout.load("base-3-4")
    n = 4500
    per_place = {p.hex: Counter() for p in L.harbor_places}
    for i in range(n):
        b = generate.generate(L, rng.from_seed(f"hb/{i}"))
        for h in b.harbors:
            per_place[h.hex][h.type] += 1
    pool = Counter(L.harbor_pool)
    for place, counts in per_place.items():
        chi2 = sum((counts[t] - n * c / 9) ** 2 / (n * c / 9) for t, c in pool.items())
        assert chi2 < 20.52, (place, counts)  # df = 5


def _assert_legal(b: Board):
    errs = check.errors(b)
    assert errs == [], errs


@settings(max_examples=150, deadline=None)
@given(
    seed=st.text(min_size=1, max_size=20).filter(str.isprintable),
    scenario=st.sampled_from(SCENARIOS),
    numbers_=st.sampled_from(("swap", "spiral", "uniform")),
    harbors=st.sampled_from(("shuffled", "free", "players")),
)
def test_property_every_board_is_legal(seed, scenario, numbers_, harbors):
    b = generate.from_seed(scenario, seed, numbers_, harbors)
    _assert_legal(b)
    assert Board.from_json(b.to_json()) == b
    clashes = [v for v in check.check(b) if v.rule in ("equal-adjacent", "red-adjacent")]
    if numbers_ in ("swap", "uniform"):  # neither lays equal nor red numbers side by side
        assert not clashes
    else:  # spiral: equal neighbours are notes, never errors; red ones never
        assert all(v.severity == "note" and v.rule == "equal-adjacent" for v in clashes)


@settings(max_examples=40, deadline=None)
@given(seed=st.text(min_size=1, max_size=20).filter(str.isprintable), scenario=st.sampled_from(SCENARIOS))
def test_property_uniform_boards_are_legal(seed, scenario):
    _assert_legal(generate.from_seed(scenario, seed, "uniform", "free"))


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("method", ("swap", "spiral", "uniform"))
def test_ten_thousand_boards_pass_check(scenario, method):
    _ten_thousand(scenario, method, ("shuffled", "free", "players"))


@pytest.mark.slow
@pytest.mark.parametrize("method", ("swap", "uniform"))
def test_ten_thousand_seafarers_boards_pass_check(method):
    _ten_thousand("seafarers-sm2010", method, ("free", "free", "players"))


def _ten_thousand(scenario, method, harbor_cycle):
    n = 1000 if (scenario == "base-5-6" and method == "uniform") else 10_000
    notes = 0
    for i in range(n):
        b = generate.from_seed(scenario, f"bulk/{i}", method, harbor_cycle[i % 3])
        found = check.check(b)
        assert [v for v in found if v.severity == "error"] == [], (i, found)
        notes += sum(v.rule == "equal-adjacent" for v in found)
    if method == "spiral" and scenario == "base-5-6":
        assert notes > 0  # the 5-6 spiral does put equal numbers side by side, and check says so
    elif method != "spiral":
        assert notes == 0


def test_robber_on_the_desert_and_five_six_has_two_deserts():
    b = generate.from_seed("base-5-6", "r")
    deserts = [t.hex for t in b.tiles if t.terrain == "desert"]
    assert len(deserts) == 2 and b.robber == deserts[0]
    assert all(b.tile(h).number is None for h in deserts)


def test_spiral_path_runs_counter_clockwise_through_adjacent_hexes():
    L = layout.load("base-3-4")
    land = L.land()
    corners = numbers.spiral_corners(land)
    assert len(corners) == 6 and all(hexgrid.distance((0, 0), c) == 2 for c in corners)
    for start in range(6):
        path = numbers.spiral_path(land, start)
        assert len(path) == 19 and set(path) == set(land) and path[-1] == (0, 0)
        assert path[0] == corners[start]
        assert all(hexgrid.distance(a, b) == 1 for a, b in zip(path, path[1:]))
        # counter-clockwise on the page: the first step turns left around the centre
        (x0, y0), (x1, y1) = hexgrid.center(path[0]), hexgrid.center(path[1])
        assert x0 * (-y1) - (-y0) * x1 > 0


def test_spiral_lays_the_official_sequence():
    L = layout.load("base-3-4")
    b = generate.from_seed(L, "spiral-demo", "spiral", "players")
    desert = b.robber
    on_path = {}
    for start in range(6):
        path = [h for h in numbers.spiral_path(L.land(), start) if h != desert]
        on_path[start] = [b.tile(h).number for h in path]
    assert list(L.spiral) in on_path.values()


def test_5_6_spiral_path_covers_the_board_through_neighbours():
    L = layout.load("base-5-6")
    path = numbers.spiral_path(L.land(), 0)
    assert len(path) == 30 and set(path) == set(L.land())
    assert all(hexgrid.distance(a, b) == 1 for a, b in zip(path, path[1:]))


def test_free_harbors_follow_section_3():
    L = layout.load("base-3-4")
    for i in range(300):
        b = generate.generate(L, random.Random(i), harbors="free")
        used = set()
        for h in b.harbors:
            assert b.tile(h.hex).kind == "sea"
            assert b.tile(hexgrid.neighbor(h.hex, h.facing)).kind == "land"
            cs = set(hexgrid.edge_corners(h.hex, h.facing))
            assert not cs & used
            used |= cs
        assert len({h.hex for h in b.harbors}) == 9


def test_impossible_free_harbors_fail_with_the_rule_named():
    from setupgen.core.errors import GenerationError
    from setupgen.generate import harbors

    edges = [((0, 0), 0), ((0, 0), 1)]  # one sea hex, two edges: only one harbor can go there
    with pytest.raises(GenerationError, match="harbor-one-per-sea-hex"):
        harbors.free(edges, ["3:1", "3:1"], random.Random(1), restarts=3)


def test_unknown_methods_are_rejected():
    L = layout.load("base-3-4")
    with pytest.raises(SetupgenError, match="unknown number method 'magic'"):
        generate.generate(L, random.Random(0), numbers="magic")
    with pytest.raises(SetupgenError, match="unknown harbor method 'nope'"):
        generate.generate(L, random.Random(0), harbors="nope")
