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
