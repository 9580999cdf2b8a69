"""A season across events: each event's final places turned into points by
a scheme, a player's best results summed, the season ranked (docs/rules.md
section 6, "Seasons").

Format of a season file (TOML; every path relative to it)::

    name = "Club Series 2026"
    seed = "series-2026"         # the season's lots derive from it
    language = "en"              # season.pdf: en | de | de-CH
    paper = "a4"
    points = "top-100"           # a scheme of scoring/season/schemes.toml, or
                                 # { places = [100, 80, 65], rest = 10 }
    scale = false                # true: points x the event's field / the largest field
    best = 2                     # results that count; default: all
    tie_breakers = ["events", "best_result", "lots"]
    aliases = "aliases.csv"      # optional: event,id,player (the season's id)

    [[events]]
    id = "spring"                # a short key, used in aliases.csv and the columns
    tournament = "spring/tournament.toml"
    folder = "spring/out"        # its tournament folder; default output/<its name>

An event's places come from its folder's ``placings.csv`` (the final
placings) or, without one, its ``standings.csv`` (an event without
finals); the season's CSV and PDF say which. Pure library but for reading
the files named; :func:`write_season` writes ``season.csv`` and
``season.pdf``.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import atomic, cldr, templates
from ..core.data import data_dir, read_text, read_toml
from ..core.errors import SetupgenError, quoted
from ..core.fields import Fields
from ..core.limits import nfc
from ..render import export, listing
from .model import load as load_tournament
from .standings import draw_lots, format_points

__all__ = [
    "SEASON_TIE_BREAKERS",
    "PointScheme",
    "SeasonEvent",
    "Season",
    "EventPlaces",
    "SeasonResult",
    "SeasonStanding",
    "SeasonError",
    "schemes",
    "load_scheme",
    "load_season",
    "event_places",
    "season_standings",
    "look_alikes",
    "season_csv",
    "season_lines",
    "season_listing",
    "write_season",
]

#: the season's tie-breakers (docs/rules.md section 6, "Seasons"): more events played, the best single
#: result, lots from the season's seed
SEASON_TIE_BREAKERS = ("events", "best_result", "lots")
SEASON_KEYS = frozenset(
    {"name", "seed", "language", "paper", "points", "scale", "best", "tie_breakers", "aliases", "events"}
)
EVENT_KEYS = frozenset({"id", "tournament", "folder", "name"})
#: the files an event's places are read from, in order of preference
PLACE_FILES = ("placings.csv", "standings.csv")
#: most events a season may hold
MAX_EVENTS = 100
_EVENT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,19}")


class SeasonError(SetupgenError):
    """A season file, an event's places or the aliases file is wrong: names
    the file and the key or line."""


@dataclass(frozen=True, slots=True)
class PointScheme:
    """The points of a final place: ``places`` (1st first), ``rest`` for a
    place below them; with ``field`` the players placed below plus one."""

    name: str
    places: tuple[Fraction, ...] = ()
    rest: Fraction = Fraction(0)
    field: bool = False

    def points(self, place: int, players: int) -> Fraction:
        """The points of ``place`` (1-based) in an event of ``players``."""
        if self.field:
            return Fraction(players - place + 1)
        return self.places[place - 1] if place <= len(self.places) else self.rest


@dataclass(frozen=True, slots=True)
class SeasonEvent:
    """One event of a season: its ``key`` (the season file's ``id``), the
    tournament file and its folder."""

    key: str
    tournament: Path
    folder: Path
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Season:
    """A parsed season file (see the module doc)."""

    path: str
    name: str
    seed: str
    language: str
    paper: str
    events: tuple[SeasonEvent, ...]
    points: PointScheme
    scale: bool = False
    best: int | None = None
    tie_breakers: tuple[str, ...] = SEASON_TIE_BREAKERS
    aliases: Path | None = None

    def __repr__(self) -> str:
        return f"setupgen.tournament.season.load_season({self.path!r})"


@dataclass(frozen=True, slots=True)
class EventPlaces:
    """An event's final places: ``source`` the file read (``placings.csv``
    or ``standings.csv``), ``places`` as ``(place, the event's id)`` from
    1st, ``names`` each id's name in the event, ``title`` the event's name."""

    key: str
    title: str
    source: str
    places: tuple[tuple[int, str], ...]
    names: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class SeasonResult:
    """A player's result at one event: place, points and whether it counts."""

    event: str
    place: int
    points: Fraction
    counted: bool


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    """One line of the season: ``points`` the sum of the counted results,
    ``events`` how many the player took part in, ``best`` the best single
    result, ``results`` by event key, ``lots`` the lot where it decided."""

    rank: int
    player: str
    name: str
    points: Fraction
    events: int
    best: Fraction
    results: Mapping[str, SeasonResult]
    lots: int | None = None


def _fields(p: str) -> Fields:
    return Fields(lambda where, problem: SeasonError(f"{p}: {where}: {problem}"))


def schemes(folder: Path | None = None) -> dict[str, PointScheme]:
    """The shipped point schemes (``scoring/season/schemes.toml``), by name."""
    path = (data_dir("scoring") / "season" if folder is None else folder) / "schemes.toml"
    data = read_toml(path, "point schemes")
    return {
        name: _scheme(str(path), f"schemes.{name}", name, table)
        for name, table in dict(data.get("schemes", {})).items()
    }


def load_scheme(value: Any, p: str = "season file") -> PointScheme:
    """``points`` of a season file: a shipped scheme's name or a table
    ``{ places = [...], rest = n }``. Raises :class:`SeasonError`."""
    if isinstance(value, str):
        known = schemes()
        if value not in known:
            raise SeasonError(f"{p}: points: unknown point scheme {quoted(value)} (known: {', '.join(sorted(known))})")
        return known[value]
    if isinstance(value, dict):
        return _scheme(p, "points", "own", value)
    raise SeasonError(f"{p}: points: expected a scheme's name or {{ places = [...], rest = n }}")


def _scheme(p: str, where: str, name: str, table: Any) -> PointScheme:
    fields = _fields(p)
    fields.table(table, where, "expected { places = [...], rest = n }")
    fields.known(table, frozenset({"places", "rest", "field", "source"}), f"{where}.")
    if fields.get(table, "field", bool, False, f"{where}."):
        return PointScheme(name, field=True)
    places = fields.get(table, "places", list, where=f"{where}.")
    rest = fields.get(table, "rest", (int, float), 0, f"{where}.")
    values = [*places, rest]
    if (
        not places
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 10_000 for v in values)
        or any(a < b for a, b in zip(values, values[1:]))
    ):
        raise SeasonError(
            f"{p}: {where}: expected points from 0 to 10000 for 1st, 2nd, ..., not increasing, "
            "and a rest no higher than the last"
        )
    return PointScheme(name, tuple(Fraction(str(v)) for v in places), Fraction(str(rest)))


