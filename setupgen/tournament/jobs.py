"""What the tournament commands do, over a :class:`~setupgen.tournament.model.
Tournament`: the seating schedule, round packs of scheduled tables, single
tables, standings and the finals (``docs/rules.md`` section 6).

Everything is derived from the tournament file: the schedule from
``<seed>/schedule``, table ``t`` of round ``r`` from ``<seed>/r<r>/t<t>``,
lots from ``<seed>``. A tournament's files live in one folder (default
``output/<name>``): ``schedule.csv`` and ``schedule.pdf``, ``round-N/``
packs, ``standings.csv``/``.pdf``, ``final/``, and ``entries.csv``, the
drop-outs and late entries (:mod:`setupgen.tournament.entries`). When
``schedule.csv`` is there (e.g. re-planned from a later round) it is the
schedule; otherwise the schedule is planned afresh, identically.
"""

from __future__ import annotations

import contextlib
import dataclasses
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .. import generate as gen
from ..core import atomic, cldr, templates
from ..core import cells as csvcells
from ..core import layout as layoutmod
from ..core.board import Board
from ..core.data import read_text
from ..core.errors import SetupgenError
from ..core.limits import nfc
from ..core.messages import keyed
from ..render import listing
from ..render.page import text_width
from . import entries, roundpack, tokens
from .games import FINAL, PRELIMINARY, SEMI_FINAL
from .measures import Quality
from .model import BY_ATTENDANCE, Player, Tournament
from .schedule import Schedule, ScheduleError, plan
from .scoring import Scoring

if TYPE_CHECKING:  # annotations only: standings and placings are imported when used
    from fractions import Fraction

    from .placings import Placing
    from .standings import GameResult, Standing

SCHEDULE_FILE = "schedule.csv"
#: the preliminary rounds' results in the tournament folder (the console writes it; a director may too)
RESULTS_FILE = "results.csv"
#: the standings PDF's column width of each ranking key (thousandths of the text width)
KEY_WIDTHS = {
    "wins": 70,
    "placing_points": 140,
    "victory_points": 60,
    "victory_points_total": 80,
    "vp_share": 120,
    "vp_share_average": 110,
    "countback": 120,
    "best_finish": 70,
}


class ReplanNeeded(SetupgenError):
    """A scheduled round seats players no longer in the players file: the
    schedule must be re-planned from round ``from_round``."""

    def __init__(self, message: str, from_round: int) -> None:
        super().__init__(message)
        self.from_round = from_round


def schedule_seed(t: Tournament) -> str:
    """The seed text of the seating schedule."""
    return f"{t.seed}/schedule"


def make_schedule(
    t: Tournament, folder: Path, from_round: int | None = None, results: str | Path | None = None
) -> Schedule:
    """Plan the seating of every preliminary round; with ``from_round`` N,
    keep rounds 1..N-1 of ``folder/schedule.csv`` as played and re-plan the
    rest. Each round seats its :func:`~setupgen.tournament.entries.roster`:
    the players file with the changes of ``folder/entries.csv`` (when
    present) from their rounds on; a change from a later round than N (or
    than 1) is planned from that round, the rounds before it kept. The kept
    rounds must follow ``entries.csv`` (else :class:`ReplanNeeded` from the
    first that does not); round N and later must have no results in
    ``folder/results.csv``. A round N marked ``seating = "standings"`` needs
    ``results`` (the results so far) and is seated by rank
    (:func:`rank_order`, docs/schedule.md); ``results`` is refused for any
    other round. Raises :class:`SetupgenError`."""
    played: Schedule | None = None
    by_rank: dict[int, list[str]] = {}
    if results is not None and (
        from_round is None or not 1 <= from_round <= len(t.rounds) or t.rounds[from_round - 1].seating != "standings"
    ):
        raise SetupgenError(
            'the results seat only a round marked seating = "standings" in the tournament '
            "file, when that round is re-planned",
            field="results",
        )
    changes = read_entries(t, folder)
    start = 1 if from_round is None else from_round
    if from_round is not None:
        refuse_played(folder, from_round, "re-plan from")
        played = _played(t, folder, from_round, changes)
        if t.rounds[from_round - 1].seating == "standings":
            if results is None:
                raise SetupgenError(
                    f"round {from_round} is seated by standings: the results so far are needed", needs="results"
                )
            by_rank[from_round] = rank_order(t, played, results, entries.roster(t.players, changes, from_round))
    sched = _plan_from(t, changes, start, played, by_rank)
    for later in changes.rounds():
        if start < later <= len(t.rounds):
            sched = _plan_from(t, changes, later, sched, {})
    return sched


def rounds_with_results(folder: Path) -> set[int]:
    """The rounds ``folder/results.csv`` has rows of (none when the file is
    missing; rows whose round is no whole number are not counted: reading
    the results checks them). Raises :class:`SetupgenError` when the file
    cannot be read."""
    import csv
    import io

    path = folder / RESULTS_FILE
    if not path.is_file():
        return set()
    rows = csv.reader(io.StringIO(nfc(read_text(path, "results file"))))
    header = [h.strip().lower() for h in next(rows, [])]
    if "round" not in header:
        return set()
    at = header.index("round")
    return {int(r[at]) for r in rows if len(r) > at and r[at].strip().isdigit()}


def refuse_played(folder: Path, from_round: int, what: str) -> None:
    """Raise :class:`SetupgenError` (field ``from_round``) when
    ``folder/results.csv`` or the console's database (a table reported or
    confirmed there, :func:`console_rounds`) has results of round
    ``from_round`` or later: a played round is neither re-planned nor
    changed."""
    later = sorted(r for r in rounds_with_results(folder) if r >= from_round)
    if later:
        raise SetupgenError(
            f"round {later[0]} has results in {atomic.shown(folder / RESULTS_FILE)} already: "
            f"cannot {what} round {from_round}; a change applies from a round not yet played",
            field="from_round",
        )
    later = sorted(r for r in console_rounds(folder) if r >= from_round)
    if later:
        raise SetupgenError(
            f"round {later[0]} has results in the console's database "
            f"{atomic.shown(folder / CONSOLE_DB)} (reported or confirmed): cannot {what} round "
            f"{from_round}; a change applies from a round not yet played",
            field="from_round",
        )


#: the console's database in a tournament folder (docs/console.md, "Database")
CONSOLE_DB = "tournament.db"


def console_rounds(folder: Path) -> set[int]:
    """The preliminary rounds with a result (reported or confirmed) in the
    console's database ``folder/tournament.db``, read only (none when there
    is no database). Raises :class:`SetupgenError` when it cannot be read."""
    import sqlite3

    path = folder / CONSOLE_DB
    if not path.is_file():
        return set()
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
        try:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "games" in names:  # schema 5 on
                rows = db.execute("SELECT DISTINCT round FROM games WHERE stage = 'preliminary'").fetchall()
            elif "results" in names:  # schemas 1-4
                rows = db.execute("SELECT DISTINCT round FROM results").fetchall()
            else:
                rows = []
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise SetupgenError(f"cannot read the console's database {atomic.shown(path)}: {exc}") from None
    return {int(r[0]) for r in rows}


