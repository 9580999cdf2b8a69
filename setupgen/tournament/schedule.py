"""Seating scheduler: which table and starting position each player takes in
each round (a pure library module; no I/O).

Rule source: docs/rules.md section 6 (the Australian championship's
prefixed schedule: table and starting position of every player in every
round). The scheduler
optimises, lexicographically:

1. fewest repeated opponents (``Quality.repeat_pairs``),
2. starting positions as varied as possible per player (all different when
   the rounds do not exceed the table size; ``Quality.seat_repeats``),
3. no two players of one group (club, family) at one table
   (``Quality.group_clashes``).

Rounds, tables and seats are 1-based integers. Every draw comes from a
:mod:`setupgen.core.rng` stream seeded with ``"schedule/" + seed``, and the search
is bounded by an iteration budget (never wall-clock time), so the same input
gives the same schedule on every machine. Domain errors are
:class:`ScheduleError` with a lowercase one-line message.
"""

from __future__ import annotations

import math
import re
import random
from dataclasses import dataclass, field
from typing import Sequence

from ..core import rng as rngmod
from ..core.errors import SetupgenError
from .model import Player

CSV_HEADER = "round,table,seat,player"
_BAD_ID_CHARS = frozenset(',"\r\n')
_CYCLE = 50_000  # annealing moves per cycle (hot to cold)


class ScheduleError(SetupgenError):
    """A schedule, player list or planning request is invalid or impossible."""


@dataclass(frozen=True, slots=True)
class Seat:
    """Player ``player`` (a :attr:`Player.id`) sits in round ``round`` at
    table ``table`` in starting position ``seat`` (all 1-based)."""

    round: int
    table: int
    seat: int
    player: str


def _seat_key(s: Seat) -> tuple[int, int, int]:
    return (s.round, s.table, s.seat)


@dataclass(frozen=True, slots=True)
class Quality:
    """How good a schedule is (lower is better everywhere).

    ``repeat_pairs``: over all pairs of players, the meetings beyond the
    first (a pair meeting three times counts 2). ``seat_repeats``: over all
    players, rounds played minus distinct starting positions taken.
    ``group_clashes``: pairs of same-group players sharing a table, summed
    over rounds. ``worst_seat_spread``: the largest (rounds played - distinct
    starting positions) of any single player. ``player_seats``: per player
    id (sorted), the starting positions taken in round order.
    ``max_meetings``: most times any one pair meets."""

    repeat_pairs: int
    seat_repeats: int
    group_clashes: int
    worst_seat_spread: int = 0
    player_seats: tuple[tuple[str, tuple[int, ...]], ...] = ()
    max_meetings: int = 0

    def lines(self) -> list[str]:
        """A short English summary for a director, one line per measure."""
        out = []
        if self.repeat_pairs == 0:
            out.append("repeated opponents: none (no pair of players meets twice)")
        else:
            out.append(
                f"repeated opponents: {self.repeat_pairs} extra meeting(s); "
                f"the most any pair meets is {self.max_meetings} times"
            )
        if self.seat_repeats == 0:
            out.append("starting positions: every player's positions are all different")
        else:
            worst = [
                f"{pid} ({', '.join(map(str, seats))})"
                for pid, seats in self.player_seats
                if len(seats) - len(set(seats)) == self.worst_seat_spread
            ]
            shown = "; ".join(worst[:5]) + (f"; and {len(worst) - 5} more" if len(worst) > 5 else "")
            out.append(
                f"starting positions: {self.seat_repeats} repeat(s) in all; "
                f"worst {self.worst_seat_spread} per player: {shown}"
            )
        if self.group_clashes == 0:
            out.append("groups: no two players of one group share a table")
        else:
            out.append(f"groups: {self.group_clashes} same-group pair(s) share a table")
        return out


def _check_id(pid: object, where: str) -> None:
    if not isinstance(pid, str) or not pid or pid != pid.strip() or _BAD_ID_CHARS & set(pid):
        raise ScheduleError(
            f"{where}: player id {pid!r} must be non-empty text without commas, quotes, "
            "line breaks or surrounding spaces"
        )


