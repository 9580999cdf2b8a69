"""Board balance: metrics measured on any board, a 0-100 score, and limits
a board may be held to (``docs/balance.md``; data in ``balance/``).

Pure functions over a :class:`~setupgen.core.board.Board` and its axial
``(q, r)`` hexes. Pips are the dots on a number token (the ways to roll it
with two dice, :data:`~setupgen.core.rules.PIPS`: 2 and 12 are 1, 6 and 8
are 5). Face-down hexes count with their real terrain for the director
(``table=False``); what a table is shown is measured with ``table=True``,
where a face-down hex has no known terrain.

Nothing happens at import time; the data files are read when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from . import hexgrid
from .data import data_dir, read_toml
from .errors import SetupgenError, quoted
from .hexgrid import Hex
from .rules import PIPS, RESOURCE_OF, RESOURCES

#: a :class:`setupgen.core.board.Board` (board.py records limits, so it
#: imports this module, not the other way round)
Board = Any

#: version of the metrics object (``setupgen stats --format json``)
FORMAT = "setupgen.balance/1"
#: what a layout may bar from starting settlements (``start_barred``)
BARRABLE = ("hidden", "gold")


@dataclass(frozen=True, slots=True)
class Balance:
    """The metrics of one board (``docs/balance.md`` defines each).

    ``resource_pips``: resource -> pips (``lumber`` ... ``ore``, and
    ``gold`` when the board has gold fields); ``resource_spread``: most
    minus least pips of the five resources; ``pips_per_hex``: resource ->
    mean pips of its numbered hexes (0.0 for none); ``intersection_max``,
    ``intersection_min``: pips over the intersections a starting settlement
    may take, ``intersections_11``: how many of them have 11 or more;
    ``largest_cluster``: hexes in the largest connected group of one
    terrain (desert not counted), ``same_terrain_pairs``: adjacent pairs of
    equal terrain; ``repeated_numbers``: for each resource, its numbered
    hexes minus its distinct numbers, summed; ``harbor_pips``: for each
    2:1 harbor in board order, ``(type, pips of that resource at its two
    corners)``; ``halves_imbalance``: see :data:`docs/balance.md`;
    ``score``: 0-100, higher is more balanced (:func:`score`)."""

    resource_pips: Mapping[str, int]
    resource_spread: int
    pips_per_hex: Mapping[str, float]
    intersection_max: int
    intersection_min: int
    intersections_11: int
    largest_cluster: int
    same_terrain_pairs: int
    repeated_numbers: int
    harbor_pips: tuple[tuple[str, int], ...]
    halves_imbalance: float
    score: float

    def to_dict(self) -> dict[str, Any]:
        """The metrics as the ``setupgen.balance/1`` JSON object (keys in a
        fixed order; ``docs/balance.md``, "JSON")."""
        return {
            "format": FORMAT,
            "score": self.score,
            "resource_pips": dict(self.resource_pips),
            "resource_spread": self.resource_spread,
            "pips_per_hex": dict(self.pips_per_hex),
            "intersection_max": self.intersection_max,
            "intersection_min": self.intersection_min,
            "intersections_11": self.intersections_11,
            "largest_cluster": self.largest_cluster,
            "same_terrain_pairs": self.same_terrain_pairs,
            "repeated_numbers": self.repeated_numbers,
            "harbor_pips": [{"type": t, "pips": p} for t, p in self.harbor_pips],
            "halves_imbalance": self.halves_imbalance,
        }


@dataclass(frozen=True, slots=True)
class _Geometry:
    """What balance needs of a board's land, computed once per set of land
    hexes and kept (a few layouts are measured again and again). Land
    hexes are numbered in reading order (``index``); ``n`` stands for "no
    hex" in a padded triple. ``pairs``: adjacent land pairs; ``corners``:
    each intersection touching land as a triple of land indices (padded
    with ``n``); ``halves``: for each of the three axes, the indices on
    either side of the island's centre."""

    hexes: tuple[Hex, ...]
    index: Mapping[Hex, int]
    pairs: tuple[tuple[int, int], ...]
    corners: tuple[tuple[int, int, int], ...]
    halves: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


_GEOMETRY: dict[tuple[Hex, ...], _Geometry] = {}
_HARBOR_CORNERS: dict[tuple[Hex, int], frozenset[Hex]] = {}


