"""Start positions at their optimum where table passes and chains stop short
(docs/schedule.md, "Start positions"): a large-neighbourhood repair that
frees the planned tables around a player off its optimum and re-seats them
by an exact depth-first search.

Plain data: ``layouts`` per planned round its tables, each a list of player
indices in seat order (changed in place); ``counts[p][s]`` how often player
``p`` took position ``s`` (0-based) over the whole schedule, fixed rounds
included; ``full[p]`` the rounds ``p`` sat at a full table (``kmax`` seats).
A player is *off* when its spread (most minus least used position) is above
:func:`~setupgen.tournament.measures.seat_optimum`. Every loop is bounded by
a count (search nodes, repair steps) and every choice is made in a fixed
order, so the result is a function of the arguments alone.
"""

from __future__ import annotations

from .measures import seat_off_bound, seat_optimum

Tabs = list[list[list[int]]]

_MAX_FREE = 24  # planned tables re-seated at once at most
_NODES = 20_000  # search nodes per neighbourhood


def optima(counts: list[list[int]], full: list[int], kmax: int) -> list[int]:
    """Per player its smallest reachable spread (``seat_optimum``)."""
    return [seat_optimum(full[p], sum(c) - full[p], kmax) for p, c in enumerate(counts)]


def off_floor(counts: list[list[int]], full: list[int], kmax: int) -> int:
    """How many players must be off their optimum whatever the seating
    (:func:`~setupgen.tournament.measures.seat_off_bound`)."""
    rows = {p: c for p, c in enumerate(counts) if sum(c)}
    avail = [sum(c[s] for c in rows.values()) for s in range(kmax)]
    opt = optima(counts, full, kmax)
    return seat_off_bound(avail, rows, {p: full[p] for p in rows}, {p: opt[p] for p in rows}, kmax)


def off_players(counts: list[list[int]], opt: list[int]) -> list[int]:
    """Players (ascending) whose spread is above their optimum."""
    return [p for p, c in enumerate(counts) if sum(c) and max(c) - min(c) > opt[p]]


def repair(layouts: Tabs, counts: list[list[int]], full: list[int], kmax: int, steps: int) -> None:
    """Lower the number of players off their optimum (``counts`` kept in
    step with ``layouts``): for each off player in turn, the planned tables
    it sits at (then also those of its table mates, at most 24 tables) are
    re-seated exactly (:func:`_reseat`) when that leaves fewer players off.
    At most ``steps`` neighbourhoods are tried; stops when none helps or
    the players off are down to :func:`off_floor`."""
    opt = optima(counts, full, kmax)
    occ: dict[int, list[list[int]]] = {}
    for tables in layouts:
        for t in tables:
            for p in t:
                occ.setdefault(p, []).append(t)
    floor = off_floor(counts, full, kmax)
    tried = 0
    progress = True
    while progress and tried < steps and len(off_players(counts, opt)) > floor:
        progress = False
        for p in off_players(counts, opt):
            if p not in occ or max(counts[p]) - min(counts[p]) <= opt[p]:
                continue
            for ring in (1, 2):
                tried += 1
                if _reseat(_neighbourhood(p, occ, ring), counts, full, opt, kmax):
                    progress = True
                    break
            if tried >= steps:
                break


def _neighbourhood(p: int, occ: dict[int, list[list[int]]], ring: int) -> list[list[int]]:
    """``p``'s planned tables, with ``ring`` 2 also its table mates' (in
    seat order, at most :data:`_MAX_FREE`)."""
    out: list[list[int]] = []
    seen: set[int] = set()
    frontier = [p]
    for __depth in range(ring):
        nxt = []
        for q in frontier:
            for t in occ.get(q, ()):
                if id(t) not in seen and len(out) < _MAX_FREE:
                    seen.add(id(t))
                    out.append(t)
                    nxt.extend(t)
        frontier = nxt
    return out


def _reseat(tables: list[list[int]], counts: list[list[int]], full: list[int], opt: list[int], kmax: int) -> bool:
    """Re-seat ``tables`` (in place) if an order leaves fewer of their
    players off their optimum, found by :func:`_search` within
    :data:`_NODES` nodes; ``counts`` follow. Returns whether it did."""
    players = sorted({p for t in tables for p in t})
    before = sum(1 for p in players if max(counts[p]) - min(counts[p]) > opt[p])
    if before == 0:
        return False
    left = {p: 0 for p in players}
    fleft = {p: 0 for p in players}
    for t in tables:
        for s, p in enumerate(t):
            counts[p][s] -= 1
            left[p] += 1
            fleft[p] += len(t) == kmax
    slots = [(ti, p) for ti, t in enumerate(tables) for p in t]
    found = _search(slots, [len(t) for t in tables], counts, opt, left, fleft, kmax, before)
    if found is not None:
        for ti, t in enumerate(tables):
            t[:] = found[ti]
    for t in tables:
        for s, p in enumerate(t):
            counts[p][s] += 1
    return found is not None


def _alive(c: list[int], opt: int, left: int, fleft: int, kmax: int) -> bool:
    """Whether counts ``c`` can still end within spread ``opt`` with
    ``left`` more rounds, ``fleft`` of them at full tables (exact when
    ``left`` is 0): every position must reach the current most − opt."""
    floor = max(c) - opt
    need = sum(floor - x for x in c if x < floor)
    return need <= left and floor - c[kmax - 1] <= fleft


def _search(
    slots: list[tuple[int, int]],
    sizes: list[int],
    counts: list[list[int]],
    opt: list[int],
    left: dict[int, int],
    fleft: dict[int, int],
    kmax: int,
    limit: int,
) -> list[list[int]] | None:
    """Seat every ``(table, player)`` of ``slots`` (depth first, positions
    least used first) so that fewer than ``limit`` players end off their
    optimum; a player that can no longer reach it is given up (counted)
    and held to one above it. Returns the tables in seat order, or None
    within the node budget."""
    taken = [[-1] * size for size in sizes]
    dead: set[int] = set()
    budget = [_NODES]

    def go(i: int, cost: int) -> bool:
        if i == len(slots):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        ti, p = slots[i]
        row, seats = counts[p], taken[ti]
        left[p] -= 1
        full_here = sizes[ti] == kmax
        fleft[p] -= full_here
        order = sorted((s for s in range(sizes[ti]) if seats[s] < 0), key=lambda s: (row[s], s))
        for s in order:
            seats[s] = p
            row[s] += 1
            ok = _alive(row, opt[p] + (p in dead), left[p], fleft[p], kmax)
            if ok and go(i + 1, cost):
                row[s] -= 1
                return True
            if not ok and p not in dead and cost + 1 < limit and _alive(row, opt[p] + 1, left[p], fleft[p], kmax):
                dead.add(p)
                if go(i + 1, cost + 1):
                    row[s] -= 1
                    return True
                dead.discard(p)
            row[s] -= 1
            seats[s] = -1
        left[p] += 1
        fleft[p] += full_here
        return False

    if not go(0, 0):
        return None
    return [list(t) for t in taken]
