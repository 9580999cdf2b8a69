"""What a seating schedule achieves, each measure beside a lower bound no
schedule of the same rounds and table sizes can beat (``docs/schedule.md``).

A schedule is given here as plain data, ``rounds``: per scheduled round (in
round order) its tables, each a sequence of player ids in starting-position
order. Pure functions, no I/O; the same input gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Tables = Sequence[Sequence[Sequence[str]]]


@dataclass(frozen=True, slots=True)
class Quality:
    """How good a schedule is (lower is better everywhere); each ``*_bound``
    is the lower bound of the measure before it (docs/schedule.md gives
    each bound's argument; ``counting`` bounds may be out of reach).

    Opponents: ``repeat_pairs`` = Σ over pairs of (meetings − 1) where
    positive; ``pairs_repeated`` pairs meet twice or more; ``max_meetings``
    is the most meetings of one pair. ``group_clashes``: same-group pairs
    sharing a table, summed over rounds. Start positions (1..S, S the
    largest table): a player's *spread* is the count of their most used
    position minus that of their least used; ``worst_seat_spread`` is the
    largest, ``seat_off`` the number of players above their own optimum
    (every position ⌊R/S⌋ or ⌈R/S⌉ times, fewer of the positions only full
    tables have when the player sat short). ``seat_repeats`` (older
    measure): over players, rounds played minus distinct positions.
    Short tables (smaller than S): ``short_unfair`` counts players put at a
    short table while a player with fewer short tables so far sits at a
    full one in that round; ``most_short`` is the most short tables of one
    player. ``player_seats``: per player id (sorted) the positions in round
    order."""

    repeat_pairs: int
    seat_repeats: int
    group_clashes: int
    worst_seat_spread: int = 0
    player_seats: tuple[tuple[str, tuple[int, ...]], ...] = ()
    max_meetings: int = 0
    pairs_repeated: int = 0
    repeat_bound: int = 0
    pairs_bound: int = 0
    meetings_bound: int = 0
    clash_bound: int = 0
    spread_bound: int = 0
    seat_off: int = 0
    seat_off_bound: int = 0
    short_unfair: int = 0
    most_short: int = 0
    most_short_bound: int = 0

    def key(self) -> tuple[int, int, int, int, int]:
        """The official order (docs/schedule.md): extra meetings, players off
        their start-position optimum, worst spread, group clashes, unfair
        short tables; smaller is better."""
        return (self.repeat_pairs, self.seat_off, self.worst_seat_spread, self.group_clashes, self.short_unfair)

    def at_bounds(self) -> bool:
        """Whether every measure equals its lower bound (provably optimal)."""
        return (
            self.repeat_pairs,
            self.pairs_repeated,
            self.max_meetings,
            self.group_clashes,
            self.worst_seat_spread,
            self.seat_off,
            self.short_unfair,
            self.most_short,
        ) == (
            self.repeat_bound,
            self.pairs_bound,
            self.meetings_bound,
            self.clash_bound,
            self.spread_bound,
            self.seat_off_bound,
            0,
            self.most_short_bound,
        )

    def rows(self) -> list[tuple[str, int, int, str]]:
        """``(measure key, value, bound, kind)`` per measure, in the
        official order. ``kind`` says what a bound not reached means:
        ``"counting"``, a counting bound that may be out of reach (every
        opponents' bound is one: no schedule is known to reach it until
        one does); ``"alone"``, the bound of this measure on its own, which
        the measures before it (they come first) may keep out of reach
        (docs/schedule.md). Keys are template keys under
        ``tournament.quality.``."""

        def later(counting: bool) -> str:
            return "counting" if counting else "alone"

        return [
            ("pairs_repeated", self.pairs_repeated, self.pairs_bound, "counting"),
            ("extra_meetings", self.repeat_pairs, self.repeat_bound, "counting"),
            ("max_meetings", self.max_meetings, self.meetings_bound, "counting"),
            ("seat_spread", self.worst_seat_spread, self.spread_bound, later(self.seat_off_bound > 0)),
            ("seat_off", self.seat_off, self.seat_off_bound, later(self.seat_off_bound > 0)),
            ("group_clashes", self.group_clashes, self.clash_bound, later(self.clash_bound > 0)),
            ("short_unfair", self.short_unfair, 0, "alone"),
            ("most_short", self.most_short, self.most_short_bound, "alone"),
        ]

    def lines(self) -> list[str]:
        """A short English summary for a director, one line per measure,
        each with its bound ("bound 0: optimal" when reached)."""

        def mark(value: int, bound: int, kind: str) -> str:
            if value <= bound:
                return f"bound {bound}: optimal"
            return (
                f"bound {bound}"
                + {
                    "counting": ", a counting bound that may be out of reach",
                    "alone": " for this measure alone: the measures before it come first",
                }[kind]
            )

        r = {key: (v, b, c) for key, v, b, c in self.rows()}
        pairs = (
            "repeated opponents: none (no pair of players meets twice)"
            if self.pairs_repeated == 0
            else f"repeated opponents: {self.pairs_repeated} pair(s) meet more than once"
        )
        worst = [
            f"{pid} ({', '.join(map(str, seats))})"
            for pid, seats in self.player_seats
            if self.worst_seat_spread > self.spread_bound and _spread(seats, self.positions()) == self.worst_seat_spread
        ]
        shown = "; ".join(worst[:3]) + (f"; and {len(worst) - 3} more" if len(worst) > 3 else "")
        return [
            f"{pairs} [{mark(*r['pairs_repeated'])}]",
            f"extra meetings, sum of (meetings - 1): {self.repeat_pairs} [{mark(*r['extra_meetings'])}]",
            f"most meetings of one pair: {self.max_meetings} [{mark(*r['max_meetings'])}]",
            f"start positions: worst spread (most minus least used position) {self.worst_seat_spread} "
            f"[{mark(*r['seat_spread'])}]" + (f": {shown}" if shown else ""),
            f"start positions: {self.seat_off} player(s) off their optimum [{mark(*r['seat_off'])}]",
            f"groups: {self.group_clashes} same-group pair(s) share a table [{mark(*r['group_clashes'])}]",
            f"short tables: {self.short_unfair} seat(s) at a short table before others' turn "
            f"[{mark(*r['short_unfair'])}]; most per player {self.most_short} [{mark(*r['most_short'])}]",
        ]

    def positions(self) -> int:
        """S: the number of start positions (the largest seat taken)."""
        return max((s for _, seats in self.player_seats for s in seats), default=0)


def _spread(seats: Sequence[int], positions: int) -> int:
    """Count of the most used minus the least used of positions 1..``positions``."""
    counts = [0] * positions
    for s in seats:
        counts[s - 1] += 1
    return max(counts) - min(counts) if counts else 0


def measure(rounds: Tables, groups: Mapping[str, str | None] | None = None) -> Quality:
    """The :class:`Quality` of ``rounds`` (per round its tables of player ids
    in seat order); ``groups`` maps player id -> group (missing: none)."""
    groups = groups or {}
    size = max((len(t) for tables in rounds for t in tables), default=0)
    meet, slots = _meetings(rounds)
    n = len(slots)
    extra = sum(c - 1 for c in meet.values() if c > 1)
    rb, pb, mb = _pair_bounds(slots, n, sum(meet.values()), len(rounds))
    sq = pigeonhole(rounds)
    if sq:  # Σ C(m, 2) >= sq, and C(m, 2) <= (m - 1) * R / 2, C(m, 2) <= C(R, 2) per pair
        r_all = len(rounds)
        rb = max(rb, -(-2 * sq // r_all))
        pb = max(pb, -(-sq // (r_all * (r_all - 1) // 2)))
        mb = max(mb, 2)
    clashes, clash_bound = _clashes(rounds, groups)
    seats_of: dict[str, list[int]] = {}
    for tables in rounds:
        for t in tables:
            for i, p in enumerate(t):
                seats_of.setdefault(p, []).append(i + 1)
    spread, off, spread_b, off_b = _position_measures(rounds, size)
    unfair, most, most_b = _short_measures(rounds, size)
    return Quality(
        repeat_pairs=extra,
        seat_repeats=sum(len(v) - len(set(v)) for v in seats_of.values()),
        group_clashes=clashes,
        worst_seat_spread=spread,
        player_seats=tuple((p, tuple(seats_of[p])) for p in sorted(seats_of)),
        max_meetings=max(meet.values(), default=0),
        pairs_repeated=sum(1 for c in meet.values() if c > 1),
        repeat_bound=rb,
        pairs_bound=pb,
        meetings_bound=mb,
        clash_bound=clash_bound,
        spread_bound=spread_b,
        seat_off=off,
        seat_off_bound=off_b,
        short_unfair=unfair,
        most_short=most,
        most_short_bound=most_b,
    )


def _meetings(rounds: Tables) -> tuple[dict[tuple[str, str], int], dict[str, int]]:
    """Meetings per pair (ids sorted) and opponent slots per player (Σ over
    their tables of size − 1)."""
    meet: dict[tuple[str, str], int] = {}
    slots: dict[str, int] = {}
    for tables in rounds:
        for t in tables:
            for i, a in enumerate(t):
                slots[a] = slots.get(a, 0) + len(t) - 1
                for b in t[i + 1 :]:
                    key = (a, b) if a < b else (b, a)
                    meet[key] = meet.get(key, 0) + 1
    return meet, slots


def _pair_bounds(slots: Mapping[str, int], n: int, total: int, rounds: int) -> tuple[int, int, int]:
    """Bounds on (Σ(meetings − 1), pairs meeting twice, most meetings):
    a player with s opponent slots among n − 1 others meets at least
    s − (n − 1) times beyond the first, and some opponent ⌈s/(n − 1)⌉
    times; all pairs together absorb at most C(n, 2) first meetings."""
    if n < 2 or total == 0:
        return 0, 0, 0
    pairs = n * (n - 1) // 2
    per_player = sum(max(0, s - (n - 1)) for s in slots.values())
    extra = max(total - pairs, -(-per_player // 2))
    most = max(1, -(-total // pairs), max(-(-s // (n - 1)) for s in slots.values()))
    repeated = 0 if extra <= 0 else -(-extra // max(1, rounds - 1))
    return max(0, extra), repeated, most


def pigeonhole(rounds: Sequence[Sequence[Sequence[Hashable]]]) -> int:
    """A lower bound on Σ over pairs of C(meetings, 2), the pairs of
    rounds in which a pair meets: for rounds r1 < r2, a table of r2 holds
    players of r1 spread at best evenly over r1's tables, and each two of
    them from one r1 table meet twice (for 12 players at 3 tables of 4,
    every later table repeats a pair: 3 rounds cost 9)."""
    total = 0
    for i, first in enumerate(rounds):
        at = {p: ti for ti, t in enumerate(first) for p in t}
        bins = len(first)
        for later in rounds[i + 1 :]:
            for t in later:
                x = sum(1 for p in t if p in at)
                q, rem = divmod(x, bins)
                total += rem * (q + 1) * q // 2 + (bins - rem) * q * (q - 1) // 2
    return total


def _clashes(rounds: Tables, groups: Mapping[str, str | None]) -> tuple[int, int]:
    """Group clashes and their bound: per round each group spread as evenly
    as possible over that round's tables (table sizes ignored)."""
    clashes = bound = 0
    for tables in rounds:
        count: dict[str, int] = {}
        for t in tables:
            for i, a in enumerate(t):
                ga = groups.get(a)
                if ga is None:
                    continue
                count[ga] = count.get(ga, 0) + 1
                clashes += sum(1 for b in t[i + 1 :] if groups.get(b) == ga)
        for g in sorted(count):
            q, rem = divmod(count[g], len(tables))
            bound += rem * (q + 1) * q // 2 + (len(tables) - rem) * q * (q - 1) // 2
    return clashes, bound


def seat_optimum(full: int, short: int, size: int) -> int:
    """The smallest spread a player can reach over positions 1..``size``
    after ``full`` rounds at full tables and ``short`` at tables one seat
    smaller (position ``size`` only at full tables): 0 or 1 as R mod S
    says, unless the short tables force position S below the rest."""
    rounds = full + short
    if size < 2:
        return 0
    ideal = 0 if rounds % size == 0 else 1
    return max(ideal, -(-(rounds - full) // (size - 1)) - full)


def _position_measures(rounds: Tables, size: int) -> tuple[int, int, int, int]:
    """(worst spread, players off their optimum, and their bounds)."""
    counts: dict[str, list[int]] = {}
    full: dict[str, int] = {}
    for tables in rounds:
        for t in tables:
            for i, p in enumerate(t):
                counts.setdefault(p, [0] * size)[i] += 1
                full[p] = full.get(p, 0) + (len(t) == size)
    if not counts:
        return 0, 0, 0, 0
    opt = {p: seat_optimum(full[p], sum(c) - full[p], size) for p, c in counts.items()}
    spreads = {p: max(c) - min(c) for p, c in counts.items()}
    off = sum(1 for p in counts if spreads[p] > opt[p])
    off_b = _seat_off_bound(rounds, counts, full, opt, size)
    spread_b = max(opt.values())
    if off_b:
        spread_b = max(spread_b, min(opt.values()) + 1)
    return max(spreads.values()), off, spread_b, off_b


def _seat_off_bound(
    rounds: Tables, counts: Mapping[str, list[int]], full: Mapping[str, int], opt: Mapping[str, int], size: int
) -> int:
    """:func:`seat_off_bound` with the seats per position of ``rounds``."""
    avail = [0] * size
    for tables in rounds:
        for t in tables:
            for i in range(len(t)):
                avail[i] += 1
    return seat_off_bound(avail, counts, full, opt, size)


def seat_off_bound(
    avail: Sequence[int], counts: Mapping[Any, list[int]], full: Mapping[Any, int], opt: Mapping[Any, int], size: int
) -> int:
    """Players who must be off their optimum (``avail[s]``: seats at
    position ``s`` in the whole schedule; per player its position counts,
    full tables and optimum): a player at the optimum takes each position
    between lo and hi times; when the seats at one position are fewer than
    the players' lo (or more than their hi) summed, each player off the
    optimum makes up at most lo (R − hi) of the difference."""
    best = 0
    for s in range(size):
        lo_sum = hi_sum = lo_max = room_max = 0
        for p, c in counts.items():
            played = sum(c)
            short_bind = opt[p] > (0 if played % size == 0 else 1)
            lo = full[p] if short_bind else played // size
            hi = (full[p] if s == size - 1 else full[p] + opt[p]) if short_bind else lo + opt[p]
            hi = min(hi, full[p]) if s == size - 1 else hi
            lo = min(lo, hi)
            lo_sum, hi_sum = lo_sum + lo, hi_sum + hi
            lo_max, room_max = max(lo_max, lo), max(room_max, played - hi)
        if lo_sum > avail[s] and lo_max:
            best = max(best, -(-(lo_sum - avail[s]) // lo_max))
        if avail[s] > hi_sum and room_max:
            best = max(best, -(-(avail[s] - hi_sum) // room_max))
    return best


def _short_measures(rounds: Tables, size: int) -> tuple[int, int, int]:
    """(unfair short seats, most short tables of one player, its bound
    ⌈short seats / players⌉)."""
    short: dict[str, int] = {}
    unfair = seats = 0
    for tables in rounds:
        at_full = [short.get(p, 0) for t in tables if len(t) == size for p in t]
        least = min(at_full, default=0)
        for t in tables:
            if len(t) < size:
                unfair += sum(1 for p in t if short.get(p, 0) > least)
        for t in tables:
            for p in t:
                short.setdefault(p, 0)
                if len(t) < size:
                    short[p] += 1
                    seats += 1
    n = len(short)
    return unfair, max(short.values(), default=0), (-(-seats // n) if n else 0)
