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

from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Sequence

from ..core.data import data_dir, read_data_toml
from ..core.errors import SetupgenError

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
    :class:`SetupgenError` naming the file and the problem."""
    data = read_data_toml(path, "design file")
    try:
        return _parse(data, str(path))
    except KeyError as exc:
        raise SetupgenError(f"{path}: not a design file (it has no {exc.args[0]!r})") from None
    except (TypeError, ValueError) as exc:
        raise SetupgenError(f"{path}: not a design file ({str(exc).lower()})") from None


def _parse(data: dict[str, Any], where: str) -> Packing:
    tables, k, players = int(data["tables"]), int(data["table_size"]), str(data["players"])
    if len(set(players)) != len(players) or len(players) != tables * k:
        raise SetupgenError(f"{where}: players must name {tables * k} different players, one character each")
    index = {c: i for i, c in enumerate(players)}
    rounds = []
    for r, line in enumerate(data["rounds"], start=1):
        try:
            rounds.append(tuple(tuple(index[c] for c in table) for table in str(line).split()))
        except KeyError as exc:
            raise SetupgenError(f"{where}: round {r} names {exc} who is not among the players") from None
    why = problem(rounds, tables * k, k)
    if why is not None:
        raise SetupgenError(f"{where}: {why}; the design is not used")
    return Packing(str(data["name"]), tables, k, tuple(rounds), where)


def packing_for(tables: int, k: int) -> Packing | None:
    """The known design for ``tables`` tables of ``k`` with the most
    rounds, or None. Raises :class:`SetupgenError` for a design file that
    fails its check."""
    folder = data_dir("designs")
    found = [read(p) for p in sorted(folder.glob("*.toml"))]
    fits = [p for p in found if (p.tables, p.table_size) == (tables, k)]
    return max(fits, key=lambda p: (len(p.rounds), p.path), default=None)


__all__ = ["Packing", "packing_for", "problem", "read"]
