"""Known designs shipped as data (docs/schedule.md, "Known designs"): the
``designs/*.toml`` files, each a schedule from the literature that no
construction here gives, such as the social golfer problem 8-4-10 (32
players at tables of 4 for 10 rounds, no pair twice).

A file is checked every time it is read (each round seats every player
once at tables of ``table_size``; no pair of players sits together
twice); one that fails is refused with a :class:`SetupgenError` naming the
file and the problem, never used. Points are numbered ``0..v-1`` in the
order of the file's ``players`` string; a round is a list of tables, each
a tuple of points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from ..core.data import data_dir, read_data_toml
from ..core.errors import SetupgenError, quoted

Rounds = tuple[tuple[tuple[int, ...], ...], ...]


@dataclass(frozen=True, slots=True)
class Packing:
    """A known schedule of ``tables`` tables of ``table_size`` with no
    repeated pair: its ``rounds`` over points ``0..tables*table_size-1``,
    its ``name`` and the file it came from."""

    name: str
    tables: int
    table_size: int
    rounds: Rounds
    path: str

    def leave(self) -> tuple[tuple[int, ...], ...]:
        """The pairs of points that never meet, as blocks when they form a
        perfect matching (8-4-10: each player and its twin), else the whole
        field as one block."""
        met = {pair for rnd in self.rounds for table in rnd for pair in combinations(sorted(table), 2)}
        v = self.tables * self.table_size
        unmet = [pair for pair in combinations(range(v), 2) if pair not in met]
        if sorted(x for pair in unmet for x in pair) == list(range(v)):
            return tuple(unmet)
        return (tuple(range(v)),)


def problem(rounds: Sequence[Sequence[Sequence[int]]], v: int, k: int) -> str | None:
    """What is wrong with ``rounds`` as a schedule of ``v`` points at
    tables of ``k`` with no pair twice, or None."""
    seen: dict[tuple[int, int], int] = {}
    for r, rnd in enumerate(rounds, start=1):
        seated = sorted(x for table in rnd for x in table)
        if seated != list(range(v)):
            return f"round {r} does not seat each of the {v} players once"
        if any(len(table) != k for table in rnd):
            return f"round {r} has a table of other than {k}"
        for table in rnd:
            for pair in combinations(sorted(table), 2):
                if pair in seen:
                    return f"two players sit together in rounds {seen[pair]} and {r}"
                seen[pair] = r
    return None


def read(path: str | Path) -> Packing:
    """The known design in file ``path``, checked. Raises
    :class:`SetupgenError` naming the file once and the problem in the
    project's words (a wrong type, a missing key, a failed check)."""
    data = read_data_toml(path, "design file")
    where = str(path)
    try:
        return _parse(data, where)
    except _DesignProblem as exc:
        raise SetupgenError(f"{where}: {exc}; the design is not used") from None


class _DesignProblem(Exception):
    """What is wrong with a design file's contents (worded for the user)."""


def _whole(data: dict[str, Any], key: str) -> int:
    """``data[key]`` as a whole number of at least 1, else the problem."""
    value = _given(data, key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _DesignProblem(f"{key} must be a whole number of at least 1, not {quoted(value, 40)}")
    return value


def _text(data: dict[str, Any], key: str) -> str:
    """``data[key]`` as a text, else the problem."""
    value = _given(data, key)
    if not isinstance(value, str):
        raise _DesignProblem(f"{key} must be a text in quotes, not {quoted(value, 40)}")
    return value


def _given(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise _DesignProblem(f"it has no {key} (a design file gives name, tables, table_size, players and rounds)")
    return data[key]


def _parse(data: dict[str, Any], where: str) -> Packing:
    name, tables, k, players = (
        _text(data, "name"),
        _whole(data, "tables"),
        _whole(data, "table_size"),
        _text(data, "players"),
    )
    if len(set(players)) != len(players) or len(players) != tables * k:
        raise _DesignProblem(f"players must name {tables * k} different players, one character each")
    lines = _given(data, "rounds")
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise _DesignProblem("rounds must be a list of texts, one a round, its tables apart by spaces")
    index = {c: i for i, c in enumerate(players)}
    rounds = []
    for r, line in enumerate(lines, start=1):
        strangers = sorted({c for c in line if not c.isspace() and c not in index})
        if strangers:
            raise _DesignProblem(f"round {r} names {quoted(strangers[0], 20)} who is not among the players")
        rounds.append(tuple(tuple(index[c] for c in table) for table in line.split()))
    why = problem(rounds, tables * k, k)
    if why is not None:
        raise _DesignProblem(why)
    return Packing(name, tables, k, tuple(rounds), where)


def packing_for(tables: int, k: int) -> Packing | None:
    """The known design for ``tables`` tables of ``k`` with the most
    rounds, or None. Raises :class:`SetupgenError` for a design file that
    fails its check."""
    folder = data_dir("designs")
    found = [read(p) for p in sorted(folder.glob("*.toml"))]
    fits = [p for p in found if (p.tables, p.table_size) == (tables, k)]
    return max(fits, key=lambda p: (len(p.rounds), p.path), default=None)


__all__ = ["Packing", "packing_for", "problem", "read"]
