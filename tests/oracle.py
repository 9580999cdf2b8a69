"""Independent oracles for the tests: the number rules written out by hand
from docs/rules.md section 2, sharing no code with setupgen."""

DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def number_clashes(numbers, adjacency=None):
    """Every adjacent pair ``(h, n, a, b)`` of ``numbers`` (hex -> token)
    that breaks a number rule: equal numbers, or 6 and 8 in any mix, side
    by side. ``adjacency`` (hex -> neighbours) replaces the hex grid."""
    out = []
    for h, a in numbers.items():
        near = adjacency[h] if adjacency is not None else [(h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS]
        for n in near:
            b = numbers.get(n)
            if b is None or n <= h:
                continue
            if a == b or (a in (6, 8) and b in (6, 8)):
                out.append((h, n, a, b))
    return out