def _geometry(land: tuple[Hex, ...]) -> _Geometry:
    found = _GEOMETRY.get(land)
    if found is not None:
        return found
    index = {h: i for i, h in enumerate(land)}
    n = len(land)
    pairs = tuple(
        (index[a], index[b]) for a in land for b in hexgrid.neighbors(a) if b in index and index[b] > index[a]
    )
    seen: dict[frozenset[Hex], tuple[int, int, int]] = {}
    for h in land:
        for corner in hexgrid.corners(h):
            if corner not in seen:
                ids = sorted(index[x] for x in corner if x in index)
                seen[corner] = tuple(ids + [n] * (3 - len(ids)))  # type: ignore[assignment]
    cube = [(q, r, -q - r) for q, r in land]
    centre = [sum(c[i] for c in cube) / n for i in range(3)] if n else [0.0, 0.0, 0.0]
    halves = tuple(
        (
            tuple(k for k, c in enumerate(cube) if c[i] < centre[i] - 1e-9),
            tuple(k for k, c in enumerate(cube) if c[i] > centre[i] + 1e-9),
        )
        for i in range(3)
    )
    if len(_GEOMETRY) > 64:
        _GEOMETRY.clear()
    geo = _Geometry(land, MappingProxyType(index), pairs, tuple(seen.values()), halves)
    _GEOMETRY[land] = geo
    return geo


class _Facts:
    """One board's land as lists by land index (terrain as a table knows
    it, pips, number), and the metrics computed from them on demand (the
    generator asks only for those its limits need)."""

    __slots__ = ("board", "geo", "terrain", "pips", "numbers", "skip")

    def __init__(self, board: Board, barred: frozenset[str], table: bool) -> None:
        land = [t for t in board.tiles if t.kind == "land"]
        self.board = board
        self.geo = _geometry(tuple(t.hex for t in land))
        self.terrain = ["" if table and t.hidden else t.terrain for t in land] + [""]
        self.numbers = [t.number for t in land] + [None]
        self.pips = [0 if t.number is None else PIPS[t.number] for t in land] + [0]
        self.skip = {
            k
            for k, t in enumerate(land)
            if ((table or "hidden" in barred) and t.hidden) or ("gold" in barred and t.terrain == "gold")
        }

    def intersections(self) -> list[int]:
        """Pips at every intersection a starting settlement may take."""
        p, skip = self.pips, self.skip
        if skip:
            return [p[a] + p[b] + p[c] for a, b, c in self.geo.corners if not (a in skip or b in skip or c in skip)]
        return [p[a] + p[b] + p[c] for a, b, c in self.geo.corners]

    def clusters(self) -> tuple[int, int]:
        """The largest connected group of one terrain (desert, sea under a
        face-down hex and unknown terrain not counted) and the count of adjacent equal-terrain pairs."""
        return terrain_groups(self.terrain, self.geo.pairs, _NOT_GROUPED)

    def resources(self) -> tuple[dict[str, int], dict[str, float], int]:
        """Pips per resource (gold too when there is gold), mean pips per
        numbered hex of each resource, and the repeated numbers."""
        out = {r: 0 for r in RESOURCES}
        hexes = {r: 0 for r in RESOURCES}
        numbers: dict[str, list[int]] = {r: [] for r in RESOURCES}
        for t, n, p in zip(self.terrain, self.numbers, self.pips):
            res = RESOURCE_OF.get(t, "gold" if t == "gold" else None)
            if res is None or n is None:
                continue
            out[res] = out.get(res, 0) + p
            hexes[res] = hexes.get(res, 0) + 1
            numbers.setdefault(res, []).append(n)
        per_hex = {r: round(out[r] / hexes[r], 4) if hexes[r] else 0.0 for r in out}
        repeated = sum(len(ns) - len(set(ns)) for r, ns in numbers.items() if r != "gold")
        return out, per_hex, repeated

    def harbor_pips(self) -> tuple[tuple[str, int], ...]:
        """For each 2:1 harbor: the pips of the land hexes of its resource
        at its two corners (each hex once)."""
        out = []
        index = self.geo.index
        for hb in self.board.harbors:
            if hb.type == "3:1":
                continue
            key = (hb.hex, hb.facing)
            touching = _HARBOR_CORNERS.get(key)
            if touching is None:
                touching = _HARBOR_CORNERS.setdefault(key, frozenset().union(*hexgrid.edge_corners(*key)))
            ids = [index[h] for h in touching if h in index]
            out.append((hb.type, sum(self.pips[k] for k in ids if RESOURCE_OF.get(self.terrain[k]) == hb.type)))
        return tuple(out)

    def halves(self) -> float:
        """The pip difference between the island's halves, averaged over
        its three axes, as a share of the pips of known terrain."""
        p = [pp if t else 0 for pp, t in zip(self.pips, self.terrain)]
        total = sum(p) or 1
        return round(sum(abs(sum(p[k] for k in a) - sum(p[k] for k in b)) for a, b in self.geo.halves) / (3 * total), 4)