def _played(t: Tournament, folder: Path, from_round: int, changes: entries.Entries) -> Schedule:
    """The saved schedule, when re-planning from ``from_round``: it must
    exist, and its rounds before ``from_round`` follow ``changes``."""
    if not 2 <= from_round <= len(t.rounds):
        raise SetupgenError(
            f"the round to re-plan from must be between 2 and {len(t.rounds)}, got {from_round}", field="from_round"
        )
    played = read_schedule(folder)
    if played is None:
        raise SetupgenError(
            f"re-planning from round {from_round} needs the schedule played so far: "
            f"{str(folder / SCHEDULE_FILE)!r} is missing",
            field="from_round",
        )
    kept = {r: ids for r, ids in seated(played).items() if r < from_round}
    bad = entries.unplanned(changes, kept)
    if bad is not None:
        raise ReplanNeeded(
            f"round {bad} is kept as played but does not follow {entries.ENTRIES_FILE} (a change "
            f"from round {bad} or before); re-plan from round {bad}, or correct {entries.ENTRIES_FILE}",
            bad,
        )
    return played


def _plan_from(
    t: Tournament, changes: entries.Entries, start: int, before: Schedule | None, by_rank: dict[int, list[str]]
) -> Schedule:
    """Rounds ``start``.. planned for the roster of round ``start``, the
    rounds before it kept from ``before`` (its later rounds the search's start)."""
    fixed = tuple(s for s in before.seats if s.round < start) if before is not None else ()
    return plan(
        entries.roster(t.players, changes, start),
        len(t.rounds),
        t.table_size,
        schedule_seed(t),
        fixed=fixed,
        by_rank=by_rank,
        groups_first=t.groups_first,
        previous=before,
    )


def seated(sched: Schedule) -> dict[int, frozenset[str]]:
    """Round -> the ids the schedule seats in it."""
    out: dict[int, set[str]] = {}
    for s in sched.seats:
        out.setdefault(s.round, set()).add(s.player)
    return {r: frozenset(ids) for r, ids in out.items()}


def rank_order(
    t: Tournament, sched: Schedule, results_path: str | Path | Gathered, players: Sequence[Player] | None = None
) -> list[str]:
    """The current players (``players``, default the players file's) best
    first by the standings of ``results_path`` (checked against ``sched``);
    players without a result yet (late entries) follow in ``players``
    order, drop-outs are left out."""
    from . import standings as st

    results = results_of(t, sched, results_path)
    scoring = Scoring(dict(t.placing_points), t.tie_breakers)
    ranked = [s.player for s in st.standings(results, scoring=scoring, thresholds=t.thresholds(), seed=t.seed)]
    current = [p.id for p in (t.players if players is None else players)]
    here = set(current)
    seen = set(ranked)
    return [pid for pid in ranked if pid in here] + [pid for pid in current if pid not in seen]


def read_entries(t: Tournament, folder: Path) -> entries.Entries:
    """The changes of ``folder/entries.csv``, checked against the players
    file (no file: no changes). Raises :class:`~setupgen.tournament.
    entries.EntriesError` naming the file and line."""
    path = folder / entries.ENTRIES_FILE
    if not path.exists():
        return entries.Entries()
    text = nfc(read_text(path, "entries file"))
    try:
        return entries.Entries.from_csv(text, t.players)
    except entries.EntriesError as exc:
        raise entries.EntriesError(f"{path}: {exc}") from None


def with_entries(t: Tournament, folder: Path) -> Tournament:
    """``t`` with the late entries of ``folder/entries.csv``
    (:attr:`Tournament.late`), so that every page names them."""
    return dataclasses.replace(t, late=read_entries(t, folder).joined())


def record_entry(t: Tournament, folder: Path, entry: entries.Entry) -> entries.Entries:
    """Add ``entry`` to ``folder/entries.csv`` (made when missing; written
    atomically under the folder's lock, :func:`~setupgen.core.atomic.
    folder_lock`, and only over a file that looks like setupgen's, as
    ``schedule.csv``) after checking it against the players file and the
    changes before it; its round must be one of the tournament's (2..),
    and not one ``folder/results.csv`` has results of (nor a later one).
    Nothing is re-planned: that is :func:`schedule_job` from the round.
    Returns every change. Raises :class:`SetupgenError`."""
    if not 2 <= entry.from_round <= len(t.rounds):
        raise SetupgenError(
            f"a change applies from a round between 2 and {len(t.rounds)}, got {entry.from_round}", field="from_round"
        )
    refuse_played(folder, entry.from_round, "record a change from")
    read_entries(t, folder).added(entry, t.players)  # a refused change makes no folder
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        # read again under the folder's lock: a change recorded meanwhile is kept
        changes = read_entries(t, folder).added(entry, t.players)
        atomic.write_bytes(folder / entries.ENTRIES_FILE, changes.to_csv().encode("utf-8"))
    return changes


def remove_entry(t: Tournament, folder: Path, index: int, expected: entries.Entry) -> entries.Entries:
    """Take the change at ``index`` (0-based, file order) out of
    ``folder/entries.csv``, when it is still ``expected`` (else another
    change was made meanwhile), the rest checked as :func:`record_entry`
    checks them (a ``left`` of a late entry whose ``joined`` goes is
    refused); written atomically under the folder's lock. Returns the
    changes left. Raises :class:`SetupgenError`."""
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        changes = read_entries(t, folder)
        if not 0 <= index < len(changes) or changes.items[index] != expected:
            raise SetupgenError(f"{entries.ENTRIES_FILE} changed meanwhile: reload the page", field="change")
        rest = entries.Entries(changes.items[:index] + changes.items[index + 1 :])
        try:
            rest.check(t.players)
        except entries.EntriesError as exc:
            raise SetupgenError(f"the other changes need this one: {exc}", field="change") from None
        atomic.write_bytes(folder / entries.ENTRIES_FILE, rest.to_csv().encode("utf-8"))
    return rest


