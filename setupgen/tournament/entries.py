"""Drop-outs and late entries: ``entries.csv`` in the tournament folder, the
file setupgen keeps of who left or joined from which round, so that the
director's players file is never written (docs/schedule.md, "Drop-outs
and late entries"). A pure module: text in, values out, no I/O.

Format (UTF-8, header required, one change a line, in the order they were
recorded)::

    change,from_round,id,name,group
    left,2,ch07,,
    joined,2,late1,Late Entry,Basel

* ``left``: player ``id`` (of the players file, or a late entry) plays no
  round from ``from_round`` on; name and group stay empty. The player must
  still be in: playing round ``from_round - 1``. A drop-out keeps the
  results of the rounds played (the standings rank them as any others).
* ``joined``: a late entry ``id`` with ``name`` (and optional ``group``)
  plays every round from ``from_round`` on. The id follows the players
  file's rules (:func:`~setupgen.tournament.model.player_problem`) and
  must be new: neither in the players file nor joined before. A player who
  left does not come back (leaving is final; a return would be a new id).
* ``from_round`` is the first round the change applies to: 2 or later
  (round 1 is the players file).

Errors are :class:`EntriesError` (a :class:`~setupgen.tournament.model.
TournamentError`) with one lowercase message naming the line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..core import cells as csvcells
from ..core.limits import MAX_ROUND, nfc
from ..core.messages import Problem
from .model import MAX_PLAYERS, Player, TournamentError, player_problem

ENTRIES_FILE = "entries.csv"
COLUMNS = ("change", "from_round", "id", "name", "group")
HEADER = ",".join(COLUMNS) + "\n"
LEFT, JOINED = "left", "joined"
CHANGES = (LEFT, JOINED)
#: most lines an entries file may hold (as many as players a tournament may have)
MAX_ENTRIES = MAX_PLAYERS


class EntriesError(TournamentError):
    """An entries file or a change is malformed or does not fit the players."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One change: ``change`` (``left`` or ``joined``) of player ``player``
    (an id) from round ``from_round`` (>= 2) on; ``name`` and ``group`` of
    a late entry (``name`` empty and ``group`` None for ``left``). Raises
    :class:`EntriesError` for a field that breaks these rules."""

    change: str
    from_round: int
    player: str
    name: str = ""
    group: str | None = None

    def __post_init__(self) -> None:
        for name in ("player", "name", "group"):  # one Unicode form for every id and name (issue 46)
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, nfc(value))
        problem = _entry_problem(self)
        if isinstance(problem, Problem):
            raise problem.error(EntriesError)
        if problem is not None:
            raise EntriesError(problem, field="from_round" if problem.startswith("from_round") else None)

    def as_player(self) -> Player:
        """A late entry as the players file would hold it."""
        return Player(self.player, self.name, self.group)

    def describe(self) -> str:
        """One line for a person: ``ch07 leaves from round 2``, ``late1 (Late Entry) joins from round 2``."""
        if self.change == LEFT:
            return f"{self.player} leaves from round {self.from_round}"
        return f"{self.player} ({self.name}) joins from round {self.from_round}"


def _entry_problem(e: Entry) -> str | Problem | None:
    if e.change not in CHANGES:
        return f"change {e.change!r} is not one of {', '.join(CHANGES)}"
    if type(e.from_round) is not int or not 2 <= e.from_round <= MAX_ROUND:
        return f"from_round must be a round from 2 to {MAX_ROUND}, got {e.from_round!r}"
    if not all(isinstance(x, str) for x in (e.player, e.name)) or not isinstance(e.group, (str, type(None))):
        return "id, name and group must be text"
    if any(x != x.strip() for x in (e.player, e.name, e.group or "")) or e.group == "":
        return "id, name and group must not start or end with spaces (no group: none, not empty)"
    if e.change == LEFT:
        if e.name or e.group is not None:
            return "a left line takes no name or group (they come from the players file)"
        return player_problem(e.player, "-", None)
    return player_problem(e.player, e.name, e.group)


@dataclass(frozen=True, slots=True)
class Entries:
    """The changes of an entries file, in file order. Consistent among
    themselves when made by :meth:`from_csv` or :meth:`added`, and with the
    players file when those were given it."""

    items: tuple[Entry, ...] = ()

    def __post_init__(self) -> None:
        if not all(isinstance(e, Entry) for e in self.items):
            raise EntriesError("entries must be Entry values")
        if len(self.items) > MAX_ENTRIES:
            raise EntriesError(f"more than {MAX_ENTRIES} changes")

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.items)

    @classmethod
    def from_csv(cls, text: str, players: Sequence[Player] | None = None) -> Entries:
        """Parse an entries file (header :data:`HEADER`'s columns, in any
        order; UTF-8 text already decoded). With ``players`` (the players
        file) every change is also checked against them (:meth:`check`).
        Raises :class:`EntriesError` naming the line."""
        reader = csv.DictReader(io.StringIO(text), strict=True)
        try:
            fields = [f.strip().lower() for f in (reader.fieldnames or [])]
            if sorted(fields) != sorted(COLUMNS):
                raise EntriesError(f"line 1: the header must be {HEADER.strip()}")
            reader.fieldnames = fields
            items, lines = _rows(reader)
        except csv.Error as exc:
            raise EntriesError(
                f"line {reader.line_num + 1}: unreadable csv ({str(exc).lower()}; is a quote not closed?)"
            ) from None  # line_num counts the rows read before it
        found = cls(tuple(items))
        found.check(() if players is None else players, [f"line {n}: " for n in lines], players is not None)
        return found

    def to_csv(self) -> str:
        """The entries file: :data:`HEADER`, then a line per change, ``\\n`` line ends."""
        buf = io.StringIO()
        out = csv.writer(buf, lineterminator="\n")
        out.writerow(COLUMNS)
        out.writerows(
            (e.change, e.from_round, e.player, csvcells.to_csv(e.name), csvcells.to_csv(e.group or ""))
            for e in self.items
        )  # names safe in a spreadsheet, read back by _rows
        return buf.getvalue()

    def check(self, players: Sequence[Player], labels: Sequence[str] | None = None, known: bool = True) -> None:
        """Raise :class:`EntriesError` unless every change fits the ones
        before it and ``players`` (the players file; with ``known`` False a
        ``left`` of an id not joined here is taken to be one of them): a
        joined id new, a ``left`` naming a player who plays the round
        before, not two ``left`` of one player, at most :data:`MAX_PLAYERS`
        players in all. ``labels`` prefix each change's message (``line 3: ``)."""
        ids = {p.id for p in players}
        joined: dict[str, int] = {}
        left: dict[str, int] = {}
        for k, e in enumerate(self.items):
            where = labels[k] if labels is not None else ""
            problem = _fits(e, ids, joined, left, known)
            if problem is not None:
                raise EntriesError(where + problem)
            (joined if e.change == JOINED else left)[e.player] = e.from_round
        if len(ids) + len(joined) > MAX_PLAYERS:
            raise EntriesError(f"more than {MAX_PLAYERS} players with the late entries")

    def added(self, entry: Entry, players: Sequence[Player]) -> Entries:
        """These entries and ``entry`` after them, checked against
        ``players`` (the players file). Raises :class:`EntriesError`."""
        new = Entries(self.items + (entry,))
        new.check(players)
        return new

    def joined(self) -> tuple[Player, ...]:
        """Every late entry, in file order (those who left again included)."""
        return tuple(e.as_player() for e in self.items if e.change == JOINED)

    def rounds(self) -> tuple[int, ...]:
        """The rounds changes apply from, ascending, each once."""
        return tuple(sorted({e.from_round for e in self.items}))