def _check_fields(s: object) -> None:
    """Raise ScheduleError unless ``s`` is a Seat of positive whole numbers
    and a valid player id."""
    if not isinstance(s, Seat):
        raise ScheduleError(f"expected a Seat, got {s!r}")
    for name in ("round", "table", "seat"):
        v = getattr(s, name)
        if type(v) is not int or v < 1:
            raise ScheduleError(f"{name} must be a whole number of 1 or more, got {v!r}")
    _check_id(s.player, f"round {s.round} table {s.table} seat {s.seat}")


def _check_seats(seats: tuple[Seat, ...], labels: Sequence[str] | None = None) -> None:
    """Raise ScheduleError unless ``seats`` is sorted, each player sits once
    per round, and each round's tables are 1..T with seats 1..m each.
    ``labels`` (e.g. "line 4: ") prefix the message for the seat at fault."""
    for s in seats:
        _check_fields(s)
    keys = [_seat_key(s) for s in seats]
    if keys != sorted(keys):
        raise ScheduleError("schedule seats must be sorted by round, table and seat")
    seen: set[tuple[int, str]] = set()
    prev: tuple[int, int, int] | None = None
    for i, s in enumerate(seats):
        at = labels[i] if labels else ""
        k = _seat_key(s)
        if k == prev:
            raise ScheduleError(f"{at}round {s.round} table {s.table} seat {s.seat} is given twice")
        if (s.round, s.player) in seen:
            raise ScheduleError(f"{at}player {s.player} sits twice in round {s.round}")
        seen.add((s.round, s.player))
        # tables and seats must be consecutive from 1
        if prev is None or prev[0] != s.round:
            want = (s.round, 1, 1)
        elif prev[1] != s.table:
            want = (s.round, prev[1] + 1, 1)
        else:
            want = (s.round, s.table, prev[2] + 1)
        if k != want:
            raise ScheduleError(
                f"{at}round {s.round} table {s.table} seat {s.seat}: expected table {want[1]} seat {want[2]} "
                "(tables and seats are numbered 1, 2, 3, ... without gaps)"
            )
        prev = k


