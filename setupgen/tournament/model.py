"""Tournament files: one TOML file (and a players CSV beside it) from which
every schedule, board, sheet, standing and final of a tournament is made
again, byte for byte (``docs/rules.md`` section 6).

Format (all keys but ``name``, ``seed``, ``players`` and ``rounds`` are
optional)::

    name = "Swiss Catan Championship 2010"
    seed = "sm2010"              # every random stream derives from it
    language = "de"              # sheet language: en | de | de-CH (any templates/<code>.toml)
    timezone = "Europe/Zurich"   # the console's times (an IANA name); default: the machine's
    paper = "a4"                 # a4 | letter
    players = "players.csv"      # beside this file: id,name[,group]
    table_size = 4               # 4 (3-player tables fill the gaps) or 6 (5-6 scenarios)

    [scoring]                    # a preset (scoring/), then any of its keys overridden
    preset = "australian-2006"   # australian-2006 (default) | catan-studio-2024 | german-ranking
    placing_points = { 4 = [4, 3, 2, 1], 3 = [4, 2, 1] }
    ranking = ["placing_points", "victory_points", "vp_share", "lots"]   # older name: tie_breakers
    positions = "start"          # or "selection": players choose chair, colour, play order in this order

    [rules]                      # the almanac page (docs/sheet.md); default: no house rules
    preset = "swiss-2010"        # swiss-2010 | australian-2006 | none
    drop = ["time-rule"]         # rule keys of the preset left out
    add = ["Phones stay off the table."]   # the director's own lines, every round

    [[rounds]]
    scenario = "base-3-4"
    victory_points = 10          # default: the scenario's
    setup = "per-table"          # or "shared": one board for every table
    rules = ["…"]                # this round's own lines, after [rules] add
    variant = "fishermen"        # a variant from almanac/variants/
    seating = "schedule"         # or "standings": seated by rank (1-4, 5-8, ...) by
                                 #   `schedule --from-round N --results FILE` (not round 1)

    [final]
    players = 8                  # 4 (one table), 8 (tables 1-4-5-8 / 2-3-6-7), 16 (semi-finals,
                                 #   then a final of four) or "by-attendance" (CATAN Studio)
    semi_finals = false          # by-attendance only: semi-finals from 16 ranked players up
    scenario = "cities-knights"
    rules = ["…"]                # and variant, as for a round

    [schedule]                   # the seating planner (docs/schedule.md)
    groups_before_positions = false   # true: groups apart before balanced start positions

    [balance]                    # board balance (docs/balance.md); rounds and [final] may set
    preset = "fair"              #   their own `balance = { ... }`, taking the place of these
    max_intersection_pips = 12   # and the other limits: max_terrain_cluster, resource_pips, min_score
    even = true                  # every table's score in the middle half of the survey, or [lo, hi]
    show_on_sheet = false        # print the balance line on the sheets

Table ``t`` of round ``r`` is seeded ``<seed>/r<r>/t<t>`` (a shared setup:
``<seed>/r<r>``); the final's table ``t`` ``<seed>/final/t<t>`` (semi-finals:
``<seed>/semi-final/t<t>``).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import almanac, templates
from ..core import balance as balancemod
from ..core import cells as csvcells
from ..core import layout as layoutmod
from ..core.data import read_text, read_toml
from ..core.errors import SetupgenError
from ..core.fields import Fields
from ..core.limits import MAX_ROUNDS, check_text, nfc
from ..core.messages import Problem, keyed
from . import scoring as scoringmod
from .scoring import TIE_BREAKERS, Scoring  # noqa: F401  (re-exported: the public names of earlier versions)

SETUPS = ("per-table", "shared")
SEATINGS = ("schedule", "standings")
TOP_KEYS = frozenset(
    {
        "name",
        "seed",
        "language",
        "paper",
        "players",
        "table_size",
        "scoring",
        "rules",
        "rounds",
        "final",
        "balance",
        "schedule",
        "timezone",
    }
)
ROUND_KEYS = frozenset({"scenario", "victory_points", "setup", "rules", "variant", "balance", "seating", "minutes"})
FINAL_KEYS = frozenset(
    {"players", "scenario", "victory_points", "rules", "variant", "balance", "minutes", "semi_finals"}
)
#: the longest round clock a round or finals stage may set (minutes)
MAX_MINUTES = 600
#: keys of a [balance] table (besides the limits of docs/balance.md)
BALANCE_KEYS = frozenset({"preset", "even", "show_on_sheet"})
RULES_KEYS = frozenset({"preset", "drop", "add"})
SCHEDULE_KEYS = frozenset({"groups_before_positions"})


class TournamentError(SetupgenError):
    """A tournament or players file is malformed: names file, key or line."""


@dataclass(frozen=True, slots=True)
class Player:
    """One entrant (a row of the players CSV). ``id`` is unique, non-empty
    and free of commas, quotes and line breaks; ``group`` (club, family)
    names players to keep apart, None for none."""

    id: str
    name: str
    group: str | None = None


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The ``[rules]`` table: the house-rule ``preset`` (``"none"``: no
    house rules), keys of it to ``drop``, and the director's own lines to
    ``add`` on every almanac page (``docs/sheet.md``, the almanac page)."""

    preset: str = almanac.NO_PRESET
    drop: tuple[str, ...] = ()
    add: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BalanceSettings:
    """A ``[balance]`` table (the tournament's, or a round's own): the
    ``limits`` (a preset and single limits), ``even`` (None: not set;
    False/True: off/on with the survey's interval; a ``(low, high)`` score
    interval) and ``show_on_sheet`` (None: not set)."""

    limits: balancemod.Limits = balancemod.Limits()
    even: bool | tuple[float, float] | None = None
    show_on_sheet: bool | None = None

    def over(self, base: BalanceSettings) -> BalanceSettings:
        """These settings taking the place of ``base``'s where set."""
        return BalanceSettings(
            base.limits.merged(self.limits),
            base.even if self.even is None else self.even,
            base.show_on_sheet if self.show_on_sheet is None else self.show_on_sheet,
        )


