"""What the hall sees, without the web (docs/console.md, "The players'
side"): the stage being played now (a preliminary round, the
semi-finals, the final, then the final placings), its tables, its round
clock, a player's own overview, and the stamps the pages' update channel
compares.

Shapes: a :class:`Stage` names ``stage`` (``preliminary``, ``semi-final``,
``final``) and ``round`` (a finals stage: 1); times are epoch seconds
(floats) for the clock, UTC ISO 8601 texts for results.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament import jobs
from ..tournament import standings as st
from ..tournament.games import FINAL, PRELIMINARY, SEMI_FINAL, Game
from . import calls
from . import day as dayday
from .clock import Clock, apply, format_left
from .day import Day

__all__: Sequence[str] = (
    "Stage",
    "may_call",
    "call_state",
    "current_stage",
    "stage_tables",
    "seats",
    "stage_minutes",
    "clock_action",
    "PlayerGame",
    "PlayerView",
    "player_view",
    "find_players",
    "stamp",
    "board_file",
    "director_stamp",
)

#: the process's start, so a page made before a restart of the console is made again after it
_STARTED = f"{os.getpid()}.{time.time_ns()}"


@dataclass(frozen=True, slots=True)
class Stage:
    """The stage being played: ``stage`` and ``round`` (1 for a finals stage)."""

    stage: str
    round: int

    @property
    def is_finals(self) -> bool:
        """Whether this is a finals stage."""
        return self.stage != PRELIMINARY

    def game(self, table: int) -> Game:
        """The stage's game at ``table``."""
        return Game.finals(self.stage, table) if self.is_finals else Game.preliminary(self.round, table)


def current_stage(day: Day) -> Stage:
    """The stage the hall plays now: the final once its pack is made, else
    the semi-finals once theirs is, else the preliminary round of
    :func:`~setupgen.console.day.current_round`."""
    made = dayday.finals_made(day)
    for stage in (FINAL, SEMI_FINAL):
        if stage in made:
            return Stage(stage, 1)
    return Stage(PRELIMINARY, dayday.current_round(day))


def stage_tables(day: Day, stage: Stage) -> tuple[tuple[str, ...], ...]:
    """The stage's tables (ids in seat order; a finals table in choosing
    order); empty for a round that is not scheduled or finals not seated."""
    if stage.is_finals:
        try:
            return dayday.stage_seating(day, stage.stage)
        except SetupgenError:
            return ()
    if stage.round not in day.rounds:
        return ()
    return tuple(tuple(day.schedule.table(stage.round, t)) for t in range(1, day.schedule.tables(stage.round) + 1))


def seats(day: Day, stage: Stage) -> dict[str, tuple[int, int]]:
    """Each seated player's (table, seat) in the stage (a finals table: the place in the choosing order)."""
    return {
        p: (t, k) for t, players in enumerate(stage_tables(day, stage), start=1) for k, p in enumerate(players, start=1)
    }


def stage_minutes(day: Day, stage: Stage) -> int | None:
    """The stage's round clock in the tournament file (``minutes`` of its
    round, or of ``[final]`` for each finals stage); None when not given."""
    if stage.is_finals:
        return None if day.t.final is None else day.t.final.minutes
    if stage.round not in day.rounds:
        return None
    return day.t.round(stage.round).minutes


def clock_action(day: Day, stage: Stage, action: str, minutes: int | None, now: float) -> Clock:
    """The director's ``action`` on the stage's clock (start, pause,
    resume, end; ``minutes`` for a start), stored with its audit entry.
    Raises :class:`~setupgen.console.clock.ClockError` when it does not follow."""
    return day.store.change_round_clock(
        stage.stage, stage.round, lambda old: apply(old, action, now, minutes), action, "director"
    )


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One confirmed game of a player: its game, the player's seat (a
    finals table: place in the choosing order), VP, whether the player won,
    and the placing points it gave (None for a finals game)."""

    game: Game
    seat: int
    vp: int
    won: bool
    points: str | None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player's own page: id and name, the current stage's table and seat
    (None: not seated in it), the confirmed games, the rank in the live
    standings (None before any) and the final place (None until placed)."""

    player: str
    name: str
    table: int | None
    seat: int | None
    games: tuple[PlayerGame, ...]
    rank: int | None
    place: int | None


def player_view(day: Day, player: str, stage: Stage) -> PlayerView:
    """The overview of ``player`` (an id of the schedule or entries).
    Raises :class:`SetupgenError` for an unknown player."""
    names = day.names()
    if player not in names:
        raise keyed(SetupgenError, "no_such_player", field="player")
    table, seat = seats(day, stage).get(player, (None, None))
    live = dayday.live_standings(day)
    rank = next((s.rank for s in live.ranked if s.player == player), None)
    placed, _ = dayday.final_placings(day)
    place = next((p.place for p in placed if p.player == player), None)
    return PlayerView(player, names[player], table, seat, _player_games(day, player, live.per_round), rank, place)


