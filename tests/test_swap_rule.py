"""The tournament swap rule (docs/rules.md section 2) with scripted draws.

Hand-worked example on a path of seven hexes A-G (each touches only its
left and right neighbour), placement order A..G, bag 4 4 5 9 3 3 5.
Draws (by value) 4, 4, 5, 9, 3, 3, 5, 4:

  A draws 4: fits -> A=4
  B draws 4: equal to A. Walk back: A(4) would trade 4 for 4, still equal
     -> no swap; 4 is put aside. B draws 5: fits -> B=5; the 4 goes back.
  C draws 9 -> C=9.   D draws 3 -> D=3.
  E draws 3: equal to D. Walk back (placement order descending):
     D(3): 3 on D fits, but 3 on E next to D=3 -> no;
     C(9): 3 on C next to D=3 -> no;
     B(5): 3 on B (next to A=4, C=9) fits and 5 on E (next to D=3) fits
     -> swap: B=3, E=5.
  F draws 5: equal to E. Walk back: E(5): no; D(3): 5 on D next to E=5, no;
     C(9): 5 on C (next to B=3, D=3) fits, 9 on F (next to E=5) fits
     -> swap: C=5, F=9.   (B received its chip last in time, at E's swap;
     reading "most recent" by time would have swapped with B: our reading
     follows the placement path, so C.)
  G draws 4 -> G=4.
Result A4 B3 C5 D3 E5 F9 G4.
"""

import pytest
from oracle import number_clashes

from setupgen.core.errors import GenerationError
from setupgen.generate import numbers

PATH = [(i * 2, 0) for i in range(7)]  # not neighbours in the hex grid...
A, B, C, D, E, F, G = PATH
ADJ = {
    h: tuple(x for x in (PATH[i - 1] if i else None, PATH[i + 1] if i + 1 < len(PATH) else None) if x)
    for i, h in enumerate(PATH)
}  # ...so the adjacency of the path is given explicitly


def scripted(values):
    it = iter(values)

    def pick(bag):
        return bag.index(next(it))

    return pick, it


def test_hand_worked_example_each_swap_and_put_aside_chip():
    pick, rest = scripted([4, 4, 5, 9, 3, 3, 5, 4])
    trace = []
    result = numbers.swap_with(PATH, [4, 4, 5, 9, 3, 3, 5], {}, pick, trace=trace, adjacency=ADJ)
    assert trace == [
        ("place", A, 4),
        ("aside", B, 4),
        ("place", B, 5),
        ("place", C, 9),
        ("place", D, 3),
        ("swap", E, B, 3, 5),
        ("swap", F, C, 5, 9),
        ("place", G, 4),
    ]
    assert [result[h] for h in PATH] == [4, 3, 5, 3, 5, 9, 4]
    assert list(rest) == []  # every scripted draw was used, no more


def test_red_rule_puts_a_chip_aside_then_returns_it_to_the_bag():
    path = PATH[:3]
    adj = {A: (B,), B: (A, C), C: (B,)}
    pick, _ = scripted([6, 8, 2, 8])
    trace = []
    result = numbers.swap_with(path, [6, 8, 2], {}, pick, trace=trace, adjacency=adj)
    # B: 8 next to 6 is red-red; trading with A would put 6 next to 8 again
    assert trace == [("place", A, 6), ("aside", B, 8), ("place", B, 2), ("place", C, 8)]
    assert result == {A: 6, B: 2, C: 8}


def test_fixed_tokens_count_against_drawn_chips():
    # a fixed 6 beside A forbids 6 and 8 on A
    fixed_hex = (-2, 0)
    adj = {A: (fixed_hex, B), B: (A,), fixed_hex: (A,)}
    pick, _ = scripted([8, 5, 8])
    trace = []
    result = numbers.swap_with([A, B], [8, 5], {fixed_hex: 6}, pick, trace=trace, adjacency=adj)
    assert trace == [("aside", A, 8), ("place", A, 5), ("place", B, 8)]
    assert result == {A: 5, B: 8}


