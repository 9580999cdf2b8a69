"""How a tournament ranks its players: the ranking keys, the placing
points, and the scoring presets shipped in ``scoring/`` (docs/rules.md
section 6, "Ranking keys" and "Scoring presets"; the file format:
``scoring/README.md``).

* :class:`Scoring`: placing points per table size and the ranking keys in
  order, checked (:data:`RANKING_KEYS`, ``lots`` last and added).
* :class:`ScoringPreset` / :func:`load_preset`: a preset file (its source,
  points, ranking keys, what a position means, its readings).

Pure data: no printing; a preset file is read only when asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ..core.data import data_dir, read_toml
from ..core.errors import SetupgenError, quoted

__all__ = [
    "RANKING_KEYS",
    "TIE_BREAKERS",
    "POSITIONS",
    "START",
    "SELECTION",
    "DEFAULT_PRESET",
    "Scoring",
    "ScoringPreset",
    "presets",
    "load_preset",
    "check_ranking",
]

#: every ranking key a tournament may name, in the order docs/rules.md section 6 defines them
RANKING_KEYS = (
    "wins",
    "placing_points",
    "victory_points",
    "victory_points_total",
    "vp_share",
    "vp_share_average",
    "countback",
    "best_finish",
    "lots",
)
#: the default ranking (the australian-2006 preset's: Catan Australian Championships 2006)
TIE_BREAKERS = ("placing_points", "victory_points", "vp_share", "lots")
#: what a position at a table means: where a player starts, or when a player chooses (CATAN Studio)
START, SELECTION = "start", "selection"
POSITIONS = (START, SELECTION)
#: the preset of a tournament file that names none
DEFAULT_PRESET = "australian-2006"


def check_ranking(keys: Any) -> tuple[str, ...]:
    """``keys`` as a ranking: a list of :data:`RANKING_KEYS`, none twice,
    at least one besides ``lots``, ``lots`` last (added when left out).
    Raises :class:`SetupgenError` naming the first problem."""
    if isinstance(keys, str) or not isinstance(keys, (list, tuple)) or not all(isinstance(k, str) for k in keys):
        raise SetupgenError(f"expected a list of ranking keys (known: {', '.join(RANKING_KEYS)})")
    unknown = [k for k in keys if k not in RANKING_KEYS]
    if unknown:
        raise SetupgenError(f"unknown ranking key {quoted(unknown[0])} (known: {', '.join(RANKING_KEYS)})")
    twice = [k for i, k in enumerate(keys) if k in keys[:i]]
    if twice:
        raise SetupgenError(f"the ranking key {quoted(twice[0])} is listed twice")
    if "lots" in keys and keys[-1] != "lots":
        raise SetupgenError("the 'lots' ranking key must come last")
    if not [k for k in keys if k != "lots"]:
        raise SetupgenError("a ranking needs at least one key besides lots")
    return tuple(keys) if "lots" in keys else (*keys, "lots")


@dataclass(frozen=True, slots=True)
class Scoring:
    """How games are scored and players ranked (docs/rules.md section 6).

    ``placing_points`` maps a table size to the points for 1st, 2nd, ...:
    Australian ``{4: (4, 3, 2, 1), 3: (4, 2, 1)}``, German ranking
    tournaments ``{4: (5, 3, 2, 1), 3: (5, 3, 1)}``. ``tie_breakers`` are
    the ranking keys in order (:func:`check_ranking`: from
    :data:`RANKING_KEYS`, ``"lots"`` last and added when left out, so a
    ranking is always a total order). Raises :class:`SetupgenError`.
    """

    placing_points: Mapping[int, tuple[Fraction | int, ...]]
    tie_breakers: tuple[str, ...] = TIE_BREAKERS

    def __post_init__(self) -> None:
        pp = {}
        for size, points in dict(self.placing_points).items():
            points = tuple(Fraction(p) for p in points)
            if not isinstance(size, int) or size < 2 or len(points) != size:
                raise SetupgenError(f"placing points for tables of {size} must list {size} values, got {len(points)}")
            if any(p < 0 for p in points) or any(a < b for a, b in zip(points, points[1:])):
                raise SetupgenError(f"placing points for tables of {size} must be non-negative and not increasing")
            pp[size] = points
        object.__setattr__(self, "placing_points", MappingProxyType(pp))
        object.__setattr__(self, "tie_breakers", check_ranking(tuple(self.tie_breakers)))


@dataclass(frozen=True, slots=True)
class ScoringPreset:
    """A scoring preset (``scoring/<name>.toml``): its ``source``, the
    ``placing_points`` (``((size, points), ...)``, ascending sizes), the
    ``ranking`` keys, what a position means (``positions``, one of
    :data:`POSITIONS`) and the ``readings`` it makes where its source
    leaves a point open."""

    name: str
    source: str
    placing_points: tuple[tuple[int, tuple[Fraction, ...]], ...]
    ranking: tuple[str, ...]
    positions: str = START
    readings: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"setupgen.tournament.scoring.load_preset({self.name!r})"


def presets(folder: Path | None = None) -> tuple[str, ...]:
    """The shipped presets' names, sorted."""
    return tuple(sorted(p.stem for p in _folder(folder).glob("*.toml")))