@dataclass(frozen=True, slots=True)
class Schedule:
    """A seating plan: ``seats`` sorted by (round, table, seat). Construction
    raises :class:`ScheduleError` if a player sits twice in a round, a slot is
    given twice, the seats are unsorted, or tables/seats are not numbered
    1, 2, 3, ... within a round (rounds themselves may have gaps)."""

    seats: tuple[Seat, ...]
    _index: dict = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        _check_seats(seats)
        object.__setattr__(self, "seats", seats)
        index: dict[int, list[list[str]]] = {}
        for s in seats:
            tables = index.setdefault(s.round, [])
            if s.table > len(tables):
                tables.append([])
            tables[-1].append(s.player)
        object.__setattr__(self, "_index", {r: tuple(tuple(t) for t in ts) for r, ts in index.items()})

    def table(self, round: int, table: int) -> tuple[str, ...]:
        """Player ids at ``table`` in ``round``, in starting-position order.
        Raises ScheduleError if there is no such table."""
        tables = self._index.get(round, ())
        if not 1 <= table <= len(tables):
            raise ScheduleError(f"round {round} has no table {table}")
        return tables[table - 1]

    def tables(self, round: int) -> int:
        """Number of tables in ``round`` (0 if the round is not scheduled)."""
        return len(self._index.get(round, ()))

    def rounds(self) -> int:
        """The highest round number scheduled (0 for an empty schedule)."""
        return max(self._index, default=0)

    def round_numbers(self) -> tuple[int, ...]:
        """The scheduled round numbers, ascending."""
        return tuple(sorted(self._index))

    def to_csv(self) -> str:
        """CSV text: header ``round,table,seat,player`` then one row per seat,
        sorted, ``\\n`` line ends, trailing newline."""
        rows = [CSV_HEADER] + [f"{s.round},{s.table},{s.seat},{s.player}" for s in self.seats]
        return "\n".join(rows) + "\n"

    @classmethod
    def from_csv(cls, text: str) -> "Schedule":
        """Read :meth:`to_csv` text (rows in any order; blank lines and a
        ``\\r\\n`` line end are accepted). Raises ScheduleError naming the line
        ("line 4: ...") for a bad header, field count, number or player id,
        a slot given twice or a player seated twice in a round."""
        lines = text.splitlines()
        if not lines or lines[0].strip().lstrip("\ufeff") != CSV_HEADER:
            raise ScheduleError(f"line 1: expected the header {CSV_HEADER!r}")
        seats: list[Seat] = []
        slot_line: dict[tuple[int, int, int], int] = {}
        player_line: dict[tuple[int, str], int] = {}
        for no, raw in enumerate(lines[1:], start=2):
            if not raw.strip():
                continue
            parts = raw.split(",")
            if len(parts) != 4:
                raise ScheduleError(f"line {no}: expected 4 fields round,table,seat,player, got {len(parts)}")
            nums = []
            for name, part in zip(("round", "table", "seat"), parts[:3]):
                part = part.strip()
                if not re.fullmatch(r"[0-9]{1,6}", part) or int(part) < 1:
                    raise ScheduleError(f"line {no}: {name} must be a whole number of 1 or more, got {part!r}")
                nums.append(int(part))
            pid = parts[3].strip()
            _check_id(pid, f"line {no}")
            r, t, s = nums
            if (r, t, s) in slot_line:
                raise ScheduleError(
                    f"line {no}: round {r} table {t} seat {s} is already given on line {slot_line[(r, t, s)]}"
                )
            if (r, pid) in player_line:
                raise ScheduleError(
                    f"line {no}: player {pid} already sits in round {r} (line {player_line[(r, pid)]})"
                )
            slot_line[(r, t, s)] = no
            player_line[(r, pid)] = no
            seats.append(Seat(r, t, s, pid))
        order = sorted(range(len(seats)), key=lambda i: _seat_key(seats[i]))
        sorted_seats = tuple(seats[i] for i in order)
        _check_seats(sorted_seats, [f"line {slot_line[_seat_key(s)]}: " for s in sorted_seats])
        return cls(sorted_seats)

    def quality(self, players: Sequence[Player] = ()) -> Quality:
        """Measure the whole schedule. ``players`` supply the groups; ids in
        the schedule but not in ``players`` (drop-outs) have no group."""
        group = {p.id: p.group for p in players}
        meet: dict[tuple[str, str], int] = {}
        clashes = 0
        seats_of: dict[str, list[int]] = {}
        for r in sorted(self._index):
            for t in self._index[r]:
                for i, a in enumerate(t):
                    seats_of.setdefault(a, []).append(i + 1)
                    for b in t[i + 1:]:
                        key = (a, b) if a < b else (b, a)
                        meet[key] = meet.get(key, 0) + 1
                        ga = group.get(a)
                        if ga is not None and ga == group.get(b):
                            clashes += 1
        spread = {p: len(v) - len(set(v)) for p, v in seats_of.items()}
        return Quality(
            repeat_pairs=sum(c - 1 for c in meet.values()),
            seat_repeats=sum(spread.values()),
            group_clashes=clashes,
            worst_seat_spread=max(spread.values(), default=0),
            player_seats=tuple((p, tuple(seats_of[p])) for p in sorted(seats_of)),
            max_meetings=max(meet.values(), default=0),
        )


