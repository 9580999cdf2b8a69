"""Token regions whose hexes touch (issue 41): no shipped layout has them,
a layout of a director's may. Each region's tokens must keep the number
rules against the tokens of the regions laid before it, and the uniform
method must be uniform over the legal arrangements of the whole board
(docs/rules.md section 2), not region by region.

Fixtures: ``tests/fixtures/touching-regions.toml`` (15 hexes in two
interleaved regions) and ``touching-pair.toml`` (two rows of three, one
region each). The legality oracle is ``tests/oracle.py`` (no setupgen
code); the legal arrangements of the pair are counted here by brute force
over the oracle."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest
from oracle import number_clashes

from setupgen import generate
from setupgen.core.layout import Layout

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def numbers_of(board) -> dict:
    return {t.hex: t.number for t in board.tiles if t.number is not None}


@pytest.mark.parametrize("method", ["swap", "uniform"])
def test_boards_of_touching_regions_keep_the_number_rules(method):
    # a forward check that left out the later hexes of the other region passed 615 of 3,000 boards
    layout = Layout.from_file(FIXTURES / "touching-regions.toml")
    broken = []
    for k in range(3000):
        board = generate.from_seed(layout, f"touch/{k}", numbers=method)
        numbers = numbers_of(board)
        assert len(numbers) == 15
        if number_clashes(numbers):
            broken.append((k, number_clashes(numbers)))
    assert broken == []


def legal_arrangements() -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every legal arrangement of touching-pair: tokens 6 5 4 on row a
    ((0, 1), (1, 1), (2, 1)), 8 5 3 on row b ((0, 2), (1, 2), (2, 2)),
    by brute force over the oracle."""
    out = []
    for pa in itertools.permutations([6, 5, 4]):
        for pb in itertools.permutations([8, 5, 3]):
            numbers = dict(zip(ROW_A, pa)) | dict(zip(ROW_B, pb))
            if not number_clashes(numbers):
                out.append((pa, pb))
    return out


ROW_A = [(0, 1), (1, 1), (2, 1)]
ROW_B = [(0, 2), (1, 2), (2, 2)]


def test_uniform_is_uniform_over_the_whole_boards_legal_arrangements():
    # 8 legal arrangements; row a's six orders have 1 or 2 legal completions each, so drawing region by
    # region would give the arrangements 1/6 or 1/12 (p about 1e-21 at this size), the whole board 1/8 each
    legal = legal_arrangements()
    assert len(legal) == 8
    assert sorted(Counter(pa for pa, _pb in legal).values()) == [1, 1, 1, 1, 2, 2]
    layout = Layout.from_file(FIXTURES / "touching-pair.toml")
    n = 8000
    seen: Counter = Counter()
    for k in range(n):
        numbers = numbers_of(generate.from_seed(layout, f"pair/{k}", numbers="uniform"))
        seen[(tuple(numbers[h] for h in ROW_A), tuple(numbers[h] for h in ROW_B))] += 1
    assert set(seen) == set(legal)
    expected = n / len(legal)
    chi2 = sum((seen[a] - expected) ** 2 / expected for a in legal)
    assert chi2 < 24.32, (chi2, seen)  # p = 0.001 for df = 7


def test_the_swap_rule_keeps_every_legal_arrangement_within_reach():
    # the swap rule promises legality, not uniformity (docs/rules.md section 2); on the pair every legal
    # arrangement still turns up
    layout = Layout.from_file(FIXTURES / "touching-pair.toml")
    seen = set()
    for k in range(2000):
        numbers = numbers_of(generate.from_seed(layout, f"pair/{k}", numbers="swap"))
        seen.add((tuple(numbers[h] for h in ROW_A), tuple(numbers[h] for h in ROW_B)))
    assert seen == set(legal_arrangements())


def test_only_token_regions_that_touch_are_laid_together(tmp_path):
    from setupgen.core import layout as layoutmod
    from setupgen.generate import plan

    assert plan.plan(Layout.from_file(FIXTURES / "touching-pair.toml")).regions_touch
    assert plan.plan(Layout.from_file(FIXTURES / "touching-regions.toml")).regions_touch
    # the two islands of layouts/README.md do not touch: region by region, as before
    readme = (Path(__file__).resolve().parent.parent / "layouts" / "README.md").read_text(encoding="utf-8")
    example = readme.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "two-islands.toml"
    path.write_text(example, encoding="utf-8")
    assert not plan.plan(Layout.from_file(path)).regions_touch
    # the Seafarers scenario: its face-down hexes carry fixed tokens (no region tokens) beside the island's
    assert not plan.plan(layoutmod.load("seafarers-sm2010")).regions_touch
    board = generate.from_seed("seafarers-sm2010", "touch/sf")
    assert number_clashes(numbers_of(board)) == []


@pytest.mark.parametrize("method", ["swap", "uniform"])
def test_a_fixed_token_beside_a_region_counts_against_its_tokens(method):
    # tests/fixtures/fixed-beside-region.toml: a fixed 6 beside three of the region's six hexes; the region's
    # 6 and 8 must go to the other three (issue 41: the forward check's neighbours outside every region)
    layout = Layout.from_file(FIXTURES / "fixed-beside-region.toml")
    for k in range(500):
        numbers = numbers_of(generate.from_seed(layout, f"fixed/{k}", numbers=method))
        assert numbers[(0, 2)] == 6 and len(numbers) == 7
        assert number_clashes(numbers) == [], (k, numbers)