#: terrains no group counts (docs/balance.md, max_terrain_cluster): the
#: desert, sea under a face-down hex, and "" (a face-down hex as the table sees it)
_NOT_GROUPED = frozenset({"", "desert", "sea"})


def terrain_groups(terrain: Sequence[Any], pairs: Sequence[tuple[int, int]], skip: Collection[Any]) -> tuple[int, int]:
    """The largest connected group of land hexes of one terrain and the
    count of adjacent pairs of equal terrain (docs/balance.md,
    ``max_terrain_cluster`` and ``same_terrain_pairs``): ``terrain`` per
    land index (names, or any values equal for equal terrain), ``pairs``
    the adjacent land indices (:func:`land_pairs`), ``skip`` the values no
    group counts (the desert). A board with counted land but no equal pair
    has groups of 1; one with none, 0."""
    parent = list(range(len(terrain)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    same = 0
    for a, b in pairs:
        t = terrain[a]
        if t == terrain[b] and t not in skip:
            same += 1
            ra, rb = root(a), root(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
    if not same:
        return (1 if any(t not in skip for t in terrain) else 0), 0
    sizes: dict[int, int] = {}
    for k, t in enumerate(terrain):
        if t not in skip:
            r = root(k)
            sizes[r] = sizes.get(r, 0) + 1
    return max(sizes.values()), same


def land_pairs(land: Sequence[Hex]) -> tuple[tuple[int, int], ...]:
    """The adjacent pairs ``(i, j)``, ``i < j``, of indices into ``land``
    (axial hexes, reading order): the pairs :func:`terrain_groups` joins."""
    return _geometry(tuple(land)).pairs


def _barred(start_barred: Iterable[str]) -> frozenset[str]:
    barred = frozenset(start_barred)
    if not barred <= set(BARRABLE):
        raise SetupgenError(
            f"unknown start restriction {quoted(sorted(barred - set(BARRABLE))[0])} (known: {', '.join(BARRABLE)})"
        )
    return barred


def measure(
    board: Board, *, start_barred: Iterable[str] = (), table: bool = False, weights: ScoreSpec | None = None
) -> Balance:
    """The metrics of ``board``. ``start_barred``: what the layout bars
    from starting settlements (``"hidden"``, ``"gold"``: intersections
    touching such a hex are not counted); ``table``: measure what a table
    sees (a face-down hex has no known terrain, and no intersection
    touching one counts); ``weights``: the score's scales (default: the
    shipped ``balance/score.toml``).

    Raises :class:`SetupgenError` for an unknown ``start_barred`` entry or
    a malformed score file."""
    facts = _Facts(board, _barred(start_barred), table)
    resource_pips, per_hex, repeated = facts.resources()
    spread = max(resource_pips[r] for r in RESOURCES) - min(resource_pips[r] for r in RESOURCES)
    sums = facts.intersections()
    cluster, same = facts.clusters()
    harbors = facts.harbor_pips()
    halves = facts.halves()
    producing = sum(1 for t in facts.terrain if t in RESOURCE_OF or t == "gold")
    values = {
        "resource_spread_share": spread / max(1e-9, sum(resource_pips[r] for r in RESOURCES) / len(RESOURCES)),
        "intersection_max": max(sums, default=0),
        "terrain_pairs_share": same / max(1, producing),
        "halves_imbalance": halves,
        "repeated_numbers": repeated,
        "harbor_own_pips": sum(p for _, p in harbors) / len(harbors) if harbors else 0.0,
    }
    spec = load_score() if weights is None else weights
    return Balance(
        MappingProxyType(resource_pips),
        spread,
        MappingProxyType(per_hex),
        max(sums, default=0),
        min(sums, default=0),
        sum(1 for s in sums if s >= 11),
        cluster,
        same,
        repeated,
        harbors,
        halves,
        spec.score(values),
    )


# -- the score -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ScoreSpec:
    """The score's measures: name -> (best, worst, weight), read from
    ``balance/score.toml`` (:func:`load_score`)."""

    version: str
    measures: Mapping[str, tuple[float, float, float]]

    def score(self, values: Mapping[str, float]) -> float:
        """100 x (1 - the weighted mean of each measure scaled from best (0)
        to worst (1), clipped), rounded to one decimal."""
        total = sum(w for _, _, w in self.measures.values())
        bad = 0.0
        for name, (best, worst, weight) in self.measures.items():
            scaled = (values[name] - best) / (worst - best)
            bad += weight * min(1.0, max(0.0, scaled))
        return round(100.0 * (1.0 - bad / total), 1)


#: the measures a score file must scale
SCORE_MEASURES = (
    "resource_spread_share",
    "intersection_max",
    "terrain_pairs_share",
    "halves_imbalance",
    "repeated_numbers",
    "harbor_own_pips",
)
_SCORE: list[ScoreSpec] = []


def load_score() -> ScoreSpec:
    """The shipped score file, read once. Raises :class:`SetupgenError`
    for a malformed file (naming it and the entry)."""
    if not _SCORE:
        _SCORE.append(read_score(data_dir("balance") / "score.toml"))
    return _SCORE[0]


def read_score(path: Any) -> ScoreSpec:
    """A score file (format: ``balance/score.toml``). Raises
    :class:`SetupgenError` naming the file and entry at fault."""
    data = read_toml(path, "balance score file")
    table = data.get("measure")
    if not isinstance(table, dict) or sorted(table) != sorted(SCORE_MEASURES):
        raise SetupgenError(f"{path}: measure: expected exactly the measures {', '.join(SCORE_MEASURES)}")
    measures = {}
    for name in SCORE_MEASURES:
        m = table[name]
        raw = [m.get(k) if isinstance(m, dict) else None for k in ("best", "worst", "weight")]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw):
            raise SetupgenError(f"{path}: measure.{name}: expected numbers best, worst and weight")
        best, worst, weight = (float(v) for v in raw)  # type: ignore[arg-type]
        if best == worst or weight < 0:
            raise SetupgenError(f"{path}: measure.{name}: best and worst must differ and the weight be >= 0")
        measures[name] = (best, worst, weight)
    if not sum(w for _, _, w in measures.values()):
        raise SetupgenError(f"{path}: measure: the weights add up to 0")
    return ScoreSpec(str(data.get("version", "")), MappingProxyType(measures))


# -- limits --------------------------------------------------------------------

#: the limits a board may be held to, in the order they are checked (cheap first)
LIMIT_NAMES = ("max_terrain_cluster", "max_intersection_pips", "resource_pips", "min_score", "max_score")
#: resources a ``resource_pips`` limit may name
LIMIT_RESOURCES = RESOURCES + ("gold",)


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits a board must meet (``docs/balance.md``, "Limits"); None or
    empty: no limit. ``max_terrain_cluster``: largest same-terrain group
    (hexes; 1 = no two equal terrains adjacent); ``max_intersection_pips``:
    pips at any intersection a starting settlement may take;
    ``resource_pips``: ``(resource, least, most)`` triples; ``min_score``,
    ``max_score``: the 0-100 score's bounds (``max_score`` is set by an
    even round); ``preset``: the name of the preset they came from, if any.

    Raises :class:`SetupgenError` (``field="balance"``) for a value out of
    range when made."""

    max_terrain_cluster: int | None = None
    max_intersection_pips: int | None = None
    resource_pips: tuple[tuple[str, int, int], ...] = ()
    min_score: float | None = None
    max_score: float | None = None
    preset: str | None = None

    def __post_init__(self) -> None:
        for name, top in (("max_terrain_cluster", 1000), ("max_intersection_pips", 15)):
            v = getattr(self, name)
            if v is not None and (type(v) is not int or not 1 <= v <= top):
                raise SetupgenError(
                    f"{name.replace('_', ' ')} must be a whole number from 1 to {top}, got {quoted(v, 20)}",
                    field="balance",
                )
        for name in ("min_score", "max_score"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 100):
                raise SetupgenError(
                    f"{name.replace('_', ' ')} must be a number from 0 to 100, got {quoted(v, 20)}", field="balance"
                )
        seen = set()
        for item in self.resource_pips:
            if (
                not isinstance(item, tuple)
                or len(item) != 3
                or item[0] not in LIMIT_RESOURCES
                or not all(type(x) is int and 0 <= x <= 1000 for x in item[1:])
                or item[1] > item[2]
            ):
                raise SetupgenError(
                    f"resource pips: expected (resource, least, most) with a resource of "
                    f"{', '.join(LIMIT_RESOURCES)} and 0 <= least <= most, got {quoted(item)}",
                    field="balance",
                )
            if item[0] in seen:
                raise SetupgenError(f"resource pips: {item[0]} is limited twice", field="balance")
            seen.add(item[0])
        if self.min_score is not None and self.max_score is not None and self.min_score > self.max_score:
            raise SetupgenError(f"the score bounds {self.min_score}..{self.max_score} are empty", field="balance")

    def __bool__(self) -> bool:
        """Whether any limit is set."""
        return any(getattr(self, n) not in (None, ()) for n in LIMIT_NAMES)

    def to_dict(self) -> dict[str, Any]:
        """The limits set, as recorded in a board's JSON (``balance.limits``)."""
        out: dict[str, Any] = {}
        for name in LIMIT_NAMES:
            v = getattr(self, name)
            if name == "resource_pips" and v:
                out[name] = {r: [lo, hi] for r, lo, hi in v}
            elif v is not None and v != ():
                out[name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], preset: str | None = None, where: str = "") -> Limits:
        """Limits from a table of a layout, tournament or preset file
        (``resource_pips = { lumber = [9, 16] }``). Raises
        :class:`SetupgenError` naming ``where`` and the key."""
        unknown = sorted(set(data) - set(LIMIT_NAMES) - {"name"})
        if unknown:
            raise SetupgenError(
                f"{where}{unknown[0]}: unknown limit (known: {', '.join(LIMIT_NAMES)})", field="balance"
            )
        pips = data.get("resource_pips", {})
        if not isinstance(pips, dict) or not all(isinstance(v, list) and len(v) == 2 for v in pips.values()):
            raise SetupgenError(f"{where}resource_pips: expected {{ lumber = [least, most], ... }}", field="balance")
        try:
            return cls(
                data.get("max_terrain_cluster"),
                data.get("max_intersection_pips"),
                tuple((r, v[0], v[1]) for r, v in pips.items()),
                data.get("min_score"),
                data.get("max_score"),
                preset,
            )
        except SetupgenError as exc:
            raise SetupgenError(f"{where}{exc}", field="balance") from None

    def merged(self, other: Limits) -> Limits:
        """These limits with every limit ``other`` sets taking its place."""
        pips = {r: (r, lo, hi) for r, lo, hi in self.resource_pips}
        pips.update({r: (r, lo, hi) for r, lo, hi in other.resource_pips})
        pick = [
            getattr(other, n) if getattr(other, n) is not None else getattr(self, n)
            for n in ("max_terrain_cluster", "max_intersection_pips", "min_score", "max_score")
        ]
        return Limits(
            pick[0],
            pick[1],
            tuple(pips.values()),
            pick[2],
            pick[3],
            other.preset if other.preset is not None else self.preset,
        )