@dataclass(frozen=True, slots=True)
class Round:
    """One preliminary round: its scenario, the points that win it,
    whether every table plays one shared setup, the round's own almanac
    lines (``rules``, after the tournament's) and its ``variant``;
    ``seating`` ``"standings"`` seats it by rank when it is re-planned
    with the results so far (docs/schedule.md)."""

    number: int
    scenario: str
    victory_points: int
    setup: str = "per-table"
    rules: tuple[str, ...] = ()
    variant: str | None = None
    balance: BalanceSettings = BalanceSettings()
    seating: str = "schedule"
    #: the round clock's length (the console's, docs/console.md "Round clock"); None: no clock
    minutes: int | None = None


#: ``[final] players`` of the CATAN Studio attendance rule (:meth:`Final.finalists`)
BY_ATTENDANCE = "by-attendance"
#: the finals a tournament may play: one table of 4, two tables of 8, semi-finals of 16 then a final of 4
FINAL_SIZES = (4, 8, 16)
#: the attendance rule's bounds (CATAN Studio, 2024): fewest ranked players, fewest for semi-finals
#: when the file asks for them, fewest for semi-finals always
ATTENDANCE_MIN, ATTENDANCE_SEMIS_ASKED, ATTENDANCE_SEMIS = 12, 16, 29


@dataclass(frozen=True, slots=True)
class Final:
    """The final: how many players reach it (4, 8, 16 or
    :data:`BY_ATTENDANCE`), on which scenario and to how many points,
    with its own almanac lines and variant (as a round's); ``semi_finals``
    (by attendance only): semi-finals from 16 ranked players up."""

    players: int | str
    scenario: str
    victory_points: int
    rules: tuple[str, ...] = ()
    variant: str | None = None
    balance: BalanceSettings = BalanceSettings()
    #: each finals stage's round clock (minutes); None: no clock
    minutes: int | None = None
    semi_finals: bool = False

    def finalists(self, ranked: int) -> int:
        """How many play the finals with ``ranked`` players in the
        standings: 4 (one final table), 8 (two final tables) or 16
        (semi-finals, then a final of their four winners). By attendance
        (CATAN Studio, 2024; docs/rules.md section 6, "Finals"): 12-28
        ranked players a final of four (with ``semi_finals`` from 16 up
        semi-finals of 16), 29 or more semi-finals of 16. Raises
        :class:`SetupgenError` (keyed) for fewer ranked players than the
        finals seat, or fewer than 12 by attendance."""
        if self.players == BY_ATTENDANCE:
            if ranked < ATTENDANCE_MIN:
                raise keyed(SetupgenError, "attendance_too_few", n=ranked, least=ATTENDANCE_MIN, field="players")
            semis = ranked >= ATTENDANCE_SEMIS or (self.semi_finals and ranked >= ATTENDANCE_SEMIS_ASKED)
            return 16 if semis else 4
        count = int(self.players)
        if ranked < count:
            raise keyed(SetupgenError, "finals_too_few", players=count, n=ranked, field="players")
        return count


