"""The tournament day the console runs (``docs/console.md``): a tournament
file, its folder, the schedule, the database and the table tokens, and
everything the pages do with them, as plain functions (no web framework).

* :func:`open_day` opens (or starts) the day: the first start imports an
  existing ``results.csv`` the console did not write (kept as
  ``results.before-console.csv``); later starts refuse a ``results.csv``
  changed since the console wrote it.
* Every game is addressed by its key ``(stage, round, table)``
  (:class:`~setupgen.tournament.games.Game`), preliminary or finals.
* :func:`check_result` validates a game's VP and winner exactly as
  ``setupgen standings`` (``placings`` for a finals game) validates a
  results file (:func:`setupgen.tournament.standings.read_results`).
* :func:`enter`, :func:`report`, :func:`confirm` change any game's result
  (one transaction with its audit entry), then write the stage's results
  file (``results.csv``, ``results-final.csv``, ``results-semi-final.csv``).
* :func:`live_standings` ranks the confirmed results, the CSV byte for byte
  what ``setupgen standings`` writes from the same ``results.csv``.
* :func:`record_change` records a drop-out or late entry in ``entries.csv``
  as ``setupgen entry`` does; :func:`replan` re-plans from a round as
  ``setupgen schedule --from-round N`` does and takes the new schedule.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import functools
import io
import json
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import atomic
from ..core.data import read_text
from ..core.errors import SetupgenError
from ..core.messages import Problem, keyed
from ..tournament import entries, jobs, roundpack, tokens
from ..tournament import model as tournament
from ..tournament import placings as pl
from ..tournament import standings as st
from ..tournament.games import FINAL, FINALS_STAGES, PRELIMINARY, SEMI_FINAL, STAGES, Game, RoundName, seating_stamp
from ..tournament.schedule import Schedule
from ..tournament.scoring import Scoring
from .store import DB_FILE, AuditEntry, Store, StoreError, TableResult
from .words import Reason
from .worker import Task, Tasks

RESULTS_FILE = "results.csv"
KEPT_RESULTS = "results.before-console.csv"
DIGEST_KEY = "results_csv_sha256"
PENDING_KEY = "results_csv_pending_sha256"
#: states of a table on the pages
WAITING, REPORTED, CONFIRMED = "waiting", "reported", "confirmed"
#: no kept value (:meth:`Day.peek`)
NO_VIEW = _NONE = object()


class ResultRefused(st.GameRefused):
    """A result that breaks the rules of a results file (``problems``: each
    as (the player at fault or None, its
    :class:`~setupgen.core.messages.Problem`), as
    :func:`~setupgen.tournament.standings.check_game` finds them), or a
    results file the console cannot write."""


@dataclass
class Day:
    """An open tournament day: ``t`` the tournament, ``folder`` its folder,
    ``schedule``, ``store`` the database, ``key`` the token key and
    ``console_url`` the address printed on sheets (None: no QR codes)."""

    t: tournament.Tournament
    folder: Path
    schedule: Schedule
    store: Store
    key: bytes
    console_url: str | None = None
    pack_lock: threading.Lock = field(default_factory=threading.Lock)
    #: the players and tables of the schedule, worked out once (again after a re-plan, :func:`replan`)
    known: frozenset[str] | None = None
    tables: dict[tuple[int, int], frozenset[str]] | None = None
    #: results.csv's (size, inode, mtime ns), when its digest was taken (ns), the digest (:func:`_results_digest`)
    results_stamp: tuple[tuple[int, int, int], int, str | None] | None = None
    #: (size, inode, mtime ns) of entries.csv and schedule.csv as last read (:meth:`refresh`)
    files_stamp: tuple | None = None
    #: one more at every change of the schedule, the entries or a pack made here (what cached views are keyed by)
    generation: int = 0
    #: view name -> (its key, its value), :meth:`view`
    cache: dict = field(default_factory=dict)
    #: the heavy work (re-plans, packs) in the worker process
    tasks: Tasks = field(default_factory=Tasks)
    #: the round a running re-plan starts from (results from it on wait), None
    replanning: int | None = None
    cache_locks: dict = field(default_factory=dict)

    def view(
        self, name: str, compute: Callable[[], Any], *, confirmed: bool = True, packs: bool = False, extra: Any = ()
    ) -> Any:
        """What a page shows, computed once per change and kept until the
        next: ``compute()`` again only when what it reads changed since
        (``confirmed``: a confirmed result, else any result; any change of
        the schedule or entries (:attr:`generation`); ``packs``: a finals
        pack made, by the console or the command line; ``extra``: whatever
        else the caller keys it by). Requests that ask meanwhile wait for
        the one computation instead of each making their own."""
        found = self.peek(name, confirmed=confirmed, packs=packs, extra=extra)
        if found is not _NONE:
            return found
        lock = self.cache_locks.setdefault(name, threading.Lock())
        with lock:
            found = self.peek(name, confirmed=confirmed, packs=packs, extra=extra)
            if found is not _NONE:
                return found
            key = self._view_key(confirmed, packs, extra)
            value = compute()
            self.cache[name] = (key, value)
        return value

    def peek(self, name: str, *, confirmed: bool = True, packs: bool = False, extra: Any = ()) -> Any:
        """The kept value of view ``name`` when still current (as :meth:`view` keys it), else :data:`_NONE`."""
        found = self.cache.get(name)
        if found is not None and found[0] == self._view_key(confirmed, packs, extra):
            return found[1]
        return _NONE

    def _view_key(self, confirmed: bool, packs: bool, extra: Any) -> tuple:
        return (
            self.store.confirmed if confirmed else self.store.changes,
            self.generation,
            finals_made(self) if packs else (),
            extra,
        )

    def changed(self) -> None:
        """Note a change of the schedule, the entries or a pack (cached views are computed again)."""
        self.generation += 1

    def refresh(self) -> bool:
        """Take in what the command line changed in the folder since the
        last look (``setupgen entry``: ``entries.csv``; ``setupgen schedule
        --from-round``: ``schedule.csv``): the late entries' names and the
        schedule are read again. Two ``stat`` calls when nothing changed.
        Returns whether anything was read again. Raises
        :class:`SetupgenError` for a file that no longer reads."""
        stamp = _stamps(self.folder)
        if stamp == self.files_stamp:
            return False
        with self.store.lock:
            if stamp == self.files_stamp:
                return False
            self.t = jobs.with_entries(self.t, self.folder)
            saved = jobs.read_schedule(self.folder)
            if saved is not None:
                self.schedule = saved
            if self.files_stamp is not None and stamp[1] != self.files_stamp[1]:
                note_planned(self)  # schedule.csv re-planned by the command line: it used every change so far
            self.known = self.tables = None
            self.files_stamp = stamp
            self.changed()
        return True

    @property
    def rounds(self) -> tuple[int, ...]:
        """The scheduled preliminary rounds."""
        return self.schedule.round_numbers()

    def players_of(self, game: Game) -> tuple[str, ...]:
        """The ids at a game's table: a preliminary table in seat (start)
        order, a finals table in choosing order (:func:`stage_seating`).
        Raises :class:`SetupgenError` for a round or table that is not
        scheduled, or finals not seated yet."""
        if game.is_finals:
            seating = stage_seating(self, game.stage)
            if not game.table <= len(seating):
                raise keyed(
                    SetupgenError,
                    f"{game.stage.replace('-', '_')}_tables",
                    tables=len(seating),
                    table=game.table,
                    field="table",
                )
            return seating[game.table - 1]
        n = game.round
        if n not in self.rounds:
            raise keyed(SetupgenError, "no_round", n=n, field="round")
        if not game.table <= self.schedule.tables(n):
            raise keyed(
                SetupgenError, "round_tables", n=n, tables=self.schedule.tables(n), table=game.table, field="table"
            )
        return tuple(self.schedule.table(n, game.table))

    def state(self, game: Game) -> str:
        """``waiting``, ``reported`` or ``confirmed``."""
        found = self.store.result(game)
        return WAITING if found is None else found.state

    def threshold(self, game: Game) -> int:
        """The game's win threshold (VP): its round's, or the finals' ``victory_points``."""
        if not game.is_finals:
            return self.t.thresholds()[game.round]
        if self.t.final is None:
            raise SetupgenError("the tournament file has no [final] section")
        return self.t.final.victory_points

    def names(self) -> dict[str, str]:
        """Player id -> the printed name (:func:`~setupgen.tournament.jobs.display_names`), kept until the
        entries change."""
        return self.view("names", lambda: jobs.display_names(self.t), confirmed=False)

    def pack_folder(self, round_number: int) -> Path:
        """The round's pack folder, ``round-N``."""
        return self.folder / f"round-{round_number}"

    def has_pack(self, round_number: int) -> bool:
        """Whether the round's pack has been made."""
        return (self.pack_folder(round_number) / "manifest.json").is_file()

    def pack_stale(self, round_number: int) -> bool:
        """Whether the round's pack seats other players than the schedule
        (made before a re-plan): its ``results-round-N.csv`` differs."""
        path = self.pack_folder(round_number) / f"results-round-{round_number}.csv"
        if not self.has_pack(round_number) or not path.is_file():
            return False
        try:
            return path.read_text(encoding="utf-8") != jobs.results_template(self.t, self.schedule, round_number)
        except (OSError, UnicodeError):
            return True

    def table_url(self, game: Game) -> str | None:
        """The game's result URL (printed on a preliminary round's sheets;
        None without a console URL)."""
        if self.console_url is None:
            return None
        return tokens.table_url(self.console_url, self.key, game.round, game.table, game.stage)