def table_sizes(n_players: int, table_size: int) -> list[int]:
    """Table sizes for one round: ``ceil(n / table_size)`` tables, the
    shortfall spread as tables of ``table_size - 1`` (3-player tables for
    base 3-4, 5-player tables for 5-6), full tables listed first.

    Raises ScheduleError for ``table_size < 3``, fewer than
    ``table_size - 1`` players, or counts that cannot be split so (e.g. 5
    players at tables of 4: 2 tables would need 3 short ones)."""
    if type(table_size) is not int or table_size < 3:
        raise ScheduleError(f"table size must be a whole number of 3 or more, got {table_size!r}")
    if type(n_players) is not int or n_players < table_size - 1:
        raise ScheduleError(
            f"{n_players} player(s) cannot fill a table: tables of {table_size} need at least {table_size - 1}"
        )
    tables = -(-n_players // table_size)
    short = tables * table_size - n_players
    if short > tables:
        raise ScheduleError(
            f"{n_players} players cannot be split into tables of {table_size} and {table_size - 1} "
            f"({tables} tables would need {short} short tables)"
        )
    return [table_size] * (tables - short) + [table_size - 1] * short


def _lower_bound(
    n: int, sizes: list[int], planned: int, meet: list[list[int]], fixed_r: int, fixed_s: list[int],
    played: list[int], groups: list[int], fixed_g: int, fixed_seats: list[list[int]],
) -> tuple[int, int, int]:
    """A (repeats, seat repeats, clashes) no schedule can beat; reaching it
    ends the search early (a perfect schedule)."""
    k, smallest = max(sizes), min(sizes)
    excess = 0
    for p in range(n):
        met = sum(1 for q in range(n) if q != p and meet[p][q])
        excess += max(0, planned * (smallest - 1) - (n - 1 - met))
    lb_r = fixed_r + (excess + 1) // 2
    lb_s = 0
    for p in range(n):
        # seats 1..k now, plus higher seats taken in fixed rounds
        most = k + sum(1 for c in fixed_seats[p][k:] if c)
        lb_s += max(fixed_s[p], played[p] + planned - most)
    # counting bound: seat s can be taken by at most (players who took it in
    # fixed rounds + planned uses of s) distinct players
    distinct = 0
    for s in range(len(fixed_seats[0])):
        users = sum(1 for p in range(n) if fixed_seats[p][s])
        distinct += min(n, users + planned * sum(1 for size in sizes if size > s))
    lb_s = max(lb_s, sum(played[:n]) + planned * n - distinct)
    counts: dict[int, int] = {}
    for g in groups[:n]:
        if g >= 0:
            counts[g] = counts.get(g, 0) + 1
    per_round = 0
    nt = len(sizes)
    for g in sorted(counts):
        q, rem = divmod(counts[g], nt)
        per_round += rem * (q + 1) * q // 2 + (nt - rem) * q * (q - 1) // 2
    return lb_r, lb_s, fixed_g + planned * per_round


def plan(
    players: Sequence[Player], rounds: int, table_size: int, seed: str, *,
    fixed: Sequence[Seat] = (), budget: int = 200_000,
) -> Schedule:
    """Seat every player of ``players`` once in every round 1..``rounds`` at
    tables sized by :func:`table_sizes` (``table_size`` 4 for base 3-4, 6 for
    5-6 scenarios).

    Rounds present in ``fixed`` (already played, e.g. rounds 1..N-1 when
    re-planning from round N after drop-outs and late entries) are kept
    exactly, may name players no longer in ``players``, and their meetings
    and starting positions count in the objective. The other rounds are
    searched by simulated annealing over player swaps between tables and
    seat swaps within a table, for at most ``budget`` moves, stopping as soon
    as a provably perfect schedule is found. The objective is lexicographic:
    repeated opponents, then seat repeats, then group clashes (docs/rules.md
    section 6, seed 002). Deterministic in (players, rounds, table_size,
    seed, fixed, budget).

    Raises ScheduleError for no or duplicate player ids, a bad id,
    ``rounds < 1``, a negative budget, impossible table sizes, an invalid
    ``fixed`` (see :class:`Schedule`) or fixed seats in rounds beyond
    ``rounds``.
    """
    players = tuple(players)
    _check_plan_request(players, rounds, budget, seed)
    ids = [p.id for p in players]
    sizes = table_sizes(len(players), table_size)
    fixed = tuple(fixed)
    for s in fixed:
        _check_fields(s)
    fixed_sched = Schedule(tuple(sorted(fixed, key=_seat_key)))
    beyond = [r for r in fixed_sched.round_numbers() if r > rounds]
    if beyond:
        raise ScheduleError(f"fixed seats name round {beyond[0]} but only {rounds} round(s) are planned")
    fixed_rounds = set(fixed_sched.round_numbers())
    planned = [r for r in range(1, rounds + 1) if r not in fixed_rounds]
    if not planned:
        return fixed_sched

    n = len(players)
    search = _Search.of(players, fixed_sched, table_size)
    lb = search.lower_bound(sizes, len(planned))
    # -- initial state: each planned round a seeded shuffle dealt into tables
    stream = rngmod.from_seed("schedule/" + seed)
    tabs: list[list[list[int]]] = []  # per planned round: table -> players by seat
    starts = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
    for _ in planned:
        order = list(range(n))
        rngmod.shuffle(stream, order)
        tabs.append([order[starts[i]:starts[i + 1]] for i in range(len(sizes))])
    best_tabs = search.anneal(tabs, lb, budget, stream)

    seats = list(fixed_sched.seats) + [Seat(r, ti + 1, si + 1, ids[a]) for r, tables in zip(planned, best_tabs)
                                       for ti, members in enumerate(tables) for si, a in enumerate(members)]
    return Schedule(tuple(sorted(seats, key=_seat_key)))


def _check_plan_request(players: tuple[Player, ...], rounds: int, budget: int, seed: str) -> None:
    """Raise :class:`ScheduleError` for no or duplicate player ids, a bad id,
    ``rounds < 1``, a negative budget or a seed that is not text."""
    if not players:
        raise ScheduleError("no players to seat")
    ids = [p.id for p in players]
    for pid in ids:
        _check_id(pid, "players")
    if len(set(ids)) != len(ids):
        dup = sorted({pid for pid in ids if ids.count(pid) > 1})
        raise ScheduleError(f"duplicate player id(s): {', '.join(dup)}")
    if type(rounds) is not int or rounds < 1:
        raise ScheduleError(f"rounds must be a whole number of 1 or more, got {rounds!r}")
    if type(budget) is not int or budget < 0:
        raise ScheduleError(f"budget must be a whole number of 0 or more, got {budget!r}")
    if not isinstance(seed, str):
        raise ScheduleError(f"seed must be text, got {seed!r}")


class _Search:
    """The annealing search over the planned rounds: players are indices
    ``0..n-1`` (current) and ``n..total-1`` (drop-outs of fixed rounds);
    ``groups[p]`` is a group number or -1; seats go up to ``kmax``."""

    def __init__(self, n: int, total: int, kmax: int, fixed_sched: Schedule, index: dict[str, int],
                 groups: list[int]) -> None:
        self.n, self.total, self.kmax = n, total, kmax
        self.fixed_sched, self.index, self.groups = fixed_sched, index, groups

    @classmethod
    def of(cls, players: tuple[Player, ...], fixed_sched: Schedule, table_size: int) -> "_Search":
        """Index the players: current ones 0..n-1, then drop-outs seen in
        the fixed rounds; groups numbered in sorted order."""
        n = len(players)
        index = {p.id: i for i, p in enumerate(players)}
        for s in fixed_sched.seats:
            index.setdefault(s.player, len(index))
        total = len(index)
        gnum = {g: i for i, g in enumerate(sorted({p.group for p in players if p.group is not None}))}
        groups = [gnum[p.group] if p.group is not None else -1 for p in players] + [-1] * (total - n)
        kmax = max([table_size] + [s.seat for s in fixed_sched.seats])
        return cls(n, total, kmax, fixed_sched, index, groups)

    def lower_bound(self, sizes: list[int], planned: int) -> tuple[int, int, int]:
        """:func:`_lower_bound` given the fixed rounds and ``planned`` more
        rounds at tables of ``sizes``."""
        meet, seatcnt, _, fixed_g = self.recount([])
        played = [sum(row) for row in seatcnt]
        fixed_s = [sum(max(0, c - 1) for c in row) for row in seatcnt]
        return _lower_bound(self.n, sizes, planned, meet, _repeats(meet), fixed_s, played, self.groups, fixed_g,
                            seatcnt)

    def recount(self, tabs: list[list[list[int]]]
                ) -> tuple[list[list[int]], list[list[int]], list[list[int]], int]:
        """:func:`_recount` of the fixed rounds plus ``tabs``."""
        return _recount(tabs, self.n, self.total, self.kmax, self.fixed_sched, self.index, self.groups)

    def anneal(self, tabs: list[list[list[int]]], lb: tuple[int, int, int], budget: int,
               stream: random.Random) -> list[list[list[int]]]:
        """The best tables found from ``tabs`` within ``budget`` moves,
        stopping at the lower bound ``lb``.

        Cycles alternate two weightings, each restarting from the best state:
        "flat" (1, 1, 1) lets the search cross infeasible ground (finds
        group-free layouts); "lexicographic" weights make every single move's
        scalar delta agree in sign with the (repeats, seats, clashes) delta (a
        move changes clashes by at most 4(k-1) and seat repeats by at most 2).
        The best state is always judged lexicographically."""
        meet, seatcnt, _, clashes = self.recount(tabs)
        best = (_repeats(meet), sum(max(0, c - 1) for row in seatcnt for c in row), clashes)
        best_tabs = tabs
        lex_s = 4 * (self.kmax - 1) + 1
        lex_r = 2 * lex_s + 4 * (self.kmax - 1) + 1
        modes: tuple[tuple[tuple[int, int, int], float, float], ...] = (
            ((1, 1, 1), 2.0, 0.1), ((lex_r, lex_s, 1), 0.6 * lex_s, 0.15))  # weights, hot, cold
        it, cycle_no = 0, 0
        cycle = max(1, min(budget, _CYCLE))
        while best > lb and it < budget:
            weights, t_hot, t_cold = modes[cycle_no % len(modes)]
            cycle_no += 1
            length = min(cycle, budget - it)
            it += length
            best, best_tabs = self._cycle(best_tabs, best, lb, length, weights, t_hot, t_cold, stream)
        return best_tabs

    def _cycle(self, start: list[list[list[int]]], best: tuple[int, int, int], lb: tuple[int, int, int],
               length: int, weights: tuple[int, int, int], t_hot: float, t_cold: float,
               stream: random.Random) -> tuple[tuple[int, int, int], list[list[list[int]]]]:
        """One cycle of ``length`` moves from ``start``, hot to cold."""
        tabs = [[list(t) for t in tables] for tables in start]
        meet, seatcnt, where, _ = self.recount(tabs)
        best_tabs = start
        cur = list(best)
        temp, cool = t_hot, (t_cold / t_hot) ** (1.0 / length)
        n_rounds = len(tabs)
        randbelow = rngmod.randbelow
        for _ in range(length):
            temp *= cool
            ri = randbelow(stream, n_rounds) if n_rounds > 1 else 0
            delta = self._move(tabs[ri], where[ri], meet, seatcnt, weights, temp, stream)
            if delta is None:
                continue
            cur[0] += delta[0]
            cur[1] += delta[1]
            cur[2] += delta[2]
            if (cur[0], cur[1], cur[2]) < best:
                best = (cur[0], cur[1], cur[2])
                best_tabs = [[list(t) for t in tables] for tables in tabs]
                if best <= lb:
                    break
        return best, best_tabs

    def _move(self, tables: list[list[int]], wh: list[int], meet: list[list[int]], seatcnt: list[list[int]],
              weights: tuple[int, int, int], temp: float, stream: random.Random) -> tuple[int, int, int] | None:
        """Propose one move in a round (a seat swap within a table, one time
        in four, else a swap of two players between tables), accept it by the
        Metropolis rule and apply it; the (repeats, seats, clashes) delta, or
        None when rejected."""
        randbelow = rngmod.randbelow
        a = randbelow(stream, self.n)
        ta = wh[a]
        ta_list = tables[ta]
        sa = ta_list.index(a)
        if randbelow(stream, 4) == 0:
            sb = randbelow(stream, len(ta_list) - 1)
            if sb >= sa:
                sb += 1
            b = ta_list[sb]
            ds = _seat_delta(seatcnt[a], seatcnt[b], sa, sb)
            if not _accept(ds * weights[1], temp, stream):
                return None
            _move_seats(seatcnt[a], seatcnt[b], sa, sb)
            ta_list[sa], ta_list[sb] = b, a
            return (0, ds, 0)
        b = randbelow(stream, self.n - 1)
        if b >= a:
            b += 1
        tb = wh[b]
        if tb == ta:
            return None
        tb_list = tables[tb]
        sb = tb_list.index(b)
        dr, dg = self._swap_delta(a, b, ta_list, tb_list, meet)
        ds = _seat_delta(seatcnt[a], seatcnt[b], sa, sb) if sa != sb else 0
        if not _accept(dr * weights[0] + ds * weights[1] + dg * weights[2], temp, stream):
            return None
        self._apply_swap(a, b, ta_list, tb_list, meet)
        if sa != sb:
            _move_seats(seatcnt[a], seatcnt[b], sa, sb)
        ta_list[sa], tb_list[sb] = b, a
        wh[a], wh[b] = tb, ta
        return (dr, ds, dg)

    def _swap_delta(self, a: int, b: int, ta_list: list[int], tb_list: list[int],
                    meet: list[list[int]]) -> tuple[int, int]:
        """Change of repeated meetings and group clashes when ``a`` (at
        ``ta_list``) and ``b`` (at ``tb_list``) trade tables."""
        groups = self.groups
        ma, mb = meet[a], meet[b]
        ga, gb = groups[a], groups[b]
        dr = dg = 0
        for x in ta_list:
            if x != a:
                dr += (mb[x] >= 1) - (ma[x] >= 2)
                gx = groups[x]
                if gx >= 0:
                    dg += (gx == gb) - (gx == ga)
        for y in tb_list:
            if y != b:
                dr += (ma[y] >= 1) - (mb[y] >= 2)
                gy = groups[y]
                if gy >= 0:
                    dg += (gy == ga) - (gy == gb)
        return dr, dg

    @staticmethod
    def _apply_swap(a: int, b: int, ta_list: list[int], tb_list: list[int], meet: list[list[int]]) -> None:
        """Update the meeting counts for ``a`` and ``b`` trading tables."""
        ma, mb = meet[a], meet[b]
        for x in ta_list:
            if x != a:
                ma[x] -= 1
                meet[x][a] -= 1
                mb[x] += 1
                meet[x][b] += 1
        for y in tb_list:
            if y != b:
                mb[y] -= 1
                meet[y][b] -= 1
                ma[y] += 1
                meet[y][a] += 1


def _seat_delta(ca: list[int], cb: list[int], sa: int, sb: int) -> int:
    """Change of seat repeats when the players with seat counts ``ca`` (in
    seat ``sa``) and ``cb`` (in ``sb``) trade seats."""
    return (ca[sb] >= 1) - (ca[sa] >= 2) + (cb[sa] >= 1) - (cb[sb] >= 2)


def _move_seats(ca: list[int], cb: list[int], sa: int, sb: int) -> None:
    ca[sa] -= 1
    ca[sb] += 1
    cb[sb] -= 1
    cb[sa] += 1


def _accept(d: float, temp: float, stream: random.Random) -> bool:
    """Metropolis acceptance of a move costing ``d`` at temperature ``temp``
    (a worse move draws from the stream; others never do)."""
    return d <= 0 or rngmod.randbelow(stream, 1 << 30) < math.exp(-d / temp) * (1 << 30)


def _repeats(meet: list[list[int]]) -> int:
    """Meetings beyond the first, over all pairs."""
    total = len(meet)
    return sum(max(0, meet[a][b] - 1) for a in range(total) for b in range(a + 1, total))


def _recount(
    tabs: list[list[list[int]]], n: int, total: int, kmax: int, fixed_sched: Schedule,
    index: dict[str, int], groups: list[int],
) -> tuple[list[list[int]], list[list[int]], list[list[int]], int]:
    """Meeting counts (total x total), seat counts (total x kmax), per
    planned round the player -> table map, and group clashes, of the fixed
    rounds plus the planned tables ``tabs``."""
    meet = [[0] * total for _ in range(total)]
    seatcnt = [[0] * kmax for _ in range(total)]
    all_tables = [
        [index[pid] for pid in fixed_sched.table(r, t)]
        for r in fixed_sched.round_numbers() for t in range(1, fixed_sched.tables(r) + 1)
    ]
    where = []
    for tables in tabs:
        wh = [0] * n
        for ti, members in enumerate(tables):
            for a in members:
                wh[a] = ti
        where.append(wh)
        all_tables.extend(tables)
    clashes = 0
    for members in all_tables:
        for si, a in enumerate(members):
            seatcnt[a][si] += 1
            for b in members[si + 1:]:
                meet[a][b] += 1
                meet[b][a] += 1
                if groups[a] >= 0 and groups[a] == groups[b]:
                    clashes += 1
    return meet, seatcnt, where, clashes
