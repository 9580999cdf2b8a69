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
from typing import NamedTuple

from ..core import rng as rngmod
from . import designs, known, positions

Layouts = list[list[list[int]]]  # per planned round: its tables, each a list of players
_GIVE_UP = 2_000  # iterations without a new best the search waits at least before it stops
_REPAIR_STEPS = 200  # neighbourhoods the exact start-position repair tries at most


class SearchCost(NamedTuple):
    """What the tabu search minimises, compared in this order (the official
    order of docs/schedule.md, "Measures", with the repeats spread out
    before the groups): ``extra_meetings`` Σ over pairs of (meetings − 1);
    ``meeting_pairs`` Σ over pairs of C(meetings, 2), which spreads
    unavoidable repeats over many pairs rather than one pair meeting every
    round; ``group_clashes`` pairs of one group at one table in the planned
    rounds; ``short_squares`` Σ over planned rounds and current players of
    (short tables so far)², least exactly when after every round the
    players' short tables differ by at most one."""

    extra_meetings: int
    meeting_pairs: int
    group_clashes: int
    short_squares: int


class Meetings:
    """How often each pair of players met (``count[a][b]``, symmetric,
    every player index, fixed rounds included); owns the first two terms of
    :class:`SearchCost`."""

    __slots__ = ("count",)

    def __init__(self, everyone: int) -> None:
        self.count = [[0] * everyone for _ in range(everyone)]

    def seat(self, members: Sequence[int]) -> None:
        """Count one table's meetings."""
        count = self.count
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                count[a][b] += 1
                count[b][a] += 1

    def terms(self) -> tuple[int, int]:
        """(extra meetings, meeting pairs), counted from scratch."""
        extra = sum(c - 1 for row in self.count for c in row if c > 1) // 2
        pairs = sum(c * (c - 1) // 2 for row in self.count for c in row if c > 1) // 2
        return extra, pairs

    def change(self, table_a: Sequence[int], table_b: Sequence[int], a: int, b: int) -> tuple[int, int]:
        """Change of :meth:`terms` if ``a`` (at ``table_a``) and ``b`` (at
        ``table_b``) trade tables."""
        met_a, met_b = self.count[a], self.count[b]
        extra = pairs = 0
        for x in table_a:
            if x != a:
                extra += (met_b[x] >= 1) - (met_a[x] >= 2)
                pairs += met_b[x] - met_a[x] + 1
        for y in table_b:
            if y != b:
                extra += (met_a[y] >= 1) - (met_b[y] >= 2)
                pairs += met_a[y] - met_b[y] + 1
        return extra, pairs

    def swap(self, table_a: Sequence[int], table_b: Sequence[int], a: int, b: int) -> None:
        """Recount after ``a`` and ``b`` traded tables (called before the
        tables themselves change)."""
        count = self.count
        for x in table_a:
            if x != a:
                count[a][x] -= 1
                count[x][a] -= 1
                count[b][x] += 1
                count[x][b] += 1
        for y in table_b:
            if y != b:
                count[b][y] -= 1
                count[y][b] -= 1
                count[a][y] += 1
                count[y][a] += 1


class GroupClashes:
    """Pairs of one group (a club) at one table of a planned round; owns
    the third term of :class:`SearchCost`. ``group_of[p]``: the group
    number of player ``p``, -1 for none. Holds no count of its own: the
    term is a function of the tables."""

    __slots__ = ("group_of", "any_group")

    def __init__(self, group_of: list[int]) -> None:
        self.group_of = group_of
        self.any_group = any(g >= 0 for g in group_of)

    def term(self, rounds: Layouts) -> int:
        """Group clashes in ``rounds``, counted from scratch."""
        group_of = self.group_of
        return sum(
            1
            for tables in rounds
            for table in tables
            for i, a in enumerate(table)
            for b in table[i + 1 :]
            if group_of[a] >= 0 and group_of[a] == group_of[b]
        )

    def change(self, table_a: Sequence[int], table_b: Sequence[int], a: int, b: int) -> int:
        """Change of :meth:`term` if ``a`` (at ``table_a``) and ``b`` (at
        ``table_b``) trade tables."""
        if not self.any_group:
            return 0
        group_of = self.group_of
        group_a, group_b = group_of[a], group_of[b]
        change = 0
        for x in table_a:
            if x != a and group_of[x] >= 0:
                change += (group_of[x] == group_b) - (group_of[x] == group_a)
        for y in table_b:
            if y != b and group_of[y] >= 0:
                change += (group_of[y] == group_a) - (group_of[y] == group_b)
        return change

    def clashes_with(self, a: int, table: Sequence[int]) -> bool:
        """Whether ``a`` sits with a member of its group at ``table``."""
        group = self.group_of[a]
        return group >= 0 and any(x != a and self.group_of[x] == group for x in table)


class ShortTables:
    """Short tables per current player; owns the fourth term of
    :class:`SearchCost`. ``total[p]``: in all rounds, fixed ones included;
    ``so_far[p][r]``: up to and including planned round ``r`` (``base[r][p]``
    of them from fixed rounds, default none); ``from_here[p][r]``: Σ of
    ``so_far[p][r']`` over r' >= r; ``level[r]``: ⌊short seats before
    planned round r / players⌋, the share nobody should be above."""

    __slots__ = ("total", "so_far", "from_here", "level")

    def __init__(
        self, players: int, is_short: list[bool], rounds: Layouts, fixed_short: list[int], base: list[list[int]] | None
    ) -> None:
        self.total = list(fixed_short)
        count = len(rounds)
        self.so_far = [[0] * count for _ in range(players)]
        self.level = [0] * count
        for r, tables in enumerate(rounds):
            if r:
                self.level[r] = sum(self.so_far[p][r - 1] for p in range(players)) // players
            for p in range(players):
                self.so_far[p][r] = (self.so_far[p][r - 1] if r else 0) + (
                    base[r][p] - (base[r - 1][p] if r else 0) if base else 0
                )
            for t, members in enumerate(tables):
                for a in members:
                    self.total[a] += is_short[t]
                    if is_short[t]:
                        self.so_far[a][r] += 1
        self.from_here = [[0] * (count + 1) for _ in range(players)]
        for p in range(players):
            for r in range(count - 1, -1, -1):
                self.from_here[p][r] = self.from_here[p][r + 1] + self.so_far[p][r]

    def term(self) -> int:
        """Σ (short tables so far)², counted from scratch."""
        return sum(x * x for row in self.so_far for x in row)

    def change(self, r: int, to_short: int, to_full: int) -> int:
        """Change of :meth:`term` if ``to_short`` moves to a short table of
        planned round ``r`` and ``to_full`` to a full one."""
        return 2 * (self.from_here[to_short][r] - self.from_here[to_full][r] + len(self.so_far[to_short]) - r)

    def swap(self, r: int, to_short: int, to_full: int) -> None:
        """Recount after ``to_short`` moved to a short table of planned
        round ``r`` and ``to_full`` to a full one."""
        self.total[to_short] += 1
        self.total[to_full] -= 1
        up, down = self.so_far[to_short], self.so_far[to_full]
        up_sum, down_sum = self.from_here[to_short], self.from_here[to_full]
        last = len(up)
        for later in range(r, last):
            up[later] += 1
            down[later] -= 1
        for start in range(last):
            step = last - max(start, r)
            up_sum[start] += step
            down_sum[start] -= step

    def above_share(self, r: int, a: int) -> bool:
        """Whether current player ``a``, short in planned round ``r``, sits
        short more often than its share."""
        return self.so_far[a][r] - 1 > self.level[r]


class SearchState:
    """The planned rounds' tables under search and the counters they imply
    (:class:`Meetings`, :class:`GroupClashes`, :class:`ShortTables`).
    Players are indices: ``0..players-1`` the current players, up to
    ``everyone`` with the drop-outs of the fixed rounds. ``table_sizes``:
    the seats of each table of a planned round (full tables first);
    ``rounds[r][t]``: the players at table ``t`` of planned round ``r``;
    ``table_of[r][p]``: the table of ``p`` there; ``keep_short``: trades
    only between tables of one size (the short seats were dealt)."""

    def __init__(
        self,
        players: int,
        everyone: int,
        table_sizes: list[int],
        group_of: list[int],
        fixed_tables: list[list[int]],
        rounds: Layouts,
        fixed_short: list[int],
        base: list[list[int]] | None = None,
    ) -> None:
        self.players, self.everyone, self.table_sizes = players, everyone, table_sizes
        self.full_size = max(table_sizes)
        self.is_short = [size < self.full_size for size in table_sizes]
        self.rounds = rounds
        self.table_of = [[0] * players for _ in rounds]
        for r, tables in enumerate(rounds):
            for t, members in enumerate(tables):
                for a in members:
                    self.table_of[r][a] = t
        self.meetings = Meetings(everyone)
        for members in itertools.chain(fixed_tables, (table for tables in rounds for table in tables)):
            self.meetings.seat(members)
        self.groups = GroupClashes(group_of)
        self.short = ShortTables(players, self.is_short, rounds, fixed_short, base)
        self.keep_short = False

    def cost(self) -> SearchCost:
        """The :class:`SearchCost` of the tables, counted from scratch."""
        return SearchCost(*self.meetings.terms(), self.groups.term(self.rounds), self.short.term())

    def delta(self, r: int, a: int, b: int) -> tuple[int, int, int, int]:
        """Change of :meth:`cost` (in :class:`SearchCost`'s order; a plain
        tuple, as the search asks for it a million times) if ``a`` and ``b``
        trade tables in planned round ``r``: each counter's own change."""
        table_of, tables, is_short = self.table_of[r], self.rounds[r], self.is_short
        table_a, table_b = table_of[a], table_of[b]
        members_a, members_b = tables[table_a], tables[table_b]
        extra, pairs = self.meetings.change(members_a, members_b, a, b)
        clashes = self.groups.change(members_a, members_b, a, b) if self.groups.any_group else 0
        if is_short[table_a] == is_short[table_b]:
            return extra, pairs, clashes, 0
        to_short, to_full = (b, a) if is_short[table_a] else (a, b)
        return extra, pairs, clashes, self.short.change(r, to_short, to_full)

    def swap(self, r: int, a: int, b: int) -> None:
        """Let ``a`` and ``b`` trade tables in planned round ``r``."""
        table_of, tables = self.table_of[r], self.rounds[r]
        table_a, table_b = table_of[a], table_of[b]
        members_a, members_b = tables[table_a], tables[table_b]
        self.meetings.swap(members_a, members_b, a, b)
        members_a[members_a.index(a)] = b
        members_b[members_b.index(b)] = a
        table_of[a], table_of[b] = table_b, table_a
        if self.is_short[table_a] != self.is_short[table_b]:
            to_short, to_full = (a, b) if self.is_short[table_b] else (b, a)
            self.short.swap(r, to_short, to_full)

    def conflicted(self, r: int, a: int) -> bool:
        """Whether ``a`` in planned round ``r`` meets someone again, sits
        with its group, or sits short above its share."""
        table = self.table_of[r][a]
        if self.is_short[table] and a < self.players and self.short.above_share(r, a):
            return True
        met = self.meetings.count[a]
        members = self.rounds[r][table]
        return any(x != a and met[x] >= 2 for x in members) or self.groups.clashes_with(a, members)


def column_start(n: int, sizes: list[int], rounds: int, groups: list[int], stream: random.Random) -> Layouts | None:
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
    out: Layouts = []
    for rnd in design:
        tabs = [[point[x] for x in t if x in point] for t in rnd]
        out.append(sorted(tabs, key=len, reverse=True))
    return out + [[] for _ in range(rounds - len(design))]


def resolvable_start(
    n: int, sizes: list[int], rounds: int, beat: int, groups: list[int], stream: random.Random
) -> Layouts | None:
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
) -> Layouts | None:
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
) -> Layouts:
    """The first ``rounds`` rounds of ``design`` with the players on its
    points: the points of ``spare``'s blocks in order (``missing`` ones
    left out) take the players group by group (:func:`_grouped`), so a
    group on one spare block never meets itself; each round's tables
    largest first, rounds past the design's left empty."""
    slots = [x for block in spare for x in block if x not in missing]
    point = dict(zip(slots, (p for _, members in _grouped(n, groups, stream) for p in members)))
    out: Layouts = [
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


def conform(start: Layouts, shorts: list[set[int]], full_size: int) -> Layouts:
    """``start`` (rounds may be empty) with, in each round, the players at
    a short table who should not be there traded with those of ``shorts``
    at a full table (in table order), so that exactly ``shorts[r]`` sit
    short; the meetings this breaks are left to the search."""
    out: Layouts = []
    for r, tables in enumerate(start):
        tables = [list(t) for t in tables]
        leaving = [
            (t, i)
            for t, members in enumerate(tables)
            if len(members) < full_size
            for i, p in enumerate(members)
            if p not in shorts[r]
        ]
        joining = [
            (t, i)
            for t, members in enumerate(tables)
            if len(members) == full_size
            for i, p in enumerate(members)
            if p in shorts[r]
        ]
        for (table_a, seat_a), (table_b, seat_b) in zip(leaving, joining):
            tables[table_a][seat_a], tables[table_b][seat_b] = tables[table_b][seat_b], tables[table_a][seat_a]
        out.append(tables)
    return out


def greedy_round(
    met: list[list[int]],
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
    full_size = max(sizes)
    tables: list[list[int]] = [[] for _ in sizes]
    for p in order:
        met_p, group_p = met[p], groups[p]
        best, best_table = None, 0
        for t, members in enumerate(tables):
            if len(members) >= sizes[t] or (at_short is not None and (p in at_short) != (sizes[t] < full_size)):
                continue
            key = (
                sum(1 for x in members if met_p[x]),
                sum(1 for x in members if group_p >= 0 and groups[x] == group_p),
                short[p] if sizes[t] < full_size else 0,
                len(members) - sizes[t],
            )
            if best is None or key < best:
                best, best_table = key, t
        tables[best_table].append(p)
    return tables


def fill_start(
    n: int,
    total: int,
    sizes: list[int],
    groups: list[int],
    fixed: list[list[int]],
    fixed_short: list[int],
    start: Layouts,
    stream: random.Random,
    base: list[list[int]] | None = None,
    shorts: list[set[int]] | None = None,
) -> SearchState:
    """``start`` with every empty round dealt by :func:`greedy_round`,
    given the fixed rounds and the rounds before it (``base`` as for
    :class:`SearchState`). With ``shorts`` (per planned round the players at
    its short tables, :func:`round_robin_short`) those sit short, and the
    returned state keeps them there (``keep_short``: the search trades
    players only between tables of one size)."""
    layouts: Layouts = []
    for r, tables in enumerate(start):
        state = SearchState(n, total, sizes, groups, fixed, layouts, fixed_short)
        layouts.append(
            tables
            if tables
            else greedy_round(
                state.meetings.count, n, sizes, groups, state.short.total, stream, shorts[r] if shorts else None
            )
        )
    out = SearchState(n, total, sizes, groups, fixed, layouts, fixed_short, base)
    out.keep_short = shorts is not None
    return out


def round_robin_short(
    base: list[list[int]], seats: int, stream: random.Random, start: Layouts | None = None
) -> list[set[int]]:
    """Who sits at a short table in each planned round: the ``seats``
    players with the fewest short tables so far (``base[r][p]`` from fixed
    rounds before planned round ``r``, plus those given here), ties to
    those at a short table of ``start``'s round, then in one seeded order:
    a round robin, so nobody sits short twice before everyone did once
    (docs/schedule.md)."""
    n = len(base[0]) if base else 0
    rank = list(range(n))
    rngmod.shuffle(stream, rank)
    place = {p: i for i, p in enumerate(rank)}
    got = [0] * n
    out = []
    for r, row in enumerate(base):
        tables = start[r] if start else []
        there = {p for t in tables if len(t) < max((len(x) for x in tables), default=0) for p in t}
        chosen = sorted(range(n), key=lambda p: (row[p] + got[p], p not in there, place[p]))[:seats]
        for p in chosen:
            got[p] += 1
        out.append(set(chosen))
    return out


def tabu_search(state: SearchState, bound: SearchCost, budget: int, stream: random.Random) -> Layouts:
    """The best layouts found within ``budget`` iterations (one move each,
    stopping at ``bound``): pick a conflicted (round, player), try trading it
    with every player (at most 256 drawn) of another table of that round,
    take the best move not tabu (a player may not return to a table it
    left for t to 2t + 3 iterations, t = min(6, n / 8), unless the move
    beats the best so far);
    after 400 iterations without progress, restart from the best with
    a few random trades; after a twentieth of the budget (at least
    2,000 iterations) without a new best, stop (a counting bound may be
    out of reach). Lexicographic in :meth:`SearchState.cost`; once all but
    the short-table term are at ``bound``, at most a fiftieth of the budget
    more."""
    weights = _weights(state)
    cur_cost = list(state.cost())
    cur = _scalar(cur_cost, weights)
    best, best_cost, best_layouts = cur, tuple(cur_cost), [[list(t) for t in tables] for tables in state.rounds]
    tabu: dict[tuple[int, int, int], int] = {}
    tenure = min(6, max(1, state.players // 8))  # short for small fields, where few moves exist
    conflicts = _conflicts(state)
    stall, gained = 0, 0  # iterations without progress; the iteration of the last new best
    settled = budget  # when the tables first met their bounds but for the short-table term
    for it in range(budget):
        if (best_cost[0], best_cost[2]) <= (bound[0], bound[2]):
            settled = min(settled, it)
        if _done(best_cost, bound, budget, it - gained, it - settled):
            break
        if not conflicts:
            conflicts = _conflicts(state)
            if not conflicts:
                break
        pick = rngmod.randbelow(stream, len(conflicts))
        r, a = conflicts[pick]
        if rngmod.randbelow(stream, 2) == 0:
            a = _worst_seat(state, r, stream)
        elif not state.conflicted(r, a):
            conflicts[pick] = conflicts[-1]
            conflicts.pop()
            continue
        move = _best_move(state, r, a, weights, tabu, it, cur, best, stream)
        if move is None:
            continue
        b, change = move
        table_a, table_b = state.table_of[r][a], state.table_of[r][b]
        state.swap(r, a, b)
        cur_cost = [c + e for c, e in zip(cur_cost, change)]
        cur = _scalar(cur_cost, weights)
        tabu[(r, a, table_a)] = it + tenure + rngmod.randbelow(stream, tenure + 4)
        tabu[(r, b, table_b)] = it + tenure + rngmod.randbelow(stream, tenure + 4)
        conflicts.extend(_touched(state, r, a, b))
        stall += 1
        if cur < best:
            best, best_cost, stall, gained = cur, tuple(cur_cost), 0, it
            best_layouts = [[list(t) for t in tables] for tables in state.rounds]
        elif stall > 400:
            _perturb(state, best_layouts, stream)
            cur_cost, stall = list(state.cost()), 0
            cur = _scalar(cur_cost, weights)
            conflicts = _conflicts(state)
    return best_layouts


def _done(best_cost: Sequence[int], bound: Sequence[int], budget: int, since_gain: int, since_settled: int) -> bool:
    """Whether :func:`tabu_search` stops: at the bounds; no new best for a
    twentieth of the budget (at least ``_GIVE_UP``: a counting bound out of
    reach); or a fiftieth of the budget since all but the short-table term
    met their bounds (the short tables' bound may be out of reach)."""
    return tuple(best_cost) <= tuple(bound) or since_gain > max(_GIVE_UP, budget // 20) or since_settled > budget // 50


def _weights(state: SearchState) -> tuple[int, int, int, int]:
    """Weights that make one scalar of :meth:`SearchState.cost` lexicographic:
    each term's weight exceeds what a move can change of the terms after
    it."""
    k, planned, most_short = state.full_size, len(state.rounds), max(state.short.total, default=0)
    squares_span = planned + 1 + most_short
    if any(state.is_short):  # the short-table term changes by at most 2 P (P + most short + 1) a move
        squares_span = max(squares_span, planned * (planned + most_short + 1))
    weight_clashes = 4 * squares_span + 1
    weight_pairs = (4 * (k - 1) + 1) * weight_clashes
    return (4 * (k - 1) * (squares_span + 1) + 1) * weight_pairs, weight_pairs, weight_clashes, 1


def _worst_seat(state: SearchState, r: int, stream: random.Random) -> int:
    """A player of the table of round ``r`` whose pairs have met most
    often (Σ C(meetings, 2) of the table; group clashes next), drawn
    among that table's players."""
    count, group_of = state.meetings.count, state.groups.group_of
    best, best_table = -1, 0
    for t, members in enumerate(state.rounds[r]):
        score = 0
        for i, a in enumerate(members):
            met_a = count[a]
            for b in members[i + 1 :]:
                score += met_a[b] * (met_a[b] - 1) * 8 + (group_of[a] >= 0 and group_of[a] == group_of[b])
        if score > best:
            best, best_table = score, t
    members = state.rounds[r][best_table]
    return members[rngmod.randbelow(stream, len(members))]


def _scalar(cost: Sequence[int], weights: Sequence[int]) -> int:
    return sum(c * w for c, w in zip(cost, weights))


def _conflicts(state: SearchState) -> list[tuple[int, int]]:
    """Every conflicted (planned round, player), in order."""
    return [(r, a) for r in range(len(state.rounds)) for a in range(state.players) if state.conflicted(r, a)]


def _touched(state: SearchState, r: int, a: int, b: int) -> list[tuple[int, int]]:
    """Candidates for new conflicts after ``a`` and ``b`` traded tables in
    ``r``: both tables, and the other rounds' seats of pairs now met
    twice."""
    out = []
    table_of = state.table_of[r]
    for p in (a, b):
        met_p = state.meetings.count[p]
        for x in state.rounds[r][table_of[p]]:
            out.append((r, x))
            if x != p and x < state.players and met_p[x] == 2:
                out.extend(
                    (r2, y)
                    for r2 in range(len(state.rounds))
                    if r2 != r and state.table_of[r2][p] == state.table_of[r2][x]
                    for y in (p, x)
                )
    return out


def _best_move(
    state: SearchState,
    r: int,
    a: int,
    weights: Sequence[int],
    tabu: dict[tuple[int, int, int], int],
    it: int,
    cur: int,
    best: int,
    stream: random.Random,
) -> tuple[int, tuple[int, int, int, int]] | None:
    """The best admissible trade partner of ``a`` in ``r`` and the scalar
    change, ties broken by the stream; None if every move is tabu."""
    table_of = state.table_of[r]
    table_a = table_of[a]
    n = state.players
    if n <= 256:
        partners: Sequence[int] = range(n)
    else:
        partners = [rngmod.randbelow(stream, n) for _ in range(256)]
    weight_extra, weight_pairs, weight_clashes, weight_squares = weights
    keep, is_short = state.keep_short, state.is_short
    found, found_scalar, found_change, ties = -1, 0, (0, 0, 0, 0), 0
    for b in partners:
        table_b = table_of[b]
        if table_b == table_a or (keep and is_short[table_b] != is_short[table_a]):
            continue
        change = state.delta(r, a, b)
        extra, pairs, clashes, squares = change
        scalar = extra * weight_extra + pairs * weight_pairs + clashes * weight_clashes + squares * weight_squares
        if found >= 0 and scalar > found_scalar:
            continue
        if (tabu.get((r, a, table_b), -1) > it or tabu.get((r, b, table_a), -1) > it) and cur + scalar >= best:
            continue
        if found < 0 or scalar < found_scalar:
            found, found_scalar, found_change, ties = b, scalar, change, 1
        else:
            ties += 1
            if rngmod.randbelow(stream, ties) == 0:
                found, found_change = b, change
    return None if found < 0 else (found, found_change)


def _perturb(state: SearchState, best_layouts: Layouts, stream: random.Random) -> None:
    """Reset ``state`` to ``best_layouts`` and make a few random trades."""
    for r, tables in enumerate(best_layouts):
        for t, members in enumerate(tables):
            for a in members:
                if state.table_of[r][a] != t:
                    b = next(x for x in state.rounds[r][t] if x not in members)
                    state.swap(r, a, b)
    for _ in range(1 + len(state.rounds) // 2):
        r = rngmod.randbelow(stream, len(state.rounds))
        a, b = rngmod.randbelow(stream, state.players), rngmod.randbelow(stream, state.players)
        table_a, table_b = state.table_of[r][a], state.table_of[r][b]
        if table_a != table_b and not (state.keep_short and state.is_short[table_a] != state.is_short[table_b]):
            state.swap(r, a, b)


def order_rounds(
    layouts: Layouts, slots: list[int], fixed_by_round: dict[int, list[list[int]]], n: int, full_size: int
) -> Layouts:
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
                at_full = [short.get(p, 0) for t in layouts[i] if len(t) == full_size for p in t]
                least = min(at_full, default=0)
                return sum(1 for t in layouts[i] if len(t) < full_size for p in t if short.get(p, 0) > least)

            pick = min(left, key=lambda i: (unfair(i), i))
            left.remove(pick)
            chosen.append(layouts[pick])
            tables = layouts[pick]
        for t in tables:
            if len(t) < full_size:
                for p in t:
                    short[p] = short.get(p, 0) + 1
    return chosen


def fair_order(
    layouts: Layouts, slots: list[int], fixed_by_round: dict[int, list[list[int]]], n: int, full_size: int
) -> Layouts:
    """``layouts`` as searched, or in the order of :func:`order_rounds`
    when that seats fewer players at a short table out of turn."""
    other = order_rounds(layouts, slots, fixed_by_round, n, full_size)
    return (
        other
        if unfair_short(other, slots, fixed_by_round, full_size)
        < unfair_short(layouts, slots, fixed_by_round, full_size)
        else layouts
    )


def unfair_short(layouts: Layouts, slots: list[int], fixed_by_round: dict[int, list[list[int]]], full_size: int) -> int:
    """Short-table seats out of turn over every round (planned layouts at
    ``slots``, fixed rounds as played; docs/schedule.md)."""
    by_round = dict(fixed_by_round)
    by_round.update(zip(slots, layouts))
    short: dict[int, int] = {}
    unfair = 0
    for r in sorted(by_round):
        tables = by_round[r]
        least = min((short.get(p, 0) for t in tables if len(t) == full_size for p in t), default=0)
        for t in tables:
            if len(t) < full_size:
                unfair += sum(1 for p in t if short.get(p, 0) > least)
        for t in tables:
            if len(t) < full_size:
                for p in t:
                    short[p] = short.get(p, 0) + 1
    return unfair


def fair_short_bound(base: list[list[int]], seats: int) -> int:
    """The least short-table term of :meth:`SearchState.cost`: each planned
    round's ``seats`` short seats given to the players with the fewest short
    tables so far (``base[r][p]``: those from fixed rounds before planned
    round ``r``)."""
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
    layouts: Layouts,
    fixed_counts: list[list[int]],
    full_size: int,
    passes: int,
    tries: int = 8,
    fixed_full: Sequence[int] = (),
) -> Layouts:
    """:func:`assign_once` over the planned rounds in ``tries`` orders
    (as given and reversed, each rotated), the best by the most unbalanced
    player then the squared counts (a precolored fixed round can block
    one order's chains and not another's); players still off their
    optimum then go to :func:`positions.repair` (``fixed_full``: per
    player its full tables in fixed rounds, default none)."""
    best, best_key = layouts, None
    count = len(layouts)
    for k in range(max(1, tries)):
        order = list(range(count))[::-1] if k % 2 else list(range(count))
        order = order[k // 2 % count :] + order[: k // 2 % count]
        got = assign_once([layouts[i] for i in order], fixed_counts, full_size, passes)
        back: Layouts = [[] for _ in range(count)]
        for i, tables in zip(order, got):
            back[i] = tables
        key = seat_balance(back, fixed_counts)
        if best_key is None or key < best_key:
            best, best_key = back, key
        if key[0] == 0:
            break
    counts, full = seat_counts(best, fixed_counts, full_size, fixed_full)
    if len(positions.off_players(counts, positions.optima(counts, full, full_size))) > positions.off_floor(
        counts, full, full_size
    ):
        positions.repair(best, counts, full, full_size, _REPAIR_STEPS)
    return best


def seat_counts(
    layouts: Layouts, fixed_counts: list[list[int]], full_size: int, fixed_full: Sequence[int] = ()
) -> tuple[list[list[int]], list[int]]:
    """Per player its position counts and full tables over the fixed
    rounds and ``layouts``."""
    counts = [list(row) for row in fixed_counts]
    full = list(fixed_full) or [0] * len(counts)
    for tables in layouts:
        for t in tables:
            for s, p in enumerate(t):
                counts[p][s] += 1
                full[p] += len(t) == full_size
    return counts, full


def seat_balance(layouts: Layouts, fixed_counts: list[list[int]]) -> tuple[int, int]:
    """Start-position imbalance, smaller is better: (Σ over players of (most − least − 1) where positive, Σ squared
    counts) of ``layouts`` after the fixed rounds."""
    counts = [list(row) for row in fixed_counts]
    for tables in layouts:
        for t in tables:
            for s, p in enumerate(t):
                counts[p][s] += 1
    rows = [c for c in counts if sum(c)]
    return sum(max(0, max(c) - min(c) - 1) for c in rows), sum(x * x for c in rows for x in c)


def assign_once(layouts: Layouts, fixed_counts: list[list[int]], full_size: int, passes: int) -> Layouts:
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


def _chain_repair(out: Layouts, counts: list[list[int]], budget: int) -> None:
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
    """SearchState from one where ``p`` sits at ``s_hi`` to one whose player at
    ``s_lo`` may take ``s_hi`` for good (the two ends' squared counts change
    by ``gain`` plus theirs, below zero), depth first."""
    for t in occ[p]:
        if id(t) in seen or len(t) <= max(s_hi, s_lo) or t[s_hi] != p:
            continue
        q = t[s_lo]
        counts_q = counts[q]
        if gain + 2 * (counts_q[s_hi] - counts_q[s_lo] + 1) < 0:
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
