"""Results, standings and finals seating (docs/rules.md section 6; Catan Australian Championships 2006, the
Australian championship rules).

* :func:`read_results` reads a results CSV and validates all of it before
  returning anything: every problem is collected with its line number and
  raised together as one :class:`ResultsError`.
* :func:`placing_points` scores one table; :func:`standings` ranks the field
  by placing points, capped victory points, summed VP shares and reproducible
  lots; :func:`round_points` gives each player's placing points per round;
  :func:`standings_csv` / :func:`standings_lines` print a ranking.
* :func:`finals_tables` seats the semi-finals of 16 (or a final of 8) from a
  ranking; :func:`final_of_winners` orders the semi-final winners.

Pure library: no files, no printing, randomness only through
:mod:`setupgen.core.rng`.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..core import rng
from ..core.errors import SetupgenError, quoted
from ..core.limits import nfc
from ..core.messages import Problem
from .games import FINALS_ROUND, RoundName, TableName
from .scoring import TIE_BREAKERS, Scoring

#: columns a results CSV must have (any order, header required)
COLUMNS = ("round", "table", "player", "vp", "winner")
#: the optional column of a player's status in a game (docs/console.md, "Statuses")
STATUS_COLUMN = "status"
PLAYED, NO_SHOW, DISQUALIFIED = "played", "no-show", "disqualified"
STATUSES = (PLAYED, NO_SHOW, DISQUALIFIED)
#: a VP value above the round's threshold plus this is rejected as a typo
VP_MARGIN = 10
#: a finals results file (``read_results(stage=...)``, docs/rules.md section 6,
#: "Final placings") has the stage's name (any case) in its round column; its
#: rows are read as this round (``thresholds`` and ``tables`` keyed by it), the
#: round of every finals game (:data:`setupgen.tournament.games.FINALS_ROUND`),
#: and problems name the stage ("final table 2 has no winner")
STAGE_ROUND = FINALS_ROUND

_TRUE = frozenset({"yes", "y", "true", "1"})
_FALSE = frozenset({"no", "n", "false", "0"})
_UINT = re.compile(r"[0-9]{1,6}")
_INT = re.compile(r"[0-9]{1,6}")


# --------------------------------------------------------------------------
# results


@dataclass(frozen=True, slots=True)
class GameResult:
    """One player's result in one game. ``line`` is the 1-based line of the
    row in the results CSV (the header is line 1); 0 when not from a file.
    ``status``: ``played``; ``no-show`` (0 VP, no placing points: the
    others take the places among themselves); ``disqualified`` (the game
    counts for the others as played; the player leaves the standings)."""

    round: int
    table: int
    player: str
    vp: int
    winner: bool
    line: int = 0
    status: str = PLAYED


class ResultsError(SetupgenError):
    """A results file is wrong. ``problems`` holds every problem found, each
    ``"line N: what is wrong"``, sorted by line; ``str(exc)`` is one line:
    ``"results.csv: 3 problems; first: line 4: unknown player 'x'"``."""

    def __init__(self, source: str, problems: Iterable[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        n = len(self.problems)
        first = self.problems[0] if self.problems else "no details"
        super().__init__(f"{source}: {n} problem{'s' if n != 1 else ''}; first: {first}")


class GameRefused(SetupgenError):
    """One game's result breaks the rules of a results file
    (:func:`check_game`). ``problems``: every problem at once, each as
    (the player of the seat at fault, or None for the game's) and a
    :class:`~setupgen.core.messages.Problem`; ``str()`` the English lines
    joined by ``; ``."""

    def __init__(self, problems: Sequence[tuple[str | None, Problem]]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(self.lines))

    @property
    def lines(self) -> list[str]:
        """Each problem as its English line (``Anna: vp -5 is negative``)."""
        return [str(p) if who is None else f"{who}: {p}" for who, p in self.problems]


def _names(players: Iterable[str]) -> str:
    return ", ".join(repr(p) for p in sorted(players))


def read_results(
    text: str,
    *,
    source: str,
    players: Collection[str],
    thresholds: Mapping[int, int],
    tables: Mapping[tuple[int, int], frozenset[str]] | None = None,
    stage: str | None = None,
) -> tuple[GameResult, ...]:
    """Read and validate a results CSV; return its rows in file order.

    Columns (header required, any order, names case-insensitive, extra
    columns ignored): ``round, table, player, vp, winner``, and optionally
    ``status`` (``played``, the default when empty or absent, ``no-show``:
    0 VP and not the winner, or ``disqualified``); one row per player per
    game. ``winner`` is yes/no (also y/n, true/false, 1/0, any
    case). Blank lines and rows whose cells are all empty are skipped; a
    leading byte-order mark is ignored. ``thresholds`` maps each round to its
    win threshold (10 base, 12 Seafarers scenario, 13 Cities & Knights).

    Rejected, all collected before raising :class:`ResultsError`: an empty
    file, a header without rows, missing or repeated columns, a row with the
    wrong number of cells, an empty cell, a round not in ``thresholds``, a
    table that is not a positive integer, an unknown player, VP that is not a
    whole number, negative, or above the round's threshold + ``VP_MARGIN``,
    a winner cell that is not yes/no, a player recorded twice in one round;
    per table: fewer than two players, players differing from
    ``tables[(round, table)]`` (when ``tables`` is given; also a scheduled
    table of a round in the file with no rows, and a table not scheduled),
    not exactly one winner, and a winner with fewer VP than another player
    at the table (the winner is whoever reached the threshold on their own
    turn, so others may be level with but never above the winner; the
    winner need not have reached the threshold, as a timed game may end
    early). Table checks are skipped for tables with a bad row, so one typo
    gives one problem. Table problems carry the line of the table's first
    row (for a missing table, the first row of its round). ``stage``
    (``final``, ``semi-final``): a finals file, see :data:`STAGE_ROUND`.
    """
    text = nfc(text.removeprefix("\ufeff"))  # ids compared in one Unicode form (issue 46)
    problems = _Problems(source, stage)
    reader = csv.reader(io.StringIO(text), strict=True)
    header, index, header_line = _read_header(reader, problems)
    rows = _read_body(reader, header_line, problems)
    results: list[GameResult] = []
    tainted: set[tuple[int, int]] = set()  # tables with a bad row
    seen: dict[tuple[int, str], int] = {}  # (round, player) -> line
    for line, row in rows:
        result = _read_row(line, row, header, index, frozenset(players), thresholds, seen, tainted, problems)
        if result is not None:
            results.append(result)
    groups = _group(results)
    for key, rows_ in groups.items():
        if key not in tainted:
            for line, what in _table_problems(key, rows_, tables, problems.round_name(key[0])):
                problems.add(line, what)
    if tables is not None:
        _missing_tables(rows, header, index, thresholds, tables, groups, tainted, problems)
    if problems:
        raise problems.error()
    return tuple(results)


class _Problems:
    """The problems found in a results file, each with its line."""

    def __init__(self, source: str, stage: str | None = None) -> None:
        self.source = source
        self.stage = stage
        self.found: list[tuple[int, str]] = []

    def round_name(self, rnd: int) -> RoundName:
        """``round 3``, or the stage's name in a finals file."""
        return RoundName(rnd, self.stage)

    def add(self, line: int, what: str | Problem) -> None:
        self.found.append((line, f"line {line}: {what}"))

    def __bool__(self) -> bool:
        return bool(self.found)

    def error(self) -> ResultsError:
        return ResultsError(self.source, [p for _, p in sorted(self.found, key=lambda p: p[0])])


def _read_header(reader: Iterable[list[str]], problems: _Problems) -> tuple[list[str], dict[str, int], int]:
    """The header (first non-blank row, lower case), column -> index, and
    its line. Raises :class:`ResultsError` for a missing header, a column
    given twice or a missing column."""
    header: list[str] | None = None
    header_line = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                header = [cell.strip().lower() for cell in row]
                header_line = getattr(reader, "line_num", 1)
                break
    except csv.Error as exc:  # an unclosed quote in the header
        problems.add(getattr(reader, "line_num", 1), f"unreadable csv: {str(exc).lower()} (is a quote not closed?)")
        raise problems.error() from None
    if header is None:
        problems.add(1, f"empty file (expected a header: {','.join(COLUMNS)})")
        raise problems.error()
    index: dict[str, int] = {}
    for i, name in enumerate(header):
        if name in COLUMNS and name in index:
            problems.add(header_line, f"column {name!r} appears twice")
        index.setdefault(name, i)
    missing = [c for c in COLUMNS if c not in index]
    if missing:
        hint = " (columns must be separated by commas)" if len(header) == 1 and ";" in header[0] else ""
        problems.add(header_line, f"missing column{'s' if len(missing) > 1 else ''} {', '.join(missing)}{hint}")
    if problems:
        raise problems.error()
    return header, index, header_line


def _read_body(reader: Any, header_line: int, problems: _Problems) -> list[tuple[int, list[str]]]:
    """The non-blank rows after the header, with their lines. Raises
    :class:`ResultsError` for unreadable CSV or no rows."""
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error as exc:  # e.g. an unclosed quote
        problems.add(reader.line_num, f"unreadable csv: {str(exc).lower()}")
        raise problems.error() from None
    rows = [(n, row) for n, row in rows if any(cell.strip() for cell in row)]
    if not rows:
        problems.add(header_line, "no result rows after the header")
        raise problems.error()
    return rows


def _read_row(
    line: int,
    row: list[str],
    header: list[str],
    index: dict[str, int],
    known: frozenset[str],
    thresholds: Mapping[int, int],
    seen: dict[tuple[int, str], int],
    tainted: set[tuple[int, int]],
    problems: _Problems,
) -> GameResult | None:
    """One result row, or None after adding its problems (and marking its
    table as tainted, so table checks skip it)."""
    if len(row) != len(header):
        problems.add(line, f"expected {len(header)} cells, got {len(row)}")
        return None
    cell = {c: row[index[c]].strip() for c in COLUMNS}
    ok = True
    for c in COLUMNS:
        if not cell[c]:
            problems.add(line, f"empty {c}")
            ok = False
    rnd = _round_cell(line, cell["round"], thresholds, problems)
    tbl = None
    if cell["table"]:
        if _UINT.fullmatch(cell["table"]) and int(cell["table"]) >= 1:
            tbl = int(cell["table"])
        else:
            problems.add(line, f"table {quoted(cell['table'], 30)} is not a positive whole number")
    player = cell["player"]
    if player and player not in known:
        problems.add(line, f"unknown player {quoted(player, 40)}")
        player = ""
    vp = _vp_cell(line, cell["vp"], rnd, thresholds, problems)
    win: bool | None = None
    if cell["winner"]:
        w = cell["winner"].lower()
        if w in _TRUE or w in _FALSE:
            win = w in _TRUE
        else:
            problems.add(line, f"winner {quoted(cell['winner'], 30)} is not yes or no")
    status = _status_cell(line, row[index[STATUS_COLUMN]].strip() if STATUS_COLUMN in index else "", vp, win, problems)
    if status is None:
        ok = False
    if rnd is not None and player:
        first = seen.setdefault((rnd, player), line)
        if first != line:
            problems.add(line, f"player {player!r} already recorded in {problems.round_name(rnd)} (line {first})")
            ok = False
    if rnd is None or tbl is None or vp is None or win is None or not player or not ok or status is None:
        if rnd is not None and tbl is not None:
            tainted.add((rnd, tbl))
        return None
    return GameResult(rnd, tbl, player, vp, win, line, status)


def _status_cell(line: int, text: str, vp: int | None, win: bool | None, problems: _Problems) -> str | None:
    """The row's status (empty: played), or None after adding its problem."""
    status = status_value(text, vp, win)
    if isinstance(status, Problem):
        problems.add(line, status)
        return None
    return status


def status_value(text: str, vp: int | None, win: bool | None) -> str | Problem:
    """A player's status in a game (``text`` stripped; empty: played), or
    its problem: not one of :data:`STATUSES`, or a no-show with VP other
    than 0 or marked the winner (docs/console.md, "Statuses")."""
    status = text.lower() or PLAYED
    if status not in STATUSES:
        return Problem("result_status", {"value": quoted(text, 30), "known": ", ".join(STATUSES)})
    if status == NO_SHOW and (vp not in (0, None) or win):
        return Problem("result_no_show")
    return status


def _round_cell(line: int, text: str, thresholds: Mapping[int, int], problems: _Problems) -> int | None:
    if not text:
        return None
    if problems.stage is not None:
        if text.lower() == problems.stage and STAGE_ROUND in thresholds:
            return STAGE_ROUND
        problems.add(
            line,
            f"round {quoted(text, 30)} is not {problems.stage!r} (the round column of a "
            f"{problems.stage} results file names the stage)",
        )
        return None
    if _UINT.fullmatch(text) and int(text) in thresholds:
        return int(text)
    rounds = ", ".join(str(r) for r in sorted(thresholds)) or "none"
    problems.add(line, f"unknown round {quoted(text, 30)} (rounds: {rounds})")
    return None


def _vp_cell(line: int, text: str, rnd: int | None, thresholds: Mapping[int, int], problems: _Problems) -> int | None:
    """A VP cell's value (None: empty, or bad after adding its problem)."""
    if not text:
        return None
    value = vp_value(text, None if rnd is None else problems.round_name(rnd), None if rnd is None else thresholds[rnd])
    if isinstance(value, Problem):
        problems.add(line, value)
        return None
    return value


def vp_value(text: str, rnd: RoundName | None, threshold: int | None) -> int | Problem:
    """A player's VP in a game (``text`` stripped, not empty): plain digits
    (no sign, no space inside), at most 6 of them, at most the game's win
    ``threshold`` + :data:`VP_MARGIN` (None: the round is not known, no
    bound); else its problem (``rnd`` names the round in it)."""
    if not _INT.fullmatch(text):
        if re.fullmatch(r"-[0-9]{1,6}", text):
            return Problem("result_vp_negative", {"value": text})
        if re.fullmatch(r"\+[0-9]{1,6}", text):
            return Problem("result_vp_sign", {"value": quoted(text, 30), "digits": text[1:]})
        long = re.fullmatch(r"[+-]?[0-9]+", text) is not None
        return Problem("result_vp_long" if long else "result_vp_not_whole", {"value": quoted(text, 30)})
    value = int(text)
    if threshold is not None and value > threshold + VP_MARGIN:
        return Problem(
            "result_vp_above",
            {"value": value, "top": threshold + VP_MARGIN, "round": rnd, "threshold": threshold, "margin": VP_MARGIN},
        )
    return value


def _missing_tables(
    rows: list[tuple[int, list[str]]],
    header: list[str],
    index: dict[str, int],
    thresholds: Mapping[int, int],
    tables: Mapping[tuple[int, int], frozenset[str]],
    groups: Mapping[tuple[int, int], list[GameResult]],
    tainted: set[tuple[int, int]],
    problems: _Problems,
) -> None:
    """A scheduled table of a round in the file with no rows at all."""
    first_of_round: dict[int, int] = {}
    for line, row in rows:  # rounds as written, even in bad rows
        cell = row[index["round"]].strip() if len(row) == len(header) else ""
        if problems.stage is not None and cell.lower() == problems.stage:
            first_of_round.setdefault(STAGE_ROUND, line)
        elif problems.stage is None and _UINT.fullmatch(cell) and int(cell) in thresholds:
            first_of_round.setdefault(int(cell), line)
    for (r, t), expected in sorted(tables.items()):
        if r in first_of_round and (r, t) not in groups and (r, t) not in tainted:
            problems.add(
                first_of_round[r], f"{problems.round_name(r)} table {t}: no results (expected {_names(expected)})"
            )


def _group(results: Iterable[GameResult]) -> dict[tuple[int, int], list[GameResult]]:
    groups: dict[tuple[int, int], list[GameResult]] = defaultdict(list)
    for r in results:
        groups[(r.round, r.table)].append(r)
    return dict(groups)


def _table_problems(
    key: tuple[int, int],
    rows: Sequence[GameResult],
    tables: Mapping[tuple[int, int], frozenset[str]] | None,
    round_name: RoundName,
) -> list[tuple[int, str | Problem]]:
    """Problems of one table's rows: membership (``tables``), then the
    game's (:func:`game_problems`), each with its line."""
    line = min(r.line for r in rows)
    name = TableName(round_name, key[1])
    present = {r.player for r in rows}
    if tables is not None:
        if key not in tables:
            return [(line, f"{name} is not in the schedule")]
        expected = frozenset(tables[key])
        if present != expected:
            parts = []
            if expected - present:
                parts.append(f"missing {_names(expected - present)}")
            if present - expected:
                parts.append(f"not seated there {_names(present - expected)}")
            return [(line, f"{name}: {'; '.join(parts)}")]
    return [(line if at is None else at.line, problem) for at, problem in game_problems(rows, name)]


def game_problems(
    rows: Sequence[GameResult], table: TableName | None = None, shown: Callable[[str], str] = repr
) -> list[tuple[GameResult | None, Problem]]:
    """The problems of one game's rows whose cells are each fine: fewer
    than two players who played (no-shows apart), not exactly one
    winner, a winner with fewer VP than another player (the winner
    reached the threshold on their own turn, so others may be level with
    but never above the winner; a timed game may end below it). Each
    with the row at fault (None: the game's). ``table`` names the table
    in the problem (``table_…`` texts; None: a form of that one table,
    ``game_…`` texts); ``shown`` words a player."""
    kind, where = ("table_", {"table": table}) if table is not None else ("game_", {})
    played = [r for r in rows if r.status != NO_SHOW]  # the others play the table out
    if len(played) < 2:
        alone = "one_played" if len({r.player for r in rows}) > 1 else "one_player"
        return [(None, Problem(kind + alone, where))]
    winners = [r for r in played if r.winner]
    if not winners:
        return [(None, Problem(kind + "no_winner", where))]
    if len(winners) > 1:
        return [
            (
                None,
                Problem(
                    kind + "winners",
                    {
                        **where,
                        "n": len(winners),
                        "names": ", ".join(shown(p) for p in sorted(r.player for r in winners)),
                    },
                ),
            )
        ]
    w = winners[0]
    top = max(played, key=lambda r: r.vp)
    if top.vp > w.vp:
        return [
            (
                w,
                Problem(
                    kind + "fewer",
                    {**where, "winner": shown(w.player), "vp": w.vp, "other": shown(top.player), "top": top.vp},
                ),
            )
        ]
    return []


def check_game(
    rnd: RoundName,
    table: int,
    seats: Sequence[str],
    vp: Sequence[str],
    winner: int | None,
    statuses: Sequence[str] | None,
    threshold: int,
    shown: Callable[[str], str] = repr,
) -> tuple[GameResult, ...]:
    """One game's result as a form gives it, checked by the rules of a
    results file (:func:`read_results`): ``seats`` the players in seat
    order, ``vp`` their VP as typed, ``winner`` the winner's seat
    (0-based; None: not chosen), ``statuses`` each seat's status (None:
    all played), ``threshold`` the game's win threshold. Returns the
    rows (``line`` 0). Raises :class:`GameRefused` with every problem at
    once, each naming its player (as ``shown`` words a player id) or
    the game."""
    if len(vp) != len(seats) or (statuses is not None and len(statuses) != len(seats)):
        raise GameRefused([(None, Problem("game_all_vp", {"n": len(seats)}))])
    found: list[tuple[str | None, Problem]] = [] if winner is not None else [(None, Problem("game_choose_winner"))]
    rows: list[GameResult] = []
    for k, player in enumerate(seats):
        text, win = vp[k].strip(), k == winner
        value = vp_value(text, rnd, threshold) if text else Problem("game_empty_vp")
        status = status_value(
            statuses[k].strip() if statuses is not None else "", value if isinstance(value, int) else None, win
        )
        for bad in (value, status):
            if isinstance(bad, Problem):
                found.append((shown(player), bad))
        if isinstance(value, int) and isinstance(status, str):
            rows.append(GameResult(rnd.round, table, player, value, win, 0, status))
    if not found:
        found = [(None, problem) for _, problem in game_problems(rows, None, shown)]
    if found:
        raise GameRefused(found)
    return tuple(rows)


# --------------------------------------------------------------------------
# scoring


#: Australian placing points (Catan Australian Championships 2006)
AUSTRALIAN = Scoring({4: (4, 3, 2, 1), 3: (4, 2, 1)})
#: the 5/3/2/1 scheme of other federations, 5/3/1 at tables of three
FIVE_THREE = Scoring({4: (5, 3, 2, 1), 3: (5, 3, 1)})


def placing_points(table: Sequence[GameResult], points: Sequence[Fraction | int]) -> dict[str, Fraction]:
    """Placing points of one table (docs/rules.md section 6, Catan Australian Championships 2006 "Points").

    The winner (the player who reached the threshold on their own turn)
    takes the 1st-place points alone, even when others are level on VP. The
    other players take places 2, 3, ... by VP, highest first; players level
    on VP share the points of the places they occupy equally (the average,
    as a Fraction). So players level with the winner share 2nd onwards.

    Worked example, 4/3/2/1: winner A 10 VP, B 10, C 10, D 7 gives A 4,
    B and C (3 + 2) / 2 = 5/2 each, D 1. A 10 (winner), B 8, C 8, D 8 gives
    A 4, B, C and D (3 + 2 + 1) / 3 = 2 each.

    Raises :class:`SetupgenError` unless ``len(points)`` equals the table
    size, the players are distinct, there is exactly one winner and no
    player has more VP than the winner.
    """
    rows = list(table)
    if len(points) != len(rows):
        raise SetupgenError(f"{len(points)} placing points given for a table of {len(rows)}")
    if len({r.player for r in rows}) != len(rows):
        raise SetupgenError("a player appears twice at one table")
    winners = [r for r in rows if r.winner]
    if len(winners) != 1:
        raise SetupgenError(f"a table needs exactly one winner, got {len(winners)}")
    winner = winners[0]
    if any(r.vp > winner.vp for r in rows):
        raise SetupgenError(f"winner {winner.player!r} has fewer vp than another player at the table")
    pts = [Fraction(p) for p in points]
    out = {winner.player: pts[0]}
    rest = sorted((r for r in rows if r is not winner), key=lambda r: -r.vp)
    place = 1  # index into pts of the next free place
    i = 0
    while i < len(rest):
        j = i
        while j < len(rest) and rest[j].vp == rest[i].vp:
            j += 1
        share = sum(pts[place : place + j - i], Fraction(0)) / (j - i)
        for r in rest[i:j]:
            out[r.player] = share
        place += j - i
        i = j
    return out


def table_points(table: Sequence[GameResult], points: Sequence[Fraction | int]) -> dict[str, Fraction]:
    """:func:`placing_points` of a table with its no-shows: they take 0
    and the players who played take the first places of the seated
    table's ``points`` among themselves (a table of 4 with a no-show: 4,
    3, 2 for the three, 0 for the no-show). Without no-shows it is
    :func:`placing_points`."""
    played = [r for r in table if r.status != NO_SHOW]
    if len(played) == len(table):
        return placing_points(table, points)
    out = placing_points(played, list(points)[: len(played)])
    out.update((r.player, Fraction(0)) for r in table if r.status == NO_SHOW)
    return out


def vp_share(vp: int, table_total: int) -> Decimal:
    """A game's VP share in percent, rounded to two decimals half-up, as in
    the Catan Australian Championships 2006 example (10 of 32 -> 31.25, 8 of 30 -> 26.67). 0.00 for an
    empty table."""
    if table_total <= 0:
        return Decimal("0.00")
    return _hundredths(Fraction(100 * vp, table_total))


def _hundredths(value: Fraction) -> Decimal:
    """``value`` rounded half-up to two decimals (non-negative values)."""
    hundredths = value * 100 + Fraction(1, 2)
    return Decimal(hundredths.numerator // hundredths.denominator).scaleb(-2)


def table_places(table: Sequence[GameResult]) -> dict[str, int]:
    """Each player's place at one table, 1 the winner (docs/rules.md
    section 6, "Ranking keys": ``countback``, ``best_finish``): one more
    than the players ahead, the winner being ahead of everyone and more VP
    ahead of fewer, so players level on VP share the better place (winner
    10, B 8, C 8, D 5: places 1, 2, 2, 4). A no-show has no place and
    counts for nobody. Raises :class:`SetupgenError` unless the table has
    exactly one winner among those who played."""
    played = [r for r in table if r.status != NO_SHOW]
    winners = [r for r in played if r.winner]
    if len(winners) != 1:
        raise SetupgenError(f"a table needs exactly one winner, got {len(winners)}")
    out = {}
    for r in played:
        out[r.player] = 1 if r.winner else 2 + sum(1 for o in played if not o.winner and o.vp > r.vp)
    return out


# --------------------------------------------------------------------------
# standings


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of the standings (each key: docs/rules.md section 6,
    "Ranking keys"). ``victory_points`` counts each game up to that
    round's threshold, ``victory_points_total`` every point; ``vp_share``
    sums each game's share rounded to two decimals (:func:`vp_share`),
    ``vp_share_average`` is that sum over ``games``, rounded to two
    decimals; ``wins`` the games won; ``places`` how often the player
    finished 1st, 2nd, ... (:func:`table_places`; a no-show finishes
    nowhere); ``best_finish`` the best of those places (None: none);
    ``lots`` the player's lot (1 ranks highest) when lots decided a tie,
    else None."""

    rank: int
    player: str
    placing_points: Fraction
    victory_points: int
    vp_share: Decimal
    games: int
    lots: int | None = None
    wins: int = 0
    victory_points_total: int = 0
    vp_share_average: Decimal = Decimal("0.00")
    places: tuple[int, ...] = ()
    best_finish: int | None = None


#: the most places a countback compares (the largest table: 6 players)
MAX_PLACES = 6


@dataclass(slots=True)
class _Tally:
    pp: Fraction = field(default_factory=Fraction)
    vp: int = 0
    share: Decimal = field(default_factory=lambda: Decimal("0.00"))
    games: int = 0
    wins: int = 0
    vp_total: int = 0
    places: list[int] = field(default_factory=lambda: [0] * MAX_PLACES)

    def average(self) -> Decimal:
        """The summed share over the games, rounded half-up to two decimals."""
        return _hundredths(Fraction(self.share) / self.games) if self.games else Decimal("0.00")

    def best(self) -> int | None:
        return next((k for k, n in enumerate(self.places, start=1) if n), None)


def standings(
    results: Sequence[GameResult], *, scoring: Scoring, thresholds: Mapping[int, int], seed: str
) -> tuple[Standing, ...]:
    """Rank every player in ``results`` (docs/rules.md section 6, Catan Australian Championships 2006).

    Keys, in ``scoring.tie_breakers`` order (default as in Catan Australian Championships 2006):

    1. ``placing_points``: the sum of :func:`placing_points` over games;
    2. ``victory_points``: total VP, each game counted up to its round's
       threshold (``thresholds[round]``);
    3. ``vp_share``: the sum of each game's VP share of its table, rounded
       per game to two decimals (:func:`vp_share`; the table total uses the
       capped VP too). The example of the Catan Australian Championships 2006: A 31.25 + 26.67 + 27.78 = 85.70,
       B 33.33 + 30.30 + 22.22 = 85.85, so B ranks above A;
    4. ``lots``: players level on every other key are sorted by id and
       shuffled with ``rng.from_seed(f"{seed}/lots/{ids}")`` (``ids`` the
       JSON list of their sorted ids), so the draw depends only on the seed
       and who is tied, never on the order of the results.

    No-shows take 0 VP and no placing points (:func:`table_points`); a
    player disqualified in any game leaves the standings (the others keep
    their results against them). Ranks run 1..n without gaps. Raises
    :class:`SetupgenError` for a round
    without a threshold or a table size without placing points, and
    :class:`ResultsError` (source ``"results"``) for tables that break
    :func:`read_results`' table rules.
    """
    rows = list(results)
    for r in rows:
        if r.round not in thresholds:
            raise SetupgenError(f"no win threshold for round {r.round}")
    groups = _group(rows)
    _check_tables(rows, groups)
    tally = _tally(groups, scoring, thresholds)

    def key(player: str) -> tuple[Any, ...]:
        t = tally[player]
        return tuple(_key_value(t, b) for b in scoring.tie_breakers if b != "lots")

    gone = {r.player for r in rows if r.status == DISQUALIFIED}  # they leave the standings
    order, lots = draw_lots(sorted((p for p in tally if p not in gone), key=lambda p: (key(p), p)), key, seed)
    return tuple(_standing(n, p, tally[p], lots.get(p)) for n, p in enumerate(order, 1))


def _standing(rank: int, player: str, t: _Tally, lot: int | None) -> Standing:
    """The standing of ``player`` at ``rank`` from its tally and its lot."""
    return Standing(
        rank, player, t.pp, t.vp, t.share, t.games, lot, t.wins, t.vp_total, t.average(), tuple(t.places), t.best()
    )


def _key_value(t: _Tally, key: str) -> Any:
    """What a ranking key compares, smaller ranking higher (docs/rules.md
    section 6, "Ranking keys")."""
    if key == "wins":
        return -t.wins
    if key == "placing_points":
        return -t.pp
    if key == "victory_points":
        return -t.vp
    if key == "victory_points_total":
        return -t.vp_total
    if key == "vp_share":
        return -t.share
    if key == "vp_share_average":
        return -t.average()
    if key == "countback":
        return tuple(-n for n in t.places)
    if key == "best_finish":
        best = t.best()
        return MAX_PLACES + 1 if best is None else best
    raise SetupgenError(f"unknown ranking key {key!r}")


def _check_tables(rows: list[GameResult], groups: Mapping[tuple[int, int], list[GameResult]]) -> None:
    """Raise :class:`ResultsError` for a player twice in a round or a table
    breaking the table rules of :func:`read_results`."""
    problems = []
    seen: dict[tuple[int, str], GameResult] = {}
    for r in rows:
        if seen.setdefault((r.round, r.player), r) is not r:
            problems.append((r.line, f"line {r.line}: player {r.player!r} recorded twice in round {r.round}"))
    for key in sorted(groups):
        found = _table_problems(key, groups[key], None, RoundName(key[0]))
        problems += [(n, f"line {n}: {what}") for n, what in found]
    if problems:
        raise ResultsError("results", [p for _, p in sorted(problems, key=lambda p: p[0])])


def _tally(
    groups: Mapping[tuple[int, int], list[GameResult]], scoring: Scoring, thresholds: Mapping[int, int]
) -> dict[str, _Tally]:
    """Placing points, capped and total VP, VP shares, games, wins and
    places per player."""
    tally: dict[str, _Tally] = defaultdict(_Tally)
    for (rnd, tbl), table in sorted(groups.items()):
        points = scoring.placing_points.get(len(table))
        if points is None:
            raise SetupgenError(f"no placing points for tables of {len(table)} (round {rnd} table {tbl})")
        pp = table_points(table, points)
        places = table_places(table)
        cap = thresholds[rnd]
        total = sum(min(r.vp, cap) for r in table)
        for r in table:
            t = tally[r.player]
            t.pp += pp[r.player]
            t.vp += min(r.vp, cap)
            t.vp_total += r.vp
            t.share += vp_share(min(r.vp, cap), total)
            t.games += 1
            t.wins += 1 if r.winner and r.status != NO_SHOW else 0
            if r.player in places:
                t.places[places[r.player] - 1] += 1
    return tally


def round_points(results: Sequence[GameResult], scoring: Scoring) -> dict[str, dict[int, Fraction]]:
    """Player -> round -> the placing points the player took in that round
    (:func:`placing_points` of the player's table); a round the player has
    no result in is absent. Summed over rounds these are the standings'
    placing points. Raises :class:`SetupgenError` for a table size without
    placing points or a table breaking :func:`placing_points`' rules."""
    out: dict[str, dict[int, Fraction]] = defaultdict(dict)
    for (rnd, tbl), table in sorted(_group(results).items()):
        points = scoring.placing_points.get(len(table))
        if points is None:
            raise SetupgenError(f"no placing points for tables of {len(table)} (round {rnd} table {tbl})")
        for player, value in table_points(table, points).items():
            out[player][rnd] = out[player].get(rnd, Fraction(0)) + value
    return dict(out)


def draw_lots(order: list[str], key: Callable[[str], object], seed: str) -> tuple[list[str], dict[str, int]]:
    """Players level on every key (runs of equal ``key`` in ``order``) are
    sorted by id and shuffled by ``rng.from_seed(f"{seed}/lots/{ids}")``;
    the new order and each tied player's lot."""
    lots: dict[str, int] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and key(order[j]) == key(order[i]):
            j += 1
        if j - i > 1:
            tied = sorted(order[i:j])
            rng.shuffle(rng.from_seed(f"{seed}/lots/{json.dumps(tied)}"), tied)
            order[i:j] = tied
            lots.update((p, n) for n, p in enumerate(tied, 1))
        i = j
    return order, lots


def format_points(value: Fraction | int | Decimal) -> str:
    """A number as a decimal with at most two places: 2.5, 3, 3.33."""
    q = Fraction(value) * 100 + Fraction(1, 2)
    s = f"{Decimal(q.numerator // q.denominator).scaleb(-2):f}"
    return s.rstrip("0").rstrip(".") if "." in s else s


def key_columns(keys: Sequence[str]) -> tuple[str, ...]:
    """The standings' columns of a ranking's keys, in its order: every key
    but ``lots`` (whose lot has a column of its own where shown)."""
    return tuple(k for k in keys if k != "lots")


def key_text(s: Standing, key: str) -> str:
    """A standing's value of ranking ``key`` as the CSV writes it: points
    as decimals (2.5), shares with two places (85.70), a countback as the
    counts of 1st, 2nd, ... places joined by ``/`` up to the last place
    anyone in the standings took (``1/0/1/0``), a best finish as its place
    (``-`` for none). Raises :class:`SetupgenError` for an unknown key."""
    if key == "placing_points":
        return format_points(s.placing_points)
    if key in ("victory_points", "victory_points_total", "wins"):
        return str(getattr(s, key))
    if key in ("vp_share", "vp_share_average"):
        return f"{getattr(s, key):.2f}"
    if key == "countback":
        return "/".join(str(n) for n in s.places)
    if key == "best_finish":
        return "-" if s.best_finish is None else str(s.best_finish)
    raise SetupgenError(f"unknown ranking key {key!r}")


def trimmed(st: Sequence[Standing]) -> tuple[Standing, ...]:
    """The standings with each countback cut after the last place anyone
    took (tables of four: 1st-4th), so the column is as wide as the field's
    tables."""
    last = max((k for s in st for k, n in enumerate(s.places, start=1) if n), default=0)
    return tuple(dataclasses.replace(s, places=s.places[:last]) for s in st)


def standings_csv(st: Sequence[Standing], keys: Sequence[str] = TIE_BREAKERS) -> str:
    """The standings as CSV: ``rank,player``, a column per ranking key of
    ``keys`` but ``lots`` (:func:`key_text`; by default
    ``placing_points,victory_points,vp_share``), ``games``; ``\n`` line
    ends."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    columns = key_columns(keys)
    w.writerow(("rank", "player", *columns, "games"))
    for s in trimmed(st):
        w.writerow((s.rank, s.player, *[key_text(s, k) for k in columns], s.games))
    return buf.getvalue()


#: the short column heads of the command line's standings, by ranking key
LINE_HEADS = {
    "wins": "wins",
    "placing_points": "pp",
    "victory_points": "vp",
    "victory_points_total": "vp total",
    "vp_share": "share",
    "vp_share_average": "avg share",
    "countback": "places",
    "best_finish": "best",
}


def standings_lines(st: Sequence[Standing], names: Mapping[str, str], keys: Sequence[str] = TIE_BREAKERS) -> list[str]:
    """Aligned text lines for printing: a header, then one line per player
    (display name from ``names``, the id when absent; a column per ranking
    key as :func:`standings_csv`; ``lot N`` when lots decided the place)."""
    columns = key_columns(keys)
    head = ("#", "player", *[LINE_HEADS[k] for k in columns], "games", "")
    rows = [
        (
            str(s.rank),
            names.get(s.player, s.player),
            *[key_text(s, k) for k in columns],
            str(s.games),
            f"lot {s.lots}" if s.lots is not None else "",
        )
        for s in trimmed(st)
    ]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    left = {1, len(head) - 1}
    out = []
    for r in [head, *rows]:
        cells = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


# --------------------------------------------------------------------------
# finals


#: seats by 1-based rank: semi-finals of 16 (Catan Australian Championships 2006 chart), final of 8
#: (Schweizer Meisterschaft 2010), final of 4 (the top four at one table: CATAN Studio, 2024)
FINALS_CHARTS: Mapping[int, tuple[tuple[int, ...], ...]] = {
    16: ((1, 8, 9, 16), (2, 7, 10, 15), (3, 6, 11, 14), (4, 5, 12, 13)),
    8: ((1, 4, 5, 8), (2, 3, 6, 7)),
    4: ((1, 2, 3, 4),),
}


def _check_ranking(ranking: Sequence[str]) -> None:
    if len(set(ranking)) != len(ranking):
        raise SetupgenError("a player appears twice in the ranking")


def finals_tables(ranking: Sequence[str], players: int) -> tuple[tuple[str, ...], ...]:
    """Finals tables from a ranking (best first).

    ``players=16``: the Catan Australian Championships 2006 semi-finals 1-8-9-16 / 2-7-10-15 /
    3-6-11-14 / 4-5-12-13; ``players=8``: the Swiss final 1-4-5-8 / 2-3-6-7;
    ``players=4``: the top four at one final table (docs/rules.md section 6). Each table is listed in rank order, which is the
    order in which its players choose their starting positions (the best
    ranked chooses first); seats are not assigned here. Raises
    :class:`SetupgenError` for another count, fewer ranked players than
    ``players`` or a player listed twice.
    """
    chart = FINALS_CHARTS.get(players)
    if chart is None:
        raise SetupgenError(f"no finals chart for {players} players (known: 16, 8, 4)")
    _check_ranking(ranking)
    if len(ranking) < players:
        raise SetupgenError(f"finals of {players} need {players} ranked players, got {len(ranking)}")
    return tuple(tuple(ranking[rank - 1] for rank in table) for table in chart)


def final_of_winners(winners: Sequence[str], ranking: Sequence[str]) -> tuple[str, ...]:
    """The final table of the semi-final winners (Catan Australian Championships 2006: "the four
    winners of the semi-finals reach the final"), ordered by preliminary
    rank in ``ranking``: the order in which they choose starting positions.
    Raises :class:`SetupgenError` for fewer than two winners, a winner twice
    or a winner not in the ranking."""
    _check_ranking(ranking)
    if len(winners) < 2:
        raise SetupgenError(f"a final needs at least two winners, got {len(winners)}")
    if len(set(winners)) != len(winners):
        raise SetupgenError("a winner is listed twice")
    place = {p: i for i, p in enumerate(ranking)}
    unranked = [w for w in winners if w not in place]
    if unranked:
        raise SetupgenError(f"winner {unranked[0]!r} is not in the ranking")
    return tuple(sorted(winners, key=place.__getitem__))