def _stamps(folder: Path) -> tuple:
    """(size, inode, mtime ns) of ``entries.csv`` and ``schedule.csv`` (None for a missing one)."""
    out: list[tuple[int, int, int] | None] = []
    for name in (entries.ENTRIES_FILE, jobs.SCHEDULE_FILE):
        try:
            info = os.stat(folder / name)
            out.append((info.st_size, info.st_ino, info.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


def open_day(tournament_file: str | Path, folder: Path, console_url: str | None = None) -> Day:
    """Open the tournament day of ``tournament_file`` in ``folder`` (made
    when missing): schedule, key, database, and ``results.csv`` brought in
    line with the database. Raises :class:`SetupgenError` (a bad tournament
    or schedule, a ``results.csv`` changed since the console wrote it or
    not valid, a database of a newer setupgen)."""
    t = jobs.with_entries(tournament.load(tournament_file), folder)
    base = None if console_url is None else tokens.check_base_url(console_url)
    sched = jobs.current_schedule(t, folder)
    made = [name for name in _START_FILES if not (folder / name).exists()]
    with atomic.folder_for(folder):  # a folder made here goes again when the start is refused
        store: Store | None = None
        try:
            secret = tokens.key(folder)
            store = Store(folder)  # a junk database is refused here: the key made above goes again (issue 46)
            day = Day(t, folder, sched, store, secret, base)
            _check_results_follow_schedule(day)
            _adopt_results_file(day)
            if jobs.read_schedule(folder) is None:  # the command line works from the folder while the console runs
                jobs.write_schedule(t, sched, folder)
            day.files_stamp = _stamps(folder)
        except BaseException:
            if store is not None:
                store.close()
            for name in made:  # a refused start leaves the folder as it was
                with contextlib.suppress(OSError):
                    os.unlink(folder / name)
            raise
    return day


#: files a first start makes (the key, the database and SQLite's journal
#: files), removed again when the start is refused
_START_FILES = (
    tokens.KEY_FILE,
    DB_FILE,
    f"{DB_FILE}-wal",
    f"{DB_FILE}-shm",
    f"{DB_FILE}-journal",
    jobs.SCHEDULE_FILE,
    "schedule.pdf",
    atomic.LOCK_FILE,
)


def _check_results_follow_schedule(day: Day) -> None:
    """Raise :class:`SetupgenError` when a result in the database names
    other players than the schedule seats at its table (a played round
    re-planned behind the console's back): each would be shown beside the
    wrong players."""
    for r in day.store.results():
        if (
            r.round not in day.rounds
            or r.table > day.schedule.tables(r.round)
            or tuple(day.schedule.table(r.round, r.table)) != r.players
        ):
            raise SetupgenError(
                f"round {r.round} table {r.table} has a result for other players than "
                f"{atomic.shown(day.folder / jobs.SCHEDULE_FILE)} seats there (was a played round "
                f"re-planned?); put back the schedule the round was played with"
            )


def _adopt_results_file(day: Day) -> None:
    """First start: import a ``results.csv`` the console did not write and
    keep it as ``results.before-console.csv``; later starts: refuse one
    changed since. Then write ``results.csv`` from the database."""
    path = day.folder / RESULTS_FILE
    if not _owned(day) and path.exists():
        kept = day.folder / KEPT_RESULTS
        if kept.exists():
            raise SetupgenError(
                f"{atomic.shown(path)} is not the console's and {atomic.shown(kept)} exists "
                f"already; move one of them away"
            )
        text = read_text(path, "results file")
        rows = st.read_results(text, source=str(path), players=_known(day), thresholds=day.t.thresholds(), tables=None)
        present = {(r.round, r.table) for r in rows}
        rows = st.read_results(
            text,
            source=str(path),
            players=_known(day),
            thresholds=day.t.thresholds(),
            tables={k: v for k, v in _tables(day).items() if k in present},
        )
        _import(day, rows)
        os.rename(path, kept)  # checked free above; a rename works on every file system
    elif path.exists():
        if atomic.digest_of(path) not in _owned(day):
            raise SetupgenError(
                f"{atomic.shown(path)} was changed since the console wrote it; it is kept. "
                f"The console's results are in tournament.db: move the file away to have "
                f"it written again"
            )
    write_results(day)


def _import(day: Day, rows: tuple[st.GameResult, ...]) -> None:
    """The rows of an imported results file as confirmed tables, in seat order."""
    by_table: dict[tuple[int, int], dict[str, st.GameResult]] = {}
    for r in rows:
        by_table.setdefault((r.round, r.table), {})[r.player] = r
    for (rnd, tbl), game in sorted(by_table.items()):
        seats = day.players_of(Game.preliminary(rnd, tbl))
        winner = next(k for k, p in enumerate(seats, start=1) if game[p].winner)
        marks = tuple(game[p].status for p in seats)
        day.store.record(
            TableResult(
                Game.preliminary(rnd, tbl),
                seats,
                tuple(game[p].vp for p in seats),
                winner,
                CONFIRMED,
                "import",
                day.store.clock(),
                marks if any(m != st.PLAYED for m in marks) else (),
            ),
            "import",
        )


def _known(day: Day) -> frozenset[str]:
    if day.known is None:
        day.known = frozenset({p.id for p in day.t.players} | {s.player for s in day.schedule.seats})
    return day.known


def _tables(day: Day) -> dict[tuple[int, int], frozenset[str]]:
    if day.tables is None:
        day.tables = {(s.round, s.table): frozenset(day.schedule.table(s.round, s.table)) for s in day.schedule.seats}
    return day.tables


def results_csv(day: Day) -> str:
    """``results.csv`` of the confirmed tables: header ``round,table,
    player,vp,winner``, rows by round, table and seat, ``\\n`` line ends."""
    return stage_csv(day, PRELIMINARY)


def _csv_of(results: list[TableResult], round_cell: str | None = None) -> str:
    """The results as CSV (the round column ``round_cell`` when given, as
    a finals stage's name); the ``status`` column only when someone did
    not simply play."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    marked = any(r.statuses for r in results)
    w.writerow((*st.COLUMNS, st.STATUS_COLUMN) if marked else st.COLUMNS)
    for r in results:
        statuses = r.statuses or (st.PLAYED,) * len(r.players)
        for seat, (player, vp, mark) in enumerate(zip(r.players, r.vp, statuses), start=1):
            row = (
                r.round if round_cell is None else round_cell,
                r.table,
                player,
                vp,
                "yes" if seat == r.winner else "no",
            )
            w.writerow((*row, mark) if marked else row)
    return buf.getvalue()


def _owned(day: Day, keys: tuple[str, str] = (DIGEST_KEY, PENDING_KEY)) -> set[str]:
    """The digests of the versions of a file the console wrote (default
    ``results.csv``; ``keys`` its meta keys): the last, and the one it was
    writing when a crash may have come."""
    return {d for d in (day.store.get(keys[0]), day.store.get(keys[1])) if d}


def write_results(day: Day) -> None:
    """Write ``results.csv`` from the database (atomically; only over a
    file the console wrote, :func:`~setupgen.core.atomic.write_owned`;
    not at all when it holds these bytes already). The new digest is
    recorded as pending first, so a crash between the rename and the
    record leaves a file the console still knows as its own."""
    _write_owned(day, RESULTS_FILE, results_csv(day).encode("utf-8"), (DIGEST_KEY, PENDING_KEY))


def _write_owned(day: Day, name: str, data: bytes, keys: tuple[str, str]) -> None:
    """Write the console's file ``name`` (``keys``: the meta keys of its
    last and its pending digest) as :func:`write_results` describes."""
    import hashlib

    new = hashlib.sha256(data).hexdigest()
    path = day.folder / name
    if atomic.digest_of(path) == new and new in _owned(day, keys):
        if day.store.get(keys[0]) != new:
            day.store.put(keys[0], new)
        return
    day.store.put(keys[1], new)
    with atomic.folder_lock(day.folder):  # for this write only: the command line writes the folder too
        atomic.write_owned(path, data, _owned(day, keys))
    day.store.put(keys[0], new)


#: how much older than its digest a file's modification time must be for the digest to be kept (ns);
#: file times tick in steps of a few ms, so an edit within one step keeps the time ("racy" files, as git says)
_SETTLED_NS = 2_000_000_000


def _results_digest(day: Day) -> str | None:
    """The SHA-256 of ``results.csv`` (None when missing). The digest is
    kept with the file's size, inode and modification time (ns), and taken
    again when any of them changed or the file was modified less than
    2 s before the digest was taken. Raises
    :class:`~setupgen.core.atomic.OutputError`."""
    import time

    path = day.folder / RESULTS_FILE
    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError:
        return atomic.digest_of(path)
    stamp = (info.st_size, info.st_ino, info.st_mtime_ns)
    kept = day.results_stamp
    if kept is not None and kept[0] == stamp and stamp[2] + _SETTLED_NS < kept[1]:
        return kept[2]
    taken = time.time_ns()
    digest = atomic.digest_of(path)
    day.results_stamp = (stamp, taken, digest)
    return digest


def finals_made(day: Day) -> tuple[str, ...]:
    """The finals' stages whose pack is in the tournament folder (its
    ``manifest.json`` written), in :data:`FINAL_STAGES` order."""
    return tuple(s for s in FINAL_STAGES if (day.folder / s / "manifest.json").is_file())


def _refuse_after_finals(day: Day) -> None:
    """Raise :class:`StoreError` once a finals pack is made: the finals
    are seated from the preliminary results, so those no longer change
    (docs/console.md)."""
    made = finals_made(day)
    if made:
        raise keyed(StoreError, "finals_made", stage=made[0], folder=f"{made[0]}/")


def _check_file_is_ours(day: Day) -> None:
    """Refuse a change while ``results.csv`` holds what the console did not write."""
    digest = _results_digest(day)
    if digest is not None and digest not in _owned(day):
        raise ResultRefused([(None, Problem("results_file_changed", {"file": RESULTS_FILE}))])


def _check_stage_file(day: Day, stage: str) -> None:
    """Refuse a change of a finals game while its pack is not made, or
    while the stage's results file holds what the console did not write."""
    if stage not in finals_made(day):
        raise keyed(SetupgenError, "stage_pack_first", stage=stage)
    name, keys = jobs.STAGE_RESULTS[stage], _stage_keys(stage)
    path = day.folder / name
    if path.exists() and atomic.digest_of(path) not in _owned(day, keys):
        raise ResultRefused([(None, Problem("stage_file_changed", {"file": name}))])


