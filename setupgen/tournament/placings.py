"""The final placings: champion, 2nd, ... after the finals (docs/rules.md
section 6, "Final placings"; Schweizer Meisterschaft 2010 and Catan Australian Championships 2006).

* :func:`placings` orders the whole field: the final's players by their
  final result, then (16 finalists) the semi-finals' other players by
  their semi-final result, then everyone else by preliminary rank.
* :func:`stage_tables` gives the tables a finals stage must hold (the
  seating of :func:`~setupgen.tournament.standings.finals_tables` and
  :func:`~setupgen.tournament.standings.final_of_winners`), so a results
  file can be checked against it.
* :func:`placings_csv` / :func:`placings_lines` print them.

Shapes: a stage's results are :class:`~setupgen.tournament.standings.
GameResult` rows (as :func:`~setupgen.tournament.standings.read_results`
reads a finals file with ``stage=...``: round ``STAGE_ROUND``, tables
numbered from 1 in chart order). Pure library: no files, no printing.
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..core.errors import SetupgenError
from ..core.messages import keyed
from . import standings as st
from .games import FINAL, FINALS_STAGES, PRELIMINARY, SEMI_FINAL
from .scoring import Scoring

__all__ = [
    "FINAL",
    "SEMI_FINAL",
    "PRELIMINARY",
    "STAGES",
    "ORDER_KEYS",
    "DECIDERS",
    "Placing",
    "PlacingsError",
    "stage_tables",
    "semi_final_winners",
    "placings",
    "placings_csv",
    "placings_lines",
]

#: the finals stages in playing order (the stages are defined once, in :mod:`setupgen.tournament.games`)
STAGES = FINALS_STAGES
#: the keys a finals stage orders its players by, in order (docs/rules.md section 6,
#: "Final placings"), then ``stage`` and ``preliminary_rank``: what a place's ``decided_by`` names
ORDER_KEYS = ("placing_points", "victory_points", "vp_share", "preliminary_rank")
DECIDERS = ORDER_KEYS + ("stage",)


class PlacingsError(SetupgenError):
    """Finals results that do not fit the finals seating or break a
    table's rules, or placings asked for before the finals are complete."""


@dataclass(frozen=True, slots=True)
class Placing:
    """One line of the final placings. ``stage`` is where the place was
    decided (``final``, ``semi-final`` or ``preliminary``); ``table`` the
    player's table in that stage (None: preliminary); ``placing_points``
    and ``vp`` the player's result there (None: preliminary; VP as
    entered); ``rank`` the preliminary rank."""

    place: int
    player: str
    stage: str
    rank: int
    table: int | None = None
    placing_points: Fraction | None = None
    vp: int | None = None
    #: what put this place ahead of the next (:data:`DECIDERS`): in a
    #: finals stage the first key its player is ahead on of the player
    #: placed next in the same stage, ``stage`` for the stage's last
    #: (those below were placed by an earlier stage), ``preliminary_rank``
    #: for a place taken from the preliminary standings; empty for the
    #: last place
    decided_by: str = ""


def stage_tables(
    ranking: Sequence[str], players: int, stage: str, semi_finals: Sequence[st.GameResult] = ()
) -> tuple[tuple[str, ...], ...]:
    """The tables of finals ``stage`` (ids in choosing order, best rank
    first): with 4 finalists the one final table, with 8 the final
    1-4-5-8 / 2-3-6-7; with 16 the semi-finals 1-8-9-16 / ... and the
    final of their winners (taken from
    ``semi_finals``, the semi-finals' results, checked first). Raises
    :class:`PlacingsError` for a stage the format does not play or
    semi-final results that do not fit their seating."""
    if players not in st.FINALS_CHARTS:
        raise PlacingsError(f"no finals chart for {players} players (known: 16, 8, 4)")
    if stage not in STAGES:
        raise PlacingsError(f"unknown finals stage {stage!r} (known: {', '.join(STAGES)})")
    if players != 16:
        if stage == SEMI_FINAL:
            raise keyed(PlacingsError, "final_without_semis", players=players)
        return st.finals_tables(ranking, players)
    semis = st.finals_tables(ranking, 16)
    if stage == SEMI_FINAL:
        return semis
    return (st.final_of_winners(semi_final_winners(semi_finals, semis, ranking), ranking),)