def load_season(path: str | Path) -> Season:
    """The season file at ``path``, checked (see the module doc). Raises
    :class:`SeasonError` naming the file and key."""
    p = str(path)
    data = read_toml(path, "season file")
    fields = _fields(p)
    fields.known(data, SEASON_KEYS, "")
    name = fields.get(data, "name", str)
    seed = fields.get(data, "seed", str)
    if not name.strip() or not seed.strip():
        raise SeasonError(f"{p}: name and seed must not be empty")
    language = fields.get(data, "language", str, "en")
    paper = fields.get(data, "paper", str, "a4")
    try:
        templates.texts(language)
        templates.paper_size(paper)
    except SetupgenError as exc:
        raise SeasonError(f"{p}: {exc}") from None
    best = fields.get(data, "best", int, None)
    if best is not None and not 1 <= best <= MAX_EVENTS:
        raise SeasonError(f"{p}: best: expected 1 to {MAX_EVENTS} results")
    here = Path(path).parent
    aliases = fields.get(data, "aliases", str, None)
    return Season(
        p,
        name,
        seed,
        language,
        paper,
        _events(p, data, here),
        load_scheme(data.get("points"), p),
        fields.get(data, "scale", bool, False),
        best,
        _tie_breakers(p, data),
        None if aliases is None else here / aliases,
    )


def _tie_breakers(p: str, data: Mapping[str, Any]) -> tuple[str, ...]:
    keys = _fields(p).get(data, "tie_breakers", list, list(SEASON_TIE_BREAKERS))
    if (
        not all(k in SEASON_TIE_BREAKERS for k in keys)
        or len(set(keys)) != len(keys)
        or ("lots" in keys and keys[-1] != "lots")
    ):
        raise SeasonError(
            f"{p}: tie_breakers: expected {', '.join(SEASON_TIE_BREAKERS)} in the order you choose, "
            "each once, lots last"
        )
    return tuple(keys) if "lots" in keys else (*keys, "lots")