def check_change(day: Day, game: Game) -> None:
    """Refuse any change of ``game``'s result the files do not allow:
    ``results.csv`` changed outside the console (the finals are seated
    from it too); a preliminary game once a finals pack is made; a finals
    game before its pack, or with its results file changed outside."""
    _check_file_is_ours(day)
    if game.is_finals:
        _check_stage_file(day, game.stage)
    else:
        _refuse_after_finals(day)
        if day.replanning is not None and game.round >= day.replanning:
            raise keyed(StoreError, "result_while_replanning", n=day.replanning)


def write_stage(day: Day, stage: str) -> None:
    """Write the stage's results file from its confirmed games:
    ``results.csv`` (:func:`write_results`) or the finals stage's
    ``results-semi-final.csv`` / ``results-final.csv``, as
    :func:`write_results` describes."""
    if stage == PRELIMINARY:
        write_results(day)
    else:
        _write_owned(day, jobs.STAGE_RESULTS[stage], stage_csv(day, stage).encode("utf-8"), _stage_keys(stage))


def check_result(
    day: Day, game: Game, vp: list[str], winner: str, statuses: list[str] | None = None
) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
    """The VP (texts, one per seat), the winner's seat (text, 1-based) and
    each seat's status (texts: played, no-show, disqualified; None: all
    played) of a game, checked as ``setupgen standings`` (a preliminary
    game) or ``setupgen placings`` (a finals game) checks a results
    file: whole numbers, 0 to the game's threshold + 10, one winner who
    has no fewer VP than anyone at the table, a no-show with 0 VP. Returns
    (VP per seat, winner seat, statuses: empty when everyone played).
    Raises :class:`ResultRefused` with every problem, :class:`SetupgenError`
    for a game that is not scheduled."""
    seats = day.players_of(game)
    name = RoundName(game.round, game.stage if game.is_finals else None)
    chosen = {str(k): k - 1 for k in range(1, len(seats) + 1)}.get(winner.strip())
    names = day.names()
    try:
        rows = st.check_game(
            name, game.table, seats, vp, chosen, statuses, day.threshold(game), shown=lambda p: names.get(p, p)
        )
    except st.GameRefused as exc:
        raise ResultRefused(exc.problems) from None
    kept = tuple(r.status for r in rows)
    return tuple(r.vp for r in rows), int(winner), kept if any(m != st.PLAYED for m in kept) else ()


