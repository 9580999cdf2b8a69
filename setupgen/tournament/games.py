"""One key for every game of a tournament (``docs/console.md``, "Games").

A game is played at one table of one round of one stage: a
:class:`Game` is the triple ``(stage, round, table)``.

* ``stage``: ``preliminary`` (the tournament file's rounds),
  ``semi-final`` or ``final`` (the finals of ``[final]``);
* ``round``: the preliminary round, 1..; a finals stage is played in one
  round, so its round is always 1 (:data:`FINALS_ROUND`);
* ``table``: 1.. (the final has table 1; the semi-finals of 16 tables 1-4).

The console's database, its pages and its routes, the table tokens and
the results files all address a game by this key; rounds and finals are
entered, reported and confirmed by the same functions.

Pure values: no files, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import SetupgenError
from ..core.rules import FINAL, FINALS_STAGES, PRELIMINARY, SEMI_FINAL
from ..core.templates import texts

__all__ = [
    "PRELIMINARY",
    "SEMI_FINAL",
    "FINAL",
    "FINALS_STAGES",
    "STAGES",
    "FINALS_ROUND",
    "Game",
    "GameError",
    "seating_stamp",
    "RoundName",
    "TableName",
]

#: every stage, in the order they are played
STAGES = (PRELIMINARY, *FINALS_STAGES)
#: the round of every finals table: a finals stage is one round
FINALS_ROUND = 1
#: largest round and table number a key may hold (a typo, not a tournament, goes past them)
_MAX = 10_000


@dataclass(frozen=True, slots=True)
class RoundName:
    """How a problem names a game's round: ``round 3`` (``stage`` None) or
    the finals stage (``final``, ``semi-final``); ``str()`` is the English
    name, a front end words it in its language."""

    round: int
    stage: str | None = None

    def __str__(self) -> str:
        if self.stage is not None:
            return texts("en").get(f"messages.stage_{self.stage.replace('-', '_')}")
        return texts("en").get("messages.round_name", n=self.round)


@dataclass(frozen=True, slots=True)
class TableName:
    """How a problem names a table: ``round 3 table 2``, ``final table 1``."""

    round: RoundName
    table: int

    def __str__(self) -> str:
        return texts("en").get("messages.table_name", round=self.round, table=self.table)


class GameError(SetupgenError):
    """A game key that names no possible game (unknown stage, a round or
    table below 1, a finals round other than 1)."""


@dataclass(frozen=True, slots=True)
class Game:
    """The key of one game: ``stage`` (:data:`STAGES`), ``round`` (1..; 1
    for a finals stage) and ``table`` (1..). Raises :class:`GameError`
    for a key that names no possible game. Sorted by :meth:`sort_key`
    (stages in playing order, then round, then table)."""

    stage: str
    round: int
    table: int

    def __post_init__(self) -> None:
        if self.stage not in STAGES:
            raise GameError(
                f"unknown stage {self.stage[:30]!r} (stages: {', '.join(STAGES)})"
                if isinstance(self.stage, str)
                else f"a stage is a name, not {type(self.stage).__name__}"
            )
        for name, value in (("round", self.round), ("table", self.table)):
            if type(value) is not int or not 1 <= value <= _MAX:
                raise GameError(f"a game's {name} is a whole number 1-{_MAX}, not {str(value)[:20]!r}")
        if self.stage != PRELIMINARY and self.round != FINALS_ROUND:
            raise GameError(f"the {self.stage} is played in round {FINALS_ROUND}, not {self.round}")

    @classmethod
    def preliminary(cls, round_number: int, table: int) -> Game:
        """Table ``table`` of preliminary round ``round_number``."""
        return cls(PRELIMINARY, round_number, table)

    @classmethod
    def finals(cls, stage: str, table: int) -> Game:
        """Table ``table`` of the finals stage ``stage`` (``semi-final``,
        ``final``). Raises :class:`GameError` for a preliminary stage."""
        if stage == PRELIMINARY:
            raise GameError("the preliminary rounds are not a finals stage")
        return cls(stage, FINALS_ROUND, table)

    @property
    def is_finals(self) -> bool:
        """Whether this game is a semi-final or the final."""
        return self.stage != PRELIMINARY

    def sort_key(self) -> tuple[int, int, int]:
        """(stage in playing order, round, table)."""
        return STAGES.index(self.stage), self.round, self.table

    def label(self) -> str:
        """``round 2 table 3``, ``semi-final table 4``, ``final table 1``."""
        return str(self.name)

    @property
    def name(self) -> TableName:
        """How a message names this game's table (worded per language)."""
        return TableName(RoundName(self.round, self.stage if self.is_finals else None), self.table)

    def __repr__(self) -> str:
        return f"Game({self.stage!r}, {self.round!r}, {self.table!r})"


def seating_stamp(players: Sequence[str]) -> str:
    """The stamp of a table's seating that a result form carries
    (``docs/console.md``, "Results"): the first 16 hex digits of SHA-256 of
    the player ids in seat order (a finals table: choosing order), joined
    by line feeds (an id holds no control character). Two seatings have
    the same stamp only when they seat the same ids in the same order."""
    return hashlib.sha256("\n".join(players).encode("utf-8")).hexdigest()[:16]