def load_preset(name: str, folder: Path | None = None) -> ScoringPreset:
    """The scoring preset ``name`` from ``folder`` (default: the shipped
    ``scoring/``). Raises :class:`SetupgenError` for an unknown name or a
    malformed file (naming the file and key)."""
    known = presets(folder)
    if not isinstance(name, str) or name not in known:
        raise SetupgenError(f"unknown scoring preset {quoted(name)} (known: {', '.join(known)})")
    path = _folder(folder) / f"{name}.toml"
    data = read_toml(path, "scoring preset")
    extra = sorted(set(data) - {"name", "source", "placing_points", "ranking", "positions", "readings"})
    if extra:
        raise SetupgenError(f"{path}: {extra[0]}: unknown key")
    if data.get("name") != name:
        raise SetupgenError(f"{path}: name: expected {name!r} (the file name)")
    source = data.get("source")
    if not isinstance(source, str) or not source.strip():
        raise SetupgenError(f"{path}: source: expected the document the preset follows")
    try:
        points = placing_points_table(data.get("placing_points"))
        ranking = check_ranking(data.get("ranking"))
        positions = check_positions(data.get("positions", START))
    except SetupgenError as exc:
        raise SetupgenError(f"{path}: {exc}") from None
    readings = data.get("readings", [])
    if not isinstance(readings, list) or not all(isinstance(r, str) for r in readings):
        raise SetupgenError(f"{path}: readings: expected a list of texts")
    return ScoringPreset(name, source, points, ranking, positions, tuple(readings))


def placing_points_table(table: Any) -> tuple[tuple[int, tuple[Fraction, ...]], ...]:
    """A ``placing_points`` table (``{"4": [4, 3, 2, 1], ...}``, table
    sizes 2-9, points 0-999 not increasing) as ``((size, points), ...)``
    by ascending size. Raises :class:`SetupgenError` naming the size."""
    if not isinstance(table, Mapping) or not table:
        raise SetupgenError("placing_points: expected a table of points by table size, e.g. { 4 = [4, 3, 2, 1] }")
    out = []
    for size, values in sorted(table.items(), key=lambda kv: str(kv[0])):
        ok = (
            isinstance(size, str)
            and len(size) == 1
            and "2" <= size <= "9"
            and isinstance(values, list)
            and len(values) == int(size)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < 1000 for v in values)
        )
        if not ok:
            raise SetupgenError(f"placing_points.{size}: expected a list of {size} points (1st first)")
        out.append((int(size), tuple(Fraction(str(v)) for v in values)))
    try:
        Scoring(dict(out))
    except SetupgenError as exc:
        raise SetupgenError(f"placing_points: {exc}") from None
    return tuple(out)


def check_positions(value: Any) -> str:
    """``value`` as one of :data:`POSITIONS`. Raises :class:`SetupgenError`."""
    if value not in POSITIONS:
        raise SetupgenError(f"positions: expected {' or '.join(POSITIONS)}, not {quoted(value)}")
    return str(value)


def _folder(folder: Path | None) -> Path:
    return data_dir("scoring") if folder is None else folder