class ResultChanged(StoreError):
    """The director acted on a version of a game's result that is no
    longer the current one (a table reported again, or another page of
    the director's changed it, since the page was opened): ``seen`` the
    audit entry of the version the page showed (None: it showed no
    result), ``current`` the result now."""

    def __init__(self, game: Game, seen: AuditEntry | None, current: TableResult | None) -> None:
        now = "no result" if current is None else f"version {current.version}, {current.state}"
        super().__init__(
            f"{game.label()} changed since the page was opened (now {now}): nothing was recorded; "
            f"check the result shown and send again"
        )
        self.game, self.seen, self.current = game, seen, current


def same_version(day: Day, game: Game, version: int | None) -> Callable[[TableResult | None], None]:
    """A check for :meth:`~setupgen.console.store.Store.record` (inside its
    transaction): the result is still at ``version`` (0: none yet; None:
    any version)."""

    def allowed(old: TableResult | None) -> None:
        if version is not None and (0 if old is None else old.version) != version:
            seen = next((e for e in day.store.audit(game) if e.version == version), None)
            raise ResultChanged(game, seen, old)

    return allowed


class SeatingChanged(StoreError):
    """A result form drawn for other players than the game's table seats
    now (a re-plan, or a finals stage seated again, since the page was
    opened): ``players`` the ids the table seats now, in seat order.
    Nothing is stored."""

    def __init__(self, game: Game, players: tuple[str, ...]) -> None:
        super().__init__(
            f"the players at {game.label()} changed since the page was opened (now "
            f"{', '.join(players)}): nothing was recorded; check the players and send again"
        )
        self.game, self.players = game, players