def test_stuck_draw_restarts_and_gives_up_with_a_clear_error():
    # a row of three can hold 6 5 8, but always drawing the first chip gets
    # stuck every pass (5 then 6, and the 8 fits nowhere): exactly 5 restarts
    row = [(0, 0), (1, 0), (2, 0)]
    trace = []
    with pytest.raises(GenerationError, match=r"tiny: number placement failed after 5 restarts.*red-adjacent"):
        numbers.swap_with(row, [5, 6, 8], {}, lambda bag: 0, trace=trace, layout_name="tiny", restarts=5)
    assert [e for e in trace if e[0] == "restart"] == [("restart", n) for n in range(1, 6)]


def test_impossible_placement_gives_up_after_one_pass():
    # a triangle cannot hold two red chips at all: no restart is tried
    tri = [(0, 0), (1, 0), (0, 1)]
    trace = []
    with pytest.raises(GenerationError, match=r"tiny: 2 red tokens cannot lie apart on 3 hexes \(rule red-adjacent\)"):
        numbers.swap_with(tri, [6, 8, 5], {}, lambda bag: 0, trace=trace, layout_name="tiny", restarts=5)
    assert [e for e in trace if e[0] == "restart"] == []
    # the check comes once the first pass is stuck (it costs nothing on a layout that works): that pass ran
    assert trace[:2] == [("place", tri[0], 6), ("aside", tri[1], 8)]


def test_stuck_pass_restarts_with_a_full_bag_and_can_succeed():
    # path A-B-C, bag 5 5 9. Pass 1 draws 9, 5, 5: C's 5 is equal to B's and
    # trading with B (5) or A (9 -> 5 next to B's 5) does not help, the bag is
    # empty -> stuck. Pass 2 starts from the full bag: 5, 9, 5 fits.
    adj = {A: (B,), B: (A, C), C: (B,)}
    pick, rest = scripted([9, 5, 5, 5, 9, 5])
    trace = []
    result = numbers.swap_with([A, B, C], [5, 5, 9], {}, pick, trace=trace, adjacency=adj)
    assert trace == [
        ("place", A, 9),
        ("place", B, 5),
        ("aside", C, 5),
        ("restart", 1),
        ("place", A, 5),
        ("place", B, 9),
        ("place", C, 5),
    ]
    assert result == {A: 5, B: 9, C: 5}
    assert list(rest) == []


def by_index(indices):
    """A pick that takes the chip at each of ``indices`` in turn (the bag's
    order matters, unlike :func:`scripted`)."""
    it = iter(indices)
    return lambda bag: next(it), it


def test_chips_put_aside_go_back_to_the_end_of_the_bag():
    # path A-B-C-D-E, bag 6 8 2 3 4, always the first chip of the bag:
    # A takes 6; B draws 8 (red beside 6; trading with A puts 6 beside 8 again): aside; B takes 2;
    # the 8 goes back to the END of the bag: 3 4 8. C takes 3 (the front of the bag), D 4, E 8.
    path = PATH[:5]
    adj = {h: tuple(x for x in ADJ[h] if x in path) for h in path}
    pick, rest = by_index([0] * 6)
    trace = []
    result = numbers.swap_with(path, [6, 8, 2, 3, 4], {}, pick, trace=trace, adjacency=adj)
    assert trace == [
        ("place", A, 6),
        ("aside", B, 8),
        ("place", B, 2),
        ("place", C, 3),
        ("place", D, 4),
        ("place", E, 8),
    ]
    assert [result[h] for h in path] == [6, 2, 3, 4, 8]
    assert list(rest) == []


def test_the_drawn_chip_leaves_the_bag_and_the_rest_keep_their_order():
    # bag 2 3 4 5 on a path of four: indices 2, 0, 1, 0 take 4, then 2 (bag 2 3 5), then 5 (bag 3 5), then 3
    path = PATH[:4]
    adj = {h: tuple(x for x in ADJ[h] if x in path) for h in path}
    pick, _ = by_index([2, 0, 1, 0])
    assert numbers.swap_with(path, [2, 3, 4, 5], {}, pick, adjacency=adj) == {A: 4, B: 2, C: 5, D: 3}


