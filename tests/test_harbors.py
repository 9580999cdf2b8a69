"""Free harbor placement (docs/rules.md section 3) is unbiased: every legal edge
is used with exactly the frequency the sequential process predicts.

The process: harbors in random order, each on a uniformly chosen legal edge
(at most one harbor per sea hex, no intersection shared by two harbors); a
dead end restarts the whole step. So a completed sequence of edges
e1..ek has probability proportional to prod 1/|legal_i|, conditioned on
completion. On a small layout we enumerate every sequence exactly and
compare with 20,000 simulated placements (chi-square, fixed seed)."""

import random
from collections import Counter
from fractions import Fraction

import pytest

from setupgen.core import hexgrid
from setupgen.core import layout as lay
from setupgen.generate import harbors

SMALL = """
name = "harbor-test"
code = "HT"
players = "3-4"
victory_points = 10

[regions.land]
terrain = { forest = 1, hills = 1, fields = 1, desert = 1 }
numbers = [5, 9, 10]

[map]
rows = [
  { r = 0, q = 0, cells = "~ ~ ~ ~" },
  { r = 1, q = -1, cells = "~ L L L ~" },
  { r = 2, q = -1, cells = "~ L ~ ~" },
  { r = 3, q = -2, cells = "~ ~ ~" },
]

[map.legend]
"~" = { kind = "sea" }
"L" = { kind = "land", region = "land" }

[harbors]
default = "free"
pool = { "3:1" = 2, ore = 1 }
"""


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("layouts") / "harbor-test.toml"
    path.write_text(SMALL)
    L = lay.Layout.from_file(path)
    return L, L.coast_edges


def exact_edge_frequency(edges, k):
    """Probability that each edge carries a harbor, by enumerating the
    sequential process (conditioned on completing k harbors)."""
    corners = {e: set(hexgrid.edge_corners(*e)) for e in edges}
    use = Counter()
    total = Fraction(0)

    def walk(chosen, used_sea, used_corners, p):
        nonlocal total
        if len(chosen) == k:
            total += p
            for e in chosen:
                use[e] += p
            return
        legal = [e for e in edges if e[0] not in used_sea and not (corners[e] & used_corners)]
        for e in legal:
            walk(chosen + [e], used_sea | {e[0]}, used_corners | corners[e], p / len(legal))

    walk([], frozenset(), frozenset(), Fraction(1))
    return {e: use[e] / total for e in edges}


def test_small_layout_has_enough_edges_to_be_interesting(small):
    L, edges = small
    assert len(edges) >= 12
    freq = exact_edge_frequency(edges, 3)
    assert sum(freq.values()) == 3  # three harbors per board
    assert len(set(freq.values())) > 1  # not all edges equally likely: a real prediction


def test_edge_use_matches_the_exact_sequential_process(small):
    L, edges = small
    freq = exact_edge_frequency(edges, 3)
    rng = random.Random(20100)
    n = 20_000
    seen = Counter()
    for _ in range(n):
        for h in harbors.free(edges, L.harbor_pool, rng):
            seen[(h.hex, h.facing)] += 1
    chi2 = sum((seen[e] - n * float(freq[e])) ** 2 / (n * float(freq[e])) for e in edges)
    df = len(edges) - 1
    # critical value of chi-square at p = 0.001 (Wilson-Hilferty approximation)
    z = 3.090
    critical = df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3
    assert chi2 < critical, (chi2, critical)
    # and the worst single edge is within 4.5 standard deviations
    for e in edges:
        p = float(freq[e]) / 3
        sd = (n * 3 * p * (1 - p)) ** 0.5
        assert abs(seen[e] - n * float(freq[e])) < 4.5 * sd


def test_harbor_types_are_drawn_in_random_order(small):
    L, edges = small
    rng = random.Random(7)
    ore_edges = Counter()
    for _ in range(6000):
        for h in harbors.free(edges, L.harbor_pool, rng):
            if h.type == "ore":
                ore_edges[(h.hex, h.facing)] += 1
    freq = exact_edge_frequency(edges, 3)
    # the ore harbor is any one of the three: its edge follows freq / 3
    for e in edges:
        expected = 6000 * float(freq[e]) / 3
        assert abs(ore_edges[e] - expected) < 4.5 * expected**0.5 + 5
