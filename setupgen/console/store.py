"""The console's database: ``tournament.db`` (SQLite) in the tournament
folder (``docs/console.md``, "Database").

The journal is WAL with ``synchronous=FULL``: a change acknowledged to a
browser is on disk. Every change is one ``BEGIN IMMEDIATE`` transaction
(the table's result and its audit row together, or neither). The schema
has a version (table ``schema_version``); :func:`migrate` brings an older
database up to :data:`SCHEMA_VERSION` step by step, each step one
transaction, and refuses a database newer than this setupgen.

Every game, preliminary or finals, is one row of ``games``, keyed
``(stage, round, table)`` (:class:`~setupgen.tournament.games.Game`).

Shapes: a game's result is a :class:`TableResult` (its key, players in seat order,
their VP in the same order, the winner's seat 1..n, the state ``reported``
or ``confirmed``, each seat's status when not everyone played); an audit entry an :class:`AuditEntry` whose ``old`` and
``new`` are JSON texts of ``{"vp": [...], "winner": seat, "state": ...}``
(``old`` empty for the first entry of a table).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import SetupgenError, quoted
from ..core.limits import nfc
from ..core.messages import keyed
from ..tournament.games import PRELIMINARY, Game
from .clock import Clock

DB_FILE = "tournament.db"
SCHEMA_VERSION = 9
STATES = ("reported", "confirmed")

#: version -> the SQL statements that bring a database from version - 1 to it
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE results (round INTEGER NOT NULL, table_no INTEGER NOT NULL, players TEXT NOT NULL, "
        "vp TEXT NOT NULL, winner INTEGER NOT NULL, state TEXT NOT NULL CHECK (state IN ('reported', 'confirmed')), "
        "by TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (round, table_no))",
        "CREATE TABLE audit (id INTEGER PRIMARY KEY AUTOINCREMENT, at TEXT NOT NULL, by TEXT NOT NULL, "
        "round INTEGER NOT NULL, table_no INTEGER NOT NULL, action TEXT NOT NULL, old TEXT NOT NULL, "
        "new TEXT NOT NULL)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    2: (  # a status per seat: played, no-show, disqualified ([] = everyone played)
        "ALTER TABLE results ADD COLUMN statuses TEXT NOT NULL DEFAULT '[]'",
    ),
    3: (  # the finals' results, per stage and table; audit entries name their stage ('' = a preliminary round)
        "CREATE TABLE finals (stage TEXT NOT NULL CHECK (stage IN ('semi-final', 'final')), "
        "table_no INTEGER NOT NULL, players TEXT NOT NULL, vp TEXT NOT NULL, winner INTEGER NOT NULL, "
        "by TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (stage, table_no))",
        "ALTER TABLE audit ADD COLUMN stage TEXT NOT NULL DEFAULT ''",
    ),
    4: (  # a status per seat in the finals too ([] = everyone played)
        "ALTER TABLE finals ADD COLUMN statuses TEXT NOT NULL DEFAULT '[]'",
    ),
    5: (  # one table of games keyed (stage, round, table): the rounds' and the finals' results together;
        # a finals game is round 1, and every audit entry names its stage
        "CREATE TABLE games (stage TEXT NOT NULL CHECK (stage IN ('preliminary', 'semi-final', 'final')), "
        "round INTEGER NOT NULL, table_no INTEGER NOT NULL, players TEXT NOT NULL, vp TEXT NOT NULL, "
        "winner INTEGER NOT NULL, state TEXT NOT NULL CHECK (state IN ('reported', 'confirmed')), "
        "by TEXT NOT NULL, at TEXT NOT NULL, statuses TEXT NOT NULL DEFAULT '[]', "
        "PRIMARY KEY (stage, round, table_no))",
        "INSERT INTO games SELECT 'preliminary', round, table_no, players, vp, winner, state, by, at, statuses "
        "FROM results",
        "INSERT INTO games SELECT stage, 1, table_no, players, vp, winner, 'confirmed', by, at, statuses FROM finals",
        "DROP TABLE results",
        "DROP TABLE finals",
        "UPDATE audit SET round = 1 WHERE stage IN ('semi-final', 'final')",
        "UPDATE audit SET stage = 'preliminary' WHERE stage = ''",
    ),
    6: (  # a version per game (1 at its first result, one more at every change), the version an audit entry
        # made (0: a note, or an entry older than versions), and the director's sessions kept here
        "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 1",
        "ALTER TABLE audit ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, password TEXT NOT NULL, created REAL NOT NULL, "
        "seen REAL NOT NULL)",
    ),
    7: (  # the round clocks (one per stage and round; a finals stage is round 1) and the director's announcements
        "CREATE TABLE clocks (stage TEXT NOT NULL, round INTEGER NOT NULL, seconds INTEGER NOT NULL, "
        "used REAL NOT NULL, since REAL, ended INTEGER NOT NULL, PRIMARY KEY (stage, round))",
        "CREATE TABLE announcements (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT NOT NULL, at TEXT NOT NULL, "
        "removed TEXT)",
    ),
    8: (  # player ids in Unicode normal form C, as every file is read now (issue 46): a database that
        # stored "e" + combining accent keeps its results under the id the players file gives
        "UPDATE games SET players = nfc_ids(players) WHERE players != nfc_ids(players)",
    ),
    9: (  # issue 49: each table report's submission id (a resend is stored once), the tables' referee calls,
        # minutes added to one table's clock, and a role per session (a referee's ends on its own)
        "CREATE TABLE submissions (id TEXT PRIMARY KEY, stage TEXT NOT NULL, round INTEGER NOT NULL, "
        "table_no INTEGER NOT NULL, at TEXT NOT NULL)",
        "CREATE TABLE calls (id INTEGER PRIMARY KEY AUTOINCREMENT, stage TEXT NOT NULL, round INTEGER NOT NULL, "
        "table_no INTEGER NOT NULL, opened REAL NOT NULL, state TEXT NOT NULL "
        "CHECK (state IN ('open', 'coming', 'done', 'cancelled')), by TEXT NOT NULL DEFAULT '', "
        "changed REAL NOT NULL)",
        "CREATE TABLE added_time (stage TEXT NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL, "
        "seconds INTEGER NOT NULL, PRIMARY KEY (stage, round, table_no))",
        "ALTER TABLE sessions ADD COLUMN role TEXT NOT NULL DEFAULT 'director'",
    ),
}


def _nfc_ids(text: str) -> str:
    """A ``games.players`` JSON list with every id in NFC, written as the
    store writes it (``json.dumps`` of the list)."""
    return json.dumps([nfc(p) for p in json.loads(text)])


class StoreError(SetupgenError):
    """The database cannot be opened, is newer than this setupgen, or a
    change breaks its rules (e.g. a table report after the confirmation)."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """One game's result: ``game`` its key (:class:`~setupgen.tournament.
    games.Game`), ``players`` (ids in seat order; a finals table in
    choosing order), ``vp`` (the same order), ``winner`` (seat, 1-based),
    ``state`` (``reported`` by the table or ``confirmed`` by the
    director), who made the last change and when (UTC, ISO 8601), and
    ``statuses`` (per seat: ``played``, ``no-show``, ``disqualified``;
    empty when everyone played)."""

    game: Game
    players: tuple[str, ...]
    vp: tuple[int, ...]
    winner: int
    state: str
    by: str
    at: str
    statuses: tuple[str, ...] = ()
    #: 1 for the game's first result, one more at every change (set by :meth:`Store.record`)
    version: int = 1

    @property
    def round(self) -> int:
        """The game's round (1 for a finals table)."""
        return self.game.round

    @property
    def table(self) -> int:
        """The game's table."""
        return self.game.table

    def as_json(self) -> str:
        """The audit log's record of this result (``statuses`` only when
        someone did not simply play)."""
        record = {"players": list(self.players), "vp": list(self.vp), "winner": self.winner, "state": self.state}
        if self.statuses:
            record["statuses"] = list(self.statuses)
        return json.dumps(record, sort_keys=True)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One change: when, by whom (``director``, ``table`` or ``import``),
    the game's round and table, what (``report``, ``enter``, ``correct``,
    ``confirm``; at table 0 the round's changes ``leave``, ``join``,
    ``replan``) and the result before and after (JSON texts; ``old``
    empty at first); ``stage`` the game's stage (``preliminary``,
    ``semi-final``, ``final``)."""

    id: int
    at: str
    by: str
    round: int
    table: int
    action: str
    old: str
    new: str
    stage: str = PRELIMINARY
    #: the game's version this change made (0: a note, or an entry of a database older than versions)
    version: int = 0


@dataclass(frozen=True, slots=True)
class Announcement:
    """A line the director posted for the hall: its id, text and when (UTC, ISO 8601)."""

    id: int
    text: str
    at: str


#: the longest announcement (characters)
MAX_ANNOUNCEMENT = 300
#: announcements the hall's pages show at most, the newest (the director's home page lists them all)
SHOWN_ANNOUNCEMENTS = 5


def now() -> str:
    """The current time, UTC, to the second (``2026-05-01T14:03:59Z``)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


_INSERT_AUDIT = (
    "INSERT INTO audit (at, by, round, table_no, action, old, new, stage, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Store:
    """The open database of a tournament folder; safe to share between
    threads (one connection, one lock)."""

    def __init__(self, folder: Path, clock: Callable[[], str] = now) -> None:
        path = Path(folder) / DB_FILE
        self.path = path
        self.clock = clock
        self.lock = threading.RLock()
        #: transactions that changed a result or the audit log, and those that changed a confirmed result
        #: (what the pages' cached views are keyed by, :meth:`setupgen.console.day.Day.view`), in this process
        self.changes = 0
        self.confirmed = 0
        #: changes of a round clock or an announcement, in this process (the hall's pages are keyed by it too)
        self.hall = 0
        #: changes of referee calls and added time (issue 49): the director's and the calling table's pages follow it
        self.calls = 0
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=10.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.fresh = migrate(self.db)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open the console database {quoted(str(path), 120)}: {exc}") from None

    def close(self) -> None:
        """Close the connection."""
        with self.lock:
            self.db.close()

    def result(self, game: Game) -> TableResult | None:
        """The game's result, None while none is in."""
        with self.lock:
            return self._result(game)

    def results(self, stage: str = PRELIMINARY, state: str | None = None) -> list[TableResult]:
        """Every result of ``stage`` (only those in ``state`` when given), by round and table."""
        query = "SELECT * FROM games WHERE stage = ?" + ("" if state is None else " AND state = ?")
        with self.lock:
            rows = self.db.execute(
                query + " ORDER BY round, table_no", (stage,) if state is None else (stage, state)
            ).fetchall()
        return [_result(r) for r in rows]

    def record(
        self,
        new: TableResult,
        action: str,
        allowed: Callable[[TableResult | None], None] = lambda _old: None,
        submission: str | None = None,
    ) -> TableResult | None:
        """Store ``new`` as its game's result with its audit entry, in one
        transaction; its version is one more than the result it replaces
        (1 for the first). ``allowed(old)`` may raise :class:`StoreError`
        to refuse the change (checked inside the transaction). With
        ``submission`` (a table's report id) the id is kept in the same
        transaction (:meth:`submitted`). Returns the result it replaced."""
        (old,) = self.record_all([(new, action, allowed)], submission)
        return old

    def submitted(self, submission: str) -> bool:
        """Whether a table report with this submission id was stored (a resend is then recognised)."""
        with self.lock:
            return self.db.execute("SELECT 1 FROM submissions WHERE id = ?", (submission,)).fetchone() is not None

    def record_all(
        self,
        changes: Sequence[tuple[TableResult, str, Callable[[TableResult | None], None]]],
        submission: str | None = None,
    ) -> list[TableResult | None]:
        """:meth:`record` for each ``(new, action, allowed)``, all in one
        transaction (none stored when one is refused; ``submission`` kept
        for the first). Returns the results they replaced, in order."""
        for new, _action, _allowed in changes:
            if new.state not in STATES:
                raise StoreError(f"unknown state {new.state!r}")
        olds: list[TableResult | None] = []
        with self.lock:
            with _transaction(self.db):
                for new, action, allowed in changes:
                    old = self._result(new.game)
                    allowed(old)
                    olds.append(old)
                    self._store(dataclasses.replace(new, version=self._last_version(new.game, old) + 1), action, old)
                if submission is not None:
                    g = changes[0][0].game
                    self.db.execute(
                        "INSERT INTO submissions VALUES (?, ?, ?, ?, ?)",
                        (submission, g.stage, g.round, g.table, changes[0][0].at),
                    )
            self.changes += 1
            if any(
                n.state == "confirmed" or (o is not None and o.state == "confirmed")
                for (n, _a, _c), o in zip(changes, olds)
            ):
                self.confirmed += 1
        return olds

    def _last_version(self, game: Game, current: TableResult | None) -> int:
        """The game's latest version: its result's, or (a result removed) the last its audit entries made."""
        if current is not None:
            return current.version
        row = self.db.execute(
            "SELECT MAX(version) FROM audit WHERE stage = ? AND round = ? AND table_no = ?",
            (game.stage, game.round, game.table),
        ).fetchone()
        return int(row[0] or 0)

    def remove(self, game: Game, by: str, allowed: Callable[[TableResult | None], None]) -> TableResult:
        """Take the game's result away (the game waits again) with its audit
        entry (``remove``: the result before, none after; the version one
        more, so a page that showed the removed result is refused later),
        in one transaction; ``allowed(old)`` may raise :class:`StoreError`.
        Returns the result removed. Raises :class:`StoreError` when there is none."""
        with self.lock:
            with _transaction(self.db):
                old = self._result(game)
                allowed(old)
                if old is None:
                    raise keyed(StoreError, "no_result_to_remove")
                self.db.execute(
                    "DELETE FROM games WHERE stage = ? AND round = ? AND table_no = ?",
                    (game.stage, game.round, game.table),
                )
                self.db.execute(
                    _INSERT_AUDIT,
                    (
                        self.clock(),
                        by,
                        game.round,
                        game.table,
                        "remove",
                        old.as_json(),
                        "",
                        game.stage,
                        old.version + 1,
                    ),
                )
            self.changes += 1
            if old.state == "confirmed":
                self.confirmed += 1
        return old

    def _result(self, game: Game) -> TableResult | None:
        row = self.db.execute(
            "SELECT * FROM games WHERE stage = ? AND round = ? AND table_no = ?", (game.stage, game.round, game.table)
        ).fetchone()
        return None if row is None else _result(row)

    def _store(self, new: TableResult, action: str, old: TableResult | None) -> None:
        g = new.game
        self.db.execute(
            "INSERT OR REPLACE INTO games (stage, round, table_no, players, vp, winner, state, by, "
            "at, statuses, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                g.stage,
                g.round,
                g.table,
                json.dumps(list(new.players)),
                json.dumps(list(new.vp)),
                new.winner,
                new.state,
                new.by,
                new.at,
                json.dumps(list(new.statuses)),
                new.version,
            ),
        )
        self.db.execute(
            _INSERT_AUDIT,
            (
                new.at,
                new.by,
                g.round,
                g.table,
                action,
                "" if old is None else old.as_json(),
                new.as_json(),
                g.stage,
                new.version,
            ),
        )

    def note(self, by: str, round_number: int, action: str, new: str, old: str = "", stage: str = PRELIMINARY) -> None:
        """An audit entry of a change that is not a game's result (table 0
        of a preliminary round or a finals stage): a drop-out or late entry
        recorded or removed (``leave``, ``join``, ``remove-change``), the
        schedule re-planned (``replan``), a finals pack withdrawn
        (``withdraw-pack``), ``new`` (and ``old``) its JSON record; in its own transaction."""
        with self.lock:
            with _transaction(self.db):
                self.db.execute(_INSERT_AUDIT, (self.clock(), by, round_number, 0, action, old, new, stage, 0))
            self.changes += 1

    def audit(self, game: Game | None = None, *, round_number: int | None = None) -> list[AuditEntry]:
        """The audit log, newest first: all of it, one game's, or (``round_number``) one preliminary round's."""
        query = "SELECT * FROM audit"
        args: tuple[object, ...] = ()
        if game is not None:
            query, args = (
                query + " WHERE stage = ? AND round = ? AND table_no = ?",
                (game.stage, game.round, game.table),
            )
        elif round_number is not None:
            query, args = query + " WHERE stage = ? AND round = ?", (PRELIMINARY, round_number)
        with self.lock:
            rows = self.db.execute(query + " ORDER BY id DESC", args).fetchall()
        return [AuditEntry(*row) for row in rows]

    # ------------------------------------------------------------ the hall: round clocks, announcements

    def round_clock(self, stage: str, round_number: int) -> Clock | None:
        """The clock of ``stage``'s round ``round_number`` (a finals stage: 1), None before it started."""
        with self.lock:
            return self._round_clock(stage, round_number)

    def _round_clock(self, stage: str, round_number: int) -> Clock | None:
        row = self.db.execute(
            "SELECT seconds, used, since, ended FROM clocks WHERE stage = ? AND round = ?", (stage, round_number)
        ).fetchone()
        return None if row is None else Clock(row[0], row[1], row[2], bool(row[3]))

    def change_round_clock(
        self, stage: str, round_number: int, change: Callable[[Clock | None], Clock], action: str, by: str
    ) -> Clock:
        """That round's clock made ``change(old)`` (which may raise to refuse
        it) and stored with its audit entry (``clock-<action>``), in one
        transaction. Returns the new clock."""
        with self.lock:
            with _transaction(self.db):
                clock = change(self._round_clock(stage, round_number))
                record = json.dumps(
                    {
                        "seconds": clock.seconds,
                        "used": round(clock.used, 3),
                        "since": clock.since,
                        "ended": clock.ended,
                    },
                    sort_keys=True,
                )
                self.db.execute(
                    "INSERT OR REPLACE INTO clocks VALUES (?, ?, ?, ?, ?, ?)",
                    (stage, round_number, clock.seconds, clock.used, clock.since, int(clock.ended)),
                )
                self.db.execute(
                    _INSERT_AUDIT, (self.clock(), by, round_number, 0, f"clock-{action}", "", record, stage, 0)
                )
            self.changes += 1
            self.hall += 1
        return clock

    def announcements(self, most: int | None = None) -> list[Announcement]:
        """The announcements posted and not removed, newest first; at most
        ``most`` of them (None: all)."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, text, at FROM announcements WHERE removed IS NULL ORDER BY id DESC LIMIT ?",
                (-1 if most is None else most,),
            ).fetchall()
        return [Announcement(*row) for row in rows]

    def announce(self, text: str, by: str) -> Announcement:
        """Post ``text`` (one line, 1..:data:`MAX_ANNOUNCEMENT` characters,
        stripped) with its audit entry. Raises :class:`StoreError` for an
        empty or too long text."""
        line = " ".join("".join(c if c.isprintable() else " " for c in str(text)).split())  # no control characters
        if not line:
            raise keyed(StoreError, "announcement_empty")
        if len(line) > MAX_ANNOUNCEMENT:
            raise keyed(StoreError, "announcement_too_long", most=MAX_ANNOUNCEMENT, count=len(line))
        at = self.clock()
        with self.lock:
            with _transaction(self.db):
                cursor = self.db.execute("INSERT INTO announcements (text, at) VALUES (?, ?)", (line, at))
                ident = int(cursor.lastrowid or 0)
                self.db.execute(
                    _INSERT_AUDIT,
                    (
                        at,
                        by,
                        0,
                        0,
                        "announce",
                        "",
                        json.dumps({"id": ident, "text": line}, ensure_ascii=False),
                        PRELIMINARY,
                        0,
                    ),
                )
            self.changes += 1
            self.hall += 1
        return Announcement(ident, line, at)

    def remove_announcement(self, ident: int, by: str) -> None:
        """Take announcement ``ident`` off the pages (kept in the database
        and the audit log). Raises :class:`StoreError` when no such
        announcement is shown."""
        if not 0 < ident < 2**63:
            raise keyed(StoreError, "announcement_unknown", id=str(ident)[:20])
        at = self.clock()
        with self.lock:
            with _transaction(self.db):
                row = self.db.execute(
                    "SELECT text FROM announcements WHERE id = ? AND removed IS NULL", (ident,)
                ).fetchone()
                if row is None:
                    raise keyed(StoreError, "announcement_unknown", id=ident)
                self.db.execute("UPDATE announcements SET removed = ? WHERE id = ?", (at, ident))
                self.db.execute(
                    _INSERT_AUDIT,
                    (
                        at,
                        by,
                        0,
                        0,
                        "unannounce",
                        json.dumps({"id": ident, "text": row[0]}, ensure_ascii=False),
                        "",
                        PRELIMINARY,
                        0,
                    ),
                )
            self.changes += 1
            self.hall += 1

    @contextlib.contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """The database in one write transaction under the store's lock
        (``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception),
        for a module beside the store that keeps tables of its own
        (:mod:`setupgen.console.calls`)."""
        with self.lock, _transaction(self.db):
            yield self.db

    def log(self, db: sqlite3.Connection, by: str, game: Game, action: str, old: object, new: object) -> None:
        """An audit entry of ``game`` inside a :meth:`writing` transaction;
        ``old`` and ``new`` as JSON (None: empty)."""
        db.execute(
            _INSERT_AUDIT,
            (
                self.clock(),
                by,
                game.round,
                game.table,
                action,
                "" if old is None else json.dumps(old, ensure_ascii=False),
                "" if new is None else json.dumps(new, ensure_ascii=False),
                game.stage,
                0,
            ),
        )

    # ------------------------------------------------------------ the director's sessions

    def start_session(self, password: str, now: float, idle: float | None = None, role: str = "director") -> str:
        """A new session of the director or a referee (``role``;
        ``password``: the fingerprint of the password it was opened with,
        :func:`~setupgen.console.security.fingerprint`); returns its id
        (128 random bits, hex), the only thing the cookie holds. Sessions
        unused for ``idle`` seconds end here too."""
        import secrets

        sid = secrets.token_hex(16)
        with self.lock, _transaction(self.db):
            if idle is not None:
                self.db.execute("DELETE FROM sessions WHERE seen < ?", (now - idle,))
            self.db.execute(
                "INSERT INTO sessions (id, password, created, seen, role) VALUES (?, ?, ?, ?, ?)",
                (sid, password, now, now, role),
            )
        return sid

    def session_open(self, sid: object, password: str, now: float, idle: float) -> bool:
        """Whether ``sid`` is a session opened with ``password`` and used
        within the last ``idle`` seconds; its last use is then ``now``
        (written at most once a minute). An idle session is ended."""
        if not isinstance(sid, str) or len(sid) != 32:
            return False
        with self.lock:
            row = self.db.execute("SELECT password, seen FROM sessions WHERE id = ?", (sid,)).fetchone()
            if row is None or row[0] != password:
                return False
            if now - row[1] > idle:
                with _transaction(self.db):
                    self.db.execute("DELETE FROM sessions WHERE id = ?", (sid,))
                return False
            if now - row[1] > 60:
                with _transaction(self.db):
                    self.db.execute("UPDATE sessions SET seen = ? WHERE id = ?", (now, sid))
        return True

    def end_sessions(self, keep: Sequence[str] = ()) -> int:
        """End every session (those opened with a password fingerprint in
        ``keep`` kept); returns how many ended."""
        with self.lock, _transaction(self.db):
            if not keep:
                return self.db.execute("DELETE FROM sessions").rowcount
            marks = ", ".join("?" * len(keep))
            return self.db.execute(f"DELETE FROM sessions WHERE password NOT IN ({marks})", tuple(keep)).rowcount

    def end_session(self, sid: object) -> None:
        """End the one session ``sid`` (a referee's logout)."""
        if isinstance(sid, str):
            with self.lock, _transaction(self.db):
                self.db.execute("DELETE FROM sessions WHERE id = ?", (sid,))

    def get(self, key: str) -> str | None:
        """A value of the ``meta`` table (e.g. the digest of the last ``results.csv``)."""
        with self.lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def put(self, key: str, value: str) -> None:
        """Set a ``meta`` value, in its own transaction."""
        with self.lock, _transaction(self.db):
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))


def _result(row: Sequence) -> TableResult:
    """A ``games`` row (stage, round, table_no, players, vp, winner, state, by, at, statuses, version)."""
    return TableResult(
        Game(row[0], row[1], row[2]),
        tuple(json.loads(row[3])),
        tuple(json.loads(row[4])),
        row[5],
        row[6],
        row[7],
        row[8],
        tuple(json.loads(row[9])),
        row[10],
    )


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, _value, _tb) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


def version(db: sqlite3.Connection) -> int:
    """The schema version of ``db`` (0: an empty database)."""
    has = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if has is None:
        return 0
    row = db.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row[0])


def migrate(db: sqlite3.Connection) -> bool:
    """Bring ``db`` to :data:`SCHEMA_VERSION`, one transaction per step;
    True when it was empty. Raises :class:`StoreError` for a database of a
    newer setupgen (it is left alone)."""
    start = version(db)
    db.create_function("nfc_ids", 1, _nfc_ids, deterministic=True)
    if start > SCHEMA_VERSION:
        raise StoreError(
            f"the console database has schema version {start}; this setupgen knows "
            f"{SCHEMA_VERSION} and leaves it alone (update setupgen)"
        )
    for step in range(start + 1, SCHEMA_VERSION + 1):
        with _transaction(db):
            if step == 1:
                db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                db.execute("INSERT INTO schema_version VALUES (0)")
            for statement in MIGRATIONS[step]:
                db.execute(statement)
            db.execute("UPDATE schema_version SET version = ?", (step,))
    return start == 0