def _player_games(day: Day, player: str, per_round: dict) -> tuple[PlayerGame, ...]:
    """The player's confirmed games, preliminary rounds first, then the finals."""
    out = []
    for stage in (PRELIMINARY, SEMI_FINAL, FINAL):
        for result in day.store.results(stage, dayday.CONFIRMED):
            if player not in result.players:
                continue
            k = result.players.index(player)
            points = per_round.get(player, {}).get(result.round) if stage == PRELIMINARY else None
            out.append(
                PlayerGame(
                    result.game,
                    k + 1,
                    result.vp[k],
                    result.winner == k + 1,
                    None if points is None else st.format_points(points),
                )
            )
    return tuple(out)


def find_players(day: Day, query: str) -> list[tuple[str, str]]:
    """The players (id, name) whose name or id holds ``query`` (case and
    accents ignored: "muller" finds "Müller"), by name; all for an empty
    query."""
    wanted = jobs.lookup_key(query.strip())[0]
    listed = day.view("players-folded", lambda: _folded_names(day), confirmed=False, extra=len(day.names()))
    return [(p, n) for p, n, folded in listed if wanted in folded]


def _folded_names(day: Day) -> list[tuple[str, str, str]]:
    """Every player (id, name, name and id folded as the player lookup folds
    them, :func:`~setupgen.tournament.jobs.lookup_key`), in the lookup's order."""
    found = [(p, n, f"{jobs.lookup_key(n)[0]}\n{jobs.lookup_key(p)[0]}") for p, n in day.names().items()]
    return sorted(found, key=lambda pnf: (jobs.lookup_key(pnf[1]), pnf[0]))


def stamp(day: Day, game: Game | None, now: float) -> str:
    """What a page shows, as a short text that changes when the page would.
    The public pages': confirmed results, the schedule, packs, the
    current stage and its clock's state, clock changes and announcements.
    With ``game``, a table page's: its own result (version and state), the
    schedule, its stage's clock, clock changes and announcements (not the
    other tables' results: a confirmation elsewhere does not reload it).
    The update channel sends it; a page whose stamp differs reloads."""
    stage = current_stage(day) if game is None else Stage(game.stage, game.round)
    clock = day.store.round_clock(stage.stage, stage.round)
    common = f"{_STARTED}.{day.generation}.{day.store.hall}.{'-' if clock is None else clock.state(now)}"
    if game is None:
        return f"{common}.{day.store.confirmed}.{len(dayday.finals_made(day))}.{stage.stage}.{stage.round}"
    result = day.store.result(game)
    call = calls.call_of(day.store, game)
    own = f"{'-' if call is None else call.id}{'' if call is None else call.state}.{calls.added_time(day.store, game)}"
    return f"{common}.{0 if result is None else result.version}.{day.state(game)}.{own}"


def director_stamp(day: Day) -> str:
    """The director's pages' stamp (home, a round, the finals, the
    standings): any change at all (a report, a confirmation, the schedule,
    a pack, heavy work started or ended, the clock, an announcement)."""
    tasks = ",".join(f"{t.id}{t.state}" for t in list(day.tasks.tasks.values()))
    made = len(dayday.finals_made(day))
    return f"{_STARTED}.{day.store.changes}.{day.generation}.{made}.{day.store.hall}.{day.store.calls}.{tasks}"


def board_file(day: Day, game: Game) -> Path | None:
    """The board file of a game's table in its pack (``round-N/table-NN.json``,
    ``final/table-NN.json``), None while the pack is not made."""
    folder = day.folder / game.stage if game.is_finals else day.pack_folder(game.round)
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        width = max(2, len(str(int(manifest["tables"]))))
    except (OSError, UnicodeError, ValueError, KeyError, TypeError):
        return None
    path = folder / f"table-{game.table:0{width}d}.json"
    return path if path.is_file() else None


def may_call(day: Day, game: Game) -> None:
    """Raise :class:`calls.CallError` unless the table may call: its pack is
    made and its result not confirmed."""
    if board_file(day, game) is None:
        raise keyed(calls.CallError, "call_no_pack")
    if day.state(game) == dayday.CONFIRMED:
        raise keyed(calls.CallError, "call_closed")


def call_state(day: Day, game: Game, now: float) -> dict[str, object]:
    """What a table's page shows of its call: ``state`` (``none``, ``open``,
    ``coming``; an ended call is ``none``), the time waited, and whether
    it may call now (pack made, result not confirmed)."""
    call = calls.call_of(day.store, game)
    waiting = call if call is not None and call.state in calls.WAITING else None
    try:
        may_call(day, game)
        may = True
    except calls.CallError:
        may = False
    return {
        "state": "none" if waiting is None else waiting.state,
        "waited": "" if waiting is None else format_left(waiting.waited(now)),
        "may": may,
    }
