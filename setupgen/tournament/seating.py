"""The seating search behind :func:`setupgen.tournament.schedule.plan`
(docs/schedule.md, "How the planner works"): a start (the column design of
:mod:`.designs` when no round is fixed, else a greedy deal), tabu search on
swaps of two players between tables of one round aimed at conflicts, the
planned rounds ordered for fair short tables, then start positions
assigned table by table (an exact assignment per table, repeated passes).

Players are indices: ``0..n-1`` the current players, ``n..total-1``
drop-outs seen only in fixed rounds. Every draw comes from the given
:mod:`setupgen.core.rng` stream and every loop is bounded by a count, so
the result is a function of the arguments alone.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from ..core import rng as rngmod
from . import designs, known, positions

Tabs = list[list[list[int]]]  # per planned round: its tables, each a list of players
_GIVE_UP = 2_000  # iterations without a new best the search waits at least before it stops
_REPAIR_STEPS = 200  # neighbourhoods the exact start-position repair tries at most


class Tables:
    """The table layouts of the planned rounds and what they imply: meeting
    counts (``meet``, total x total, fixed rounds included), group clashes,
    short tables per current player (``short``, in all rounds; ``pre[p][ri]``
    up to and including planned round ``ri``, ``base[ri][p]`` of them from
    fixed rounds, default none). ``sizes``: the seats of each table of a
    planned round (full tables first), ``kmax`` the full size."""

    def __init__(
        self,
        n: int,
        total: int,
        sizes: list[int],
        groups: list[int],
        fixed: list[list[int]],
        tabs: Tabs,
        fixed_short: list[int],
        base: list[list[int]] | None = None,
    ) -> None:
        self.n, self.total, self.sizes, self.groups = n, total, sizes, groups
        self.kmax = max(sizes)
        self.short_t = [s < self.kmax for s in sizes]
        self.tabs = tabs
        self.meet = [[0] * total for _ in range(total)]
        for members in fixed:
            self._add(members)
        self.where = []
        self.short = list(fixed_short)
        for tables in tabs:
            wh = [0] * n
            for ti, members in enumerate(tables):
                self._add(members)
                for a in members:
                    wh[a] = ti
                    self.short[a] += self.short_t[ti]
            self.where.append(wh)
        self._prefix(base)
        self.keep_short = False  # True: trades only between tables of one size (the short seats were dealt)

    def _prefix(self, base: list[list[int]] | None) -> None:
        """``pre``, its suffix sums ``suf[p][ri]`` (Σ over ri' >= ri) and
        per planned round the level ``⌊short seats before it / n⌋``."""
        n, rounds = self.n, len(self.tabs)
        self.pre = [[0] * rounds for _ in range(n)]
        self.level = [0] * rounds
        for ri, tables in enumerate(self.tabs):
            if ri:
                self.level[ri] = sum(self.pre[p][ri - 1] for p in range(n)) // n
            for p in range(n):
                self.pre[p][ri] = (self.pre[p][ri - 1] if ri else 0) + (
                    base[ri][p] - (base[ri - 1][p] if ri else 0) if base else 0
                )
            for ti, members in enumerate(tables):
                if self.short_t[ti]:
                    for a in members:
                        self.pre[a][ri] += 1
        self.suf = [[0] * (rounds + 1) for _ in range(n)]
        for p in range(n):
            for ri in range(rounds - 1, -1, -1):
                self.suf[p][ri] = self.suf[p][ri + 1] + self.pre[p][ri]

    def _add(self, members: Sequence[int]) -> None:
        meet = self.meet
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                meet[a][b] += 1
                meet[b][a] += 1

    def cost(self) -> tuple[int, int, int, int]:
        """(Σ(meetings − 1), Σ C(meetings, 2), group clashes in planned
        rounds, Σ over planned rounds and players of (short tables so far)²);
        the second spreads unavoidable repeats over many pairs rather than
        one pair meeting every round; the last is least exactly when after
        every round the players' short tables differ by at most one, that is
        nobody sits short twice before everyone did once."""
        meet, g = self.meet, self.groups
        extra = sum(c - 1 for row in meet for c in row if c > 1) // 2
        sq = sum(c * (c - 1) // 2 for row in meet for c in row if c > 1) // 2
        clashes = sum(
            1
            for tables in self.tabs
            for t in tables
            for i, a in enumerate(t)
            for b in t[i + 1 :]
            if g[a] >= 0 and g[a] == g[b]
        )
        return extra, sq, clashes, sum(x * x for row in self.pre for x in row)

    def conflicted(self, ri: int, a: int) -> bool:
        """Whether ``a`` in planned round ``ri`` meets someone again, sits
        with its group, or sits short above its share."""
        ti = self.where[ri][a]
        if self.short_t[ti] and a < self.n and self.pre[a][ri] - 1 > self.level[ri]:
            return True
        ma, ga, g = self.meet[a], self.groups[a], self.groups
        return any(x != a and (ma[x] >= 2 or (ga >= 0 and g[x] == ga)) for x in self.tabs[ri][ti])

    def delta(self, ri: int, a: int, b: int) -> tuple[int, int, int, int]:
        """Change of :meth:`cost` if ``a`` and ``b`` trade tables in ``ri``."""
        wh, tabs, g = self.where[ri], self.tabs[ri], self.groups
        ta, tb = wh[a], wh[b]
        ma, mb, ga, gb = self.meet[a], self.meet[b], g[a], g[b]
        dr = dq = dg = 0
        for x in tabs[ta]:
            if x != a:
                dr += (mb[x] >= 1) - (ma[x] >= 2)
                dq += mb[x] - ma[x] + 1
                if g[x] >= 0:
                    dg += (g[x] == gb) - (g[x] == ga)
        for y in tabs[tb]:
            if y != b:
                dr += (ma[y] >= 1) - (mb[y] >= 2)
                dq += ma[y] - mb[y] + 1
                if g[y] >= 0:
                    dg += (g[y] == ga) - (g[y] == gb)
        ds = 0
        if self.short_t[ta] != self.short_t[tb]:  # the one moving to the short table gains a short table
            up, down = (b, a) if self.short_t[ta] else (a, b)
            ds = 2 * (self.suf[up][ri] - self.suf[down][ri] + len(self.pre[up]) - ri)
        return dr, dq, dg, ds

    def swap(self, ri: int, a: int, b: int) -> None:
        """Let ``a`` and ``b`` trade tables in planned round ``ri``."""
        wh, tabs, meet = self.where[ri], self.tabs[ri], self.meet
        ta, tb = wh[a], wh[b]
        for x in tabs[ta]:
            if x != a:
                meet[a][x] -= 1
                meet[x][a] -= 1
                meet[b][x] += 1
                meet[x][b] += 1
        for y in tabs[tb]:
            if y != b:
                meet[b][y] -= 1
                meet[y][b] -= 1
                meet[a][y] += 1
                meet[y][a] += 1
        la, lb = tabs[ta], tabs[tb]
        la[la.index(a)] = b
        lb[lb.index(b)] = a
        wh[a], wh[b] = tb, ta
        if self.short_t[ta] != self.short_t[tb]:
            d = 1 if self.short_t[tb] else -1
            self.short[a] += d
            self.short[b] -= d
            pa, pb, sa, sb = self.pre[a], self.pre[b], self.suf[a], self.suf[b]
            last = len(pa)
            for rj in range(ri, last):
                pa[rj] += d
                pb[rj] -= d
            for rk in range(last):
                step = d * (last - max(rk, ri))
                sa[rk] += step
                sb[rk] -= step


def column_start(n: int, sizes: list[int], rounds: int, groups: list[int], stream: random.Random) -> Tabs | None:
    """The column design's rounds with the players on its points (groups
    packed into columns, so a group of at most T players never meets
    itself; the dummies that make short tables share the last column), or
    None when no design applies. Rounds past the design's clean range are
    left empty for the greedy deal."""
    tables, k = len(sizes), max(sizes)
    clean = designs.clean_rounds(tables, k)
    if clean == 0:
        return None
    design = designs.column_rounds(tables, k, min(rounds, clean))
    assert design is not None
    if rounds > clean:  # Z_T's multiples stop short: a searched set of shift vectors may go further
        design = designs.shift_rounds(tables, k, rounds) or design
    if rounds > len(design):
        resolved = resolvable_start(n, sizes, rounds, len(design), groups, stream) or packing_start(
            n, sizes, rounds, len(design), groups, stream
        )
        if resolved is not None:
            return resolved
    dummies = tables * k - n
    cap = [tables] * (k - 1) + [tables - dummies]
    columns: list[list[int]] = [[] for _ in range(k)]
    for g, members in _grouped(n, groups, stream):
        for p in members:
            j = (
                max(range(k), key=lambda c: (cap[c] - len(columns[c]), -c))
                if g < 0 or not columns
                else _column_for(columns, cap, members, g, groups)
            )
            columns[j].append(p)
    point = {}
    for j, col in enumerate(columns):
        for i, p in enumerate(col):
            point[i * k + j] = p
    out: Tabs = []
    for rnd in design:
        tabs = [[point[x] for x in t if x in point] for t in rnd]
        out.append(sorted(tabs, key=len, reverse=True))
    return out + [[] for _ in range(rounds - len(design))]


def resolvable_start(
    n: int, sizes: list[int], rounds: int, beat: int, groups: list[int], stream: random.Random
) -> Tabs | None:
    """The rounds of a resolvable design (:func:`designs.resolvable_rounds`:
    every pair of its points meets once) with the players on its points,
    when it gives more than ``beat`` rounds without a repeat; else None.
    The missing players (dummies, tables × k − n) are points of the first
    round's first block, so they meet in that round alone, which is left
    out when two or more are missing. When the design has a round to spare,
    each group goes onto that round's blocks (the largest group first,
    a block filled before the next), so a group of at most k never meets
    itself; the other players follow in a seeded order. Rounds past the
    design's are left empty for the greedy deal."""
    tables, k = len(sizes), max(sizes)
    design = designs.resolvable_rounds(tables, k, tables * k)
    dummies = tables * k - n
    if design is None or dummies > k:
        return None
    missing = set(design[0][0][:dummies])
    if dummies >= 2:
        design = design[1:]
    if len(design) <= beat:
        return None
    spare = design[rounds] if len(design) > rounds else [list(range(tables * k))]
    return _seated(design, spare, missing, n, rounds, groups, stream)