@dataclass(frozen=True, slots=True)
class Tournament:
    """A parsed tournament file (see the module doc). ``placing_points``:
    table size -> points for 1st, 2nd, ...; ``players`` the players file's,
    ``late`` the late entries of the tournament folder's ``entries.csv``
    (empty until :func:`setupgen.tournament.jobs.with_entries` reads them;
    docs/schedule.md, "Drop-outs and late entries")."""

    path: str
    name: str
    seed: str
    language: str
    paper: str
    players: tuple[Player, ...]
    table_size: int
    rounds: tuple[Round, ...]
    placing_points: tuple[tuple[int, tuple[Fraction, ...]], ...]
    tie_breakers: tuple[str, ...]
    final: Final | None = None
    house_rules: HouseRules = HouseRules()
    balance: BalanceSettings = BalanceSettings()
    groups_first: bool = False
    late: tuple[Player, ...] = ()
    #: the IANA time zone the console shows times in (``timezone``; None: the machine's)
    timezone: str | None = None
    #: the scoring preset named in ``[scoring] preset`` (scoring/; default australian-2006)
    scoring_preset: str = scoringmod.DEFAULT_PRESET
    #: what a position at a table means: ``start`` or ``selection`` (docs/rules.md section 6, "Selection order")
    positions: str = scoringmod.START

    def __repr__(self) -> str:
        return f"setupgen.load_tournament({self.path!r})"

    def round(self, number: int) -> Round:
        """Round ``number`` (1-based). Raises :class:`TournamentError`."""
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(
                f"{self.path}: there is no round {number} (rounds 1-{len(self.rounds)})", field="round"
            )
        return self.rounds[number - 1]

    def table_seed(self, round_number: int, table: int) -> str:
        """The seed text of a table's board."""
        rnd = self.round(round_number)
        return f"{self.seed}/r{round_number}" if rnd.setup == "shared" else f"{self.seed}/r{round_number}/t{table}"

    def final_seed(self, table: int, stage: str = "final") -> str:
        """The seed text of a finals table's board (``stage``: ``final`` or
        ``semi-final``)."""
        return f"{self.seed}/{stage}/t{table}"

    def almanac(self, number: int | None, stage: str = "final") -> almanac.AlmanacRequest:
        """The almanac request of preliminary round ``number``, or with
        ``None`` of the finals' ``stage`` (``final`` or ``semi-final``): the
        house rules, the round's own lines after the tournament's, and its
        variant. Semi-finals play the final's scenario, lines and variant
        but the preliminary rounds' house rules (a rule marked for the final
        holds in the final alone). Raises :class:`TournamentError` for a
        missing round or final."""
        if number is None:
            if self.final is None:
                raise TournamentError(f"{self.path}: the tournament file has no [final] section")
            own, variant, final = self.final.rules, self.final.variant, stage == "final"
        else:
            rnd = self.round(number)
            own, variant, final = rnd.rules, rnd.variant, False
        hr = self.house_rules
        return almanac.AlmanacRequest(hr.preset, final, hr.drop, hr.add + own, variant)

    def _balance_of(self, number: int | None) -> tuple[str, BalanceSettings]:
        if number is None:
            if self.final is None:
                raise TournamentError(f"{self.path}: the tournament file has no [final] section")
            return self.final.scenario, self.final.balance.over(self.balance)
        rnd = self.round(number)
        return rnd.scenario, rnd.balance.over(self.balance)

    def limits(self, number: int | None) -> balancemod.Limits:
        """The balance limits of preliminary round ``number`` (None: the
        finals): the tournament's ``[balance]`` with the round's own taking
        their place; an even round adds its score interval (the survey's
        middle half of the scenario's scores unless given). Raises
        :class:`SetupgenError` when an even round's scenario has no survey."""
        scenario, settings = self._balance_of(number)
        limits = settings.limits
        if settings.even:
            low, high = (
                settings.even
                if isinstance(settings.even, tuple)
                else balancemod.survey_interval(scenario, layoutmod.load(scenario).default_numbers)
            )
            low = low if limits.min_score is None else max(low, limits.min_score)
            limits = limits.merged(balancemod.Limits(min_score=low, max_score=high))
        return limits

    def balance_line(self, number: int | None) -> bool:
        """Whether the round's sheets print the balance line."""
        return bool(self._balance_of(number)[1].show_on_sheet)

    def thresholds(self) -> dict[int, int]:
        """Round number -> victory points that win it."""
        return {r.number: r.victory_points for r in self.rounds}

    def everyone(self) -> tuple[Player, ...]:
        """Every entrant: the players file's, then the late entries."""
        return self.players + self.late

    def player_names(self) -> dict[str, str]:
        """Player id -> name, late entries included."""
        return {p.id: p.name for p in self.everyone()}