def check_seating(day: Day, game: Game, seating: str | None, players: tuple[str, ...] | None = None) -> None:
    """Refuse with :class:`SeatingChanged` a form whose ``seating`` (the
    :func:`~setupgen.tournament.games.seating_stamp` it was drawn for;
    None: not checked) is not the game's seating now, or a result whose
    ``players`` are not. Raises :class:`SetupgenError` for a game that is
    not scheduled."""
    now = day.players_of(game)
    if (seating is not None and seating != seating_stamp(now)) or (players is not None and players != now):
        raise SeatingChanged(game, now)


def enter(
    day: Day,
    game: Game,
    vp: list[str],
    winner: str,
    statuses: list[str] | None = None,
    version: int | None = None,
    seating: str | None = None,
) -> TableResult:
    """The director enters or corrects a game's result, preliminary or
    finals (with each seat's status: no-shows and disqualifications are
    the director's): it is confirmed, and the stage's results file is
    written (:func:`write_stage`). ``version``: the version of the result
    the director's form showed (0: none); a result changed since is
    refused with :class:`ResultChanged`. ``seating``: the seating stamp
    the form was drawn for (None: not checked); another seating is
    refused with :class:`SeatingChanged`. Raises :class:`ResultRefused`
    or :class:`SetupgenError`."""
    return _change(day, game, vp, winner, CONFIRMED, "director", statuses, same_version(day, game, version), seating)


def report(
    day: Day, game: Game, vp: list[str], winner: str, seating: str | None = None, submission: str | None = None
) -> TableResult:
    """A table reports its game's result, everyone played (refused once
    the director has confirmed it); ``seating`` as for :func:`enter`;
    ``submission``: the report's own id (the phone's outbox, issue 49): a
    resend of a stored submission stores nothing and answers with the
    game's result as it is (confirmed meanwhile included). Raises
    :class:`ResultRefused`, :class:`SeatingChanged` or
    :class:`SetupgenError`."""

    def allowed(old: TableResult | None) -> None:
        if old is not None and old.state == CONFIRMED:
            raise keyed(StoreError, "result_confirmed_by_director")

    if submission is not None:
        with day.store.lock:
            stored = day.store.result(game) if day.store.submitted(submission) else None
        if stored is not None:
            return stored
    return _change(day, game, vp, winner, REPORTED, "table", None, allowed, seating, submission)


def _change(
    day: Day,
    game: Game,
    vp: list[str],
    winner: str,
    state: str,
    by: str,
    statuses: list[str] | None,
    allowed: Callable[[TableResult | None], None],
    seating: str | None = None,
    submission: str | None = None,
) -> TableResult:
    check_seating(day, game, seating)  # before the rules: VP typed for other players are no result
    values, seat, marks = check_result(day, game, vp, winner, statuses)
    new = TableResult(game, day.players_of(game), values, seat, state, by, day.store.clock(), marks)
    with day.store.lock:
        if submission is not None and day.store.submitted(submission):  # the same resend, twice at once
            return day.store.result(game) or new
        check_change(day, game)
        check_seating(day, game, seating, new.players)  # a re-plan taken in meanwhile
        before = day.store.result(game)
        action = "report" if by == "table" else "enter" if before is None else "correct"
        day.store.record(new, action, allowed, submission)
        if state == CONFIRMED or (before is not None and before.state == CONFIRMED):
            write_stage(day, game.stage)  # a results file holds the confirmed games alone
    return day.store.result(game) or new


def confirm(day: Day, game: Game, version: int | None = None) -> TableResult:
    """The director confirms a reported result, preliminary or finals;
    ``version``: the version the director saw (None: whatever is there),
    any other is refused with :class:`ResultChanged`. Raises
    :class:`StoreError` when there is nothing to confirm."""
    confirmed, changed = confirm_all(day, {game: version})
    if changed:
        raise changed[0]
    return confirmed[0]


def confirm_all(day: Day, seen: Mapping[Game, int | None]) -> tuple[list[TableResult], list[ResultChanged]]:
    """Confirm, in one transaction, every reported game of ``seen`` still
    at the version the director saw (None: any); returns the results
    confirmed (a game confirmed already counts as confirmed, unchanged)
    and the games changed since (left as they are). Raises
    :class:`StoreError` for a game with no result at all (when its
    version is not checked), :class:`SeatingChanged` for a result of
    players the table no longer seats (nothing confirmed),
    :class:`SetupgenError` for one not scheduled."""
    for game in seen:
        day.players_of(game)
    done: list[TableResult] = []
    changed: list[ResultChanged] = []
    with day.store.lock:
        for stage in sorted({g.stage for g in seen}, key=STAGES.index):
            check_change(day, next(g for g in seen if g.stage == stage))
        changes = []
        for game, version in seen.items():
            old = day.store.result(game)
            try:
                same_version(day, game, version)(old)
            except ResultChanged as exc:
                changed.append(exc)
                continue
            if old is None:
                raise keyed(StoreError, "nothing_to_confirm", table=game.name)
            check_seating(day, game, None, old.players)  # a result of players no longer at that table
            if old.state == CONFIRMED:
                done.append(old)
                continue
            new = dataclasses.replace(old, state=CONFIRMED, by="director", at=day.store.clock())
            changes.append((new, "confirm", same_version(day, game, old.version)))
        day.store.record_all(changes)
        for stage in sorted({new.game.stage for new, _a, _c in changes}, key=STAGES.index):
            write_stage(day, stage)
        done += [day.store.result(new.game) or new for new, _a, _c in changes]
    return done, changed