def packing_start(
    n: int, sizes: list[int], rounds: int, beat: int, groups: list[int], stream: random.Random
) -> Tabs | None:
    """The rounds of a known design (:func:`.known.packing_for`, shipped as
    data: the social golfer 8-4-10) with the players on its points, when
    the field fills its tables exactly and it gives more than ``beat``
    rounds without a repeat; else None. Groups go onto blocks whose points
    never meet in the rounds played: a round to spare, else the design's
    unmet pairs (8-4-10: each player's twin), the largest group first;
    the other players follow in a seeded order. Rounds past the design's
    are left empty for the greedy deal."""
    tables, k = len(sizes), max(sizes)
    if tables * k != n or min(sizes) != k:
        return None
    design = known.packing_for(tables, k)
    if design is None or min(rounds, len(design.rounds)) <= beat:
        return None
    spare = design.rounds[rounds] if len(design.rounds) > rounds else design.leave()
    return _seated(design.rounds, spare, set(), n, rounds, groups, stream)


def _seated(
    design: Sequence[Sequence[Sequence[int]]],
    spare: Sequence[Sequence[int]],
    missing: set[int],
    n: int,
    rounds: int,
    groups: list[int],
    stream: random.Random,
) -> Tabs:
    """The first ``rounds`` rounds of ``design`` with the players on its
    points: the points of ``spare``'s blocks in order (``missing`` ones
    left out) take the players group by group (:func:`_grouped`), so a
    group on one spare block never meets itself; each round's tables
    largest first, rounds past the design's left empty."""
    slots = [x for block in spare for x in block if x not in missing]
    point = dict(zip(slots, (p for _, members in _grouped(n, groups, stream) for p in members)))
    out: Tabs = [
        sorted(([point[x] for x in t if x in point] for t in rnd), key=len, reverse=True) for rnd in design[:rounds]
    ]
    return out + [[] for _ in range(rounds - len(out))]


