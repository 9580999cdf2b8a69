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

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import rng as rngmod
from ..core.errors import SetupgenError
from . import positions, seating
from .measures import Quality, measure, pigeonhole
from .model import Player

CSV_HEADER = "round,table,seat,player"
_BAD_ID_CHARS = frozenset(',"\r\n')
_PASSES = 30  # start-position passes at most (each re-assigns every planned table)
_ATTEMPTS = 3  # with fixed rounds: searches from fresh greedy starts while positions stay off


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
    _index: dict[int, tuple[tuple[str, ...], ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

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
    def from_csv(cls, text: str) -> Schedule:
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
                raise ScheduleError(f"line {no}: player {pid} already sits in round {r} (line {player_line[(r, pid)]})")
            slot_line[(r, t, s)] = no
            player_line[(r, pid)] = no
            seats.append(Seat(r, t, s, pid))
        order = sorted(range(len(seats)), key=lambda i: _seat_key(seats[i]))
        sorted_seats = tuple(seats[i] for i in order)
        _check_seats(sorted_seats, [f"line {slot_line[_seat_key(s)]}: " for s in sorted_seats])
        return cls(sorted_seats)

    def quality(self, players: Sequence[Player] = ()) -> Quality:
        """Measure the whole schedule beside its bounds
        (:func:`~setupgen.tournament.measures.measure`, docs/schedule.md).
        ``players`` supply the groups; ids in the schedule but not in
        ``players`` (drop-outs) have no group."""
        group = {p.id: p.group for p in players}
        return measure([self._index[r] for r in sorted(self._index)], group)


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
    n: int,
    sizes: list[int],
    planned: int,
    meet: list[list[int]],
    fixed_r: int,
    fixed_s: list[int],
    played: list[int],
    groups: list[int],
    fixed_g: int,
    fixed_seats: list[list[int]],
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
    players: Sequence[Player],
    rounds: int,
    table_size: int,
    seed: str,
    *,
    fixed: Sequence[Seat] = (),
    budget: int = 100_000,
    by_rank: Mapping[int, Sequence[str]] | None = None,
    groups_first: bool = False,
    previous: Schedule | None = None,
) -> Schedule:
    """Seat every player of ``players`` once in every round 1..``rounds`` at
    tables sized by :func:`table_sizes` (``table_size`` 4 for base 3-4, 6 for
    5-6 scenarios).

    Rounds present in ``fixed`` (already played, e.g. rounds 1..N-1 when
    re-planning from round N after drop-outs and late entries) are kept
    exactly, may name players no longer in ``players``, and their meetings
    and starting positions count in the objective. The other rounds start
    from a finite-field design (no fixed rounds) or a greedy deal, then a
    tabu search trades players between tables of one round for at most
    ``budget`` iterations, stopping as soon as the tables reach their lower
    bound; start positions are then assigned table by table. The objective
    is lexicographic: repeated opponents, then start positions, then group
    clashes, then short tables (docs/schedule.md; docs/rules.md section 6).
    ``by_rank`` maps a round (not fixed) to the player ids in rank order:
    that round is seated by standings (:func:`rank_round`: ranks 1-4 at
    table 1, 5-8 at table 2, ...) before the others are planned around it.
    ``groups_first`` puts group clashes before start positions.
    ``previous`` (the schedule planned before, when re-planning) gives the
    search its start: each planned round as it was, a drop-out's seats
    taken by a late entry (:func:`_previous_start`), so a late entry who
    replaces a drop-out keeps every measure where it was.
    Deterministic in (players, rounds, table_size, seed, fixed, budget,
    by_rank, groups_first).

    Raises ScheduleError for no or duplicate player ids, a bad id,
    ``rounds < 1``, a negative budget, impossible table sizes, an invalid
    ``fixed`` (see :class:`Schedule`), fixed seats in rounds beyond
    ``rounds``, or a ``by_rank`` round that is fixed, out of range or does
    not list every player once.
    """
    players = tuple(players)
    _check_plan_request(players, rounds, budget, seed)
    ids = [p.id for p in players]
    sizes = table_sizes(len(players), table_size)
    fixed_sched = _fixed_schedule(tuple(fixed), by_rank, ids, sizes, rounds)
    fixed_rounds = set(fixed_sched.round_numbers())
    planned = [r for r in range(1, rounds + 1) if r not in fixed_rounds]
    if not planned:
        return fixed_sched

    layouts = _search(players, fixed_sched, sizes, table_size, planned, seed, budget, groups_first, previous)
    seats = list(fixed_sched.seats) + _seats_of(planned, layouts, ids)
    return Schedule(tuple(sorted(seats, key=_seat_key)))


def _seats_of(planned: list[int], layouts: list[list[list[int]]], ids: list[str]) -> list[Seat]:
    """The seats of the planned rounds' tables (player indices into ``ids``)."""
    return [
        Seat(r, ti + 1, si + 1, ids[a])
        for r, tables in zip(planned, layouts)
        for ti, members in enumerate(tables)
        for si, a in enumerate(members)
    ]


def _fixed_schedule(
    fixed: tuple[Seat, ...], by_rank: Mapping[int, Sequence[str]] | None, ids: list[str], sizes: list[int], rounds: int
) -> Schedule:
    """The fixed seats, checked, with the rounds seated by rank added, as
    a schedule. Raises ScheduleError for a seat beyond ``rounds``."""
    for s in fixed:
        _check_fields(s)
    for r in sorted(by_rank or {}):
        fixed += rank_round(r, (by_rank or {})[r], ids, sizes, fixed, rounds)
    fixed_sched = Schedule(tuple(sorted(fixed, key=_seat_key)))
    beyond = [r for r in fixed_sched.round_numbers() if r > rounds]
    if beyond:
        raise ScheduleError(f"fixed seats name round {beyond[0]} but only {rounds} round(s) are planned")
    return fixed_sched


def rank_round(
    r: int, ranked: Sequence[str], ids: Sequence[str], sizes: list[int], fixed: Sequence[Seat], rounds: int
) -> tuple[Seat, ...]:
    """Round ``r`` seated by standings: ``ranked`` (every id of ``ids``
    once, best first) cut into tables of ``sizes`` in order (ranks 1-4 at
    table 1, ...; the short tables last), each table's seats in the order
    that suits its players' start positions in ``fixed`` best (the least
    Σ of times each already took its position; docs/schedule.md). Raises
    ScheduleError when ``r`` is out of range or fixed, or ``ranked`` is not
    ``ids`` reordered."""
    if type(r) is not int or not 1 <= r <= rounds or any(s.round == r for s in fixed):
        raise ScheduleError(f"round {r} cannot be seated by standings: it is not a round still to be planned")
    if sorted(ranked) != sorted(ids):
        missing = sorted(set(ids) - set(ranked)) or sorted(set(ranked) - set(ids)) or ["(a player twice)"]
        raise ScheduleError(f"round {r}: the ranking must list every player once ({missing[0]})")
    kmax = max([max(sizes)] + [s.seat for s in fixed])
    index = {pid: i for i, pid in enumerate(dict.fromkeys(list(ids) + [s.player for s in fixed]))}
    counts = [[0] * kmax for _ in index]
    for s in fixed:
        counts[index[s.player]][s.seat - 1] += 1
    out: list[Seat] = []
    at = 0
    for t, size in enumerate(sizes, start=1):
        table = seating.best_order([index[pid] for pid in ranked[at : at + size]], counts)
        at += size
        out.extend(Seat(r, t, si + 1, ids[a]) for si, a in enumerate(table))
    return tuple(out)


def _search(
    players: tuple[Player, ...],
    fixed_sched: Schedule,
    sizes: list[int],
    table_size: int,
    planned: list[int],
    seed: str,
    budget: int,
    groups_first: bool = False,
    previous: Schedule | None = None,
) -> list[list[list[int]]]:
    """The planned rounds' tables (player indices in seat order, per round
    in ``planned`` order): a start, tabu search on the tables, the rounds
    ordered for fair short tables, then the start positions
    (:mod:`setupgen.tournament.seating`, docs/schedule.md). With short
    tables, first a twentieth of the budget on a start whose short seats are
    dealt by a round robin and kept there; if that leaves the tables above
    their bounds, the plain search as well, the better kept (in the
    official order, or with ``groups_first`` groups before positions)."""
    n = len(players)
    f, groups, by_round = _field_of(players, fixed_sched, sizes, table_size, planned)
    stream = rngmod.from_seed("schedule/" + seed)
    short_seats = sum(size for size in sizes if size < max(sizes))
    start = (
        (_previous_start(previous, players, planned, sizes) if previous else None)
        if by_round
        else seating.column_start(n, sizes, len(planned), groups, stream)
    )
    best: tuple[tuple[Any, ...], list[list[list[int]]]] | None = None
    lb = None
    if short_seats:
        shorts = seating.round_robin_short(f.base, short_seats, stream, start)
        fair = seating.conform(start, shorts, max(sizes)) if start else None
        state = f.state(fair, stream, shorts)
        lb = _search_bound(state, f.seatcnt, len(planned), f.base)
        best = _attempt(f, state, lb, budget // 20, stream)
        if best[0][:3] == (lb[0], (0, best[0][1][1]), lb[2]):
            return best[1]
    for attempt in range(_ATTEMPTS):  # fixed seats can block one layout's positions, not another's
        state = f.state(start if attempt == 0 else None, stream, None)
        if lb is None:
            lb = _search_bound(state, f.seatcnt, len(planned), f.base)
        got = _attempt(f, state, lb, budget, stream)
        if best is None or _ordered(got[0], groups_first) < _ordered(best[0], groups_first):
            best = got
        if best[0][1][0] == 0 or not by_round:
            break
    assert best is not None
    return best[1]


def _field_of(
    players: tuple[Player, ...], fixed_sched: Schedule, sizes: list[int], table_size: int, planned: list[int]
) -> tuple[_Field, list[int], dict[int, list[list[int]]]]:
    """The search's field: players indexed (the players, then those only
    in fixed rounds), each player's group number (-1: none), the fixed
    rounds' tables as indices; returns (field, groups, fixed tables by
    round)."""
    n = len(players)
    index = {p.id: i for i, p in enumerate(players)}
    for x in fixed_sched.seats:
        index.setdefault(x.player, len(index))
    total = len(index)
    gnum = {g: i for i, g in enumerate(sorted({p.group for p in players if p.group is not None}))}
    groups = [gnum[p.group] if p.group is not None else -1 for p in players] + [-1] * (total - n)
    kmax = max([table_size] + [x.seat for x in fixed_sched.seats])
    by_round = {
        r: [[index[pid] for pid in fixed_sched.table(r, t)] for t in range(1, fixed_sched.tables(r) + 1)]
        for r in fixed_sched.round_numbers()
    }
    counts = _fixed_counts(by_round, planned, n, total, kmax, max(sizes))
    return _Field(n, total, sizes, groups, by_round, planned, kmax, *counts), groups, by_round


def _previous_start(
    previous: Schedule, players: tuple[Player, ...], planned: list[int], sizes: list[int]
) -> list[list[list[int]]] | None:
    """The planned rounds of ``previous`` as a start (player indices; a
    round it lacks, or whose tables differ from ``sizes``, left empty for
    the greedy deal): current players where they sat, each drop-out's
    seat to the next player (in ``players`` order) that round did not
    seat. None when no round could be taken."""
    index = {p.id: i for i, p in enumerate(players)}
    out: list[list[list[int]]] = []
    for r in planned:
        tables = [list(previous.table(r, t)) for t in range(1, previous.tables(r) + 1)]
        seated = {pid for t in tables for pid in t}
        late = [p.id for p in players if p.id not in seated]
        gone = sum(1 for t in tables for pid in t if pid not in index)
        if [len(t) for t in tables] != sizes or gone != len(late):
            out.append([])
            continue
        late.reverse()
        out.append([[index[pid] if pid in index else index[late.pop()] for pid in t] for t in tables])
    return out if any(out) else None


def _ordered(key: tuple[Any, ...], groups_first: bool) -> tuple[Any, ...]:
    """An :func:`_attempt` key, with ``groups_first`` group clashes before
    start positions."""
    return (key[0], key[2], key[1], key[3]) if groups_first else key


@dataclass
class _Field:
    """What every search attempt of :func:`_search` shares (players as
    indices; ``fixed_tables`` of the fixed rounds in round order)."""

    n: int
    total: int
    sizes: list[int]
    groups: list[int]
    by_round: dict[int, list[list[int]]]
    planned: list[int]
    kmax: int
    seatcnt: list[list[int]]
    fixed_short: list[int]
    fixed_full: list[int]
    base: list[list[int]]

    @property
    def fixed_tables(self) -> list[list[int]]:
        return [t for r in sorted(self.by_round) for t in self.by_round[r]]

    def state(
        self, start: list[list[list[int]]] | None, stream: random.Random, shorts: list[set[int]] | None
    ) -> seating.SearchState:
        """A start (empty rounds dealt greedily) as a search state."""
        return seating.fill_start(
            self.n,
            self.total,
            self.sizes,
            self.groups,
            self.fixed_tables,
            self.fixed_short,
            start or [[] for _ in self.planned],
            stream,
            self.base,
            shorts,
        )


def _attempt(
    f: _Field, state: seating.SearchState, lb: seating.SearchCost, budget: int, stream: random.Random
) -> tuple[tuple[Any, ...], list[list[list[int]]]]:
    """One search from ``state``: (key, layouts in seat order); the key in
    the official order: extra meetings, (players off their start-position
    optimum beyond those who must be, balance), group clashes, short seats
    out of turn."""
    layouts = seating.tabu_search(state, lb, budget, stream)
    cost = seating.SearchState(f.n, f.total, f.sizes, f.groups, f.fixed_tables, layouts, f.fixed_short, f.base).cost()
    layouts = seating.fair_order(layouts, f.planned, f.by_round, f.n, max(f.sizes))
    layouts = seating.assign_seats(layouts, f.seatcnt, f.kmax, _PASSES, fixed_full=f.fixed_full)
    counts, full = seating.seat_counts(layouts, f.seatcnt, f.kmax, f.fixed_full)
    off = max(
        0,
        len(positions.off_players(counts, positions.optima(counts, full, f.kmax)))
        - positions.off_floor(counts, full, f.kmax),
    )
    unfair = seating.unfair_short(layouts, f.planned, f.by_round, max(f.sizes))
    return (cost.extra_meetings, (off, seating.seat_balance(layouts, f.seatcnt)), cost.group_clashes, unfair), layouts


def _fixed_counts(
    by_round: dict[int, list[list[int]]], planned: list[int], n: int, total: int, kmax: int, full_size: int
) -> tuple[list[list[int]], list[int], list[int], list[list[int]]]:
    """What the fixed rounds (``by_round``) leave: per player (of ``total``)
    position counts (``kmax`` wide), short and full tables; and per planned
    round (``planned``, ascending) each current player's short tables in
    the fixed rounds before it."""
    seatcnt = [[0] * kmax for _ in range(total)]
    fixed_short, fixed_full = [0] * total, [0] * total
    base = [[0] * n for _ in planned]
    for r in sorted(by_round):
        for t in by_round[r]:
            for si, a in enumerate(t):
                seatcnt[a][si] += 1
                fixed_short[a] += len(t) < full_size
                fixed_full[a] += len(t) == kmax
                if len(t) < full_size and a < n:
                    for ri, pr in enumerate(planned):
                        base[ri][a] += r < pr
    return seatcnt, fixed_short, fixed_full, base


def _search_bound(
    state: seating.SearchState, seatcnt: list[list[int]], planned: int, base: list[list[int]]
) -> seating.SearchCost:
    """What the tabu search cannot beat: (Σ(meetings − 1), Σ C(meetings, 2),
    planned group clashes, the short-table term of
    :meth:`seating.SearchState.cost`); the first and third from
    :func:`_lower_bound`, the second with the meetings shared as evenly as
    possible over the pairs, the last with each round's short seats given
    to the players with fewest so far (:func:`seating.fair_short_bound`)."""
    n, sizes, everyone = state.players, state.table_sizes, state.everyone
    fixed_meet = [[0] * everyone for _ in range(everyone)]
    for tables in state.rounds:  # the meetings of the fixed rounds alone
        for t in tables:
            for i, a in enumerate(t):
                for b in t[i + 1 :]:
                    fixed_meet[a][b] -= 1
                    fixed_meet[b][a] -= 1
    for a in range(everyone):
        for b in range(everyone):
            fixed_meet[a][b] += state.meetings.count[a][b]
    played = [sum(row) for row in seatcnt]
    fixed_s = [sum(max(0, c - 1) for c in row) for row in seatcnt]
    lb_r, _, lb_g = _lower_bound(
        n, sizes, planned, fixed_meet, _repeats(fixed_meet), fixed_s, played, state.groups.group_of, 0, seatcnt
    )
    meetings = sum(c for row in state.meetings.count for c in row) // 2
    pairs = everyone * (everyone - 1) // 2
    lb_q = max(lb_r, _even_pairs(meetings, pairs))
    if everyone == n and len(state.rounds) == planned:  # no fixed round: the pigeonhole bound holds
        lb_q = max(lb_q, pigeonhole(state.rounds))
        lb_r = max(lb_r, -(-2 * lb_q // max(1, planned)))
    short_seats = sum(size for size in sizes if size < max(sizes))
    return seating.SearchCost(lb_r, lb_q, lb_g, seating.fair_short_bound(base, short_seats))


def _even_pairs(items: int, bins: int) -> int:
    """Σ C(c, 2) over ``bins`` counts summing to ``items``, shared evenly."""
    q, rem = divmod(items, max(1, bins))
    return rem * (q + 1) * q // 2 + (bins - rem) * q * (q - 1) // 2


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


def _repeats(meet: list[list[int]]) -> int:
    """Meetings beyond the first, over all pairs."""
    total = len(meet)
    return sum(max(0, meet[a][b] - 1) for a in range(total) for b in range(a + 1, total))