def load(path: str | Path) -> Tournament:
    """Read and validate a tournament file and its players CSV. Raises
    :class:`TournamentError` naming the file and key (or line)."""
    path = Path(path)
    p = str(path)
    data = _read_toml(path)
    unknown = sorted(set(data) - TOP_KEYS)
    if unknown:
        raise TournamentError(f"{p}: {unknown[0]}: unknown key (known: {', '.join(sorted(TOP_KEYS))})")
    name, seed, language, paper = _parse_head(p, data)
    table_size = _get(p, data, "table_size", int, 4)
    if table_size not in (4, 6):
        raise TournamentError(f"{p}: table_size: expected 4 (3-4 player scenarios) or 6 (5-6 player scenarios)")
    players_name = _get(p, data, "players", str)
    if "\0" in players_name or not players_name.strip():
        raise TournamentError(f"{p}: players: not a file name")
    players = read_players(path.parent / players_name)
    rounds = _parse_rounds(p, data)
    _check_table_size(p, rounds, table_size)
    points, tie, preset, positions = _parse_scoring(p, data, table_size)
    final = _parse_final(p, data) if "final" in data else None
    house = _parse_rules(p, data)
    settings = _parse_balance(p, data, "")
    t = Tournament(
        p,
        name,
        seed,
        language,
        paper,
        players,
        table_size,
        rounds,
        points,
        tie,
        final,
        house,
        settings,
        _parse_schedule(p, data),
        timezone=_parse_timezone(p, data),
        scoring_preset=preset,
        positions=positions,
    )
    _check_almanacs(t)
    _check_limits(t)
    return t


def _parse_head(p: str, data: dict[str, Any]) -> tuple[str, str, str, str]:
    """``name``, ``seed``, ``language`` and ``paper``, checked. Raises
    :class:`TournamentError`."""
    name: str = _get(p, data, "name", str)
    seed: str = _get(p, data, "seed", str)
    if not seed.strip():
        raise TournamentError(f"{p}: seed: must not be empty")
    try:
        check_text(name, "the name")
        check_text(seed, "the seed")
    except SetupgenError as exc:
        raise TournamentError(f"{p}: {exc}") from None
    language: str = _get(p, data, "language", str, "en")
    paper: str = _get(p, data, "paper", str, "a4")
    try:
        templates.texts(language)
        templates.paper_size(paper)
    except SetupgenError as exc:
        raise TournamentError(f"{p}: {exc}") from None
    return name, seed, language, paper


def _check_limits(t: Tournament) -> None:
    """Every round's and the final's balance limits can be made (an even
    round needs its scenario's survey). Raises :class:`TournamentError`."""
    for number in [r.number for r in t.rounds] + ([None] if t.final is not None else []):
        try:
            t.limits(number)
        except SetupgenError as exc:
            where = "final.balance" if number is None else f"rounds[{number - 1}].balance"
            raise TournamentError(f"{t.path}: {where}: {exc}") from None


def _parse_timezone(p: str, data: dict[str, Any]) -> str | None:
    """``timezone``: an IANA time zone name the machine knows (``Europe/Zurich``), or None when not given."""
    import zoneinfo

    name: str | None = _get(p, data, "timezone", str, None)
    if name is None:
        return None
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise TournamentError(
            f"{p}: timezone: {name[:60]!r} is not a time zone this machine knows (an IANA name such as Europe/Zurich)"
        ) from None
    return name


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return read_toml(path, "tournament file")
    except SetupgenError as exc:
        raise TournamentError(str(exc)) from None