def test_a_random_stream_draws_index_floor_of_random_times_the_bag():
    # docs/rules.md section 2: index floor(random() * n) of the bag as it stands
    import random

    class Scripted(random.Random):
        def __init__(self, values):
            super().__init__(0)
            self.values = iter(values)

        def random(self):
            return next(self.values)

    path = PATH[:4]
    adj = {h: tuple(x for x in ADJ[h] if x in path) for h in path}
    # bag 2 3 4 5: 0.99 * 4 -> 3 (5); bag 2 3 4: 0.5 * 3 -> 1 (3); bag 2 4: 0.49 * 2 -> 0 (2); bag 4
    got = numbers.swap_with(path, [2, 3, 4, 5], {}, Scripted([0.99, 0.5, 0.49, 0.0]), adjacency=adj)
    assert got == {A: 5, B: 3, C: 2, D: 4}


def test_the_walk_back_reaches_the_first_hex_of_the_path():
    # path A-B-C-D, draws 5 9 4 4. D draws 4, equal to C's. Walk back: C (4 for 4: still equal), B (4 on B
    # beside C's 4), A: 4 on A beside B's 9 fits and 5 on D beside C's 4 fits -> A and D trade.
    path = PATH[:4]
    adj = {h: tuple(x for x in ADJ[h] if x in path) for h in path}
    pick, rest = scripted([5, 9, 4, 4])
    trace = []
    result = numbers.swap_with(path, [5, 9, 4, 4], {}, pick, trace=trace, adjacency=adj)
    assert trace == [("place", A, 5), ("place", B, 9), ("place", C, 4), ("swap", D, A, 4, 5)]
    assert [result[h] for h in path] == [4, 9, 4, 5]
    assert list(rest) == []


def test_the_walk_back_trades_with_the_nearest_hex_that_allows_it():
    # hexes A, B, C in placement order; C touches A and B, A and B do not touch. A takes 6, B 5, C draws 8
    # (red beside A's 6). Walk back: B first (nearest): 8 on B (beside the empty C) fits, 5 on C (beside A's
    # 6 and B's 8) fits -> B and C trade. (Starting at A instead: 6 on C beside A's 8 breaks the red rule.)
    adj = {A: (C,), B: (C,), C: (A, B)}
    pick, rest = scripted([6, 5, 8])
    trace = []
    result = numbers.swap_with([A, B, C], [6, 5, 8], {}, pick, trace=trace, adjacency=adj)
    assert trace == [("place", A, 6), ("place", B, 5), ("swap", C, B, 8, 5)]
    assert result == {A: 6, B: 8, C: 5} and list(rest) == []


def test_the_walk_back_goes_hex_by_hex():
    # A-B, C-D and D beside a fixed 6 (X); A takes 3, B 9, C 6, D draws 8 (red beside C's 6 and X's 6).
    # Walk back from D: C: 6 on D beside X's 6 breaks the rules; B (two back): 8 on B beside A's 3 fits, 9 on
    # D beside the 6s fits -> B and D trade. (Skipping every other hex would reach A instead.)
    x = (-2, 0)
    adj = {A: (B,), B: (A,), C: (D,), D: (C, x), x: (D,)}
    pick, rest = scripted([3, 9, 6, 8])
    trace = []
    result = numbers.swap_with([A, B, C, D], [3, 9, 6, 8], {x: 6}, pick, trace=trace, adjacency=adj)
    assert trace == [("place", A, 3), ("place", B, 9), ("place", C, 6), ("swap", D, B, 8, 9)]
    assert result == {A: 3, B: 8, C: 6, D: 9} and list(rest) == []


@pytest.mark.parametrize("seed", range(200))
def test_swap_on_base_layout_is_always_legal(seed):
    import random

    from setupgen.core import layout

    L = layout.load("base-3-4")
    order = [h for h in L.land() if h != (0, 0)]  # desert in the middle
    got = numbers.swap(order, L.regions[0].number_tokens, {}, random.Random(seed), adjacency=L.adjacency)
    assert sorted(got.values()) == sorted(L.regions[0].number_tokens)
    assert number_clashes(got, L.adjacency) == []