@dataclass(frozen=True)
class Live:
    """The live standings: the ranking, its CSV (as ``setupgen standings``
    writes it), each player's placing points per round, and per round how
    many tables are confirmed of how many."""

    ranked: tuple[st.Standing, ...]
    csv: str
    per_round: dict
    progress: dict[int, tuple[int, int]]


def live_standings(day: Day) -> Live:
    """The standings of the confirmed results, computed as ``setupgen
    standings`` computes them from ``results.csv`` (its rows read back by
    :func:`~setupgen.tournament.standings.read_results`), once per change
    of a confirmed result (:meth:`Day.view`)."""
    return day.view("standings", lambda: _live_standings(day))


def _live_standings(day: Day) -> Live:
    confirmed = day.store.results(state=CONFIRMED)
    progress = {r: (sum(1 for x in confirmed if x.round == r), day.schedule.tables(r)) for r in day.rounds}
    if not confirmed:
        return Live((), st.standings_csv((), day.t.tie_breakers), {}, progress)
    present = {(r.round, r.table) for r in confirmed}
    rows = st.read_results(
        _csv_of(confirmed),
        source=RESULTS_FILE,
        players=_known(day),
        thresholds=day.t.thresholds(),
        tables={k: v for k, v in _tables(day).items() if k in present},
    )
    scoring = Scoring(dict(day.t.placing_points), day.t.tie_breakers)
    ranked = st.standings(rows, scoring=scoring, thresholds=day.t.thresholds(), seed=day.t.seed)
    return Live(ranked, st.standings_csv(ranked, day.t.tie_breakers), st.round_points(rows, scoring), progress)


def start_pack(day: Day, round_number: int) -> Task:
    """Start making the round's pack (``round-N/``) in the worker process,
    exactly as ``setupgen round T.toml --round N [--console-url URL]``
    makes it; the console answers meanwhile. Returns the task (its message
    names the pack when done). Raises :class:`SetupgenError` when the pack
    cannot be asked for (the schedule does not follow the entries, a pack
    with other QR codes in its place)."""
    console = None if day.console_url is None else (day.console_url, day.key)
    bad = unplanned_round(day)
    if bad is not None and bad <= round_number:
        raise keyed(SetupgenError, "schedule_behind_entries", file=entries.ENTRIES_FILE, n=bad)
    request = jobs.round_request(day.t, day.schedule, round_number, console=console)
    roundpack.check_console(day.pack_folder(round_number), request.console_url)

    def made(manifest: dict) -> tuple[str, dict]:
        day.changed()
        return (
            f"the pack of round {round_number} is made: {manifest['pdf']} ({request.tables} tables)",
            {"pdf": manifest["pdf"], "tables": request.tables},
        )

    write = functools.partial(roundpack.write_round, lock=day.folder)
    return day.tasks.start(
        f"pack of round {round_number}",
        write,
        (request, day.pack_folder(round_number)),
        made,
        about=("pack", round_number),
        facts={"round": round_number},
    )


def make_pack(day: Day, round_number: int) -> dict:
    """:func:`start_pack` and wait for it. Returns the pack's manifest.
    Raises :class:`SetupgenError` (e.g. a folder holding files setupgen did
    not write)."""
    start_pack(day, round_number).outcome()
    return json.loads((day.pack_folder(round_number) / "manifest.json").read_text(encoding="utf-8"))


def current_round(day: Day) -> int:
    """The round the hall plays (the public pages, the round clock): the
    first round with a pack or a result that still has a table without a
    confirmed result; when every such round is complete, the last of them
    (its results stay up until the next round's pack is made); the first
    round before anything. A pack made early for a later round does not
    move the hall on while an earlier round is still being played."""
    played, confirmed = day.view("played", lambda: _played_rounds(day), confirmed=False)
    rounds = [r for r in day.rounds if day.has_pack(r) or r in played]
    open_rounds = [r for r in rounds if confirmed.get(r, 0) < day.schedule.tables(r)]
    if open_rounds:
        return open_rounds[0]
    return rounds[-1] if rounds else (day.rounds[0] if day.rounds else 1)


def _played_rounds(day: Day) -> tuple[frozenset[int], dict[int, int]]:
    """The preliminary rounds with a result, and each round's count of confirmed tables."""
    results = day.store.results()
    confirmed: dict[int, int] = {}
    for r in results:
        if r.state == CONFIRMED:
            confirmed[r.round] = confirmed.get(r.round, 0) + 1
    return frozenset(r.round for r in results), confirmed


#: the finals' pack folders in the tournament folder, as ``setupgen finals`` names them
FINAL_STAGES = FINALS_STAGES


@dataclass(frozen=True)
class Finals:
    """The finals as the confirmed results seat them: ``stage``
    (``semi-final`` for 16 players, else ``final``), the tables (ids in
    choosing order, best rank first), each player's preliminary rank, and
    which stages' packs are made; ``problem`` says why they cannot be
    seated yet (None: they can)."""

    players: int
    stage: str
    tables: tuple[tuple[str, ...], ...]
    rank: dict[str, int]
    made: tuple[str, ...]
    problem: Reason | str | None = None

    @property
    def ranking(self) -> list[str]:
        """The preliminary standings' players, best first."""
        return sorted(self.rank, key=self.rank.__getitem__)


def finals(day: Day) -> Finals | None:
    """The finals of the tournament file's ``[final]`` (None without one),
    seated from ``results.csv`` as ``setupgen finals T.toml results.csv
    --players N`` seats them: every preliminary table must be confirmed
    (kept until a confirmed result or a pack changes, :meth:`Day.view`)."""
    return day.view("finals", lambda: _finals(day), packs=True)