def _get(p: str, table: dict[str, Any], key: str, typ: type, default: Any = ..., where: str = "") -> Any:
    """``table[key]`` checked to be a ``typ`` (``default`` when missing, or
    an error when there is none) by the shared reader
    (:meth:`~setupgen.core.fields.Fields.get`). Raises :class:`TournamentError`."""
    return _fields(p).get(table, key, typ, default, where)


def _fields(p: str) -> Fields:
    """The shared reader, its problems as :class:`TournamentError` of the file ``p``."""
    return Fields(lambda where, problem: TournamentError(f"{p}: {where}: {problem}"))


def _check_table_size(p: str, rounds: tuple[Round, ...], table_size: int) -> None:
    """Tables of 4 play 3-4 (and 4-player) scenarios, tables of 6 the 5-6
    ones; a 3-player set-up (its map drawn for three) fits no table size."""
    for rnd in rounds:
        lay = layoutmod.load(rnd.scenario)
        players = lay.players
        if lay.most_players < 4:
            raise TournamentError(
                f"{p}: round {rnd.number}: {rnd.scenario} is a set-up for {players} players, but a tournament's "
                "tables seat 4 (3 at the short tables); choose the scenario's 4-player set-up"
            )
        want = 6 if lay.most_players > 4 else 4
        if want != table_size:
            raise TournamentError(
                f"{p}: table_size: {table_size}, but round {rnd.number} plays {rnd.scenario} "
                f"({players} players, tables of {want})"
            )


def _known_keys(p: str, table: dict[str, Any], keys: frozenset[str], where: str) -> None:
    _fields(p).known(table, keys, where)


def _parse_rounds(p: str, data: dict[str, Any]) -> tuple[Round, ...]:
    """``[[rounds]]``: scenario, threshold and setup of each round."""
    rounds = []
    items = _get(p, data, "rounds", list)
    if len(items) > MAX_ROUNDS:
        raise TournamentError(f"{p}: rounds: {len(items)} rounds; at most {MAX_ROUNDS}")
    for i, item in enumerate(items, start=1):
        where = f"rounds[{i - 1}]."
        if not isinstance(item, dict):
            raise TournamentError(f"{p}: rounds[{i - 1}]: expected a table")
        extra = sorted(set(item) - ROUND_KEYS)
        if extra:
            raise TournamentError(f"{p}: {where}{extra[0]}: unknown key (known: {', '.join(sorted(ROUND_KEYS))})")
        scenario = _get(p, item, "scenario", str, where=where)
        lay = _scenario(p, scenario, where)
        setup = _get(p, item, "setup", str, "per-table", where=where)
        if setup not in SETUPS:
            raise TournamentError(f"{p}: {where}setup: expected one of {', '.join(SETUPS)}")
        vp = _get(p, item, "victory_points", int, lay.victory_points, where=where)
        if not 3 <= vp <= 30:
            raise TournamentError(f"{p}: {where}victory_points: {vp} is not a plausible threshold")
        seating = _get(p, item, "seating", str, "schedule", where=where)
        if seating not in SEATINGS:
            raise TournamentError(f"{p}: {where}seating: expected one of {', '.join(SEATINGS)}")
        if seating == "standings" and i == 1:
            raise TournamentError(f"{p}: {where}seating: round 1 has no standings to be seated by")
        rounds.append(
            Round(
                i,
                scenario,
                vp,
                setup,
                _own_lines(p, item, where),
                _variant(p, item, where),
                _parse_balance(p, item, where),
                seating,
                _minutes(p, item, where),
            )
        )
    if not rounds:
        raise TournamentError(f"{p}: rounds: at least one round is needed")
    return tuple(rounds)


SCORING_KEYS = frozenset({"preset", "placing_points", "ranking", "tie_breakers", "positions"})


