"""A table's call for a referee, and minutes added to one table's clock
after a ruling (issue 49; docs/console.md, "Referees"). Kept in the
console's database (tables ``calls`` and ``added_time``), every change
with its audit entry in the same transaction.

Shapes: times are seconds since the epoch (floats, UTC); a call's
``state`` is ``open`` (waiting), ``coming`` (a referee is on the way),
``done`` or ``cancelled`` (by its table).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament.games import Game
from .store import Store

__all__: Sequence[str] = (
    "Call",
    "CallError",
    "WAITING",
    "MAX_CALLS",
    "CALL_GAP",
    "MAX_ADDED_MINUTES",
    "open_call",
    "cancel_call",
    "mark_call",
    "waiting_calls",
    "ended_calls",
    "call_of",
    "add_time",
    "added_time",
    "added_times",
)

#: the states of a call still waiting for its referee
WAITING = ("open", "coming")
#: calls one table may make in one game (a flood is refused)
MAX_CALLS = 6
#: seconds between one call of a table and its next
CALL_GAP = 60.0
#: most minutes added to a table's clock at once
MAX_ADDED_MINUTES = 60


class CallError(SetupgenError):
    """A call or a time change that does not follow (a second open call, too soon, an ended call)."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call: its ``id``, the ``game`` of the table that made it, when
    it was ``opened``, its ``state`` (:data:`WAITING`, ``done``,
    ``cancelled``), who marked it last (``by``: ``table``, ``director``,
    ``referee``) and when (``changed``)."""

    id: int
    game: Game
    opened: float
    state: str
    by: str
    changed: float

    def waited(self, now: float) -> int:
        """Whole seconds since the call was opened (never below 0)."""
        return max(0, int(now - self.opened))


def _call(row: Sequence) -> Call:
    """A ``calls`` row (id, stage, round, table_no, opened, state, by, changed)."""
    return Call(row[0], Game(row[1], row[2], row[3]), row[4], row[5], row[6], row[7])


_COLUMNS = "id, stage, round, table_no, opened, state, by, changed"


def _record(call: Call) -> dict[str, object]:
    return {"id": call.id, "state": call.state}


def open_call(store: Store, game: Game, now: float) -> Call:
    """The table of ``game`` calls a referee. Raises :class:`CallError`
    while its last call waits, within :data:`CALL_GAP` seconds of its last
    call, or after :data:`MAX_CALLS` calls in this game."""
    with store.writing() as db:
        mine = [
            _call(r)
            for r in db.execute(
                f"SELECT {_COLUMNS} FROM calls WHERE stage = ? AND round = ? AND table_no = ? ORDER BY id",
                (game.stage, game.round, game.table),
            )
        ]
        if mine and mine[-1].state in WAITING:
            raise keyed(CallError, "call_waiting")
        if mine and now - mine[-1].opened < CALL_GAP:
            raise keyed(CallError, "call_too_soon", seconds=int(CALL_GAP - (now - mine[-1].opened)) + 1)
        if len(mine) >= MAX_CALLS:
            raise keyed(CallError, "call_limit", most=MAX_CALLS)
        cursor = db.execute(
            "INSERT INTO calls (stage, round, table_no, opened, state, by, changed) VALUES (?, ?, ?, ?, 'open', "
            "'table', ?)",
            (game.stage, game.round, game.table, now, now),
        )
        call = Call(int(cursor.lastrowid or 0), game, now, "open", "table", now)
        store.log(db, "table", game, "call", None, _record(call))
        store.calls += 1
    return call


def cancel_call(store: Store, game: Game, now: float) -> Call:
    """The table of ``game`` takes back its waiting call. Raises
    :class:`CallError` when none waits."""
    with store.writing() as db:
        row = db.execute(
            f"SELECT {_COLUMNS} FROM calls WHERE stage = ? AND round = ? AND table_no = ? AND state IN "
            "('open', 'coming') ORDER BY id DESC LIMIT 1",
            (game.stage, game.round, game.table),
        ).fetchone()
        if row is None:
            raise keyed(CallError, "call_none")
        return _change(store, db, _call(row), "cancelled", "table", now)


def mark_call(store: Store, ident: int, state: str, by: str, now: float) -> Call:
    """A referee or the director marks call ``ident`` ``coming`` (on the
    way) or ``done``. Raises :class:`CallError` for an unknown call, a
    call no longer waiting, or another state."""
    if state not in ("coming", "done"):
        raise keyed(CallError, "call_unknown_mark", state=repr(state)[:20])
    with store.writing() as db:
        row = db.execute(f"SELECT {_COLUMNS} FROM calls WHERE id = ?", (ident,)).fetchone()
        if row is None:
            raise keyed(CallError, "call_unknown")
        call = _call(row)
        if call.state not in WAITING or call.state == state:
            raise keyed(CallError, "call_ended")
        return _change(store, db, call, state, by, now)


def _change(store: Store, db: sqlite3.Connection, call: Call, state: str, by: str, now: float) -> Call:
    db.execute("UPDATE calls SET state = ?, by = ?, changed = ? WHERE id = ?", (state, by, now, call.id))
    new = dataclasses.replace(call, state=state, by=by, changed=now)
    store.log(db, by, call.game, f"call-{state}", _record(call), _record(new))
    store.calls += 1
    return new


def waiting_calls(store: Store) -> list[Call]:
    """Every call still waiting, the newest first."""
    with store.lock:
        rows = store.db.execute(f"SELECT {_COLUMNS} FROM calls WHERE state IN ('open', 'coming') ORDER BY id DESC")
        return [_call(r) for r in rows]


def ended_calls(store: Store, count: int) -> list[Call]:
    """The ``count`` calls that ended last (done or cancelled), the latest first."""
    with store.lock:
        rows = store.db.execute(
            f"SELECT {_COLUMNS} FROM calls WHERE state IN ('done', 'cancelled') ORDER BY changed DESC, id DESC LIMIT ?",
            (count,),
        )
        return [_call(r) for r in rows]


def call_of(store: Store, game: Game) -> Call | None:
    """The last call of ``game``'s table (None: it never called)."""
    with store.lock:
        row = store.db.execute(
            f"SELECT {_COLUMNS} FROM calls WHERE stage = ? AND round = ? AND table_no = ? ORDER BY id DESC LIMIT 1",
            (game.stage, game.round, game.table),
        ).fetchone()
    return None if row is None else _call(row)