def schedule_job(
    t: Tournament,
    folder: Path,
    from_round: int | None = None,
    results: str | Path | None = None,
    *,
    replace: bool = False,
    move_packs: bool = False,
) -> tuple[Schedule, Quality, list[str]]:
    """What ``setupgen schedule`` does (and the console's re-plan): the
    schedule of :func:`make_schedule` written by :func:`write_schedule`
    (over the saved one when re-planning from a round, or with
    ``replace``), the late entries named. A round pack made for a seating
    the new schedule changes is moved aside (:func:`move_packs_aside`):
    always when re-planning from a round, with ``replace`` only when
    ``move_packs`` says so (else :class:`SetupgenError`, nothing written).
    Returns the schedule, its quality and one line per pack moved."""
    t = with_entries(t, folder)
    if replace and from_round is None:
        played = sorted(rounds_with_results(folder))
        if played:
            raise SetupgenError(
                f"round {played[0]} has results in {atomic.shown(folder / RESULTS_FILE)} already: "
                f"planning afresh would re-seat it; re-plan from the first round not yet played",
                field="replace",
            )
    _check_final_field(t)
    before = _seating_before(t, folder)
    sched = make_schedule(t, folder, from_round, results)
    stale = orphaned_packs(folder, before, sched, from_round or 1)
    if stale and from_round is None and not move_packs:
        raise SetupgenError(
            f"round {stale[0]}'s pack ({atomic.shown(folder / f'round-{stale[0]}')}) was made for "
            f"the seating this would change; move the packs aside (they are kept under a dated name) "
            f"to plan afresh",
            field="move_packs",
        )
    check_almanacs(t, sched, from_round or 1)
    quality = write_schedule(t, sched, folder, replace=replace or from_round is not None)
    return sched, quality, move_packs_aside(folder, stale)


def _check_final_field(t: Tournament) -> None:
    """The finals fit the field (a final of 16 with 12 players is refused
    when the schedule is made, not at the finals)."""
    if t.final is None:
        return
    field = len({p.id for p in (*t.players, *t.late)})
    try:
        t.final.finalists(field)
    except SetupgenError as exc:
        raise SetupgenError(
            f"{t.path}: final.players: {exc} (the field has {field} players)", field="players"
        ) from None


def _seating_before(t: Tournament, folder: Path) -> Schedule | None:
    """The seating the round packs were made from: the saved schedule, or
    the seed's plan when none was saved; None when it cannot be known."""
    try:
        return current_schedule(t, folder)
    except SetupgenError:
        return None


def orphaned_packs(folder: Path, before: Schedule | None, after: Schedule, first: int) -> list[int]:
    """The rounds from ``first`` on whose pack (``round-N/`` with its
    manifest) seats other tables than ``after`` does (every such pack when
    the seating before is unknown), ascending."""
    out = []
    for n in after.round_numbers():
        if n < first or not (folder / f"round-{n}" / "manifest.json").is_file():
            continue
        tables = [after.table(n, k) for k in range(1, after.tables(n) + 1)]
        if before is None or [before.table(n, k) for k in range(1, before.tables(n) + 1)] != tables:
            out.append(n)
    return out


def move_packs_aside(folder: Path, rounds: Sequence[int]) -> list[str]:
    """Move each round's pack ``round-N/`` to ``round-N.before-<UTC time>/``
    (never over a folder; nothing is deleted), under the folder's lock;
    one line per pack, saying it must be made again."""
    import os

    lines = []
    with atomic.folder_lock(folder):
        for n in rounds:
            target = _dated_name(folder, f"round-{n}")
            os.replace(folder / f"round-{n}", target)
            lines.append(
                f"round {n}'s pack was made for the old seating: moved to {atomic.shown(target)}; make it again"
            )
    return lines


def check_almanacs(t: Tournament, sched: Schedule, first: int = 1) -> None:
    """Lay out the almanac page of table 1 of every scheduled round from
    round ``first`` on (the rounds being planned) as its round pack will
    (its board, players, threshold and rules), so that added lines that
    make a page too long are refused when the schedule is made, not at the
    round. Another table's board may still add a line (a harbor at the
    pirate's start: the round says so then). Raises
    :class:`SetupgenError` naming the round."""
    from ..render import almanac as alm

    for number in sched.round_numbers():
        if number < first:
            continue  # played rounds keep their packs
        req = round_request(t, sched, number)
        if req.almanac is None:
            continue
        layout = layoutmod.load(req.scenario)
        board = gen.from_seed_within(layout, req.seed_of(1), req.limits, req.numbers, req.harbors)
        try:
            alm.almanac_layout(
                board,
                layout,
                lang=req.lang,
                paper=req.paper,
                context=roundpack.table_context(req, 1, board, layout),
                request=req.almanac,
            )
        except SetupgenError as exc:
            raise SetupgenError(f"{t.path}: round {number}: {exc}") from None


def read_schedule(folder: Path) -> Schedule | None:
    """``folder/schedule.csv`` if it exists. Raises :class:`ScheduleError`
    for a malformed file."""
    path = folder / SCHEDULE_FILE
    if not path.exists():
        return None
    text = nfc(read_text(path, "schedule file"))
    try:
        return Schedule.from_csv(text)
    except ScheduleError as exc:
        raise ScheduleError(f"{path}: {exc}") from None


def current_schedule(t: Tournament, folder: Path) -> Schedule:
    """The saved schedule (:func:`saved_schedule`), else the one planned
    from the tournament seed."""
    saved = read_schedule(folder)
    return make_schedule(t, folder) if saved is None else _checked(t, folder, saved)


def saved_schedule(t: Tournament, folder: Path) -> Schedule:
    """The saved schedule, never one planned on the spot (standings,
    finals and placings rank the games of the schedule the rounds were
    played by). It must follow ``entries.csv`` and seat every player of
    the last round's roster in it (a file cut short loses the last seats):
    else :class:`ReplanNeeded` from the first round that does not. Raises
    :class:`SetupgenError` when ``folder`` holds no ``schedule.csv``."""
    saved = read_schedule(folder)
    if saved is None:
        raise SetupgenError(
            f"no schedule in {atomic.shown(folder)}: the rounds are ranked by the saved "
            f"{SCHEDULE_FILE} of the tournament folder they were played from; plan it there first"
        )
    return _checked(t, folder, saved)


def _checked(t: Tournament, folder: Path, saved: Schedule) -> Schedule:
    """``saved`` when it follows ``entries.csv`` and seats the last round's
    roster; else :class:`ReplanNeeded`."""
    changes = read_entries(t, folder)
    bad = entries.unplanned(changes, seated(saved))
    if bad is not None:
        raise ReplanNeeded(
            f"{folder / SCHEDULE_FILE}: round {bad} does not follow {entries.ENTRIES_FILE} "
            f"(changes recorded since it was planned)",
            max(2, bad),
        )
    last = saved.rounds()
    here = seated(saved).get(last, frozenset())
    unseated = [p.id for p in entries.roster(t.players, changes, last) if p.id not in here]
    if unseated:
        more = f" and {len(unseated) - 3} more" if len(unseated) > 3 else ""
        raise ReplanNeeded(
            f"{folder / SCHEDULE_FILE}: round {last} does not seat {', '.join(unseated[:3])}{more} "
            f"(cut short, or players added since)",
            max(2, last),
        )
    return saved