def _parse_scoring(
    p: str, data: dict[str, Any], table_size: int
) -> tuple[tuple[tuple[int, tuple[Fraction, ...]], ...], tuple[str, ...], str, str]:
    """``[scoring]``: a preset (scoring/, default australian-2006) and the
    keys that override it: ``placing_points`` (the whole table),
    ``ranking`` (or its older name ``tie_breakers``: the ranking keys),
    ``positions``. Returns ``(points, ranking, preset name, positions)``."""
    scoring = _get(p, data, "scoring", dict, {})
    _known_keys(p, scoring, SCORING_KEYS, "scoring.")
    name = _get(p, scoring, "preset", str, scoringmod.DEFAULT_PRESET, where="scoring.")
    try:
        preset = scoringmod.load_preset(name)
    except SetupgenError as exc:
        raise TournamentError(f"{p}: scoring.preset: {exc}") from None
    points = preset.placing_points
    if "placing_points" in scoring:
        try:
            points = scoringmod.placing_points_table(scoring["placing_points"])
        except SetupgenError as exc:
            raise TournamentError(f"{p}: scoring.{exc}") from None
    if "ranking" in scoring and "tie_breakers" in scoring:
        raise TournamentError(f"{p}: scoring: give the ranking keys once, as ranking (tie_breakers is its older name)")
    key = "tie_breakers" if "tie_breakers" in scoring else "ranking"
    ranking = preset.ranking
    if key in scoring:
        try:
            ranking = scoringmod.check_ranking(scoring[key])
        except SetupgenError as exc:
            raise TournamentError(f"{p}: scoring.{key}: {exc}") from None
    try:
        positions = scoringmod.check_positions(scoring.get("positions", preset.positions))
    except SetupgenError as exc:
        raise TournamentError(f"{p}: scoring.{exc}") from None
    missing = sorted({table_size, table_size - 1} - {size for size, _ in points})
    if missing:
        raise TournamentError(f"{p}: scoring.placing_points: no points for tables of {missing[0]}")
    return points, ranking, preset.name, positions


def _parse_final(p: str, data: dict[str, Any]) -> Final:
    """``[final]``: how many players and on which scenario."""
    f = _get(p, data, "final", dict)
    _known_keys(p, f, FINAL_KEYS, "final.")
    count = f.get("players")
    if count != BY_ATTENDANCE and (type(count) is not int or count not in FINAL_SIZES):
        raise TournamentError(f'{p}: final.players: expected 4, 8, 16 or "{BY_ATTENDANCE}"')
    semis = _get(p, f, "semi_finals", bool, False, where="final.")
    if semis and count != BY_ATTENDANCE:
        raise TournamentError(
            f'{p}: final.semi_finals: only with players = "{BY_ATTENDANCE}" (16 finalists always '
            "play semi-finals, 4 and 8 never)"
        )
    scenario = _get(p, f, "scenario", str, where="final.")
    lay = _scenario(p, scenario, "final.")
    if lay.most_players < 4:
        raise TournamentError(
            f"{p}: final.scenario: {scenario} is a set-up for {lay.players} players, but the finals seat four "
            "to a table; choose the scenario's 4-player set-up"
        )
    if lay.players == "5-6":
        raise TournamentError(
            f"{p}: final.scenario: {scenario} is a 5-6 player scenario, but the finals seat four "
            "to a table and no source says which of its pieces and limits hold for four; "
            "choose a 3-4 player scenario"
        )
    final_vp = _get(p, f, "victory_points", int, lay.victory_points, where="final.")
    if not 3 <= final_vp <= 30:
        raise TournamentError(f"{p}: final.victory_points: {final_vp} is not a plausible threshold")
    return Final(
        count,
        scenario,
        final_vp,
        _own_lines(p, f, "final."),
        _variant(p, f, "final."),
        _parse_balance(p, f, "final."),
        _minutes(p, f, "final."),
        semis,
    )


def _minutes(p: str, table: dict[str, Any], where: str) -> int | None:
    """A round's or the finals' ``minutes`` (the round clock, 1..:data:`MAX_MINUTES`), None when not given."""
    minutes: int | None = _get(p, table, "minutes", int, None, where=where)
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise TournamentError(f"{p}: {where}minutes: {minutes}; expected 1 to {MAX_MINUTES} minutes of play")
    return minutes


