"""Early rejection under balance limits (issue 30): an attempt whose terrain
already breaks ``max_terrain_cluster`` is abandoned before its numbers,
yet every seed gets the board that drawing every attempt whole gives. The
oracle draws each attempt whole through ``from_setup_id`` (which never
rejects early) and asks ``first_failure`` of the finished board."""

from __future__ import annotations

import pytest

from setupgen import generate
from setupgen.core import balance, rng, setupid
from setupgen.core import layout as layoutmod
from setupgen.core.balance import Limits
from setupgen.generate import pipeline

FAIR = balance.load_preset("fair")
#: seeds per scenario compared with full rejection
SEEDS = 2000


def full_rejection(lay, seed: str, limits: Limits):
    """(attempt, board) of the first attempt whose whole board meets ``limits``."""
    if lay.balance is not None:
        limits = lay.balance.merged(limits)
    numbers, harbors = generate.resolve_methods(lay, None, None)
    first = rng.digest(seed)
    for attempt in range(generate.ATTEMPTS[numbers]):
        d = rng.attempt_digest(first, attempt)
        board = generate.from_setup_id(setupid.encode(lay.code, numbers, harbors, d), lay)
        if balance.first_failure(board, limits, start_barred=lay.start_barred) is None:
            return attempt, board
    raise AssertionError(f"no attempt of {seed!r} met the limits")


@pytest.mark.parametrize(
    "scenario,limits,seeds",
    [
        ("base-3-4", FAIR, SEEDS),
        ("base-5-6", FAIR, SEEDS),
        ("cities-knights", FAIR, SEEDS),
        ("seafarers-sm2010", FAIR, SEEDS),
        ("base-3-4", Limits(max_terrain_cluster=2, max_intersection_pips=11), 200),
        ("base-5-6", Limits(max_terrain_cluster=3, max_intersection_pips=11), 100),
    ],
)
def test_same_boards_as_full_rejection(scenario, limits, seeds):
    lay = layoutmod.load(scenario)
    for i in range(seeds):
        seed = f"early/{i}"
        attempt, want = full_rejection(lay, seed, limits)
        got = generate.from_seed_within(lay, seed, limits)
        assert got.balance is not None and got.balance.attempt == attempt, seed
        assert (got.tiles, got.harbors, got.robber, got.setup_id) == (
            want.tiles,
            want.harbors,
            want.robber,
            want.setup_id,
        ), seed


def test_oil_springs_boards_as_full_rejection():
    # the oil step may redraw the terrain, so no attempt is cut short there
    lay = layoutmod.load("oil-springs")
    for i in range(300):
        attempt, want = full_rejection(lay, f"oil/{i}", FAIR)
        got = generate.from_seed_within(lay, f"oil/{i}", FAIR)
        assert got.balance.attempt == attempt and got.tiles == want.tiles and got.harbors == want.harbors


def count_number_draws(monkeypatch, scenario: str, seeds: int) -> tuple[int, int]:
    """(attempts made, attempts whose numbers were drawn) over ``seeds`` fair boards."""
    calls = {"numbers": 0}
    real = pipeline._numbers

    def counting(*args, **kw):
        calls["numbers"] += 1
        return real(*args, **kw)

    monkeypatch.setattr(pipeline, "_numbers", counting)
    attempts = sum(generate.from_seed_within(scenario, f"count/{i}", FAIR).balance.attempt + 1 for i in range(seeds))
    return attempts, calls["numbers"]


def test_attempts_over_the_cluster_limit_draw_no_numbers(monkeypatch):
    attempts, drawn = count_number_draws(monkeypatch, "base-5-6", 100)
    assert attempts > 2000  # about 51 an accepted board
    assert drawn < attempts * 0.1  # about 3 % of the terrains keep every group within 2
    attempts, drawn = count_number_draws(monkeypatch, "oil-springs", 50)
    assert drawn >= attempts  # Oil Springs: every attempt whole (numbers redone at times)


def test_terrain_groups_worked_by_hand():
    # hexes 0-3 in a ring (0-1, 1-2, 2-3, 3-0), 4-5 a pair apart
    pairs = [(0, 1), (1, 2), (2, 3), (0, 3), (4, 5)]
    terrain = ["forest", "forest", "pasture", "forest", "desert", "desert"]
    assert balance.terrain_groups(terrain, pairs, {"desert"}) == (3, 2)  # 0, 1 and 3; deserts not counted
    assert balance.terrain_groups(["hills", "fields", "hills", "fields", "ore", "gold"], pairs, {"desert"}) == (1, 0)
    assert balance.terrain_groups(["desert"] * 6, pairs, {"desert"}) == (0, 0)


def test_largest_group_of_a_drawn_terrain_worked_by_hand():
    from setupgen.core.board import TERRAIN_CODES
    from setupgen.generate import plan

    pl = plan.plan(layoutmod.load("base-3-4"))
    centre = pl.cell_of[(0, 0)]
    terrain = list(pl.terrain)
    for c in pl.land:
        terrain[c] = TERRAIN_CODES["forest"]
    assert pipeline.largest_group(pl, terrain) == 19
    terrain[centre] = TERRAIN_CODES["desert"]
    assert pipeline.largest_group(pl, terrain) == 18  # the two rings stay joined
    ring = [
        c
        for c in pl.land
        if max(abs(pl.table.hexes[c][0]), abs(pl.table.hexes[c][1]), abs(pl.table.hexes[c][0] + pl.table.hexes[c][1]))
        == 1
    ]
    for c in ring:
        terrain[c] = TERRAIN_CODES["desert"]
    assert pipeline.largest_group(pl, terrain) == 12  # the outer ring alone