def write_schedule(t: Tournament, sched: Schedule, folder: Path, *, replace: bool = False) -> Quality:
    """Write ``schedule.csv`` and ``schedule.pdf`` (first the quality page,
    :func:`quality_listing`; per round the tables with players in starting
    order; per player a card of table and seat per round) into ``folder`` (created if missing), both or neither. Returns
    the quality.

    An existing ``schedule.csv`` holding another schedule (rounds played,
    a re-plan) is kept: :class:`SetupgenError` unless ``replace`` (the
    caller re-plans on purpose). Rewriting the same schedule is allowed."""
    from ..render import pdf

    text = sched.to_csv()
    _keep_played_schedule(folder / SCHEDULE_FILE, text, replace)
    tx = templates.texts(t.language).for_positions(t.positions)
    listings = [quality_listing(t, sched, tx)] + schedule_listings(t, sched)
    pages = listing.listing_pages(
        listings, paper=t.paper, footer=tx.get("tournament.schedule_footer", seed=schedule_seed(t))
    )
    document = pdf.svgs_to_pdf(pages)  # rendered before anything is written
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        _keep_played_schedule(folder / SCHEDULE_FILE, text, replace)  # again, under the lock
        kept = _keep_replaced_schedule(folder / SCHEDULE_FILE, text)
        try:
            atomic.write_files(folder, {"schedule.pdf": document, SCHEDULE_FILE: text.encode("utf-8")})
        except BaseException:
            if kept is not None:  # the old schedule is still in place: its copy (ours, just made) goes
                with contextlib.suppress(OSError):
                    kept.unlink()
            raise
    return sched.quality(t.everyone())


def _keep_replaced_schedule(path: Path, text: str) -> Path | None:
    """Before ``schedule.csv`` is replaced by another schedule, keep a copy
    of it as ``schedule.before-<UTC time>.csv`` beside it (a new name,
    never over a file); returns the copy (None: nothing to keep), which
    the caller removes when the new schedule is not written."""
    try:
        old = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SetupgenError(f"cannot read {atomic.shown(path)}: {exc.strerror or exc}") from None
    if old == text.encode("utf-8"):
        return None
    kept = _dated_name(path.parent, "schedule", ".csv")
    atomic.write_bytes(kept, old)
    return kept


def _dated_name(folder: Path, stem: str, suffix: str = "") -> Path:
    """An unused name ``<stem>.before-<UTC time>[-k]<suffix>`` in ``folder``
    for keeping what a new schedule replaces (a schedule, a round pack).
    Raises :class:`SetupgenError` when 99 are taken in one second."""
    import time

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    for k in range(1, 100):
        kept = folder / f"{stem}.before-{stamp}{'' if k == 1 else f'-{k}'}{suffix}"
        if not kept.exists():
            return kept
    raise SetupgenError(f"cannot keep the replaced {atomic.shown(folder / stem)}: too many copies of this second")


def _keep_played_schedule(path: Path, text: str, replace: bool) -> None:
    """Refuse to change an existing schedule file unless asked to."""
    if replace or not path.exists():
        return
    try:
        same = path.read_bytes() == text.encode("utf-8")
    except OSError as exc:
        raise SetupgenError(f"cannot read {atomic.shown(path)}: {exc.strerror or exc}") from None
    if not same:
        raise SetupgenError(
            f"{atomic.shown(path)} holds another schedule (rounds played or re-planned); it is "
            f"kept: re-plan from a round, or replace it on purpose",
            remedy="replace",
        )


def quality_listing(t: Tournament, sched: Schedule, tx: templates.Texts) -> listing.Listing:
    """The first page of ``schedule.pdf``: every measure of
    :meth:`Schedule.quality` beside its lower bound, marked optimal, a
    counting bound that may be out of reach, or the bound of that measure
    alone, which the measures before it may keep out of reach
    (docs/schedule.md)."""
    q = sched.quality(t.everyone())
    rows = []
    for key, value, bound, kind in q.rows():
        verdict = "tournament.quality_optimal" if value <= bound else f"tournament.quality_{kind}"
        rows.append((tx.get(f"tournament.quality.{key}"), str(value), str(bound), tx.get(verdict)))
    subtitle = tx.get("tournament.quality_subtitle", n=len(t.everyone()), rounds=len(sched.round_numbers()))
    return listing.Listing(
        f"{t.name} · {tx.get('tournament.quality_title')}",
        subtitle,
        (
            tx.get("tournament.quality_measure"),
            tx.get("tournament.quality_value"),
            tx.get("tournament.quality_bound"),
            "",
        ),
        (0.50, 0.08, 0.12, 0.30),
        tuple(rows),
        align=("l", "r", "r", "l"),
    )


def schedule_listings(t: Tournament, sched: Schedule) -> list[listing.Listing]:
    """The schedule's listings in the tournament's language: each round's
    tables (players in starting order, under the round's scenario name),
    then the player lookup (:func:`lookup_listing`)."""
    tx = templates.texts(t.language).for_positions(t.positions)
    names = display_names(t)
    rounds = sched.round_numbers()
    out = []
    for r in rounds:
        rows = []
        for table in range(1, sched.tables(r) + 1):
            ids = sched.table(r, table)
            rows.append(
                (
                    tx.get("tournament.table", n=table),
                    *[f"{i}. {names.get(p, p)}" for i, p in enumerate(ids, start=1)],
                    *([""] * (t.table_size - len(ids))),
                )
            )
        out.append(
            listing.Listing(
                f"{t.name} · {tx.get('tournament.round', n=r)}",
                scenario_name(t.rounds[r - 1].scenario, tx) if r <= len(t.rounds) else "",
                ("", *[tx.get("tournament.seat", n=i) for i in range(1, t.table_size + 1)]),
                (0.14,) + (0.86 / t.table_size,) * t.table_size,
                tuple(rows),
            )
        )
    out.append(lookup_listing(t, sched, tx))
    return out


def scenario_name(code: str, tx: templates.Texts) -> str:
    """A scenario's title in the language of ``tx`` (its code if the
    templates have none)."""
    from ..core import layout as layoutmod
    from ..render.sheet import scenario_title

    return scenario_title(layoutmod.load(code), tx)


def lookup_key(name: str) -> tuple[str, str]:
    """The sort key of a name in a player lookup, alphabetical the way a
    reader expects: case-insensitive, accents and umlauts sorted with their
    base letters (Unicode NFKD decomposition, combining marks dropped, then
    case folding, so "Özil" sorts as "ozil", "Ärni" beside "Arni", "ß" as
    "ss"), ties broken by the name as written. No locale is needed, so the
    order is the same on every machine."""
    base = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return base.casefold(), name