def parse_resource_pips(text: str) -> tuple[tuple[str, int, int], ...]:
    """``"lumber=9..16,ore=6..13"`` as ``(("lumber", 9, 16), ("ore", 6, 13))``.
    Raises :class:`SetupgenError` (``field="resource_pips"``) naming the
    part at fault."""
    out = []
    for part in text.split(","):
        name, _, span = part.strip().partition("=")
        lo, dots, hi = span.strip().partition("..")
        if not dots or not lo.strip().isdigit() or not hi.strip().isdigit() or len(lo + hi) > 8:
            raise SetupgenError(
                f"expected resource=least..most (e.g. lumber=9..16), got {quoted(part.strip(), 40)}",
                field="resource_pips",
            )
        out.append((name.strip(), int(lo), int(hi)))
    return tuple(out)


def first_failure(board: Board, limits: Limits, *, start_barred: Iterable[str] = ()) -> str | None:
    """The first limit of :data:`LIMIT_NAMES` that ``board`` fails (as the
    director measures it: face-down hexes count), or None when it meets
    them all. Only what the limits need is measured."""
    if not limits:
        return None
    facts = _Facts(board, _barred(start_barred), False)
    if limits.max_terrain_cluster is not None and facts.clusters()[0] > limits.max_terrain_cluster:
        return "max_terrain_cluster"
    if (
        limits.max_intersection_pips is not None
        and max(facts.intersections(), default=0) > limits.max_intersection_pips
    ):
        return "max_intersection_pips"
    if limits.resource_pips:
        pips = facts.resources()[0]
        if any(not lo <= pips.get(r, 0) <= hi for r, lo, hi in limits.resource_pips):
            return "resource_pips"
    if limits.min_score is not None or limits.max_score is not None:
        score = measure(board, start_barred=start_barred).score
        if limits.min_score is not None and score < limits.min_score:
            return "min_score"
        if limits.max_score is not None and score > limits.max_score:
            return "max_score"
    return None


