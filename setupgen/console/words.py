"""The words of the pages a player sees in the console, in the event's
language (the tournament file's ``language``; ``templates/<lang>.toml``,
table ``[console]``), and times shown in the event's time zone (the
tournament file's ``timezone``, else the machine's; docs/console.md,
"The players' side").

Shapes: a stored time is UTC ISO 8601 to the second
(``2026-12-01T17:51:07Z``, :func:`setupgen.console.store.now`); a shown
time follows the language's ``console.time`` pattern.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import zoneinfo
from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from ..core import cldr, templates
from ..core.errors import SetupgenError
from ..core.messages import Problem
from ..core.templates import Texts

__all__: Sequence[str] = ("Words", "Reason", "local_time", "local_clock")


@dataclasses.dataclass(frozen=True)
class Reason:
    """Why the console cannot do something yet, in its own words: the
    word ``key`` of table ``[console]`` (``director.tables_waiting``) filled
    with ``values``; ``str()`` is the English line ``text`` (for an error
    message). A page words it with :meth:`Words.reason`."""

    key: str
    text: str
    values: tuple[tuple[str, object], ...] = ()

    def __str__(self) -> str:
        return self.text


class Words:
    """The ``[console]`` words of a language for a template: ``w("report")``,
    ``w("sent", at=..., result=...)``; for a tournament whose ``positions``
    are selection positions, its words for those (:meth:`~setupgen.core.
    templates.Texts.for_positions`). Raises :class:`~setupgen.core.errors.
    SetupgenError` for an unknown language, a missing word or field."""

    __slots__ = ("tx",)

    def __init__(self, lang: str, positions: str = "start") -> None:
        self.tx = templates.texts(lang).for_positions(positions)

    def __call__(self, key: str, **values: object) -> Markup:
        """The word at ``console.<key>``, its fields filled with ``values``
        escaped for HTML (a value that is markup already is kept as it is)."""
        raw = self.tx.get(f"console.{key}")
        try:
            return escape(raw).format(**values)
        except (KeyError, IndexError, ValueError) as exc:
            raise SetupgenError(
                f"templates/{self.tx.lang}.toml: text 'console.{key}' cannot be filled: {exc}"
            ) from None

    def problem(self, problem: Problem, who: str | None = None) -> Markup:
        """A problem (:class:`~setupgen.core.messages.Problem`, a result
        form's: :class:`~setupgen.tournament.standings.GameRefused`) in
        this language, after ``who: `` (the player at fault) when given;
        escaped once."""
        said = self.worded(problem.key, problem.values)
        return said if who is None else escape(who) + Markup(": ") + said

    def worded(self, key: str, values: Mapping[str, object]) -> Markup:
        """Text ``key`` of this language's ``[messages]`` filled with
        ``values`` (escaped; a stage, round or table named in this
        language, a :class:`Reason` worded)."""
        own = {name: self._value(name, value) for name, value in values.items()}
        return escape(self.tx.get(f"messages.{key}")).format(**own)

    def said(self, exc: BaseException) -> Markup | str:
        """A refusal in this language: an error with a key
        (:func:`setupgen.core.messages.keyed`) worded by this
        language's ``messages`` text of that key, its values escaped (a
        ``stage`` as the stage's word, a :class:`Reason` in this language);
        any other error as its own (English) line."""
        key = getattr(exc, "key", None)
        if not key or not self.tx.has(f"messages.{key}"):
            return str(exc)
        return self.worded(key, getattr(exc, "values", {}))

    def _value(self, name: str, value: object) -> object:
        from ..tournament.games import FINALS_STAGES, RoundName, TableName

        if isinstance(value, Reason):
            return self.reason(value)
        if isinstance(value, RoundName):
            return self._round(value)
        if isinstance(value, TableName):
            return self.tx.get("messages.table_name", round=self._round(value.round), table=value.table)
        if name == "stage" and value in FINALS_STAGES:
            return self.tx.get(f"messages.stage_{str(value).replace('-', '_')}")
        return value

    def _round(self, name: Any) -> str:
        """A :class:`~setupgen.tournament.standings.RoundName` in this
        language ("Runde 3", "Halbfinal")."""
        if name.stage is not None:
            return self.tx.get(f"messages.stage_{name.stage.replace('-', '_')}")
        return self.tx.get("messages.round_name", n=name.round)

    def reason(self, why: Reason | str) -> Markup | str:
        """``why`` in this language: a :class:`Reason` worded, any other
        reason (the library's own words) as it is."""
        return self(why.key, **dict(why.values)) if isinstance(why, Reason) else why

    @property
    def lang(self) -> str:
        """The language's code (``de-CH``), for a page's ``lang`` attribute."""
        return self.tx.lang


def _zone(name: str | None) -> dt.tzinfo | None:
    """The time zone ``name`` (None: the machine's local time)."""
    return None if name is None else zoneinfo.ZoneInfo(name)


def local_time(at: str, zone: str | None, tx: Texts) -> str:
    """``at`` (UTC, ``2026-12-01T17:51:07Z``) in time zone ``zone`` (an IANA
    name; None: the machine's) as the language's ``console.time`` pattern
    says, from the fields ``day`` (``1``), ``dd`` (``01``), ``month`` (its
    abbreviated name in CLDR, :func:`setupgen.core.cldr.month_names`), ``mm`` (``12``), ``year``, ``hour`` and
    ``minute`` (two digits each). A text that is not such a time comes
    back unchanged (an older database's entry)."""
    try:
        when = dt.datetime.strptime(at, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)
    except (TypeError, ValueError):
        return at
    local = when.astimezone(_zone(zone))
    month = cldr.month_names(tx)[local.month - 1]
    return tx.get(
        "console.time",
        day=local.day,
        dd=f"{local.day:02d}",
        month=month,
        mm=f"{local.month:02d}",
        year=local.year,
        hour=f"{local.hour:02d}",
        minute=f"{local.minute:02d}",
    )


def local_clock(at: float, zone: str | None) -> str:
    """The time of day ``HH:MM`` of ``at`` (epoch seconds) in time zone ``zone`` (None: the machine's)."""
    local = dt.datetime.fromtimestamp(at, dt.UTC).astimezone(_zone(zone))
    return f"{local.hour:02d}:{local.minute:02d}"