def lookup_listing(t: Tournament, sched: Schedule, tx: templates.Texts) -> listing.Listing:
    """The player lookup: every player in alphabetical order of the printed
    name (:func:`lookup_key`), with table and start position per round
    ("Table 12, start position 3", or "12 / 3" under a legend in the
    subtitle when the long form does not fit a round's column at 8 pt).
    The name column is as wide as the longest name (18-30 % of the line)."""
    names = display_names(t)
    rounds = sched.round_numbers()
    n = max(1, len(rounds))
    cw = templates.paper_size(t.paper)[0] - 2 * templates.style().margin
    longest = max((text_width(v, listing.ROW_TEXT_MM, bold=True) for v in names.values()), default=0.0)
    name_w = min(0.30, max(0.18, (longest + 2 * listing.CELL_PAD + 1.0) / cw))
    widest = tx.get("tournament.table_seat", table=max((s.table for s in sched.seats), default=1), seat=t.table_size)
    long = text_width(widest, templates.MIN_FONT_MM) <= cw * (1 - name_w) / n - 2 * listing.CELL_PAD
    key = "tournament.table_seat" if long else "tournament.table_seat_short"
    where = {(s.player, s.round): (s.table, s.seat) for s in sched.seats}
    rows = []
    for p in sorted(t.everyone(), key=lambda p: (lookup_key(names[p.id]), p.id)):
        spots = [where.get((p.id, r)) for r in rounds]
        rows.append((names[p.id], *[tx.get(key, table=s[0], seat=s[1]) if s else "-" for s in spots]))
    subtitle = tx.get("tournament.players", n=len(t.everyone()))
    if not long:
        subtitle += f" · {tx.get('tournament.table_seat_hint')}"
    return listing.Listing(
        f"{t.name} · {tx.get('tournament.player_cards')}",
        subtitle,
        ("", *[tx.get("tournament.round", n=r) for r in rounds]),
        (name_w,) + ((1 - name_w) / n,) * n,
        tuple(rows),
    )


def display_names(t: Tournament) -> dict[str, str]:
    """Player id -> the name to print, late entries (:attr:`Tournament.
    late`) included; a name that two players share gets the id in
    brackets, so standings and finals stay unambiguous."""
    count: dict[str, int] = {}
    for p in t.everyone():
        count[p.name] = count.get(p.name, 0) + 1
    return {p.id: p.name if count[p.name] == 1 else f"{p.name} ({p.id})" for p in t.everyone()}


def round_request(
    t: Tournament, sched: Schedule, number: int, *, almanac: bool = True, console: tuple[str, bytes] | None = None
) -> roundpack.RoundRequest:
    """The round pack of preliminary round ``number`` for the scheduled
    tables: each sheet names its players in starting order and plays to
    the round's threshold; with ``almanac`` each sheet has its almanac page
    (the tournament's rules for this round); with ``console`` (the
    console's base URL, the folder's key of :func:`~setupgen.tournament.
    tokens.key`) each sheet carries its table's result URL as a QR code
    (docs/console.md)."""
    rnd = t.round(number)
    if number not in sched.round_numbers():
        raise SetupgenError(f"the schedule has no round {number}")
    names = t.player_names()
    gone = sorted({s.player for s in sched.seats if s.round == number} - set(names))
    if gone:
        raise ReplanNeeded(
            f"round {number} seats {', '.join(gone)}, no longer in the players file (nor a late "
            f"entry); re-plan the schedule from round {number}",
            number,
        )
    tables = sched.tables(number)
    return roundpack.RoundRequest(
        scenario=rnd.scenario,
        tables=tables,
        seed=f"{t.seed}/r{number}",
        lang=t.language,
        paper=t.paper,
        title=t.name,
        round=number,
        table_seeds=tuple(t.table_seed(number, k) for k in range(1, tables + 1)),
        players=tuple(tuple(names.get(p, p) for p in sched.table(number, k)) for k in range(1, tables + 1)),
        victory_points=rnd.victory_points,
        almanac=t.almanac(number) if almanac else None,
        limits=t.limits(number),
        balance_line=t.balance_line(number),
        table_urls=()
        if console is None
        else tuple(tokens.table_url(console[0], console[1], number, k) for k in range(1, tables + 1)),
        results_template=results_template(t, sched, number),
        console_url=None if console is None else tokens.check_base_url(console[0]),
        positions=t.positions,
    )


def results_template(t: Tournament, sched: Schedule, number: int) -> str:
    """The rows of round ``number`` to fill in, as ``standings`` reads them
    (its extra ``name`` column is ignored there): header ``round,table,
    player,name,vp,winner``, one row per player by table and start
    position, VP and winner empty; ``\\n`` line ends."""
    return _blank_results(t, str(number), [sched.table(number, k) for k in range(1, sched.tables(number) + 1)])


def _blank_results(t: Tournament, round_cell: str, tables: Sequence[Sequence[str]]) -> str:
    """Results rows to fill in, as a round's or a finals stage's results
    file has them (a round pack's ``results-round-N.csv``, a finals pack's
    ``results-<stage>-blank.csv``, never taken for the stage's results
    file): header ``round,table,player,name,vp,winner``, then per table
    (1..) its players in order (starting order; choosing order in the
    finals), ``round_cell`` in the round column (the round's number or the
    stage's name), VP and winner empty; ``\\n`` line ends."""
    import csv
    import io

    names = display_names(t)
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(("round", "table", "player", "name", "vp", "winner"))
    for k, table in enumerate(tables, start=1):
        out.writerows((round_cell, k, p, csvcells.to_csv(names.get(p, p)), "", "") for p in table)
    return buf.getvalue()


def table_board(t: Tournament, number: int, table: int, sched: Schedule) -> Board:
    """The board of one table of a preliminary round, alone (under the
    round's balance limits, as in its pack)."""
    rnd = t.round(number)
    if not 1 <= table <= sched.tables(number):
        raise SetupgenError(f"round {number} has tables 1-{sched.tables(number)}, not {table}", field="table")
    return gen.from_seed_within(rnd.scenario, t.table_seed(number, table), t.limits(number))


def table_sheet(t: Tournament, number: int, table: int, sched: Schedule) -> tuple[Board, object]:
    """One table of preliminary round ``number`` as its round pack has it:
    the board and the sheet's context (players in starting order, the
    round's threshold), for reprinting that table alone."""
    from ..core import layout as layoutmod

    board = table_board(t, number, table, sched)
    request = round_request(t, sched, number)
    return board, roundpack.table_context(request, table, board, layoutmod.load(request.scenario))


@dataclasses.dataclass(frozen=True, slots=True)
class Gathered:
    """The results of the round packs' filled-in files
    (:func:`gather_results`), standing in for one results file: ``text``
    (a results CSV) and ``source`` (what they were read from, for messages)."""

    text: str
    source: str

    def __str__(self) -> str:
        return self.source


def gather_results(t: Tournament, sched: Schedule, folder: Path) -> Gathered:
    """The results the command line's day has typed into the packs: each
    round's ``round-N/results-round-N.csv`` (rows with VP filled in) and
    the tournament folder's ``results.csv`` (the console's), as one
    results file. A game in two files with different values is refused,
    naming both; a game in two files alike counts once. Raises
    :class:`SetupgenError` when none holds a result."""
    files = [folder / f"round-{n}" / f"results-round-{n}.csv" for n in sched.round_numbers()] + [folder / RESULTS_FILE]
    found = _gather(files, f"the results files of the round packs in {atomic.shown(folder)}")
    if found is None:
        raise SetupgenError(
            f"no results yet: fill in the round packs' results-round-N.csv in "
            f"{atomic.shown(folder)} (or give a results file)"
        )
    return found