def presets() -> tuple[str, ...]:
    """The shipped balance presets (``balance/presets/<name>.toml``), sorted."""
    return tuple(sorted(p.stem for p in (data_dir("balance") / "presets").glob("*.toml")))


def load_preset(name: str) -> Limits:
    """The limits of a balance preset: a shipped name (``"fair"``) or the
    path of a preset file of the same format. Raises
    :class:`SetupgenError` (``field="balance"``) for an unknown name or a
    malformed file."""
    from pathlib import Path

    known = presets()
    if name in known:
        path = data_dir("balance") / "presets" / f"{name}.toml"
    elif name.endswith(".toml"):
        path = Path(name)
    else:
        raise SetupgenError(
            f"unknown balance preset {quoted(name)} (known: {', '.join(known)}, or a .toml file)", field="balance"
        )
    try:
        data = read_toml(path, "balance preset")
    except SetupgenError as exc:
        raise SetupgenError(str(exc), field="balance") from None
    label = str(data.get("name", path.stem))
    return Limits.from_dict(data, preset=label, where=f"{path}: ")


def options(
    preset: str | None = None,
    max_intersection_pips: int | None = None,
    max_terrain_cluster: int | None = None,
    resource_pips: str | None = None,
    min_score: float | None = None,
) -> Limits:
    """Limits from single values as a front end takes them: a ``preset``
    (name or file), then each limit given taking the preset's place;
    ``resource_pips`` as text (``"lumber=9..16,ore=6..13"``). Raises
    :class:`SetupgenError` whose ``field`` names the value at fault."""
    base = Limits() if preset is None else load_preset(preset)
    pips = () if resource_pips is None else parse_resource_pips(resource_pips)
    given: tuple[tuple[str, Callable[[], Limits]], ...] = (
        ("max_intersection_pips", lambda: Limits(max_intersection_pips=max_intersection_pips)),
        ("max_terrain_cluster", lambda: Limits(max_terrain_cluster=max_terrain_cluster)),
        ("resource_pips", lambda: Limits(resource_pips=pips)),
        ("min_score", lambda: Limits(min_score=min_score)),
    )
    for name, make in given:
        try:
            base = base.merged(make())
        except SetupgenError as exc:
            raise SetupgenError(str(exc), field=name) from None
    return base