def _finals(day: Day) -> Finals | None:
    if day.t.final is None:
        return None
    n = jobs.expected_finalists(day.t)
    made = finals_made(day)
    try:
        ranked = jobs.rank_players(day.t, day.schedule, day.folder / RESULTS_FILE)
        n = day.t.final.finalists(len(ranked)) if ranked else n
        _, tables = jobs.finals_request(day.t, day.schedule, day.folder / RESULTS_FILE, None)
    except SetupgenError as exc:
        confirmed = len(day.store.results(state=CONFIRMED))
        waiting = sum(day.schedule.tables(r) for r in day.rounds) - confirmed
        why: Reason | str = str(exc)
        if waiting > 0:
            why = Reason(
                f"director.tables_waiting_{'one' if waiting == 1 else 'n'}",
                f"{waiting} preliminary tables are not confirmed yet",
                (("n", waiting),),
            )
        return Finals(n, SEMI_FINAL if n == 16 else FINAL, (), {}, made, why)
    return Finals(n, SEMI_FINAL if n == 16 else FINAL, tables, {s.player: s.rank for s in ranked}, made)


def make_finals_pack(day: Day, winners: tuple[str, ...] = ()) -> str:
    """Make the finals' pack as ``setupgen finals`` makes it (the
    semi-finals, or with ``winners`` the final of those semi-final
    winners) into ``semi-final/`` or ``final/``; returns that stage.
    Raises :class:`SetupgenError`."""
    if day.t.final is None:
        raise SetupgenError("the tournament file has no [final] section")
    entered = entered_winners(day)
    if winners and entered and set(winners) != set(entered):
        raise keyed(SetupgenError, "winners_entered", field="winners", names=", ".join(entered))
    request, _ = jobs.finals_request(day.t, day.schedule, day.folder / RESULTS_FILE, None, winners)
    stage = FINAL if winners or request.stage == FINAL else SEMI_FINAL
    with day.pack_lock:
        roundpack.write_round(request, day.folder / stage, lock=day.folder)
    day.changed()
    return stage


def unplanned_round(day: Day) -> int | None:
    """The first round the console's schedule does not follow
    ``entries.csv`` in (changes recorded, not yet re-planned), else None."""
    return entries.unplanned(jobs.read_entries(day.t, day.folder), jobs.seated(day.schedule))


def played_from(day: Day, round_number: int) -> int | None:
    """The first round from ``round_number`` on with a result in (reported or confirmed), else None."""
    return next((r.round for r in day.store.results() if r.round >= round_number), None)


def record_change(day: Day, change: entries.Entry) -> entries.Entries:
    """Record a drop-out or late entry in ``entries.csv``
    (:func:`~setupgen.tournament.jobs.record_entry`, as ``setupgen entry``)
    with its audit entry; refused (:class:`StoreError`) from a round that
    has results already. Nothing is re-planned (:func:`replan`)."""
    import json

    with day.store.lock:
        if day.replanning is not None:
            raise keyed(StoreError, "change_while_replanning", n=day.replanning)
        played = played_from(day, change.from_round)
        if played is not None:
            raise keyed(StoreError, "change_round_played", n=played)
        found = jobs.record_entry(day.t, day.folder, change)
        day.t = jobs.with_entries(day.t, day.folder)
        day.changed()
        record = {"change": change.change, "from_round": change.from_round, "id": change.player}
        if change.change == entries.JOINED:
            record.update(name=change.name, group=change.group)
        day.store.note(
            "director",
            change.from_round,
            "leave" if change.change == entries.LEFT else "join",
            json.dumps(record, sort_keys=True),
        )
    return found


def start_replan(day: Day, round_number: int) -> Task:
    """Start re-planning rounds ``round_number``.. in the worker process
    for the players and changes of ``entries.csv`` exactly as ``setupgen
    schedule T.toml --from-round N`` does (:func:`~setupgen.tournament.
    jobs.schedule_job`: ``schedule.csv`` and ``schedule.pdf`` written; a
    round seated by standings from ``results.csv``); the new schedule is
    taken when it is done (the console's schedule is saved first when
    ``schedule.csv`` is missing). Results of earlier rounds are taken
    meanwhile; one of a round from ``round_number`` on is refused until the
    re-plan ends. Refused (:class:`StoreError`) while a round from
    ``round_number`` on has results or another re-plan runs."""
    with day.store.lock:
        if day.replanning is not None:
            raise keyed(StoreError, "replan_running", n=day.replanning)
        played = played_from(day, round_number)
        if played is not None:
            raise keyed(StoreError, "replan_round_played", n=played, start=round_number)
        if round_number not in day.rounds:
            raise keyed(SetupgenError, "replan_no_round", field="from_round", n=round_number)
        if jobs.read_schedule(day.folder) is None:  # planned at the start, never saved: the rounds played so far
            jobs.write_schedule(day.t, day.schedule, day.folder)
        standings = day.t.round(round_number).seating == "standings"
        day.replanning = round_number

    def done(result: tuple[Schedule, Any, list[str]]) -> tuple[str, dict]:
        with day.store.lock:
            day.replanning = None
            day.schedule, day.known, day.tables = result[0], None, None
            day.files_stamp = _stamps(day.folder)
            day.changed()
            day.store.note("director", round_number, "replan", json.dumps({"from_round": round_number}))
            note_planned(day)
        quality = "; ".join(result[1].lines())
        moved = "".join(f"; {line}" for line in result[2])  # packs made for the old seating, moved aside
        return (
            f"re-planned from round {round_number}: {quality}{moved}",
            {"quality": quality, "measures": result[1].rows(), "moved": list(result[2])},
        )

    def failed(_why: str) -> None:
        with day.store.lock:
            day.replanning = None

    args = (day.t, day.folder, round_number, day.folder / RESULTS_FILE if standings else None)
    return day.tasks.start(
        f"re-plan from round {round_number}",
        jobs.schedule_job,
        args,
        done,
        failed,
        about=("replan",),
        facts={"round": round_number},
    )


#: the meta key of how many changes of entries.csv the schedule was last planned with (:func:`planned_entries`)
PLANNED_KEY = "planned_entries"


def note_planned(day: Day) -> None:
    """Note that the schedule now follows every change of ``entries.csv`` (a re-plan was just taken in)."""
    day.store.put(PLANNED_KEY, str(len(jobs.read_entries(day.t, day.folder))))