def _parse_balance(p: str, table: dict[str, Any], where: str) -> BalanceSettings:
    """A ``balance`` table: preset, limits, ``even`` and ``show_on_sheet``."""
    item = _get(p, table, "balance", dict, {}, where=where)
    at = f"{where}balance."
    even = item.get("even")
    if even is not None and not isinstance(even, (bool, list)):
        raise TournamentError(f"{p}: {at}even: expected true, false or [low, high] scores from 0 to 100")
    if isinstance(even, list):
        if (
            len(even) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= 100 for v in even)
            or even[0] > even[1]
        ):
            raise TournamentError(f"{p}: {at}even: expected true, false or [low, high] scores from 0 to 100")
        even = (float(even[0]), float(even[1]))
    show = _get(p, item, "show_on_sheet", bool, None, where=at)
    preset = _get(p, item, "preset", str, None, where=at)
    rest = {k: v for k, v in item.items() if k not in BALANCE_KEYS}
    if preset is not None and preset.endswith(".toml") and not Path(preset).is_absolute():
        preset = str(Path(p).parent / preset)  # a preset file beside the tournament file
    try:
        base = balancemod.Limits() if preset is None else balancemod.load_preset(preset)
    except SetupgenError as exc:
        raise TournamentError(f"{p}: {at}preset: {exc}") from None
    try:
        limits = base.merged(balancemod.Limits.from_dict(rest, where=at))
    except SetupgenError as exc:
        raise TournamentError(f"{p}: {exc}") from None
    return BalanceSettings(limits, even, show)