def _events(p: str, data: Mapping[str, Any], here: Path) -> tuple[SeasonEvent, ...]:
    fields = _fields(p)
    items = fields.get(data, "events", list)
    if not items or len(items) > MAX_EVENTS:
        raise SeasonError(f"{p}: events: expected 1 to {MAX_EVENTS} events")
    out: list[SeasonEvent] = []
    for i, item in enumerate(items):
        where = f"events[{i}]."
        fields.table(item, f"events[{i}]", "expected a table")
        fields.known(item, EVENT_KEYS, where)
        key = fields.get(item, "id", str, where=where)
        if not _EVENT_ID.fullmatch(key):
            raise SeasonError(f"{p}: {where}id: expected letters, digits, - or _ (at most 20), not {quoted(key)}")
        if any(e.key == key for e in out):
            raise SeasonError(f"{p}: {where}id: {quoted(key)} is listed twice")
        tournament = here / fields.get(item, "tournament", str, where=where)
        folder = fields.get(item, "folder", str, None, where)
        out.append(
            SeasonEvent(
                key,
                tournament,
                here / folder if folder is not None else Path(),
                fields.get(item, "name", str, None, where),
            )
        )
    return tuple(out)


def event_places(event: SeasonEvent) -> EventPlaces:
    """An event's final places, read from its folder's ``placings.csv``
    or, without one, ``standings.csv``: places 1..n without a gap, each
    player once, every player in the event's players file (or a late entry
    of its ``entries.csv``). Raises :class:`SeasonError` naming the event."""
    try:
        t = load_tournament(event.tournament)
    except SetupgenError as exc:
        raise SeasonError(f"event {event.key}: {exc}") from None
    folder = event.folder if event.folder != Path() else Path("output") / export.slug(t.name)
    from . import jobs

    try:
        t = jobs.with_entries(t, folder)
    except SetupgenError as exc:
        raise SeasonError(f"event {event.key}: {exc}") from None
    source = next((folder / f for f in PLACE_FILES if (folder / f).is_file()), None)
    if source is None:
        raise SeasonError(
            f"event {event.key}: no placings.csv nor standings.csv in {atomic.shown(folder)}: "
            "its final placings (or, without finals, its standings) are needed"
        )
    names = {pl.id: pl.name for pl in (*t.players, *t.late)}
    places = _read_places(event.key, source, names)
    return EventPlaces(event.key, event.name or t.name, source.name, places, names)


def _read_places(key: str, source: Path, names: Mapping[str, str]) -> tuple[tuple[int, str], ...]:
    """``(place, id)`` rows of a ``placings.csv`` (``place,player,...``) or
    ``standings.csv`` (``rank,player,...``), checked complete."""
    where = f"event {key}: {atomic.shown(source)}"
    try:
        rows = list(csv.reader(io.StringIO(nfc(read_text(source, "places file")))))
    except (SetupgenError, csv.Error) as exc:
        raise SeasonError(f"{where}: {exc}") from None
    if not rows or rows[0][:2] not in (["place", "player"], ["rank", "player"]):
        raise SeasonError(f"{where}: line 1: expected the header of setupgen's placings.csv or standings.csv")
    out: list[tuple[int, str]] = []
    seen: set[str] = set()
    for n, row in enumerate(rows[1:], start=2):
        if len(row) < 2 or row[0] != str(len(out) + 1):
            raise SeasonError(f"{where}: line {n}: expected place {len(out) + 1}: the places are incomplete")
        if row[1] not in names:
            raise SeasonError(f"{where}: line {n}: player {quoted(row[1])} is in no players file of the event")
        if row[1] in seen:
            raise SeasonError(f"{where}: line {n}: player {quoted(row[1])} is placed twice")
        seen.add(row[1])
        out.append((len(out) + 1, row[1]))
    if not out:
        raise SeasonError(f"{where}: no places: the event's placings are incomplete")
    return tuple(out)