def _rows(reader: csv.DictReader[str]) -> tuple[list[Entry], list[int]]:
    items: list[Entry] = []
    lines: list[int] = []
    for row in reader:
        line = reader.line_num
        if None in row or None in row.values():
            raise EntriesError(f"line {line}: expected {len(COLUMNS)} cells ({HEADER.strip()})")
        if len(items) >= MAX_ENTRIES:
            raise EntriesError(f"line {line}: more than {MAX_ENTRIES} changes")
        cells = {k: (v or "").strip() for k, v in row.items()}
        number = cells["from_round"]
        if not (number.isascii() and number.isdigit() and len(number) <= 6):
            raise EntriesError(f"line {line}: from_round {number[:20]!r} is not a round number")
        try:
            items.append(
                Entry(
                    cells["change"].lower(),
                    int(number),
                    cells["id"],
                    csvcells.from_csv(cells["name"]),
                    csvcells.from_csv(cells["group"]) or None,
                )
            )
        except EntriesError as exc:
            raise EntriesError(f"line {line}: {exc}") from None
        lines.append(line)
    return items, lines


def _fits(
    e: Entry, ids: Collection[str], joined: Mapping[str, int], left: Mapping[str, int], known: bool
) -> str | None:
    """Why ``e`` does not fit the players file ``ids`` and the changes
    before it (late entries ``joined``, drop-outs ``left``: id -> round)."""
    if e.change == JOINED:
        if e.player in ids:
            return f"late entry {e.player!r} is already in the players file"
        if e.player in joined:
            return f"late entry {e.player!r} has joined already (from round {joined[e.player]})"
        return None
    if e.player in left:
        return f"{e.player!r} has left already (from round {left[e.player]})"
    if e.player in joined:
        if e.from_round <= joined[e.player]:
            return f"{e.player!r} joins from round {joined[e.player]}, so cannot leave from round {e.from_round}"
        return None
    if known and e.player not in ids:
        return f"{e.player!r} is neither in the players file nor a late entry"
    return None