def gather_stage_results(folder: Path, stage: str) -> Gathered:
    """A finals stage's results as the command line's day types them: the
    rows filled in (VP given) in the stage pack's own blank,
    ``<stage>/results-<stage>-blank.csv``, and the tournament folder's
    ``results-<stage>.csv`` (the console's, or one typed by hand), as one
    results file; a game in both with different values is refused, naming
    both. Raises :class:`SetupgenError` when neither holds a result."""
    pack_file = folder / stage / f"results-{stage}-blank.csv"
    found = _gather([pack_file, folder / STAGE_RESULTS[stage]], f"the {stage} results in {atomic.shown(folder)}")
    if found is None:
        raise SetupgenError(
            f"no {stage} results yet: fill in VP and winner in {atomic.shown(pack_file)} "
            f"(or give the {stage}'s results file)"
        )
    return found


def _gather(files: Sequence[Path], source: str) -> Gathered | None:
    """The rows with VP filled in of those ``files`` that exist, as one
    results file (``round,table,player,vp,winner,status``), or None when
    none has one. Raises :class:`SetupgenError` for a game with other
    values in two files, naming both."""
    import csv
    import io

    rows: dict[tuple[str, str, str], tuple[tuple[str, ...], Path]] = {}
    for path in (p for p in files if p.is_file()):
        reader = csv.DictReader(io.StringIO(nfc(read_text(path, "results file"))))
        for row in reader:
            if not (row.get("vp") or "").strip():
                continue  # a blank row of the pack's template
            key = (row.get("round") or "", row.get("table") or "", row.get("player") or "")
            value = tuple((row.get(c) or "").strip() for c in ("vp", "winner", "status"))
            if key in rows and rows[key][0] != value:
                raise SetupgenError(
                    f"round {key[0]} table {key[1]} player {key[2]} has other values in "
                    f"{atomic.shown(rows[key][1])} than in {atomic.shown(path)}; keep one"
                )
            rows.setdefault(key, (value, path))
    if not rows:
        return None
    lines = ["round,table,player,vp,winner,status"]
    lines += [",".join((*key, *value)) for key, (value, _) in rows.items()]
    return Gathered("\n".join(lines) + "\n", source)


def results_of(t: Tournament, sched: Schedule, results_path: str | Path | Gathered) -> tuple[GameResult, ...]:
    """Read a results file (or the packs' results gathered,
    :func:`gather_results`) checked against the players and the schedule."""
    from . import standings as st

    if isinstance(results_path, Gathered):
        text, source = results_path.text, results_path.source
    else:
        text, source = read_text(Path(results_path), "results file"), str(results_path)
    tables = {(s.round, s.table): frozenset(sched.table(s.round, s.table)) for s in sched.seats}
    known = {p.id for p in t.players} | {s.player for s in sched.seats}
    return st.read_results(text, source=source, players=known, thresholds=t.thresholds(), tables=tables)


def tables_without_results(sched: Schedule, results: Sequence[GameResult]) -> list[tuple[int, int]]:
    """The scheduled ``(round, table)`` pairs with no row in ``results``
    (:func:`results_of`), in order."""
    have = {(r.round, r.table) for r in results}
    return sorted({(s.round, s.table) for s in sched.seats} - have)


def rank_players(t: Tournament, sched: Schedule, results_path: str | Path | Gathered) -> tuple[Standing, ...]:
    """The standings of a results file alone (nothing rendered): what the
    finals are seated from. Raises :class:`SetupgenError`."""
    return _ranked(t, sched, results_path)[0]


def _ranked(
    t: Tournament, sched: Schedule, results_path: str | Path | Gathered
) -> tuple[tuple[Standing, ...], tuple[GameResult, ...], Scoring]:
    from . import standings as st

    results = results_of(t, sched, results_path)
    scoring = Scoring(dict(t.placing_points), t.tie_breakers)
    return st.standings(results, scoring=scoring, thresholds=t.thresholds(), seed=t.seed), results, scoring


def make_standings(
    t: Tournament, sched: Schedule, results_path: str | Path | Gathered
) -> tuple[tuple[Standing, ...], str, list[str]]:
    """The standings from a results file: (standings, CSV text, PDF pages)."""
    from . import standings as st

    ranked, results, scoring = _ranked(t, sched, results_path)
    table = standings_listing(t, ranked, st.round_points(results, scoring))
    return ranked, st.standings_csv(ranked, t.tie_breakers), listing.render_listing(table, paper=t.paper)


def standings_listing(
    t: Tournament, ranked: Sequence[Standing], per_round: dict[str, dict[int, Fraction]]
) -> listing.Listing:
    """The standings as a listing, titled "after round N" (the last round
    with results): rank, player, the placing points of each round (R1,
    R2, ...; "-" for a round not played), then the totals and tie-breakers,
    a rule under the last finalist (the tournament file's ``[final]
    players``) when others follow. Numbers are right-aligned and written with the language's decimal
    mark from CLDR (10,5 in ``de``, 10.5 in ``de-CH``, :mod:`setupgen.core.cldr`); ``per_round`` is
    :func:`~setupgen.tournament.standings.round_points`."""
    from . import standings as st

    tx = templates.texts(t.language).for_positions(t.positions)
    mark = cldr.decimal_mark(tx)
    rounds = sorted({r for points in per_round.values() for r in points})
    names = display_names(t)

    def number(text: str) -> str:
        return text.replace(".", mark)

    keys = st.key_columns(t.tie_breakers)
    if "placing_points" not in keys:
        rounds = []  # the round columns are placing points: shown where they rank
    rows = tuple(
        (
            str(s.rank),
            names.get(s.player, s.player),
            *[
                number(st.format_points(per_round[s.player][r])) if r in per_round.get(s.player, {}) else "-"
                for r in rounds
            ],
            *[number(st.key_text(s, k)) for k in keys],
            str(s.games),
            "" if s.lots is None else str(s.lots),
        )
        for s in st.trimmed(ranked)
    )
    head = tuple(tx.get(f"tournament.standings_head.{k}") for k in ("rank", "player", *keys, "games", "lot"))
    round_w = min(0.07, 0.26 / max(1, len(rounds)))
    key_w = [KEY_WIDTHS[k] for k in keys]  # thousandths, so the default's widths are the same floats as ever
    name_w = (810 - sum(key_w)) / 1000
    widths = (0.05, name_w - round_w * len(rounds), *[round_w] * len(rounds), *[w / 1000 for w in key_w], 0.085, 0.055)
    title = tx.get("tournament.standings_after", n=rounds[-1]) if rounds else tx.get("tournament.standings")
    subtitle = f"{t.name} · {t.seed}" + (f" · {tx.get('tournament.round_points_hint')}" if rounds else "")
    cut = finals_cut(t, len(rows))
    if cut is not None:
        subtitle += f" · {tx.get('tournament.finals_cut', n=cut)}"
    return listing.Listing(
        title,
        subtitle,
        (head[0], head[1], *[tx.get("tournament.round_points", n=r) for r in rounds], *head[2:]),
        widths,
        rows,
        align=("r", "l", *["r"] * (len(rounds) + len(keys) + 2)),
        rules_after=() if cut is None else (cut - 1,),
    )