def semi_final_winners(
    results: Sequence[st.GameResult], semis: Sequence[Sequence[str]], ranking: Sequence[str]
) -> list[str]:
    """The winner of each semi-final, table by table, once ``results``
    hold every semi-final as seated. Raises :class:`PlacingsError`."""
    if not results:
        raise PlacingsError("the final of 16 finalists needs the semi-finals' results first")
    _check_stage(SEMI_FINAL, results, semis)
    by_table = _by_table(results)
    return [next(r.player for r in by_table[k] if r.winner) for k in range(1, len(semis) + 1)]


def _by_table(results: Sequence[st.GameResult]) -> dict[int, list[st.GameResult]]:
    out: dict[int, list[st.GameResult]] = {}
    for r in results:
        out.setdefault(r.table, []).append(r)
    return out


def _check_stage(stage: str, results: Sequence[st.GameResult], tables: Sequence[Sequence[str]]) -> None:
    """Every table of ``tables`` (numbered from 1) in ``results`` with
    exactly its players, once each, and one winner with no one above."""
    by_table = _by_table(results)
    strays = sorted(set(by_table) - set(range(1, len(tables) + 1)))
    if strays:
        raise PlacingsError(f"the {stage} has tables 1-{len(tables)}, not {strays[0]}")
    for k, seated in enumerate(tables, start=1):
        rows = by_table.get(k, [])
        present = [r.player for r in rows]
        if not rows:
            raise PlacingsError(f"{stage} table {k}: no results (expected {', '.join(seated)})")
        if len(set(present)) != len(present) or set(present) != set(seated):
            raise PlacingsError(
                f"{stage} table {k}: the results name {', '.join(sorted(present))}, the seating {', '.join(seated)}"
            )
        try:
            st.placing_points(rows, [0] * len(rows))  # one winner, nobody above the winner
        except SetupgenError as exc:
            raise PlacingsError(f"{stage} table {k}: {exc}") from None


def _order(
    stage: str, results: Sequence[st.GameResult], rank: Mapping[str, int], scoring: Scoring, threshold: int
) -> list[tuple[tuple[Any, ...], Placing]]:
    """A stage's players best first, each with its sort key (one value per
    :data:`ORDER_KEYS`, smaller first): placing points at their table,
    then VP (capped at ``threshold``), then the table's VP share, then
    the preliminary rank (instead of lots). Disqualified players are left
    out."""
    keyed = []
    for k, rows in sorted(_by_table(results).items()):
        points = scoring.placing_points.get(len(rows))
        if points is None:
            raise PlacingsError(f"no placing points for tables of {len(rows)} ({stage} table {k})")
        pp = st.table_points(rows, points)
        total = sum(min(r.vp, threshold) for r in rows)
        for r in rows:
            if r.status == st.DISQUALIFIED:
                continue
            share: Decimal = st.vp_share(min(r.vp, threshold), total)
            keyed.append(
                (
                    (-pp[r.player], -min(r.vp, threshold), -share, rank[r.player]),
                    Placing(0, r.player, stage, rank[r.player], k, pp[r.player], r.vp),
                )
            )
    return sorted(keyed, key=lambda kp: kp[0])


def _decided(group: Sequence[tuple[tuple[Any, ...], Placing]], more_below: bool) -> list[Placing]:
    """A stage's placings with ``decided_by``: the first of
    :data:`ORDER_KEYS` on which each is ahead of the next; the last
    ``stage`` when players follow from another stage (``more_below``)."""
    out = []
    for i, (key, p) in enumerate(group):
        if i + 1 < len(group):
            by = next(name for name, a, b in zip(ORDER_KEYS, key, group[i + 1][0]) if a != b)
        else:
            by = "stage" if more_below else ""
        out.append(dataclasses.replace(p, decided_by=by))
    return out