def roster(players: Sequence[Player], entries: Entries, round_number: int) -> tuple[Player, ...]:
    """The players of round ``round_number``: the players file's (its
    order) without those who left from that round or before, then the late
    entries who joined by then (file order) and have not left. ``entries``
    are checked against ``players`` first. Raises :class:`EntriesError`."""
    if type(round_number) is not int or round_number < 1:
        raise EntriesError(f"a round number is 1 or more, got {round_number!r}")
    entries.check(players)
    gone = {e.player for e in entries if e.change == LEFT and e.from_round <= round_number}
    late = [e.as_player() for e in entries if e.change == JOINED and e.from_round <= round_number]
    return tuple(p for p in (*players, *late) if p.id not in gone)


def unplanned(entries: Entries, seated: Mapping[int, Collection[str]]) -> int | None:
    """The first round of ``seated`` (round -> the ids it seats) that does
    not follow ``entries``: seating a player from the round he left from,
    seating a late entry outside the rounds from his joining to his leaving,
    or leaving him out of one of them. None when every round follows them.
    (Players of the players file who never left are not looked at.)"""
    joined = {e.player: e.from_round for e in entries if e.change == JOINED}
    left = {e.player: e.from_round for e in entries if e.change == LEFT}
    bad = []
    for r, ids in seated.items():
        for pid in joined.keys() | left.keys():
            out = r >= left.get(pid, MAX_ROUND + 1)
            if pid in joined:
                expected = joined[pid] <= r and not out
                if (pid in ids) != expected:
                    bad.append(r)
            elif out and pid in ids:
                bad.append(r)
    return min(bad) if bad else None


__all__ = [
    "ENTRIES_FILE",
    "COLUMNS",
    "HEADER",
    "LEFT",
    "JOINED",
    "CHANGES",
    "MAX_ENTRIES",
    "EntriesError",
    "Entry",
    "Entries",
    "roster",
    "unplanned",
]
