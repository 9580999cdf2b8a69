"""The round clock: how long a round (or a finals stage) has left, as the
director starts, pauses, resumes and ends it (docs/console.md, "Round
clock"). Pure values; the database keeps them (:meth:`setupgen.console.
store.Store.clock_of`), so a restart of the console keeps the clock.

Shapes: times are seconds since the epoch (floats, UTC); ``seconds`` the
round's length in seconds; ``used`` the seconds that ran before the
clock's last start; ``since`` the time of that start while it runs, None
while it is paused or ended.

This clock is not the house rules' time rule (3 minutes a turn,
docs/rules.md): it is the round's time, shown on the public and table pages.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..core.errors import SetupgenError
from ..core.messages import keyed
from ..tournament.model import MAX_MINUTES

__all__: Sequence[str] = ("ClockError", "Clock", "ACTIONS", "apply", "format_left")

#: what the director can do with a clock, in the order of a round
ACTIONS = ("start", "pause", "resume", "end")


class ClockError(SetupgenError):
    """A clock action that does not follow (pausing a paused clock, a length out of range)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """A round's clock: ``seconds`` long, ``used`` seconds run before
    ``since`` (the epoch second it last started; None: not running),
    ``ended`` once the director ends it."""

    seconds: int
    used: float = 0.0
    since: float | None = None
    ended: bool = False

    @classmethod
    def started(cls, minutes: int, now: float) -> Clock:
        """A clock of ``minutes`` minutes running from ``now``. Raises
        :class:`ClockError` unless 1 <= minutes <= :data:`~setupgen.tournament.model.MAX_MINUTES`
        (the tournament file's limit)."""
        if not isinstance(minutes, int) or isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES:
            raise keyed(ClockError, "clock_minutes", most=MAX_MINUTES, minutes=repr(minutes)[:20])
        return cls(minutes * 60, 0.0, now)

    def extended(self, seconds: int) -> Clock:
        """This clock for one table given ``seconds`` more (issue 49: time
        added after a ruling): the same start, pauses and end, a longer
        length."""
        return replace(self, seconds=self.seconds + seconds)

    @property
    def running(self) -> bool:
        """Whether the clock runs now."""
        return self.since is not None

    def elapsed(self, now: float) -> float:
        """Seconds of play so far (not beyond the length)."""
        run = self.used + (0.0 if self.since is None else max(0.0, now - self.since))
        return min(float(self.seconds), run)

    def left(self, now: float) -> int:
        """Whole seconds left at ``now`` (rounded up; 0 when the time is up or the clock ended)."""
        if self.ended:
            return 0
        return max(0, math.ceil(self.seconds - self.elapsed(now) - 1e-9))

    def ends_at(self, now: float) -> float | None:
        """When the time is up (epoch seconds) while the clock runs, else None."""
        if self.since is None or self.ended:
            return None
        return now + self.left(now)

    def pause(self, now: float) -> Clock:
        """The clock stopped at ``now``. Raises :class:`ClockError` unless it runs."""
        if self.since is None or self.ended:
            raise keyed(ClockError, "clock_not_running")
        return replace(self, used=self.elapsed(now), since=None)

    def resume(self, now: float) -> Clock:
        """The paused clock running again from ``now``. Raises :class:`ClockError` unless it is paused."""
        if self.since is not None or self.ended:
            raise keyed(ClockError, "clock_not_paused")
        return replace(self, since=now)

    def end(self, now: float) -> Clock:
        """The clock ended (the round's time over). Raises :class:`ClockError` when it ended already."""
        if self.ended:
            raise keyed(ClockError, "clock_ended")
        return replace(self, used=self.elapsed(now), since=None, ended=True)

    def state(self, now: float) -> str:
        """``running``, ``paused``, ``up`` (time is up, not ended yet) or ``ended``."""
        if self.ended:
            return "ended"
        if self.left(now) == 0:
            return "up"
        return "running" if self.since is not None else "paused"


def apply(clock: Clock | None, action: str, now: float, minutes: int | None) -> Clock:
    """The clock after the director's ``action`` (one of :data:`ACTIONS`)
    at ``now``; ``start`` makes a new clock of ``minutes`` (also over an
    ended one, to start the round's time again). Raises :class:`ClockError`
    for an action that does not follow."""
    if action == "start":
        if clock is not None and not clock.ended:
            raise keyed(ClockError, "clock_started")
        if minutes is None:
            raise keyed(ClockError, "clock_needs_minutes")
        return Clock.started(minutes, now)
    if clock is None:
        raise keyed(ClockError, "clock_not_started")
    if action == "pause":
        return clock.pause(now)
    if action == "resume":
        return clock.resume(now)
    if action == "end":
        return clock.end(now)
    raise keyed(ClockError, "clock_unknown_action", action=repr(action)[:30], known=", ".join(ACTIONS))


def format_left(seconds: int) -> str:
    """Seconds as the clock shows them: ``42:05``, ``1:30:00`` (an hour or more)."""
    h, rest = divmod(max(0, int(seconds)), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