def _texts(p: str, table: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
    """``table[key]``, a list of texts (empty when missing)."""
    items = _get(p, table, key, list, [], where=where)
    if not all(isinstance(x, str) for x in items):
        raise TournamentError(f"{p}: {where}{key}: expected a list of texts")
    return tuple(items)


def _own_lines(p: str, table: dict[str, Any], where: str) -> tuple[str, ...]:
    """A round's or the final's ``rules``: its own almanac lines."""
    return _texts(p, table, "rules", where)


def _variant(p: str, table: dict[str, Any], where: str) -> str | None:
    """A round's or the final's ``variant`` (a known variant's name)."""
    name: str | None = _get(p, table, "variant", str, None, where=where)
    if name is not None and name not in almanac.variants():
        raise TournamentError(f"{p}: {where}variant: unknown variant {name!r} (known: {', '.join(almanac.variants())})")
    return name


def _parse_schedule(p: str, data: dict[str, Any]) -> bool:
    """``[schedule]``: whether groups come before start positions."""
    table = _get(p, data, "schedule", dict, {})
    _known_keys(p, table, SCHEDULE_KEYS, "schedule.")
    first: bool = _get(p, table, "groups_before_positions", bool, False, where="schedule.")
    return first


def _parse_rules(p: str, data: dict[str, Any]) -> HouseRules:
    """``[rules]``: preset, dropped keys and the director's own lines."""
    table = _get(p, data, "rules", dict, {})
    _known_keys(p, table, RULES_KEYS, "rules.")
    preset = _get(p, table, "preset", str, almanac.NO_PRESET, where="rules.")
    if preset not in almanac.presets():
        raise TournamentError(f"{p}: rules.preset: unknown preset {preset!r} (known: {', '.join(almanac.presets())})")
    return HouseRules(preset, _texts(p, table, "drop", "rules."), _texts(p, table, "add", "rules."))


def _check_almanacs(t: Tournament) -> None:
    """The ``[rules]`` table holds a known preset's keys and lines of one
    line each, and so does every round's and the final's ``rules``; each
    fault named by where it is written."""
    hr = t.house_rules
    parts = [("rules", almanac.AlmanacRequest(hr.preset, False, hr.drop, hr.add))]
    parts += [(f"rounds[{r.number - 1}].rules", almanac.AlmanacRequest(add=r.rules)) for r in t.rounds]
    if t.final is not None:
        parts.append(("final.rules", almanac.AlmanacRequest(final=True, add=t.final.rules)))
    for where, request in parts:
        try:
            almanac.check_request(request)
        except SetupgenError as exc:
            raise TournamentError(f"{t.path}: {where}: {exc}") from None


def _scenario(p: str, name: str, where: str) -> layoutmod.Layout:
    try:
        lay = layoutmod.load(name)
    except SetupgenError as exc:
        raise TournamentError(f"{p}: {where}scenario: {exc}") from None
    if lay.source == "board-file":
        raise TournamentError(f"{p}: {where}scenario: {name!r} needs a board file; use a variable scenario")
    return lay


def read_players(path: str | Path) -> tuple[Player, ...]:
    """Players from a CSV with columns ``id``, ``name`` and optional
    ``group`` (header required; UTF-8, a byte-order mark allowed). Raises
    :class:`TournamentError` naming the line."""
    try:
        text = nfc(read_text(path, "players file"))
    except SetupgenError as exc:
        raise TournamentError(str(exc)) from None
    path = Path(path)
    reader = csv.DictReader(io.StringIO(text), strict=True)
    try:
        header = reader.fieldnames or []
    except csv.Error as exc:
        raise TournamentError(f"{path}: line 1: unreadable csv ({str(exc).lower()}; is a quote not closed?)") from None
    fields = [f.strip().lower() for f in header]
    if len(fields) == 1 and ";" in fields[0]:
        raise TournamentError(f"{path}: line 1: columns are separated by semicolons; use commas")
    if len(set(fields)) != len(fields):
        raise TournamentError(f"{path}: line 1: a column is named twice")
    if "id" not in fields or "name" not in fields:
        raise TournamentError(f"{path}: line 1: the header needs the columns id and name (group optional)")
    reader.fieldnames = fields
    try:
        return _player_rows(reader, path)
    except csv.Error as exc:
        raise TournamentError(
            f"{path}: line {reader.line_num + 1}: unreadable csv ({str(exc).lower()}; is a quote not closed?)"
        ) from None  # line_num counts the rows read before it


#: most players a tournament may have
MAX_PLAYERS = 2000


#: longest player id, name or group, in characters
MAX_PLAYER_TEXT = 100


def player_problem(pid: str, name: str, group: str | None) -> Problem | None:
    """What is wrong with a player's (stripped) id, name and group, in the
    words of a players-file line (None: nothing; ``str()`` the English
    line, its key a ``[messages]`` text). The one check of a player's
    fields: :func:`read_players` and the late entries of
    :mod:`setupgen.tournament.entries` both use it."""
    if not pid or not name:
        return Problem("player_empty")
    if any(not ch.isprintable() for ch in pid + name + (group or "")):
        return Problem("player_control")
    if max(len(pid), len(name), len(group or "")) > MAX_PLAYER_TEXT:
        return Problem("player_too_long", {"most": MAX_PLAYER_TEXT})
    if set(pid) & set(',"'):
        return Problem("player_comma", {"id": repr(pid)})
    if pid.startswith(csvcells.FORMULA_START):
        return Problem("player_formula", {"id": repr(pid), "first": repr(pid[0])})
    return _unprintable(pid, name, group)


def _unprintable(pid: str, name: str, group: str | None) -> Problem | None:
    """A field the sheets cannot print as written (:func:`setupgen.render.
    fonts.unprintable`): its first such character named."""
    from ..core import fonts

    for part, text in (("name", name), ("id", pid), ("group", group or "")):
        bad = fonts.unprintable(text)
        if bad is None:
            continue
        values = {"part": part, "value": repr(text), "char": bad.char, "code": bad.code}
        if bad.script is not None:
            return Problem("player_script", {**values, "script": bad.script})
        if bad.packages:
            return Problem("player_no_font_here", {**values, "packages": ", ".join(bad.packages)})
        return Problem("player_no_font", values)
    return None


def _player_rows(reader: csv.DictReader[str], path: Path) -> tuple[Player, ...]:
    players: list[Player] = []
    seen: dict[str, int] = {}
    for row in reader:
        line = reader.line_num
        pid = (row.get("id") or "").strip()
        name = csvcells.from_csv((row.get("name") or "").strip())
        group = csvcells.from_csv((row.get("group") or "").strip()) or None
        problem = player_problem(pid, name, group)
        if problem is not None:
            raise TournamentError(f"{path}: line {line}: {problem}")
        if len(players) >= MAX_PLAYERS:
            raise TournamentError(f"{path}: more than {MAX_PLAYERS} players")
        if None in row:
            raise TournamentError(f"{path}: line {line}: more cells than columns (a comma in a name needs quotes)")
        if pid in seen:
            raise TournamentError(f"{path}: line {line}: player id {pid!r} already on line {seen[pid]}")
        seen[pid] = line
        players.append(Player(pid, name, group))
    if len(players) < 3:
        raise TournamentError(f"{path}: at least 3 players are needed, found {len(players)}")
    return tuple(players)