def finals_cut(t: Tournament, ranked: int) -> int | None:
    """How many of ``ranked`` players reach the finals, where some do not
    (the rule under the last finalist); None without finals, with too few
    ranked players for them, or when everyone reaches them."""
    if t.final is None:
        return None
    try:
        count = t.final.finalists(ranked)
    except SetupgenError:
        return None
    return count if count < ranked else None


def expected_finalists(t: Tournament) -> int:
    """The finalists the tournament file's ``[final]`` expects before the
    standings are known: its ``players``, or by attendance as many as the
    entered field (players and late entries) would give (4 for a field
    the rule would refuse). Raises :class:`SetupgenError` without a
    ``[final]``."""
    if t.final is None:
        raise SetupgenError(f"{t.path}: the tournament file has no [final] section")
    try:
        return t.final.finalists(len(t.players) + len(t.late))
    except SetupgenError:
        return 4 if t.final.players == BY_ATTENDANCE else int(t.final.players)


def finals_format_line(t: Tournament, ranked: int) -> str:
    """One line saying which finals format the tournament plays with
    ``ranked`` players and why: ``finals: semi-finals of 16, then a final
    of 4 (29 ranked players; by attendance)``. Raises :class:`SetupgenError`
    as :meth:`~setupgen.tournament.model.Final.finalists`."""
    if t.final is None:
        raise SetupgenError(f"{t.path}: the tournament file has no [final] section")
    count = t.final.finalists(ranked)
    what = {4: "a final of 4", 8: "a final of 8 on two tables", 16: "semi-finals of 16, then a final of 4"}[count]
    why = "by attendance" if t.final.players == BY_ATTENDANCE else "[final] players"
    return f"finals: {what} ({ranked} ranked players; {why})"


def write_standings(
    t: Tournament, sched: Schedule, results_path: str | Path | Gathered, folder: Path
) -> tuple[Standing, ...]:
    """:func:`make_standings`, written as ``standings.csv`` and
    ``standings.pdf`` into ``folder`` (created if missing; both rendered
    before either is written, then both or neither written). Returns the
    standings."""
    from ..render import pdf

    ranked, csv_text, pages = make_standings(t, sched, results_path)
    document = pdf.svgs_to_pdf(pages)
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        atomic.write_files(folder, {"standings.csv": csv_text.encode("utf-8"), "standings.pdf": document})
    return ranked


def finals_request(
    t: Tournament,
    sched: Schedule,
    results_path: str | Path | Gathered,
    players: int | None,
    winners: Sequence[str] = (),
    *,
    almanac: bool = True,
) -> tuple[roundpack.RoundRequest, tuple[tuple[str, ...], ...]]:
    """The finals' tables from the standings (16: semi-finals 1-8-9-16 ...;
    8: 1-4-5-8 / 2-3-6-7; 4: one table of the top four; ``players`` None:
    as the tournament file's ``[final] players`` says for the players
    ranked, :meth:`~setupgen.tournament.model.Final.finalists`), or with ``winners`` the final of those
    semi-final winners; and the round pack of the final's scenario (tables
    seeded ``<seed>/final/t<t>``). Each sheet lists its players in choosing
    order, best rank first (the order they choose their starting positions
    in), each name followed by the player's rank ("Anna Meier · rank 1").
    With ``almanac`` each sheet has its almanac page (:meth:`Tournament.
    almanac` of the stage). Raises :class:`SetupgenError` when
    ``players`` is not the tournament file's ``[final] players`` or a
    scheduled table has no result (the finals are seated from complete
    preliminary rounds, as the console requires)."""
    from . import standings as st

    if t.final is None:
        raise SetupgenError(f"{t.path}: the tournament file has no [final] section")
    if players is not None and t.final.players != BY_ATTENDANCE and players != t.final.players:
        raise SetupgenError(
            f"the tournament file's [final] seats {t.final.players} finalists, not {players}; "
            f"change players there to seat {players}",
            field="players",
        )
    _check_complete(t, sched, results_path)
    ranked = rank_players(t, sched, results_path)
    ranking = [s.player for s in ranked]
    count = t.final.finalists(len(ranking))
    if players is not None and players != count:
        raise SetupgenError(
            f"the attendance rule seats {count} finalists for {len(ranking)} ranked players, not {players}",
            field="players",
        )
    players = count
    if winners:
        if players != 16:
            raise SetupgenError("semi-final winners are seated in the final of 16 finalists", field="winners")
        tables: tuple[tuple[str, ...], ...] = (_final_of_named_winners(ranking, winners),)
        label = FINAL
    else:
        tables = st.finals_tables(ranking, players)
        label = SEMI_FINAL if players == 16 else FINAL
    return _finals_pack(t, tables, label, ranking, almanac), tables


def _check_complete(t: Tournament, sched: Schedule, results_path: str | Path | Gathered) -> None:
    """Every scheduled preliminary table has a result. Raises
    :class:`SetupgenError` naming the first tables without one."""
    missing = tables_without_results(sched, results_of(t, sched, results_path))
    if missing:
        shown = ", ".join(f"round {r} table {k}" for r, k in missing[:5]) + (" ..." if len(missing) > 5 else "")
        raise SetupgenError(
            f"the finals are seated from every preliminary table's result: {len(missing)} "
            f"table{'s' if len(missing) != 1 else ''} without one in {results_path} ({shown})"
        )


def _finals_pack(
    t: Tournament, tables: tuple[tuple[str, ...], ...], label: str, ranking: Sequence[str], almanac: bool
) -> roundpack.RoundRequest:
    """The round pack of a finals stage's ``tables``: names with their
    rank, the final's scenario, seeds and almanac, a blank results file
    (``results-<stage>-blank.csv``)."""
    assert t.final is not None
    tx = templates.texts(t.language).for_positions(t.positions)
    rank = {p: n for n, p in enumerate(ranking, start=1)}
    # a disqualified player has left the standings, so has no rank (and no finals seat)
    names = {p: f"{name} · {tx.get('tournament.rank', n=rank[p])}" for p, name in display_names(t).items() if p in rank}
    return roundpack.RoundRequest(
        scenario=t.final.scenario,
        tables=len(tables),
        seed=f"{t.seed}/{label}",
        lang=t.language,
        paper=t.paper,
        title=t.name,
        stage=label,
        table_seeds=tuple(t.final_seed(k, label) for k in range(1, len(tables) + 1)),
        players=tuple(tuple(names.get(p, p) for p in table) for table in tables),
        seating="choose",
        victory_points=t.final.victory_points,
        almanac=t.almanac(None, label) if almanac else None,
        limits=t.limits(None),
        balance_line=t.balance_line(None),
        results_template=_blank_results(t, label, tables),
        positions=t.positions,
    )