def _grouped(n: int, groups: list[int], stream: random.Random) -> list[tuple[int, list[int]]]:
    """Players ``0..n-1`` in one seeded order, by group: (group, its
    members) for each group (the largest first, ties by number), then
    (-1, the players of no group)."""
    order = list(range(n))
    rngmod.shuffle(stream, order)
    members: dict[int, list[int]] = {}
    for p in order:
        members.setdefault(groups[p], []).append(p)
    packs = sorted((g for g in members if g >= 0), key=lambda g: (-len(members[g]), g))
    return [(g, members[g]) for g in packs + ([-1] if -1 in members else [])]


def _column_for(columns: list[list[int]], cap: list[int], group: list[int], g: int, groups: list[int]) -> int:
    """The column a group member goes to: the one already holding the group
    if it has room, else the roomiest."""
    for j, col in enumerate(columns):
        if col and groups[col[-1]] == g and len(col) < cap[j]:
            return j
    best = max(range(len(columns)), key=lambda c: (cap[c] - len(columns[c]), -c))
    return best


def conform(start: Tabs, shorts: list[set[int]], kmax: int) -> Tabs:
    """``start`` (rounds may be empty) with, in each round, the players at
    a short table who should not be there traded with those of ``shorts``
    at a full table (in table order), so that exactly ``shorts[ri]`` sit
    short; the meetings this breaks are left to the search."""
    out: Tabs = []
    for ri, tables in enumerate(start):
        tables = [list(t) for t in tables]
        out_p = [
            (ti, i) for ti, t in enumerate(tables) if len(t) < kmax for i, p in enumerate(t) if p not in shorts[ri]
        ]
        in_p = [(ti, i) for ti, t in enumerate(tables) if len(t) == kmax for i, p in enumerate(t) if p in shorts[ri]]
        for (ta, ia), (tb, ib) in zip(out_p, in_p):
            tables[ta][ia], tables[tb][ib] = tables[tb][ib], tables[ta][ia]
        out.append(tables)
    return out


