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

from typing import Sequence


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
        self.p, self.e, self.q = p, e, p ** e
        self.modulus = _irreducible(p, e)

    def _digits(self, a: int) -> list[int]:
        return [(a // self.p ** i) % self.p for i in range(self.e)]

    def _number(self, digits: Sequence[int]) -> int:
        return sum(d * self.p ** i for i, d in enumerate(digits))

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

    def polys(deg: int):
        for code in range(p ** deg):
            yield [(code // p ** i) % p for i in range(deg)] + [1]

    def divides(d: list[int], f: list[int]) -> bool:
        rem = list(f)
        for top in range(len(rem) - 1, len(d) - 2, -1):
            c = rem[top]
            if c:
                for i, m in enumerate(d):
                    rem[top - len(d) + 1 + i] = (rem[top - len(d) + 1 + i] - c * m) % p
        return not any(rem[:len(d) - 1])

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
            out.append([col[c:c + k] for col in column for c in range(0, tables, k)])
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
            if go(chosen + [c], [d for d in pool[idx + 1:] if apart(c, d)]):
                return True
        return False

    go([(0,) * k], cands)
    if len(best) <= clean_rounds(tables, k):
        return None
    return [[[i * k + j for i in range(tables) for j in range(k) if (i - c[j]) % tables == t]
             for t in range(tables)] for c in best]


def _injections(n: int, length: int) -> list[tuple[int, ...]]:
    """Tuples of ``length`` distinct values from ``0..n-1``, in counting order."""
    from itertools import permutations

    return list(permutations(range(n), length))