def placings(
    ranking: Sequence[str],
    players: int,
    final: Sequence[st.GameResult],
    semi_finals: Sequence[st.GameResult] = (),
    *,
    scoring: Scoring,
    threshold: int,
) -> tuple[Placing, ...]:
    """The final placings of the field (docs/rules.md section 6, "Final
    placings").

    ``ranking``: the preliminary standings' players, best first;
    ``players``: 4 (one final table), 8 (one final round on two tables,
    1-4-5-8 / 2-3-6-7) or 16 (semi-finals 1-8-9-16 / 2-7-10-15 / 3-6-11-14 / 4-5-12-13, then the
    final of the four winners); ``final`` and ``semi_finals`` the stages'
    results (no semi-finals with 4 or 8); ``threshold`` the finals' win
    threshold, up to which VP count.

    Order: the final's players (with 8 finalists both tables together)
    by placing points at their table (the winner first), then VP capped at
    ``threshold``, then their table's VP share, then preliminary rank;
    with 16, then the semi-finals' other twelve by the same keys of their
    semi-final; then everyone else in ``ranking`` order. A player
    disqualified in a finals stage is left out. Places run 1..n.

    Raises :class:`PlacingsError` when a stage's results miss a table,
    seat other players than the seating, have not exactly one winner or
    someone above the winner, or the format is unknown.
    """
    rank = {p: n for n, p in enumerate(ranking, start=1)}
    if players not in st.FINALS_CHARTS:
        raise PlacingsError(f"no finals chart for {players} players (known: 16, 8, 4)")
    if players != 16 and semi_finals:
        raise keyed(PlacingsError, "final_without_semis", players=players)
    if not final:
        raise PlacingsError("the placings need the final's results")
    _check_stage(FINAL, final, stage_tables(ranking, players, FINAL, semi_finals))
    groups = [_order(FINAL, final, rank, scoring, threshold)]
    if players == 16:
        winners = {r.player for r in semi_finals if r.winner}
        groups.append(
            [kp for kp in _order(SEMI_FINAL, semi_finals, rank, scoring, threshold) if kp[1].player not in winners]
        )
    placed = {r.player for r in (*final, *semi_finals)}
    rest = [Placing(0, p, PRELIMINARY, rank[p], decided_by="preliminary_rank") for p in ranking if p not in placed]
    ordered = [p for i, g in enumerate(groups) for p in _decided(g, bool(rest) or i + 1 < len(groups))]
    ordered += rest[:-1] + [dataclasses.replace(p, decided_by="") for p in rest[-1:]]
    return tuple(dataclasses.replace(p, place=n) for n, p in enumerate(ordered, start=1))


def placings_csv(placed: Sequence[Placing]) -> str:
    """The placings as CSV: ``place,player,stage,table,placing_points,vp,
    rank,decided_by`` (table, points and VP empty for a preliminary place;
    points as decimals, 2.5; ``decided_by`` one of :data:`DECIDERS` or
    empty, :attr:`Placing.decided_by`); ``\\n`` line ends."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("place", "player", "stage", "table", "placing_points", "vp", "rank", "decided_by"))
    for p in placed:
        w.writerow(
            (
                p.place,
                p.player,
                p.stage,
                "" if p.table is None else p.table,
                "" if p.placing_points is None else st.format_points(p.placing_points),
                "" if p.vp is None else p.vp,
                p.rank,
                p.decided_by,
            )
        )
    return buf.getvalue()


def placings_lines(placed: Sequence[Placing], names: Mapping[str, str]) -> list[str]:
    """Text lines for printing: ``1. Anna Meier  final table 1, 13 vp
    (rank 4)``, one per place; names from ``names`` (the id when absent)."""
    out = []
    width = max((len(names.get(p.player, p.player)) for p in placed), default=0)
    for p in placed:
        name = names.get(p.player, p.player).ljust(width)
        where = f"{p.stage} table {p.table}, {p.vp} vp" if p.table is not None else "preliminary"
        out.append(f"{p.place:>3}. {name}  {where} (rank {p.rank})")
    return out