def greedy_round(
    state_meet: list[list[int]],
    n: int,
    sizes: list[int],
    groups: list[int],
    short: list[int],
    stream: random.Random,
    at_short: set[int] | None = None,
) -> list[list[int]]:
    """One round dealt greedily: players in a seeded order, each to the
    open table where it meets the fewest earlier opponents, then group
    mates, then (at a short table) by its short tables so far. With
    ``at_short``, exactly those players sit at the short tables."""
    order = list(range(n))
    rngmod.shuffle(stream, order)
    kmax = max(sizes)
    tables: list[list[int]] = [[] for _ in sizes]
    for p in order:
        mp, gp = state_meet[p], groups[p]
        best, best_t = None, 0
        for ti, members in enumerate(tables):
            if len(members) >= sizes[ti] or (at_short is not None and (p in at_short) != (sizes[ti] < kmax)):
                continue
            key = (
                sum(1 for x in members if mp[x]),
                sum(1 for x in members if gp >= 0 and groups[x] == gp),
                short[p] if sizes[ti] < kmax else 0,
                len(members) - sizes[ti],
            )
            if best is None or key < best:
                best, best_t = key, ti
        tables[best_t].append(p)
    return tables


def fill_start(
    n: int,
    total: int,
    sizes: list[int],
    groups: list[int],
    fixed: list[list[int]],
    fixed_short: list[int],
    start: Tabs,
    stream: random.Random,
    base: list[list[int]] | None = None,
    shorts: list[set[int]] | None = None,
) -> Tables:
    """``start`` with every empty round dealt by :func:`greedy_round`,
    given the fixed rounds and the rounds before it (``base`` as for
    :class:`Tables`). With ``shorts`` (per planned round the players at
    its short tables, :func:`round_robin_short`) those sit short, and the
    returned state keeps them there (``keep_short``: the search trades
    players only between tables of one size)."""
    tabs: Tabs = []
    for ri, tables in enumerate(start):
        state = Tables(n, total, sizes, groups, fixed, tabs, fixed_short)
        tabs.append(
            tables
            if tables
            else greedy_round(state.meet, n, sizes, groups, state.short, stream, shorts[ri] if shorts else None)
        )
    out = Tables(n, total, sizes, groups, fixed, tabs, fixed_short, base)
    out.keep_short = shorts is not None
    return out


def round_robin_short(
    base: list[list[int]], seats: int, stream: random.Random, start: Tabs | None = None
) -> list[set[int]]:
    """Who sits at a short table in each planned round: the ``seats``
    players with the fewest short tables so far (``base[ri][p]`` from fixed
    rounds before planned round ``ri``, plus those given here), ties to
    those at a short table of ``start``'s round, then in one seeded order:
    a round robin, so nobody sits short twice before everyone did once
    (docs/schedule.md)."""
    n = len(base[0]) if base else 0
    rank = list(range(n))
    rngmod.shuffle(stream, rank)
    place = {p: i for i, p in enumerate(rank)}
    got = [0] * n
    out = []
    for ri, row in enumerate(base):
        tables = start[ri] if start else []
        there = {p for t in tables if len(t) < max((len(x) for x in tables), default=0) for p in t}
        chosen = sorted(range(n), key=lambda p: (row[p] + got[p], p not in there, place[p]))[:seats]
        for p in chosen:
            got[p] += 1
        out.append(set(chosen))
    return out