def read_aliases(season: Season, events: Sequence[EventPlaces]) -> dict[tuple[str, str], str]:
    """``(event key, the event's id) -> the season's id`` from the aliases
    file (``event,id,player``; none: every id is its own). Raises
    :class:`SeasonError` for an unknown event or id, an id mapped twice, or
    two ids of one event mapped to one player."""
    if season.aliases is None:
        return {}
    where = atomic.shown(season.aliases)
    try:
        rows = list(csv.reader(io.StringIO(nfc(read_text(season.aliases, "aliases file")))))
    except (SetupgenError, csv.Error) as exc:
        raise SeasonError(f"{where}: {exc}") from None
    if not rows or rows[0] != ["event", "id", "player"]:
        raise SeasonError(f"{where}: line 1: expected the header event,id,player")
    known = {e.key: e for e in events}
    out: dict[tuple[str, str], str] = {}
    for n, row in enumerate(rows[1:], start=2):
        if len(row) != 3 or not all(c.strip() for c in row):
            raise SeasonError(f"{where}: line {n}: expected event,id,player")
        event, pid, player = row
        if event not in known:
            raise SeasonError(f"{where}: line {n}: no event {quoted(event)} (known: {', '.join(known)})")
        if pid not in known[event].names:
            raise SeasonError(f"{where}: line {n}: {quoted(pid)} is in no players file of event {event}")
        if (event, pid) in out:
            raise SeasonError(f"{where}: line {n}: {quoted(pid)} of event {event} is mapped twice")
        out[(event, pid)] = player
    for event in known:
        ids = [pid for pid in known[event].names if (event, pid) not in out] + [
            p for (e, _), p in out.items() if e == event
        ]
        twice = sorted({p for p in ids if ids.count(p) > 1})
        if twice:
            raise SeasonError(f"{where}: two players of event {event} would be one: {quoted(twice[0])}")
    return out


def season_standings(season: Season) -> tuple[tuple[SeasonStanding, ...], tuple[EventPlaces, ...]]:
    """Rank the season: each event's places (:func:`event_places`) as
    points (the scheme, scaled by the event's field over the largest with
    ``scale``), a player's best ``season.best`` results counted (all
    without), ranked by their sum, then the tie-breakers (``events``: more
    events played; ``best_result``: the best single result; ``lots``: a
    draw seeded ``<seed>/lots/<ids>``). Raises :class:`SeasonError`."""
    events = tuple(event_places(e) for e in season.events)
    alias = read_aliases(season, events)
    largest = max(len(e.places) for e in events)
    results: dict[str, list[SeasonResult]] = {}
    names: dict[str, str] = {}
    for e in events:
        for place, pid in e.places:
            player = alias.get((e.key, pid), pid)
            points = season.points.points(place, len(e.places))
            if season.scale:
                points = points * len(e.places) / largest
            results.setdefault(player, []).append(SeasonResult(e.key, place, points, True))
            names[player] = e.names[pid]
    return _ranked(season, results, names), events


def _ranked(
    season: Season, results: Mapping[str, list[SeasonResult]], names: Mapping[str, str]
) -> tuple[SeasonStanding, ...]:
    counted: dict[str, dict[str, SeasonResult]] = {}
    for player, rows in results.items():
        keep = sorted(range(len(rows)), key=lambda i: (-rows[i].points, i))[
            : len(rows) if season.best is None else season.best
        ]
        counted[player] = {r.event: SeasonResult(r.event, r.place, r.points, i in keep) for i, r in enumerate(rows)}
    total = {p: sum((r.points for r in rs.values() if r.counted), Fraction(0)) for p, rs in counted.items()}
    best = {p: max(r.points for r in rs.values()) for p, rs in counted.items()}

    def key(player: str) -> tuple[Any, ...]:
        values = {"events": -len(counted[player]), "best_result": -best[player]}
        return (-total[player], *[values[k] for k in season.tie_breakers if k != "lots"])

    order, lots = draw_lots(sorted(counted, key=lambda p: (key(p), p)), key, season.seed)
    return tuple(
        SeasonStanding(n, p, names[p], total[p], len(counted[p]), best[p], counted[p], lots.get(p))
        for n, p in enumerate(order, start=1)
    )


