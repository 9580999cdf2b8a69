"""The audit log as a person reads it (docs/console.md, "Audit log"):
who, what, when (in the event's time zone), names instead of ids, the
result before and after, filtered by round, table, player and kind, and
the same rows as ``/audit.csv`` (cells safe in a spreadsheet,
:mod:`setupgen.core.cells`).

Shapes: an :class:`~setupgen.console.store.AuditEntry` becomes a
:class:`Line`; a result's record (``{"players": [...], "vp": [...],
"winner": seat}``) reads ``Anna 10 ★, Beat 7, Carla 5, Dario 3``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core import cells
from ..core.errors import SetupgenError
from ..tournament.games import PRELIMINARY
from .clock import format_left
from .store import AuditEntry
from .words import Words, local_time

__all__: Sequence[str] = ("Line", "Filter", "lines", "to_csv", "who", "CSV_COLUMNS")

CSV_COLUMNS = ("when", "by", "stage", "round", "table", "what", "before", "after", "players")


@dataclass(frozen=True, slots=True)
class Line:
    """One change as shown: when (local), by whom, the game (``Round 2``,
    ``final``; empty for the day's notes), its table (0: none), the kind
    (the entry's action), what in words, the result before and after, and
    the ids it concerns."""

    when: str
    by: str
    stage: str
    round: int
    table: int
    kind: str
    what: str
    before: str
    after: str
    players: frozenset[str]
    #: the game in words (``Round 2 · table 3``, ``Final · table 1``; empty for the day's notes)
    game: str = ""


@dataclass(frozen=True, slots=True)
class Filter:
    """What the log shows: a round (preliminary), a table, a player (id),
    a kind of change; None: any."""

    round: int | None = None
    table: int | None = None
    player: str | None = None
    kind: str | None = None

    def keeps(self, line: Line) -> bool:
        """Whether ``line`` passes every given condition."""
        return (
            (self.round is None or (line.stage == PRELIMINARY and line.round == self.round))
            and (self.table is None or line.table == self.table)
            and (self.player is None or self.player in line.players)
            and (self.kind is None or line.kind == self.kind)
        )


def _record(text: str) -> dict:
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _result(record: dict, names: Mapping[str, str]) -> str:
    """A result's record in words: ``Anna 10 ★, Beat 7, ...`` (empty for none)."""
    players, vp = record.get("players"), record.get("vp")
    if not isinstance(players, list) or not isinstance(vp, list):
        return ""
    winner = record.get("winner")
    return ", ".join(
        f"{names.get(str(p), str(p))} {v}{' ★' if k == winner else ''}"
        for k, (p, v) in enumerate(zip(players, vp), start=1)
    )


def _what(entry: AuditEntry, old: dict, new: dict, names: Mapping[str, str], w: Words) -> str:
    """The change in words (the table's results: its kind; a note: what it recorded)."""
    kind, record = entry.action, new or old
    values: dict[str, object] = {}
    if kind in ("leave", "join", "remove-change"):
        pid = str(record.get("id", ""))
        values = {"name": f"{names.get(pid, record.get('name') or pid)} ({pid})", "round": record.get("from_round", "")}
    elif kind == "replan":
        values = {"round": record.get("from_round", entry.round)}
    elif kind == "withdraw-pack":
        values = {"kept": record.get("kept_as", "")}
    elif kind.startswith("clock-"):
        seconds, used = int(record.get("seconds", 0) or 0), float(record.get("used", 0) or 0)
        values = {"minutes": seconds // 60, "left": format_left(max(0, round(seconds - used)))}
    elif kind in ("announce", "unannounce"):
        values = {"text": record.get("text", "")}
    elif kind == "time-added":
        values = {"minutes": record.get("minutes", "")}
    try:
        return str(w.tx.get(f"console.audit.{kind}", **values))
    except (SetupgenError, KeyError, IndexError, ValueError):  # an action of a newer setupgen: as it is
        return kind


def who(by: str, w: Words) -> str:
    """Who made a change, in words (``director``, ``table``, ``import``;
    an unknown one as it is)."""
    try:
        return str(w.tx.get(f"console.audit.{by}"))
    except SetupgenError:
        return by


def _game(entry: AuditEntry, w: Words) -> str:
    """The game an entry is about, in words: ``Round 2 · table 3``,
    ``Final · table 1``, ``Round 2`` (a note of a round), or empty."""
    from ..render.sheet import stage_word

    if entry.stage == PRELIMINARY:
        game = str(w("director.round_n", n=entry.round)) if entry.round else ""
    else:
        try:
            game = stage_word(entry.stage, w.tx)
        except SetupgenError:  # a stage of a newer setupgen: as it is
            game = entry.stage
    return str(w("director.game_table", game=game, n=entry.table)) if entry.table else game


def lines(
    entries: Sequence[AuditEntry], names: Mapping[str, str], zone: str | None, w: Words, keep: Filter = Filter()
) -> list[Line]:
    """The entries (newest first, as stored) as :class:`Line`, those ``keep`` passes."""
    out = []
    for e in entries:
        old, new = _record(e.old), _record(e.new)
        ids = {str(p) for r in (old, new) for p in (r.get("players") or [])}
        if e.action in ("leave", "join", "remove-change") and "id" in (new or old):
            ids.add(str((new or old)["id"]))  # the player the change is about
        none = str(w.tx.get("console.audit.none"))
        before = _result(old, names) or ("" if e.table == 0 else none)
        after = _result(new, names) or ("" if e.table == 0 else none)
        line = Line(
            local_time(e.at, zone, w.tx),
            who(e.by, w),
            e.stage,
            e.round,
            e.table,
            e.action,
            _what(e, old, new, names, w),
            before,
            after,
            frozenset(ids),
            _game(e, w),
        )
        if keep.keeps(line):
            out.append(line)
    return out


def to_csv(shown: Sequence[Line], names: Mapping[str, str]) -> str:
    """The lines as CSV (:data:`CSV_COLUMNS`; ``\\n`` line ends; every text
    cell neutralised for a spreadsheet)."""
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for x in shown:
        who = "; ".join(sorted(names.get(p, p) for p in x.players))
        out.writerow(
            [
                cells.to_csv(str(v))
                for v in (x.when, x.by, x.stage, x.round, x.table or "", x.what, x.before, x.after, who)
            ]
        )
    return buf.getvalue()
