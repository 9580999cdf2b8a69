"""Constructive starts for the seating search (docs/schedule.md, "Start"):
resolvable designs over finite fields, where players never meet twice by
construction. Pure functions of their arguments; no draws, no I/O.

The *column design* for ``T`` tables of ``k`` seats: points ``(i, j)``, ``i``
an element of GF(T) (or of Z_T when T is no prime power), ``j`` a column
``0..k-1`` with multiplier ``m_j``; in the round of field element ``r``,
point ``(i, j)`` sits at table ``i - r*m_j``. Two points of different
columns meet in the one round ``r = (i - i') / (m_j - m_j')``, points of
one column never: with distinct multipliers, up to T rounds without a
repeated pair (Z_T: as many as T divided by the largest common divisor of
T with a multiplier difference).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``p**e == q`` for a prime ``p``, else None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    e, rest = 0, q
    while rest % p == 0:
        rest //= p
        e += 1
    return (p, e) if rest == 1 else None


class Field:
    """GF(p**e) on the integers ``0..q-1`` (base-p digits are the
    coefficients of a polynomial over GF(p), reduced by the first monic
    irreducible polynomial of degree e in counting order)."""

    def __init__(self, p: int, e: int) -> None:
        self.p, self.e, self.q = p, e, p**e
        self.modulus = _irreducible(p, e)

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p**i) % self.p for i in range(self.e)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def add(self, a: int, b: int) -> int:
        """``a + b`` in the field."""
        da, db = self._digits(a), self._digits(b)
        return self._number([(x + y) % self.p for x, y in zip(da, db)])

    def sub(self, a: int, b: int) -> int:
        """``a - b`` in the field."""
        da, db = self._digits(a), self._digits(b)
        return self._number([(x - y) % self.p for x, y in zip(da, db)])

    def mul(self, a: int, b: int) -> int:
        """``a * b`` in the field."""
        p, e = self.p, self.e
        prod = [0] * (2 * e)
        for i, x in enumerate(self._digits(a)):
            for j, y in enumerate(self._digits(b)):
                prod[i + j] = (prod[i + j] + x * y) % p
        for top in range(2 * e - 1, e - 1, -1):  # reduce by the monic modulus
            c = prod[top]
            if c:
                for i, m in enumerate(self.modulus):
                    prod[top - e + i] = (prod[top - e + i] - c * m) % p
        return self._number(prod[:e])


def _irreducible(p: int, e: int) -> list[int]:
    """Coefficients (constant first, leading 1 last) of the first monic
    polynomial of degree ``e`` over GF(p) without a factor of lower degree."""
    if e == 1:
        return [0, 1]

    def polys(deg: int) -> Iterator[list[int]]:
        for code in range(p**deg):
            yield [(code // p**i) % p for i in range(deg)] + [1]

    def divides(d: list[int], f: list[int]) -> bool:
        rem = list(f)
        for top in range(len(rem) - 1, len(d) - 2, -1):
            c = rem[top]
            if c:
                for i, m in enumerate(d):
                    rem[top - len(d) + 1 + i] = (rem[top - len(d) + 1 + i] - c * m) % p
        return not any(rem[: len(d) - 1])

    for f in polys(e):
        if all(not divides(d, f) for deg in range(1, e // 2 + 1) for d in polys(deg)):
            return f
    raise AssertionError("an irreducible polynomial exists for every degree")  # pragma: no cover


def column_rounds(tables: int, k: int, rounds: int) -> list[list[list[int]]] | None:
    """The column design's first ``rounds`` rounds: per round ``tables``
    tables, each a list of point numbers ``i * k + j`` (``i`` the field
    element, ``j`` the column). None when ``k`` distinct multipliers do
    not exist (``tables < k``). Over GF(T) no pair meets twice in up to T
    rounds, and when k divides T round T + 1 seats each column's points
    together (the affine plane's last parallel class when T = k); later
    rounds, or rounds beyond Z_T's clean range, may repeat."""
    if tables < k or tables < 2:
        return None
    pe = prime_power(tables)
    field = Field(*pe) if pe else None

    def sub(a: int, b: int) -> int:
        return field.sub(a, b) if field else (a - b) % tables

    def mul(a: int, b: int) -> int:
        return field.mul(a, b) if field else (a * b) % tables

    out = []
    for r in range(rounds):
        if r == tables and tables % k == 0:  # the columns themselves: pairs no other round has
            column = [[i * k + j for i in range(tables)] for j in range(k)]
            out.append([col[c : c + k] for col in column for c in range(0, tables, k)])
            continue
        rr = r % tables
        shifts = [mul(rr, j) for j in range(k)]
        round_tables: list[list[int]] = [[] for _ in range(tables)]
        for i in range(tables):
            for j in range(k):
                round_tables[sub(i, shifts[j])].append(i * k + j)
        out.append(round_tables)
    return out


def clean_rounds(tables: int, k: int) -> int:
    """How many rounds of :func:`column_rounds` have no repeated pair:
    T over a field, else T / the largest gcd(T, multiplier difference)."""
    from math import gcd

    if tables < k or tables < 2:
        return 0
    if prime_power(tables):
        return tables + (tables % k == 0)
    return tables // max(gcd(tables, d) for d in range(1, k))


_SHIFT_POOL = 30_000  # shift vectors at most (T - 1)(T - 2)...(T - k + 1) for the search
_SHIFT_NODES = 20_000  # search nodes at most


def shift_rounds(tables: int, k: int, rounds: int) -> list[list[list[int]]] | None:
    """Up to ``rounds`` rounds without a repeated pair over Z_T when T is no
    prime power, as :func:`column_rounds` numbers the points: a round is a
    *shift vector* c (c_0 = 0), point ``(i, j)`` at table ``i - c_j``; two
    points of columns j, j' meet in round c when ``i - i' = c_j - c_j'``,
    so rounds c, c' share no pair exactly when ``c - c'`` has k different
    coordinates. A depth-first search for such a set (candidates in
    counting order, at most 20,000 nodes), starting from the zero vector;
    None when the candidates would exceed 30,000 or no more rounds than
    :func:`clean_rounds` are found. The rounds of one column never meet."""
    if tables < k or prime_power(tables):
        return None
    size = 1
    for d in range(1, k):
        size *= tables - d
    if size > _SHIFT_POOL:
        return None
    cands = [(0,) + c for c in _injections(tables, k - 1) if 0 not in c]
    best: list[tuple[int, ...]] = []
    nodes = [0]

    def apart(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        return len({(x - y) % tables for x, y in zip(a, b)}) == k

    def go(chosen: list[tuple[int, ...]], pool: list[tuple[int, ...]]) -> bool:
        nodes[0] += 1
        if len(chosen) > len(best):
            best[:] = chosen
        if len(chosen) >= rounds or nodes[0] > _SHIFT_NODES:
            return True
        for idx, c in enumerate(pool):
            if len(chosen) + len(pool) - idx <= len(best):
                return False
            if go(chosen + [c], [d for d in pool[idx + 1 :] if apart(c, d)]):
                return True
        return False

    go([(0,) * k], cands)
    if len(best) <= clean_rounds(tables, k):
        return None
    return [
        [[i * k + j for i in range(tables) for j in range(k) if (i - c[j]) % tables == t] for t in range(tables)]
        for c in best
    ]


def _injections(n: int, length: int) -> list[tuple[int, ...]]:
    """Tuples of ``length`` distinct values from ``0..n-1``, in counting order."""
    from itertools import permutations

    return list(permutations(range(n), length))


# ---------------------------------------------------------------- resolvable 2-(v, k, 1) designs

#: search nodes the resolution of a design's blocks into rounds may take at most
_RESOLVE_NODES = 400_000


def resolvable_rounds(tables: int, k: int, rounds: int) -> list[list[list[int]]] | None:
    """Rounds of a resolvable 2-(v, k, 1) design with ``v = tables * k``
    points (numbers ``0..v-1``), every pair of points meeting in exactly
    one of its (v - 1)/(k - 1) rounds, or None when none is built here or
    ``rounds`` is no more than the column design's clean rounds (it is the
    better start then: its columns keep groups apart). Built here: the
    Hermitian unital of order 3 (28 points, tables of 4: 9 rounds) and the
    lines of PG(3, 3) (40 points, tables of 4: 13 rounds), each resolved
    into parallel classes by an exact-cover search (:func:`resolve`).
    Deterministic; at most the first ``rounds`` rounds."""
    if rounds <= clean_rounds(tables, k):
        return None
    found = _resolved(tables, k)
    return None if found is None else [[list(t) for t in rnd] for rnd in found[:rounds]]


@cache
def _resolved(tables: int, k: int) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """Every round of the design built here for ``tables`` tables of ``k``
    (None: none), worked out once per process (it is the same every time)."""
    builders = {(7, 4): lambda: unital_blocks(3), (10, 4): lambda: projective_lines(3, 3)}
    if (tables, k) not in builders:
        return None
    blocks = builders[(tables, k)]()
    found = resolve(blocks, tables * k, (tables * k - 1) // (k - 1))
    return None if found is None else tuple(tuple(blocks[b] for b in cls) for cls in found)


def unital_blocks(q: int) -> list[tuple[int, ...]]:
    """The blocks of the Hermitian unital of order ``q`` (a 2-(q³ + 1,
    q + 1, 1) design): the points of the curve x^(q+1) + y^(q+1) +
    z^(q+1) = 0 of PG(2, q²) (numbered in the order of their normalised
    coordinates), a block the curve's points on a line through two of
    them; sorted."""
    field = _field(q * q)
    points = [p for p in _projective_points(field, 3) if _hermitian(field, p, q + 1)]
    return _secant_blocks(field, points)


def projective_lines(q: int, d: int) -> list[tuple[int, ...]]:
    """The lines of PG(``d``, ``q``) as blocks of q + 1 point numbers (a
    2-((q^(d+1) − 1)/(q − 1), q + 1, 1) design), sorted."""
    field = _field(q)
    return _secant_blocks(field, _projective_points(field, d + 1))


def resolve(blocks: Sequence[Sequence[int]], v: int, classes: int) -> list[list[int]] | None:
    """``blocks`` (of a 2-(v, k, 1) design) split into ``classes``
    parallel classes, each block numbers covering the points ``0..v-1``
    once: a depth-first exact-cover search (each class grown from its
    lowest uncovered point, blocks in order), at most
    ``_RESOLVE_NODES`` nodes; None when it finds none."""
    sets = [frozenset(b) for b in blocks]
    by_point = [[i for i, b in enumerate(sets) if p in b] for p in range(v)]
    used = [False] * len(sets)
    out: list[list[int]] = []
    nodes = [0]

    def grow(cover: frozenset[int], chosen: list[int]) -> Iterator[list[int]]:
        nodes[0] += 1
        if len(cover) == v:
            yield list(chosen)
            return
        p = next(x for x in range(v) if x not in cover)
        for i in by_point[p]:
            if not used[i] and not sets[i] & cover and nodes[0] <= _RESOLVE_NODES:
                used[i] = True
                chosen.append(i)
                yield from grow(cover | sets[i], chosen)
                chosen.pop()
                used[i] = False

    def solve() -> bool:
        if len(out) == classes:
            return True
        for cls in grow(frozenset(), []):
            for i in cls:
                used[i] = True
            out.append(cls)
            if solve():
                return True
            out.pop()
            for i in cls:
                used[i] = False
        return False

    return out if solve() else None


def _field(q: int) -> Field:
    pe = prime_power(q)
    assert pe is not None
    return Field(*pe)


def _projective_points(field: Field, dims: int) -> list[tuple[int, ...]]:
    """The points of PG(dims − 1, q): nonzero vectors of ``dims``
    coordinates whose first nonzero coordinate is 1, in counting order."""
    from itertools import product

    return [v for v in product(range(field.q), repeat=dims) if next(c for c in (*v, 1) if c) == 1 and any(v)]


def _hermitian(field: Field, point: Sequence[int], power: int) -> bool:
    """Whether Σ c^power over ``point``'s coordinates is 0 in ``field``."""
    total = 0
    for c in point:
        term = 1
        for _ in range(power):
            term = field.mul(term, c)
        total = field.add(total, term)
    return total == 0


def _secant_blocks(field: Field, points: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """For every pair of ``points`` not yet on a block, the numbers of the
    points on the line they span (all multiples a·x + b·y, normalised),
    sorted. The field's sums and products are tabled first (q ≤ 16 here)."""
    from itertools import combinations

    q = field.q
    add = [[field.add(a, b) for b in range(q)] for a in range(q)]
    mul = [[field.mul(a, b) for b in range(q)] for a in range(q)]
    inv = [0] + [next(c for c in range(1, q) if mul[c][a] == 1) for a in range(1, q)]
    number = {p: i for i, p in enumerate(points)}
    covered: set[tuple[int, int]] = set()
    blocks = []
    for x, y in combinations(points, 2):
        if (number[x], number[y]) in covered:
            continue
        on = set()
        for a in range(q):
            for b in range(q):
                w = [add[mul[a][s]][mul[b][t]] for s, t in zip(x, y)]
                lead = next((c for c in w if c), 0)
                if lead:
                    found = number.get(tuple(mul[inv[lead]][c] for c in w))
                    if found is not None:
                        on.add(found)
        block = tuple(sorted(on))
        covered.update(combinations(block, 2))
        blocks.append(block)
    return sorted(blocks)