def _plain(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def look_alikes(standings: Sequence[SeasonStanding], events: Sequence[EventPlaces]) -> list[str]:
    """Warnings for names that look alike (case, accents and spacing
    aside) but stand for different players of the season: one line each,
    naming the events and ids, so the director can map them."""
    seen: dict[str, set[tuple[str, str, str]]] = {}
    for e in events:
        for _, pid in e.places:
            seen.setdefault(_plain(e.names[pid]), set()).add((e.key, pid, e.names[pid]))
    players = {s.player for s in standings}
    out = []
    for __plain, where in sorted(seen.items()):
        ids = sorted({pid for _, pid, _ in where})
        if len(ids) > 1 and len(players & set(ids)) > 1:
            listed = ", ".join(f"{name!r} ({event}: {pid})" for event, pid, name in sorted(where))
            out.append(
                f"warning: {listed} look alike but are different players; map them in the aliases file if they are one"
            )
    return out


def _cell(r: SeasonResult | None, number: Callable[[str], str] = str, with_place: bool = False) -> str:
    """A result's cell: its points (written by ``number``), with the place
    (``80 · 2.``), in ``[ ]`` when it does not count; empty for none."""
    if r is None:
        return ""
    text = number(format_points(r.points)) + (f" · {r.place}." if with_place else "")
    return text if r.counted else f"[{text}]"


def season_csv(standings: Sequence[SeasonStanding], events: Sequence[EventPlaces]) -> str:
    """The season as CSV: ``rank,player,name,points,events,best``, then a
    column per event (its key: the points of a counted result, in ``[ ]``
    a result not counted, empty where the player did not take part), then
    ``lot``; ``\\n`` line ends."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("rank", "player", "name", "points", "events", "best", *[e.key for e in events], "lot"))
    for s in standings:
        w.writerow(
            (
                s.rank,
                s.player,
                s.name,
                format_points(s.points),
                s.events,
                format_points(s.best),
                *[_cell(s.results.get(e.key)) for e in events],
                "" if s.lots is None else s.lots,
            )
        )
    return buf.getvalue()


def season_lines(standings: Sequence[SeasonStanding], events: Sequence[EventPlaces]) -> list[str]:
    """Aligned text lines for the command line: rank, name, points, events,
    then each event's result (``[ ]``: not counted)."""
    head = ("#", "player", "points", "events", *[e.key for e in events])
    rows = [
        (
            str(s.rank),
            s.name,
            format_points(s.points),
            str(s.events),
            *[_cell(s.results.get(e.key)) or "-" for e in events],
        )
        for s in standings
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return [
        "  ".join(c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
        for r in [head, *rows]
    ]


def season_listing(
    season: Season, standings: Sequence[SeasonStanding], events: Sequence[EventPlaces]
) -> listing.Listing:
    """The season as a listing in its language: rank, player, points,
    events, best, then each event (points and place; ``[ ]`` not counted),
    the lot; the subtitle names how many results count; below the table
    each event's name and the file its places came from."""
    tx = templates.texts(season.language)

    def number(text: str) -> str:
        return cldr.decimal(text, tx)

    counts = tx.get("season.best_of", best=season.best) if season.best is not None else tx.get("season.all_count")
    rows = tuple(
        (
            str(s.rank),
            s.name,
            number(format_points(s.points)),
            str(s.events),
            number(format_points(s.best)),
            *[_cell(s.results.get(e.key), number, with_place=True) for e in events],
            "" if s.lots is None else str(s.lots),
        )
        for s in standings
    )
    width = len(events) + 6  # rank, player, points, events, best, the events, lot
    sources = tuple(
        (f"## {tx.get('season.source', event=e.key, title=e.title, file=e.source)}", *[""] * (width - 1))
        for e in events
    )
    ev_w = min(0.12, 0.45 / len(events))
    widths = (0.05, 0.61 - ev_w * len(events), 0.09, 0.10, 0.09, *[ev_w] * len(events), 0.06)
    head = tuple(tx.get(f"season.head.{k}") for k in ("rank", "player", "points", "events", "best"))
    return listing.Listing(
        tx.get("season.title", name=season.name),
        f"{counts} · {tx.get('season.not_counted')}",
        (*head, *[e.key for e in events], tx.get("season.head.lot")),
        widths,
        rows + sources,
        align=("r", "l", "r", "r", "r", *["r"] * len(events), "r"),
    )


def write_season(season: Season, folder: Path) -> tuple[tuple[SeasonStanding, ...], tuple[EventPlaces, ...]]:
    """:func:`season_standings`, written as ``season.csv`` and
    ``season.pdf`` into ``folder`` (both made before either is written,
    then both or neither). Raises :class:`SeasonError` and
    :class:`~setupgen.core.errors.SetupgenError` for an output problem."""
    from ..render import pdf

    standings, events = season_standings(season)
    document = pdf.svgs_to_pdf(listing.render_listing(season_listing(season, standings, events), paper=season.paper))
    text = season_csv(standings, events)
    with atomic.folder_for(folder), atomic.folder_lock(folder):
        atomic.write_files(folder, {"season.csv": text.encode("utf-8"), "season.pdf": document})
    return standings, events
