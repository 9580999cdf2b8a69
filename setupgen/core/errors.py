"""Domain errors. Each subclasses ``ValueError``; messages are lowercase
and name what is wrong, so the CLI can print them as one line."""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class SetupgenError(ValueError):
    """Base of every error setupgen raises for bad input or impossible
    requests. ``field``, when set, names the request value at fault (a
    parameter name such as ``"count"``), so a front end can point at its own
    option for it; ``remedy``, when set, names the request value that would
    make the request go through (``"replace"``: replace what is there);
    ``needs``, when set, names the request value that is missing and must
    be given (``"results"``). The message never names command-line flags. ``key`` and ``values``, when
    set (:func:`setupgen.core.messages.keyed`), name the message's words: a
    front end words it in its own language from ``templates/<lang>.toml``
    ``[messages]``."""

    def __init__(
        self,
        message: str = "",
        *,
        field: str | None = None,
        remedy: str | None = None,
        key: str | None = None,
        values: Mapping[str, object] | None = None,
        needs: str | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.remedy = remedy
        self.needs = needs
        self.key = key
        self.values: dict[str, object] = dict(values or {})


def quoted(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a one-line message: control characters escaped,
    shortened past ``limit`` characters (a 10 KB input is not echoed)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 12]}…{text[-8:]} ({len(str(value))} characters)"


class LayoutError(SetupgenError):
    """A layout file is malformed: the message names file, key and problem."""

    def __init__(self, path: str, key: str, problem: str) -> None:
        self.path, self.key, self.problem = path, key, problem
        super().__init__(f"{path}: {key}: {problem}")


class UnknownScenarioError(SetupgenError):
    """No layout of that name."""


class BoardFormatError(SetupgenError):
    """A board document is not valid ``setupgen.board/1`` JSON."""


class GenerationError(SetupgenError):
    """A generator gave up after its bounded retries (the rule is named)."""


class SetupIdError(SetupgenError):
    """A setup ID could not be read."""


class IllegalBoardError(SetupgenError):
    """Raised by :func:`setupgen.check.validate` for a board breaking rules."""

    def __init__(self, violations: Iterable[object]) -> None:
        self.violations = tuple(violations)
        first = self.violations[0] if self.violations else None
        more = f" (and {len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
        super().__init__(f"illegal board: {first}{more}")