def planned_entries(day: Day) -> int:
    """How many changes of ``entries.csv`` (the first ones) a re-plan has
    used: as noted at the last re-plan the console took in; before any,
    all of them when the schedule follows them, else none."""
    noted = day.store.get(PLANNED_KEY)
    changes = jobs.read_entries(day.t, day.folder)
    if noted is not None and noted.isdigit():
        return min(int(noted), len(changes))
    return len(changes) if entries.unplanned(changes, jobs.seated(day.schedule)) is None else 0


def replan(day: Day, round_number: int) -> Schedule:
    """:func:`start_replan` and wait for it; returns the new schedule.
    Raises :class:`StoreError` or :class:`SetupgenError`."""
    start_replan(day, round_number).outcome()
    return day.schedule


# ---------------------------------------------------------------- the finals' results and the final placings


def _stage_keys(stage: str) -> tuple[str, str]:
    """The meta keys of the digests of a stage's results file."""
    return f"{stage}_results_csv_sha256", f"{stage}_results_csv_pending_sha256"


def stage_seating(day: Day, stage: str) -> tuple[tuple[str, ...], ...]:
    """The tables of finals ``stage`` (ids in choosing order) as the
    confirmed standings seat them (the final of 16: the winners of the
    entered semi-finals), kept until a confirmed result or a pack changes.
    Raises :class:`SetupgenError` (no ``[final]``, not seated yet, a stage
    the format does not play, semi-finals missing)."""
    if stage not in FINAL_STAGES:
        raise keyed(SetupgenError, "unknown_finals_stage", stage=repr(stage[:20]), known=", ".join(FINAL_STAGES))
    found = day.view(f"seating-{stage}", lambda: _seating_or_error(day, stage), packs=True)
    if isinstance(found, SetupgenError):
        raise found
    return found


def _seating_or_error(day: Day, stage: str) -> tuple[tuple[str, ...], ...] | SetupgenError:
    try:
        return _stage_seating(day, stage)
    except SetupgenError as exc:
        return exc


def _stage_seating(day: Day, stage: str) -> tuple[tuple[str, ...], ...]:
    if stage not in FINAL_STAGES:
        raise keyed(SetupgenError, "unknown_finals_stage", stage=repr(stage[:20]), known=", ".join(FINAL_STAGES))
    found = finals(day)
    if found is None:
        raise SetupgenError("the tournament file has no [final] section")
    if found.problem is not None:
        raise keyed(SetupgenError, "finals_not_seated", why=found.problem)
    semis = stage_rows(day, pl.SEMI_FINAL) if stage == pl.FINAL and found.players == 16 else ()
    return pl.stage_tables(found.ranking, found.players, stage, semis)


def stage_csv(day: Day, stage: str) -> str:
    """A stage's results file of its confirmed games: ``results.csv``
    (:func:`results_csv`) or a finals stage's file as ``setupgen placings``
    reads it: ``round,table,player,vp,winner`` (and ``status`` when a seat
    did not simply play), the round column the stage's name, rows by table
    and seat, ``\\n`` line ends."""
    confirmed = day.store.results(stage, CONFIRMED)
    return _csv_of(confirmed) if stage == PRELIMINARY else _csv_of(confirmed, stage)


def stage_rows(day: Day, stage: str) -> tuple[st.GameResult, ...]:
    """The confirmed results of a finals stage as results rows (empty while none is in)."""
    if not day.store.results(stage, CONFIRMED):
        return ()
    assert day.t.final is not None
    return st.read_results(
        stage_csv(day, stage),
        source=jobs.STAGE_RESULTS[stage],
        players=_known(day),
        thresholds={st.STAGE_ROUND: day.t.final.victory_points},
        stage=stage,
    )


def final_placings(day: Day) -> tuple[tuple[pl.Placing, ...], Reason | str | None]:
    """The final placings once every finals table is in, computed as
    ``setupgen placings T.toml results.csv`` computes them from the
    console's files; else no placings and why not (kept until a confirmed
    result or a pack changes, :meth:`Day.view`)."""
    return day.view("placings", lambda: _final_placings(day), packs=True)


def _final_placings(day: Day) -> tuple[tuple[pl.Placing, ...], Reason | str | None]:
    if day.t.final is None:
        return (), None
    if not day.store.results(pl.FINAL, CONFIRMED):
        return (), Reason("director.no_final_result", "no result of the final yet")
    found = finals(day)
    if found is None or found.problem is not None:
        return (), None if found is None else found.problem
    try:
        needed = [pl.SEMI_FINAL, pl.FINAL] if found.players == 16 else [pl.FINAL]
        for stage in needed:
            missing = len(stage_seating(day, stage)) - len(day.store.results(stage, CONFIRMED))
            if missing:
                return (), Reason(
                    f"director.{stage.replace('-', '_')}_waiting_{'one' if missing == 1 else 'n'}",
                    f"{missing} {stage} table{'s' if missing > 1 else ''} without a confirmed result",
                    (("n", missing),),
                )
        semis = day.folder / jobs.STAGE_RESULTS[pl.SEMI_FINAL] if found.players == 16 else None
        placed, _, _ = jobs.make_placings(
            day.t, day.schedule, day.folder / RESULTS_FILE, day.folder / jobs.STAGE_RESULTS[pl.FINAL], semis
        )
    except SetupgenError as exc:
        return (), str(exc)
    return placed, None


def entered_winners(day: Day) -> tuple[str, ...]:
    """The winners of the semi-finals, table by table, once every
    semi-final's result is entered (else empty; kept as :meth:`Day.view`)."""
    return day.view("winners", lambda: _entered_winners(day), packs=True)


def _entered_winners(day: Day) -> tuple[str, ...]:
    found = finals(day)
    if found is None or found.players != 16 or found.problem is not None:
        return ()
    semis = found.tables
    if len(day.store.results(pl.SEMI_FINAL, CONFIRMED)) != len(semis):
        return ()
    try:
        return tuple(pl.semi_final_winners(stage_rows(day, pl.SEMI_FINAL), semis, found.ranking))
    except SetupgenError:
        return ()