def survey_interval(scenario: str, method: str) -> tuple[float, float]:
    """The middle half of a scenario's score distribution (its 25th and
    75th percentiles) for a number method, from ``balance/surveys.toml``
    (made by ``scripts/balance_survey.py``): the default interval of an
    even round. Raises :class:`SetupgenError` (``field="even"``) when the
    file has no survey for them."""
    path = data_dir("balance") / "surveys.toml"
    data = read_toml(path, "balance survey file")
    entry = data.get("scenario", {}).get(scenario, {}).get(method)
    if not isinstance(entry, dict) or not all(isinstance(entry.get(k), (int, float)) for k in ("p25", "p75")):
        raise SetupgenError(
            f"no score survey of {scenario} with the {method} method; give the score interval "
            f"of the even round yourself",
            field="even",
        )
    return float(entry["p25"]), float(entry["p75"])


__all__ = [
    "FORMAT",
    "BARRABLE",
    "Balance",
    "measure",
    "ScoreSpec",
    "SCORE_MEASURES",
    "load_score",
    "read_score",
    "LIMIT_NAMES",
    "LIMIT_RESOURCES",
    "Limits",
    "parse_resource_pips",
    "first_failure",
    "presets",
    "load_preset",
    "options",
    "survey_interval",
    "terrain_groups",
    "land_pairs",
]