def add_time(store: Store, game: Game, minutes: int, by: str) -> int:
    """Add ``minutes`` (1..:data:`MAX_ADDED_MINUTES`) to the clock of
    ``game``'s table; returns its added seconds in all. Raises
    :class:`CallError` for minutes out of range."""
    if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_ADDED_MINUTES:
        raise keyed(CallError, "time_minutes", most=MAX_ADDED_MINUTES, minutes=repr(minutes)[:20])
    with store.writing() as db:
        before = _added(db, game)
        db.execute(
            "INSERT INTO added_time VALUES (?, ?, ?, ?) ON CONFLICT (stage, round, table_no) "
            "DO UPDATE SET seconds = seconds + excluded.seconds",
            (game.stage, game.round, game.table, minutes * 60),
        )
        store.log(
            db, by, game, "time-added", {"seconds": before}, {"seconds": before + minutes * 60, "minutes": minutes}
        )
        store.calls += 1
    return before + minutes * 60


def _added(db: sqlite3.Connection, game: Game) -> int:
    row = db.execute(
        "SELECT seconds FROM added_time WHERE stage = ? AND round = ? AND table_no = ?",
        (game.stage, game.round, game.table),
    ).fetchone()
    return 0 if row is None else int(row[0])


def added_time(store: Store, game: Game) -> int:
    """Seconds added to the clock of ``game``'s table (0: none)."""
    with store.lock:
        return _added(store.db, game)


def added_times(store: Store, stage: str, round_number: int) -> dict[int, int]:
    """Table -> seconds added to its clock, for the tables of ``stage``'s round ``round_number`` that have any."""
    with store.lock:
        rows = store.db.execute(
            "SELECT table_no, seconds FROM added_time WHERE stage = ? AND round = ?", (stage, round_number)
        ).fetchall()
    return {int(t): int(s) for t, s in rows}
