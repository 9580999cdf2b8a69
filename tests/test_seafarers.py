"""The Swiss Championship 2010 Seafarers scenario (docs/rules.md section 4)."""

from collections import Counter

import pytest
from oracle import number_clashes

from setupgen import check, generate
from setupgen.core import hexgrid, layout, rng
from setupgen.generate import numbers

L = layout.load("seafarers-sm2010")


def test_layout_matches_rules_section_4():
    island = L.region_hexes("island")
    hidden = L.region_hexes("hidden")
    assert len(island) == 19 and len(hidden) == 7
    assert sorted(L.regions[1].terrain_pool) == sorted(
        ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3 + ["desert"]
    )
    pool = {r.name: Counter(r.terrain_pool) for r in L.regions}
    assert pool["hidden"] == Counter(hills=2, mountains=2, fields=1, forest=1, pasture=1)
    assert all(L.spec(h).number is not None for h in hidden)
    gold = [s for s in L.hexes if s.terrain == "gold"]
    assert sorted(s.number for s in gold) == [3, 11]
    fixed = sorted(s.number for s in L.hexes if s.number is not None)
    assert fixed == [3, 4, 5, 6, 8, 9, 10, 11, 12]  # the Seafarers tokens but the 2
    assert L.pirate == (3, 0) and L.spec(L.pirate).kind == "sea"
    assert L.robber == "desert" and L.victory_points == 12 and L.reconstruction
    assert L.default_harbors == "free" and len(L.harbor_pool) == 10 and L.harbor_pool.count("3:1") == 5
    frames = [s.hex for s in L.hexes if s.kind == "frame"]
    assert len(frames) == 6 and all(h[1] % 2 == 1 for h in frames)
    # the narrowed map: both gold islands and the big island's two outermost hexes touch the frame
    touching = {h for h in L.land() if any(n in frames for n in hexgrid.neighbors(h))}
    assert {s.hex for s in gold} <= touching
    assert {(-1, 3), (4, 3)} <= touching and (-1, 3) in island and (4, 3) in island
    # row 0 has 7 hexes, odd rows 6 playable hexes
    assert len([s for s in L.hexes if s.hex[1] == 0]) == 7
    assert len([s for s in L.hexes if s.hex[1] == 1 and s.kind != "frame"]) == 6


def test_big_island_swap_rule_with_scripted_draws():
    """Hand-worked on the big island (desert at (1, 5), the last hex):
    (2,1) draws 6: placed. (3,1) draws 8: red beside 6; trading with (2,1)
    puts 6 beside 8 -> aside; draws 6: equal -> aside; draws 5: placed.
    (4,1) draws 8: placed (beside 5). (1,2) draws 6: equal to (2,1); no
    earlier hex can take it -> aside; draws 10: placed. (2,2) draws 5: equal
    to (3,1); walking back, (1,2) (10) can take the 5 and 10 fits on (2,2)
    -> swap. (3,2) draws 6: red beside (4,1)=8; no trade works -> aside;
    draws 9: placed."""
    island = L.region_hexes("island")
    order = [h for h in island if h != (1, 5)]
    fixed = {s.hex: s.number for s in L.hexes if s.number is not None}
    script = iter([6, 8, 6, 5, 8, 6, 10, 5, 6, 9])

    def pick(bag):
        value = next(script, None)
        return 0 if value is None else bag.index(value)

    trace = []
    result = numbers.swap_with(order, L.regions[1].number_tokens, fixed, pick, trace=trace, adjacency=L.adjacency)
    assert trace[:10] == [
        ("place", (2, 1), 6),
        ("aside", (3, 1), 8),
        ("aside", (3, 1), 6),
        ("place", (3, 1), 5),
        ("place", (4, 1), 8),
        ("aside", (1, 2), 6),
        ("place", (1, 2), 10),
        ("swap", (2, 2), (1, 2), 5, 10),
        ("aside", (3, 2), 6),
        ("place", (3, 2), 9),
    ]
    board = {**fixed, **result}
    assert number_clashes(board) == []


def test_generated_numbers_follow_the_swap_rule_step_by_step():
    """generate() lays the big island exactly as swap_with does with the
    same stream, in placement order from the top left, desert skipped."""
    for i in range(30):
        seed = f"sf/{i}"
        board = generate.from_seed(L, seed)
        r = rng.from_seed(seed)
        # replay: terrain shuffles of both regions (sorted by name: hidden, island)
        for region in L.regions:
            rng.shuffle(r, list(region.terrain_pool))
        desert = board.robber
        order = [h for h in L.region_hexes("island") if h != desert]
        fixed = {s.hex: s.number for s in L.hexes if s.number is not None}
        trace = []
        replay = numbers.swap_with(
            order, L.regions[1].number_tokens, fixed, lambda bag, r=r: rng.randbelow(r, len(bag)), trace=trace
        )
        assert replay == {h: board.tile(h).number for h in order}
        placed_order = [e[1] for e in trace if e[0] in ("place", "swap")]
        assert placed_order == order[: len(placed_order)] or any(e[0] == "restart" for e in trace)


def test_hidden_terrain_is_uniform_per_hex_chi_square():
    pool = Counter(L.regions[0].terrain_pool)
    hidden = L.region_hexes("hidden")
    n = 3500
    seen = {h: Counter() for h in hidden}
    for i in range(n):
        b = generate.generate(L, rng.from_seed(f"hid/{i}"), harbors="players")
        for h in hidden:
            t = b.tile(h)
            assert t.hidden
            seen[h][t.terrain] += 1
    for h in hidden:
        chi2 = sum((seen[h][t] - n * c / 7) ** 2 / (n * c / 7) for t, c in pool.items())
        assert chi2 < 18.47, (h, seen[h])  # df = 4, p = 0.001


def test_boards_are_legal_and_harbors_avoid_frame():
    for i in range(300):
        b = generate.from_seed(L, f"legal/{i}")
        assert check.errors(b) == []
        assert b.pirate == (3, 0) and b.tile(b.robber).terrain == "desert"
        assert len(b.harbors) == 10
        for h in b.harbors:
            assert b.tile(h.hex).kind == "sea"
        gold = sorted((t.hex, t.number) for t in b.tiles if t.terrain == "gold")
        assert gold == [((0, 1), 3), ((3, 5), 11)]


def test_check_catches_seafarers_specific_errors():
    import dataclasses

    b = generate.from_seed(L, "bad")
    tiles = list(b.tiles)
    i = next(k for k, t in enumerate(tiles) if t.hidden)
    tiles[i] = dataclasses.replace(tiles[i], number=2)  # fixed token changed
    j = next(k for k, t in enumerate(tiles) if t.kind == "frame")
    bad = dataclasses.replace(
        b,
        tiles=tuple(tiles),
        pirate=None,
        harbors=b.harbors[:9] + (dataclasses.replace(b.harbors[9], hex=tiles[j].hex),),
    )
    rules = {v.rule for v in check.errors(bad)}
    assert {"number-fixed", "pirate", "harbor-coast"} <= rules
    flipped = list(b.tiles)
    flipped[i] = dataclasses.replace(flipped[i], hidden=False)
    assert "hex-hidden" in {v.rule for v in check.errors(dataclasses.replace(b, tiles=tuple(flipped)))}


def test_players_harbor_mode():
    b = generate.from_seed(L, "p", harbors="players")
    assert b.harbors == () and check.errors(b) == []
    with pytest.raises(Exception, match="no fixed harbor places"):
        generate.from_seed(L, "p", harbors="shuffled")
