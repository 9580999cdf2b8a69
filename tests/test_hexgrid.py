import pytest

from setupgen.core import hexgrid as hg


def test_neighbors_follow_format_direction_order():
    assert hg.neighbors((0, 0)) == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert hg.direction_to((2, -1), (1, 0)) == 4
    with pytest.raises(ValueError, match="not neighbours"):
        hg.direction_to((0, 0), (2, 0))


def test_distance_and_ring():
    assert hg.distance((0, 0), (3, -3)) == 3
    assert hg.distance((-2, 1), (1, -1)) == 3
    assert len(hg.ring((0, 0), 3)) == 18
    assert all(hg.distance((0, 0), h) == 3 for h in hg.ring((0, 0), 3))
    assert len(set(hg.ring((0, 0), 2))) == 12


def test_intersections_are_canonical_across_the_three_hexes():
    # the corner between (0,0), (1,0) and (1,-1) is the same value seen from each hex
    key = frozenset({(0, 0), (1, 0), (1, -1)})
    assert key in hg.corners((0, 0))
    assert key in hg.corners((1, 0))
    assert key in hg.corners((1, -1))
    # every hex has six distinct corners, and neighbours share exactly two
    assert len(set(hg.corners((0, 0)))) == 6
    assert len(set(hg.corners((0, 0))) & set(hg.corners((1, 0)))) == 2


def test_edge_corners_are_the_shared_corners_of_the_two_hexes():
    for d in range(6):
        n = hg.neighbor((4, -2), d)
        assert set(hg.edge_corners((4, -2), d)) == set(hg.corners((4, -2))) & set(hg.corners(n))
        assert set(hg.edge_corners(n, (d + 3) % 6)) == set(hg.edge_corners((4, -2), d))
    assert hg.edge((0, 0), (0, 1)) == hg.edge_of((0, 1), 2)


def test_pixel_geometry_pointy_top():
    x, y = hg.center((1, 0))
    assert (round(x, 6), y) == (round(3**0.5, 6), 0.0)
    assert hg.center((0, 1)) == pytest.approx((3**0.5 / 2, 1.5))
    # corner 1 (between NE and NW edges) is straight above the centre
    assert hg.corner_point((0, 0), 1) == pytest.approx((0.0, -1.0))
    # the two ends of the east edge are shared by the east neighbour's west edge
    a = {tuple(round(v, 9) for v in hg.corner_point((0, 0), i)) for i in (5, 0)}
    b = {tuple(round(v, 9) for v in hg.corner_point((1, 0), i)) for i in (2, 3)}
    assert a == b


def test_offset_conversion_odd_r():
    assert hg.offset_to_axial(3, 0) == (3, 0)
    assert hg.offset_to_axial(3, 1) == (3, 1)
    assert hg.offset_to_axial(3, 2) == (2, 2)
    assert hg.offset_to_axial(0, 5) == (-2, 5)
    for col in range(-3, 4):
        for row in range(-3, 7):
            assert hg.axial_to_offset(hg.offset_to_axial(col, row)) == (col, row)


def test_layers_peel_a_hexagon():
    hexes = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    assert [len(layer) for layer in hg.layers(hexes)] == [12, 6, 1]


def test_adjacent_pairs_each_once_in_reading_order():
    """A flower of 7 hexes has 12 sides shared (6 spokes, 6 around the
    rim); each pair once, the later hex in reading order second."""
    from setupgen.core import hexgrid as hg

    flower = [(0, 0), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    pairs = hg.adjacent_pairs(flower)
    assert len(pairs) == 12 and len({frozenset(p) for p in pairs}) == 12
    assert all((b[1], b[0]) > (a[1], a[0]) for a, b in pairs)
    assert pairs[:3] == [((0, -1), (1, -1)), ((0, -1), (-1, 0)), ((0, -1), (0, 0))]
    assert hg.adjacent_pairs([(0, 0), (2, 0)]) == []
