"""The rule definitions of setupgen.core.rules against hand-written
expectations (docs/rules.md sections 2 and 3), and the swap rule's lookup
table against the one rule on every pair of tokens."""

import itertools

import pytest

from setupgen.core import rules

NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


@pytest.mark.parametrize(
    "a,b,want",
    [
        (6, 6, ("equal-adjacent", "red-adjacent")),
        (8, 8, ("equal-adjacent", "red-adjacent")),
        (6, 8, ("red-adjacent",)),
        (8, 6, ("red-adjacent",)),
        (5, 5, ("equal-adjacent",)),
        (2, 2, ("equal-adjacent",)),
        (12, 12, ("equal-adjacent",)),
        (6, 5, ()),
        (8, 9, ()),
        (2, 12, ()),
    ],
)
def test_clashes_hand_worked(a, b, want):
    assert rules.clashes(a, b) == want


def test_clashes_every_pair():
    """Written out: a pair breaks the equal rule iff a == b, the red rule iff
    both are 6 or 8."""
    for a, b in itertools.product(NUMBERS, repeat=2):
        want = (("equal-adjacent",) if a == b else ()) + (("red-adjacent",) if {a, b} <= {6, 8} else ())
        assert rules.clashes(a, b) == want, (a, b)


def test_hot_path_table_agrees_with_the_rule_on_every_pair():
    table = rules.clash_table()
    assert len(table) == 13 and all(len(row) == 13 for row in table)
    for a, b in itertools.product(range(13), repeat=2):
        expected = a in NUMBERS and b in NUMBERS and bool(rules.clashes(a, b))
        assert table[a][b] is expected, (a, b)
    assert not any(table[0]) and not any(row[0] for row in table)  # 0 is an empty hex


def test_fits():
    h, n, far = (0, 0), (1, 0), (3, 0)
    assert rules.fits(5, h, {n: 6})
    assert not rules.fits(6, h, {n: 6})
    assert not rules.fits(8, h, {n: 6})
    assert not rules.fits(4, h, {n: 4})
    assert rules.fits(4, h, {far: 4})
    assert rules.fits(4, h, {h: 4})  # the hex itself is ignored
    # the deserts' oil-spring numbers are exempt from the equal rule only
    assert rules.fits(5, h, {n: 5}, equal_exempt=[n])
    assert not rules.fits(6, h, {n: 8}, equal_exempt=[n])
    assert not rules.fits(6, h, {n: 6}, equal_exempt=[n])
    assert not rules.fits(5, h, {n: 5}, equal_exempt=[far])
    # an adjacency given explicitly replaces the hex grid
    assert rules.fits(5, h, {n: 5}, {h: ()})
    assert not rules.fits(5, h, {far: 5}, {h: (far,)})


def test_coast_edge():
    kinds = {(0, 0): "sea", (1, 0): "land", (-1, 0): "sea", (0, 1): "frame", (5, 5): "land"}
    assert rules.coast_edge(kinds, (0, 0), 0)
    assert not rules.coast_edge(kinds, (0, 0), 3)  # sea to sea
    assert not rules.coast_edge(kinds, (0, 0), 5)  # sea to frame
    assert not rules.coast_edge(kinds, (0, 0), 2)  # off the board
    assert not rules.coast_edge({(0, 1): "frame", (1, 0): "land"}, (0, 1), 1)  # a frame half hex
    assert not rules.coast_edge(kinds, (5, 5), 0)  # land is no harbor hex


def test_harbor_conflict():
    # sea hex (0, 0): edges towards east (0) and north-east (1) meet in its corner 0
    assert rules.harbor_conflict(((0, 0), 0), ((0, 0), 0)) == "harbor-one-per-sea-hex"
    assert rules.harbor_conflict(((0, 0), 0), ((0, 0), 3)) == "harbor-one-per-sea-hex"
    # (0,0) facing east (1,0) and (1,-1) facing south-west (0,0)... the edge
    # (0,0)|(1,0) has corners {(0,0),(1,0),(1,-1)} and {(0,0),(1,0),(0,1)};
    # the edge (1,-1)|(1,0) has corners {(1,-1),(1,0),(0,0)} and {(1,-1),(1,0),(2,-1)}
    assert rules.harbor_conflict(((0, 0), 0), ((1, -1), 5)) == "harbor-shared-intersection"
    # (0,0)|(1,0) and (2,-1)|(1,0): corners {(2,-1),(1,0),(1,-1)}... no corner in common with the first
    assert rules.harbor_conflict(((0, 0), 0), ((2, -1), 4)) is None
    assert rules.harbor_conflict(((0, 0), 0), ((3, 3), 0)) is None


def test_check_rules_names_are_unique_and_complete():
    assert len(set(rules.CHECK_RULES)) == len(rules.CHECK_RULES) == 30
    names = {v for k, v in vars(rules).items() if k.startswith("RULE_")}
    assert names == set(rules.CHECK_RULES)


def test_red_barred_is_a_red_number_on_a_barred_terrain():
    """Only 6 and 8, only on the terrains named, and no token is no breach."""
    assert rules.red_barred(6, "gold", ("gold",)) and rules.red_barred(8, "gold", ("gold",))
    assert not any(rules.red_barred(n, "gold", ("gold",)) for n in (None, 2, 3, 4, 5, 9, 10, 11, 12))
    assert not rules.red_barred(6, "forest", ("gold",)) and not rules.red_barred(6, "gold", ())