def tabu_search(state: Tables, lb: tuple[int, int, int, int], budget: int, stream: random.Random) -> Tabs:
    """The best layouts found within ``budget`` iterations (one move each,
    stopping at ``lb``): pick a conflicted (round, player), try trading it
    with every player (at most 256 drawn) of another table of that round,
    take the best move not tabu (a player may not return to a table it
    left for t to 2t + 3 iterations, t = min(6, n / 8), unless the move
    beats the best so far);
    after 400 iterations without progress, restart from the best with
    a few random trades; after a twentieth of the budget (at least
    2,000 iterations) without a new best, stop (a counting bound may be
    out of reach). Lexicographic in :meth:`Tables.cost`; once all but
    the short-table term are at ``lb``, at most a fiftieth of the budget
    more."""
    weights = _weights(state)
    cur_t = list(state.cost())
    cur = _scalar(cur_t, weights)
    best, best_t, best_tabs = cur, tuple(cur_t), [[list(t) for t in ts] for ts in state.tabs]
    tabu: dict[tuple[int, int, int], int] = {}
    tenure = min(6, max(1, state.n // 8))  # short for small fields, where few moves exist
    conflicts = _conflicts(state)
    stall, gained = 0, 0  # iterations without progress; the iteration of the last new best
    settled = budget  # when the tables first met their bounds but for the short-table term
    for it in range(budget):
        if (best_t[0], best_t[2]) <= (lb[0], lb[2]):
            settled = min(settled, it)
        if _done(best_t, lb, budget, it - gained, it - settled):
            break
        if not conflicts:
            conflicts = _conflicts(state)
            if not conflicts:
                break
        pick = rngmod.randbelow(stream, len(conflicts))
        ri, a = conflicts[pick]
        if rngmod.randbelow(stream, 2) == 0:
            a = _worst_seat(state, ri, stream)
        elif not state.conflicted(ri, a):
            conflicts[pick] = conflicts[-1]
            conflicts.pop()
            continue
        move = _best_move(state, ri, a, weights, tabu, it, cur, best, stream)
        if move is None:
            continue
        b, d = move
        ta, tb = state.where[ri][a], state.where[ri][b]
        state.swap(ri, a, b)
        cur_t = [c + e for c, e in zip(cur_t, d)]
        cur = _scalar(cur_t, weights)
        tabu[(ri, a, ta)] = it + tenure + rngmod.randbelow(stream, tenure + 4)
        tabu[(ri, b, tb)] = it + tenure + rngmod.randbelow(stream, tenure + 4)
        conflicts.extend(_touched(state, ri, a, b))
        stall += 1
        if cur < best:
            best, best_t, stall, gained = cur, tuple(cur_t), 0, it
            best_tabs = [[list(t) for t in ts] for ts in state.tabs]
        elif stall > 400:
            _perturb(state, best_tabs, stream)
            cur_t, stall = list(state.cost()), 0
            cur = _scalar(cur_t, weights)
            conflicts = _conflicts(state)
    return best_tabs


def _done(best_t: Sequence[int], lb: Sequence[int], budget: int, since_gain: int, since_settled: int) -> bool:
    """Whether :func:`tabu_search` stops: at the bounds; no new best for a
    twentieth of the budget (at least ``_GIVE_UP``: a counting bound out of
    reach); or a fiftieth of the budget since all but the short-table term
    met their bounds (the short tables' bound may be out of reach)."""
    return tuple(best_t) <= tuple(lb) or since_gain > max(_GIVE_UP, budget // 20) or since_settled > budget // 50


def _weights(state: Tables) -> tuple[int, int, int, int]:
    """Weights that make one scalar of :meth:`Tables.cost` lexicographic:
    each term's weight exceeds what a move can change of the terms after
    it."""
    k = state.kmax
    rt = len(state.tabs) + 1 + max(state.short, default=0)
    if any(state.short_t):  # the short-table term changes by at most 2 P (P + most short + 1) a move
        rt = max(rt, len(state.tabs) * (len(state.tabs) + max(state.short, default=0) + 1))
    wg = 4 * rt + 1
    wq = (4 * (k - 1) + 1) * wg
    return (4 * (k - 1) * (rt + 1) + 1) * wq, wq, wg, 1


def _worst_seat(state: Tables, ri: int, stream: random.Random) -> int:
    """A player of the table of round ``ri`` whose pairs have met most
    often (Σ C(meetings, 2) of the table; group clashes next), drawn
    among that table's players."""
    meet, g = state.meet, state.groups
    best, best_t = -1, 0
    for ti, t in enumerate(state.tabs[ri]):
        score = 0
        for i, a in enumerate(t):
            ma = meet[a]
            for b in t[i + 1 :]:
                score += ma[b] * (ma[b] - 1) * 8 + (g[a] >= 0 and g[a] == g[b])
        if score > best:
            best, best_t = score, ti
    t = state.tabs[ri][best_t]
    return t[rngmod.randbelow(stream, len(t))]


def _scalar(cost: Sequence[int], weights: Sequence[int]) -> int:
    return sum(c * w for c, w in zip(cost, weights))


def _conflicts(state: Tables) -> list[tuple[int, int]]:
    """Every conflicted (planned round, player), in order."""
    return [(ri, a) for ri in range(len(state.tabs)) for a in range(state.n) if state.conflicted(ri, a)]


def _touched(state: Tables, ri: int, a: int, b: int) -> list[tuple[int, int]]:
    """Candidates for new conflicts after ``a`` and ``b`` traded tables in
    ``ri``: both tables, and the other rounds' seats of pairs now met
    twice."""
    out = []
    wh = state.where[ri]
    for p in (a, b):
        mp = state.meet[p]
        for x in state.tabs[ri][wh[p]]:
            out.append((ri, x))
            if x != p and x < state.n and mp[x] == 2:
                out.extend(
                    (r2, y)
                    for r2 in range(len(state.tabs))
                    if r2 != ri and state.where[r2][p] == state.where[r2][x]
                    for y in (p, x)
                )
    return out


def _best_move(
    state: Tables,
    ri: int,
    a: int,
    weights: Sequence[int],
    tabu: dict[tuple[int, int, int], int],
    it: int,
    cur: int,
    best: int,
    stream: random.Random,
) -> tuple[int, tuple[int, int, int, int]] | None:
    """The best admissible trade partner of ``a`` in ``ri`` and the scalar
    change, ties broken by the stream; None if every move is tabu."""
    wh = state.where[ri]
    ta = wh[a]
    n = state.n
    if n <= 256:
        cands: Sequence[int] = range(n)
    else:
        cands = [rngmod.randbelow(stream, n) for _ in range(256)]
    wr, wq, wg, ws = weights
    keep, short_t = state.keep_short, state.short_t
    found, found_d, found_c, ties = -1, 0, (0, 0, 0, 0), 0
    for b in cands:
        tb = wh[b]
        if tb == ta or (keep and short_t[tb] != short_t[ta]):
            continue
        dr, dq, dg, ds = state.delta(ri, a, b)
        d = dr * wr + dq * wq + dg * wg + ds * ws
        if found >= 0 and d > found_d:
            continue
        if (tabu.get((ri, a, tb), -1) > it or tabu.get((ri, b, ta), -1) > it) and cur + d >= best:
            continue
        if found < 0 or d < found_d:
            found, found_d, found_c, ties = b, d, (dr, dq, dg, ds), 1
        else:
            ties += 1
            if rngmod.randbelow(stream, ties) == 0:
                found, found_c = b, (dr, dq, dg, ds)
    return None if found < 0 else (found, found_c)


def _perturb(state: Tables, best_tabs: Tabs, stream: random.Random) -> None:
    """Reset ``state`` to ``best_tabs`` and make a few random trades."""
    for ri, tables in enumerate(best_tabs):
        for ti, t in enumerate(tables):
            for a in t:
                if state.where[ri][a] != ti:
                    b = next(x for x in state.tabs[ri][ti] if x not in t)
                    state.swap(ri, a, b)
    for _ in range(1 + len(state.tabs) // 2):
        ri = rngmod.randbelow(stream, len(state.tabs))
        a, b = rngmod.randbelow(stream, state.n), rngmod.randbelow(stream, state.n)
        ta, tb = state.where[ri][a], state.where[ri][b]
        if ta != tb and not (state.keep_short and state.short_t[ta] != state.short_t[tb]):
            state.swap(ri, a, b)


def order_rounds(
    layouts: Tabs, slots: list[int], fixed_by_round: dict[int, list[list[int]]], n: int, kmax: int
) -> Tabs:
    """The planned layouts in the order that seats short tables fairly:
    for each planned round number in ``slots`` (ascending), the remaining
    layout with the fewest players at a short table while a player with
    fewer short tables so far sits at a full one (earliest on ties)."""
    short: dict[int, int] = {}
    left = list(range(len(layouts)))
    chosen = []
    rounds = sorted(set(slots) | set(fixed_by_round))
    for r in rounds:
        if r in fixed_by_round:
            tables = fixed_by_round[r]
        else:

            def unfair(i: int) -> int:
                at_full = [short.get(p, 0) for t in layouts[i] if len(t) == kmax for p in t]
                least = min(at_full, default=0)
                return sum(1 for t in layouts[i] if len(t) < kmax for p in t if short.get(p, 0) > least)

            pick = min(left, key=lambda i: (unfair(i), i))
            left.remove(pick)
            chosen.append(layouts[pick])
            tables = layouts[pick]
        for t in tables:
            if len(t) < kmax:
                for p in t:
                    short[p] = short.get(p, 0) + 1
    return chosen


def fair_order(layouts: Tabs, slots: list[int], fixed_by_round: dict[int, list[list[int]]], n: int, kmax: int) -> Tabs:
    """``layouts`` as searched, or in the order of :func:`order_rounds`
    when that seats fewer players at a short table out of turn."""
    other = order_rounds(layouts, slots, fixed_by_round, n, kmax)
    return (
        other
        if unfair_short(other, slots, fixed_by_round, kmax) < unfair_short(layouts, slots, fixed_by_round, kmax)
        else layouts
    )


def unfair_short(layouts: Tabs, slots: list[int], fixed_by_round: dict[int, list[list[int]]], kmax: int) -> int:
    """Short-table seats out of turn over every round (planned layouts at
    ``slots``, fixed rounds as played; docs/schedule.md)."""
    by_round = dict(fixed_by_round)
    by_round.update(zip(slots, layouts))
    short: dict[int, int] = {}
    unfair = 0
    for r in sorted(by_round):
        tables = by_round[r]
        least = min((short.get(p, 0) for t in tables if len(t) == kmax for p in t), default=0)
        for t in tables:
            if len(t) < kmax:
                unfair += sum(1 for p in t if short.get(p, 0) > least)
        for t in tables:
            if len(t) < kmax:
                for p in t:
                    short[p] = short.get(p, 0) + 1
    return unfair


def fair_short_bound(base: list[list[int]], seats: int) -> int:
    """The least short-table term of :meth:`Tables.cost`: each planned
    round's ``seats`` short seats given to the players with the fewest short
    tables so far (``base[ri][p]``: those from fixed rounds before planned
    round ``ri``)."""
    if not base:
        return 0
    got = [0] * len(base[0])
    total = 0
    for row in base:
        now = sorted(range(len(got)), key=lambda p: (row[p] + got[p], p))
        for p in now[:seats]:
            got[p] += 1
        total += sum((row[p] + got[p]) ** 2 for p in range(len(got)))
    return total


def assign_seats(
    layouts: Tabs, fixed_counts: list[list[int]], kmax: int, passes: int, tries: int = 8, fixed_full: Sequence[int] = ()
) -> Tabs:
    """:func:`assign_once` over the planned rounds in ``tries`` orders
    (as given and reversed, each rotated), the best by the most unbalanced
    player then the squared counts (a precolored fixed round can block
    one order's chains and not another's); players still off their
    optimum then go to :func:`positions.repair` (``fixed_full``: per
    player its full tables in fixed rounds, default none)."""
    best, best_key = layouts, None
    n_r = len(layouts)
    for k in range(max(1, tries)):
        order = list(range(n_r))[::-1] if k % 2 else list(range(n_r))
        order = order[k // 2 % n_r :] + order[: k // 2 % n_r]
        got = assign_once([layouts[i] for i in order], fixed_counts, kmax, passes)
        back: Tabs = [[] for _ in range(n_r)]
        for i, tables in zip(order, got):
            back[i] = tables
        key = seat_balance(back, fixed_counts)
        if best_key is None or key < best_key:
            best, best_key = back, key
        if key[0] == 0:
            break
    counts, full = seat_counts(best, fixed_counts, kmax, fixed_full)
    if len(positions.off_players(counts, positions.optima(counts, full, kmax))) > positions.off_floor(
        counts, full, kmax
    ):
        positions.repair(best, counts, full, kmax, _REPAIR_STEPS)
    return best


def seat_counts(
    layouts: Tabs, fixed_counts: list[list[int]], kmax: int, fixed_full: Sequence[int] = ()
) -> tuple[list[list[int]], list[int]]:
    """Per player its position counts and full tables over the fixed
    rounds and ``layouts``."""
    counts = [list(row) for row in fixed_counts]
    full = list(fixed_full) or [0] * len(counts)
    for tables in layouts:
        for t in tables:
            for s, p in enumerate(t):
                counts[p][s] += 1
                full[p] += len(t) == kmax
    return counts, full


def seat_balance(layouts: Tabs, fixed_counts: list[list[int]]) -> tuple[int, int]:
    """Start-position imbalance, smaller is better: (Σ over players of (most − least − 1) where positive, Σ squared
    counts) of ``layouts`` after the fixed rounds."""
    counts = [list(row) for row in fixed_counts]
    for tables in layouts:
        for t in tables:
            for s, p in enumerate(t):
                counts[p][s] += 1
    rows = [c for c in counts if sum(c)]
    return sum(max(0, max(c) - min(c) - 1) for c in rows), sum(x * x for c in rows for x in c)


def assign_once(layouts: Tabs, fixed_counts: list[list[int]], kmax: int, passes: int) -> Tabs:
    """Each planned table's players in starting order: every table takes
    the seat assignment that costs least given everyone's position counts
    so far (cost of a player at a position: the times it took it
    already), then up to ``passes`` passes re-assign each table given all
    the others, until nothing changes. Balances every player's counts
    (the sum of squared counts never rises)."""
    counts = [list(row) for row in fixed_counts]
    out = [[list(t) for t in tables] for tables in layouts]
    for tables in out:
        for t in tables:
            t[:] = _best_order(t, counts)
            for s, p in enumerate(t):
                counts[p][s] += 1
    for _ in range(passes):
        changed = False
        for tables in out:
            for t in tables:
                for s, p in enumerate(t):
                    counts[p][s] -= 1
                new = _best_order(t, counts)
                changed |= new != t
                t[:] = new
                for s, p in enumerate(t):
                    counts[p][s] += 1
        if not changed:
            break
    _chain_repair(out, counts, passes * 50)
    return out


def _chain_repair(out: Tabs, counts: list[list[int]], budget: int) -> None:
    """Balance what table-by-table passes cannot: for a player holding
    position s at least twice more than s', a chain of tables (the player
    at s, the next at s' there, who holds s at another table, ...) whose
    seats s and s' are traded end to end; only the chain's two ends change
    their counts. Up to ``budget`` chains tried, 300 tables long at most; made
    only when the squared counts of its ends drop."""
    occ: dict[int, list[list[int]]] = {}
    for tables in out:
        for t in tables:
            for p in t:
                occ.setdefault(p, []).append(t)
    for sweep in range(8):
        budget = _chain_sweep(occ, counts, budget, sweep > 0)


def _chain_sweep(occ: dict[int, list[list[int]]], counts: list[list[int]], budget: int, level: bool) -> int:
    """One sweep of :func:`_chain_repair` over the players; with ``level``
    a chain may also hand the imbalance on unchanged (a later sweep may
    find where it is absorbed). Returns the budget left."""
    for p in sorted(occ):
        c = counts[p]
        for s_hi in range(len(c)):
            for s_lo in range(len(c)):
                while budget > 0 and c[s_hi] - c[s_lo] >= 2:
                    budget -= 1
                    gain = 2 * (c[s_lo] - c[s_hi] + 1) - (1 if level else 0)
                    path = _chain(p, s_hi, s_lo, occ, counts, gain, 300, set())
                    if path is None:
                        break
                    for t in path:
                        t[s_hi], t[s_lo] = t[s_lo], t[s_hi]
                    end = path[-1][s_hi]
                    c[s_hi] -= 1
                    c[s_lo] += 1
                    counts[end][s_hi] += 1
                    counts[end][s_lo] -= 1
    return budget


def _chain(
    p: int,
    s_hi: int,
    s_lo: int,
    occ: dict[int, list[list[int]]],
    counts: list[list[int]],
    gain: int,
    depth: int,
    seen: set[int],
) -> list[list[int]] | None:
    """Tables from one where ``p`` sits at ``s_hi`` to one whose player at
    ``s_lo`` may take ``s_hi`` for good (the two ends' squared counts change
    by ``gain`` plus theirs, below zero), depth first."""
    for t in occ[p]:
        if id(t) in seen or len(t) <= max(s_hi, s_lo) or t[s_hi] != p:
            continue
        q = t[s_lo]
        cq = counts[q]
        if gain + 2 * (cq[s_hi] - cq[s_lo] + 1) < 0:
            return [t]
        if depth > 1:
            seen.add(id(t))
            rest = _chain(q, s_hi, s_lo, occ, counts, gain, depth - 1, seen)
            if rest is not None:
                return [t] + rest
    return None


_PERMS = {m: list(itertools.permutations(range(m))) for m in range(1, 6)}


def best_order(players: list[int], counts: list[list[int]]) -> list[int]:
    """``players`` in the seat order that costs least given their
    position counts (``counts[p][s]``: the times ``p`` took position
    ``s``); ties keep the given order."""
    return _best_order(players, counts)


def _best_order(players: list[int], counts: list[list[int]]) -> list[int]:
    """``players`` ordered by seat at least total cost (Σ counts[p][seat],
    exact: every permutation up to 5 players, a subset DP beyond); the
    first cheapest in permutation order, so ties keep the given order."""
    m = len(players)
    rows = [counts[p] for p in players]
    if m <= 5:
        best, best_perm = None, None
        for perm in _PERMS[m]:
            c = 0
            for i, s in enumerate(perm):
                c += rows[i][s]
            if best is None or c < best:
                best, best_perm = c, perm
        assert best_perm is not None
        seat_of = best_perm
    else:
        seat_of = _dp_order(rows, m)
    order = [0] * m
    for i, s in enumerate(seat_of):
        order[s] = players[i]
    return order


def _dp_order(rows: list[list[int]], m: int) -> tuple[int, ...]:
    """Seat per player minimising Σ rows[i][seat]: a DP over seat subsets."""
    full = (1 << m) - 1
    dp: list[tuple[int, tuple[int, ...]] | None] = [None] * (full + 1)
    dp[0] = (0, ())
    for mask in range(full + 1):
        cur = dp[mask]
        if cur is None:
            continue
        i = len(cur[1])
        if i == m:
            continue
        for s in range(m):
            if not mask >> s & 1:
                cand = (cur[0] + rows[i][s], cur[1] + (s,))
                nxt = dp[mask | 1 << s]
                if nxt is None or cand[0] < nxt[0]:
                    dp[mask | 1 << s] = cand
    final = dp[full]
    assert final is not None
    return final[1]
