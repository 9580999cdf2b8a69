"""Pure functions over axial hex coordinates (pointy-top hexes).

Coordinates are axial ``(q, r)`` tuples of ints: ``r`` grows downwards
(south), ``q`` grows east along a row (``docs/format.md``). The six
neighbour directions are indexed as in docs/format.md::

    0 east (+1, 0)    1 north-east (+1, -1)   2 north-west (0, -1)
    3 west (-1, 0)    4 south-west (-1, +1)   5 south-east (0, +1)

An *intersection* (hex corner) is identified by the frozenset of the three
hexes that meet there; an *edge* by the frozenset of the two hexes that share
it. Both identities are canonical: they do not depend on iteration order and
exist whether or not those hexes are on the board.

Pixel positions are in units of the hex *size* (centre-to-corner distance);
x grows east, y grows south.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

Hex = tuple[int, int]
Intersection = frozenset[Hex]  # three Hex
Edge = frozenset[Hex]  # two Hex

DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQRT3 = math.sqrt(3.0)


def add(a: Hex, b: Hex) -> Hex:
    """Sum of two axial vectors."""
    return (a[0] + b[0], a[1] + b[1])


def neighbor(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in ``direction`` (0-5, see module doc).

    Raises ``ValueError`` for a direction outside 0-5.
    """
    if not 0 <= direction < 6:
        raise ValueError(f"direction must be 0-5, got {direction!r}")
    dq, dr = DIRECTIONS[direction]
    return (h[0] + dq, h[1] + dr)


def neighbors(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h`` in direction order 0-5."""
    return tuple((h[0] + dq, h[1] + dr) for dq, dr in DIRECTIONS)


def direction_to(a: Hex, b: Hex) -> int:
    """Direction index from ``a`` to its neighbour ``b``.

    Raises ``ValueError`` when the hexes are not neighbours.
    """
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        raise ValueError(f"hexes {a!r} and {b!r} are not neighbours") from None


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(center: Hex, radius: int) -> tuple[Hex, ...]:
    """Hexes at exactly ``radius`` steps from ``center`` (radius >= 1),
    starting at the corner in direction 4 (south-west) and walking
    counter-clockwise as seen on the page (east first)."""
    if radius < 1:
        raise ValueError(f"radius must be >= 1, got {radius!r}")
    out = []
    h = (center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbor(h, side)
    return tuple(out)


def edge(a: Hex, b: Hex) -> Edge:
    """The edge shared by neighbouring hexes ``a`` and ``b``.

    Raises ``ValueError`` when they are not neighbours.
    """
    direction_to(a, b)
    return frozenset((a, b))


def edge_of(h: Hex, direction: int) -> Edge:
    """The edge of ``h`` facing ``direction``."""
    return frozenset((h, neighbor(h, direction)))


def corners(h: Hex) -> tuple[Intersection, ...]:
    """The six intersections of ``h``; corner ``i`` lies between the edges
    facing directions ``i`` and ``i + 1`` (mod 6)."""
    ns = neighbors(h)
    return tuple(frozenset((h, ns[i], ns[(i + 1) % 6])) for i in range(6))


def edge_corners(h: Hex, direction: int) -> tuple[Intersection, Intersection]:
    """The two intersections at the ends of the edge of ``h`` facing
    ``direction``."""
    cs = corners(h)
    return (cs[(direction - 1) % 6], cs[direction])


def center(h: Hex) -> tuple[float, float]:
    """Pixel centre of ``h`` for hex size 1 (pointy-top; y grows south)."""
    q, r = h
    return (SQRT3 * (q + r / 2.0), 1.5 * r)


def corner_point(h: Hex, i: int) -> tuple[float, float]:
    """Pixel position of corner ``i`` (see :func:`corners`) for hex size 1.

    Corner 0 lies between the east and north-east edges, i.e. at 30 degrees
    above the east axis; corners go counter-clockwise on the page.
    """
    cx, cy = center(h)
    angle = math.radians(30 + 60 * i)
    return (cx + math.cos(angle), cy - math.sin(angle))


def offset_to_axial(col: int, row: int) -> Hex:
    """``odd-r`` offset (odd rows shifted half a hex right) to axial
    (docs/rules.md section 4: ``q = col - floor(row / 2)``, ``r = row``)."""
    return (col - (row // 2), row)


def axial_to_offset(h: Hex) -> tuple[int, int]:
    """Axial to ``odd-r`` offset ``(col, row)``."""
    q, r = h
    return (q + (r // 2), r)


def row_order(hexes: Iterable[Hex]) -> list[Hex]:
    """Hexes in reading order: row by row from the top, each row left to
    right (the *placement order* of docs/rules.md section 2)."""
    return sorted(hexes, key=lambda h: (h[1], h[0]))


def adjacent_pairs(hexes: Iterable[Hex]) -> list[tuple[Hex, Hex]]:
    """Every pair of side-by-side hexes of ``hexes`` once, as ``(a, b)``
    with ``b`` after ``a`` in reading order (:func:`row_order`): ``a`` in
    reading order, then ``b`` east, south-west, south-east of it
    (directions 0, 4, 5). The one definition of "adjacent pairs" the
    number and oil-spring rules use (docs/rules.md sections 2 and 5)."""
    have = set(hexes)
    return [(h, n) for h in row_order(have) for n in (neighbor(h, 0), neighbor(h, 4), neighbor(h, 5)) if n in have]


def layers(hexes: Iterable[Hex]) -> list[list[Hex]]:
    """Peel a set of hexes into layers from the outside in: each layer is
    the hexes with a neighbour outside what remains. Layers are unordered
    (sorted in reading order)."""
    remaining = set(hexes)
    out = []
    while remaining:
        layer = [h for h in remaining if any(n not in remaining for n in neighbors(h))]
        out.append(row_order(layer))
        remaining.difference_update(layer)
    return out