def _final_of_named_winners(ranking: Sequence[str], winners: Sequence[str]) -> tuple[str, ...]:
    """The final of the semi-final ``winners`` a director names, checked
    against the semi-finals' seating: one winner of each table. Raises
    :class:`SetupgenError` (``field="winners"``)."""
    from . import standings as st

    semis = st.finals_tables(ranking, 16)
    strays = [w for w in winners if not any(w in table for table in semis)]
    if strays:
        raise SetupgenError(
            f"name the {len(semis)} semi-final winners; {', '.join(strays)} did not play a semi-final", field="winners"
        )
    for k, table in enumerate(semis, start=1):
        won = [w for w in winners if w in table]
        if len(won) != 1:
            raise SetupgenError(
                f"give exactly one winner of each semi-final: table {k} "
                f"({', '.join(table)}) has {len(won)} among the winners",
                field="winners",
            )
    return st.final_of_winners(list(winners), ranking)


#: the finals' results files in the tournament folder, by stage (docs/rules.md section 6, "Final placings")
STAGE_RESULTS = {SEMI_FINAL: "results-semi-final.csv", FINAL: "results-final.csv"}
#: columns of the placings listing (template keys under ``tournament.placings_head``)
PLACINGS_COLUMNS = ("place", "player", "stage", "table", "vp", "rank", "decided_by")


def finals_ranking(t: Tournament, sched: Schedule, results_path: str | Path | Gathered) -> list[str]:
    """The preliminary standings' players, best first, from the results
    file (the ranking the finals are seated from). Raises
    :class:`SetupgenError` without a ``[final]`` section."""
    if t.final is None:
        raise SetupgenError(f"{t.path}: the tournament file has no [final] section")
    ranked = rank_players(t, sched, results_path)
    return [s.player for s in ranked]


def stage_results_of(
    t: Tournament,
    ranking: Sequence[str],
    stage: str,
    path: str | Path | Gathered,
    semi_finals: Sequence[GameResult] = (),
) -> tuple[GameResult, ...]:
    """A finals stage's results file (``round`` column: the stage's name),
    checked as a preliminary results file is (``read_results``), against
    the stage's seating (:func:`~setupgen.tournament.placings.stage_tables`;
    the final of 16 needs ``semi_finals``, their results) and the final's
    threshold. Raises :class:`SetupgenError`."""
    from . import placings as pl
    from . import standings as st

    if t.final is None:
        raise SetupgenError(f"{t.path}: the tournament file has no [final] section")
    tables = pl.stage_tables(ranking, t.final.finalists(len(ranking)), stage, semi_finals)
    text = path.text if isinstance(path, Gathered) else read_text(Path(path), "results file")
    expected = {(st.STAGE_ROUND, k): frozenset(table) for k, table in enumerate(tables, start=1)}
    return st.read_results(
        text,
        source=str(path),
        players=frozenset(ranking),
        thresholds={st.STAGE_ROUND: t.final.victory_points},
        tables=expected,
        stage=stage,
    )


def make_placings(
    t: Tournament,
    sched: Schedule,
    results_path: str | Path | Gathered,
    final_path: str | Path | Gathered,
    semi_path: str | Path | Gathered | None = None,
) -> tuple[tuple[Placing, ...], str, list[str]]:
    """The final placings from the preliminary results and the finals'
    results files (``semi_path`` with 16 finalists): (placings, CSV text,
    PDF pages). Raises :class:`SetupgenError`."""
    from . import placings as pl

    ranking = finals_ranking(t, sched, results_path)
    assert t.final is not None  # finals_ranking checked it
    count = t.final.finalists(len(ranking))
    semis: tuple[GameResult, ...] = ()
    if count == 16:
        if semi_path is None:
            raise SetupgenError("the placings of 16 finalists need the semi-finals' results", needs="semi_finals")
        semis = stage_results_of(t, ranking, pl.SEMI_FINAL, semi_path)
    elif semi_path is not None:
        raise keyed(SetupgenError, "final_without_semis", players=count, field="semi_finals")
    final = stage_results_of(t, ranking, pl.FINAL, final_path, semis)
    scoring = Scoring(dict(t.placing_points), t.tie_breakers)
    placed = pl.placings(ranking, count, final, semis, scoring=scoring, threshold=t.final.victory_points)
    return placed, pl.placings_csv(placed), listing.render_listing(placings_listing(t, placed), paper=t.paper)


def placings_listing(t: Tournament, placed: Sequence[Placing]) -> listing.Listing:
    """The final placings as a listing: place, player, where it was
    decided (final, semi-final, preliminary rounds), the finals table,
    the VP there, the preliminary rank and what put the place ahead of the
    next (:attr:`~setupgen.tournament.placings.Placing.decided_by`)."""
    tx = templates.texts(t.language).for_positions(t.positions)
    names = display_names(t)
    stage = {
        FINAL: tx.get("tournament.final"),
        SEMI_FINAL: tx.get("tournament.semi_final"),
        PRELIMINARY: tx.get("tournament.preliminary"),
    }
    rows = tuple(
        (
            str(p.place),
            names.get(p.player, p.player),
            stage[p.stage],
            "" if p.table is None else str(p.table),
            "" if p.vp is None else str(p.vp),
            str(p.rank),
            tx.get(f"tournament.decided_by.{p.decided_by}") if p.decided_by else "",
        )
        for p in placed
    )
    head = tuple(tx.get(f"tournament.placings_head.{k}") for k in PLACINGS_COLUMNS)
    return listing.Listing(
        tx.get("tournament.placings"),
        f"{t.name} · {t.seed}",
        head,
        (0.07, 0.28, 0.15, 0.07, 0.06, 0.15, 0.22),
        rows,
        align=("r", "l", "l", "r", "r", "r", "l"),
    )


def write_placings(
    t: Tournament,
    sched: Schedule,
    results_path: str | Path | Gathered,
    folder: Path,
    final_path: str | Path | Gathered,
    semi_path: str | Path | Gathered | None = None,
) -> tuple[Placing, ...]:
    """:func:`make_placings`, written as ``placings.csv`` and
    ``placings.pdf`` into ``folder`` (both rendered first, then both or
    neither written; never over a file setupgen did not write). Returns
    the placings."""
    from ..render import pdf

    placed, csv_text, pages = make_placings(t, sched, results_path, final_path, semi_path)
    document = pdf.svgs_to_pdf(pages)
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        atomic.write_files(folder, {"placings.csv": csv_text.encode("utf-8"), "placings.pdf": document})
    return placed
