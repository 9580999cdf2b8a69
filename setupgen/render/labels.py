"""Where the harbor labels and the pirate ship go on the board picture:
free spots on sea, clear of named sets of obstacles (:class:`Obstacles`:
land, outline, piers and markers, what the land hexes show, boxes already
used) and of each other. :func:`place_labels` is a pure function of them;
:mod:`setupgen.render.board` draws what it returns.

Every length is in mm. Shapely tests the candidates (boolean tests on a
fixed lattice of candidates, nearest first), so the choice is the same on
every machine. docs/sheet.md says what may not overlap.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.board import Board, Harbor
from ..core.hexgrid import Hex
from ..core.templates import MIN_FONT_MM, Style, Texts
from .fitting import Box, Fit, Segment, board_extent, boundary_segments
from .numbering import harbor_order, harbor_words
from .page import CORNERS, SQRT3, hex_points, text_width

__all__ = [
    "HarborMark",
    "Obstacles",
    "PirateHex",
    "Placement",
    "WordSpot",
    "harbor_marks",
    "leader",
    "place_labels",
    "MARKER_OUT",
    "PIRATE_SIZES",
]

Point = tuple[float, float]
Corners = tuple[float, float, float, float]  # (x0, y0, x1, y1), mm

#: the kinds of fixed obstacle a leader line is told apart by
_LAND, _OUTLINE, _PIER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Obstacles:
    """What harbor labels and the pirate keep clear of, page mm:
    ``limit`` the block they stay inside; ``land`` each land hex's corners
    (a leader line over land is allowed only as a last resort);
    ``outline`` the board's outline and a frame's cut (a leader line may
    cross it); ``piers`` each harbor's pier triangle and ``markers`` the
    box round its marker, in the harbors' order (its own leader line may
    cross them); ``land_marks`` what the land hexes show (label, token,
    oil drop, robber: a leader over land stays clear of them); ``taken``
    boxes already used, as ``(x, y, half width, half height)`` (the row
    numbers)."""

    limit: Box
    land: tuple[tuple[Point, ...], ...]
    outline: tuple[Segment, ...]
    piers: tuple[tuple[Point, Point, Point], ...]
    markers: tuple[Corners, ...]
    land_marks: tuple[Corners, ...]
    taken: tuple[tuple[float, float, float, float], ...]

    @classmethod
    def from_board(
        cls,
        board: Board,
        fit_: Fit,
        halves: dict[Hex, tuple[int, ...]],
        marks: Sequence[HarborMark],
        land_marks: Sequence[Corners] = (),
        taken: Sequence[tuple[float, float, float, float]] = (),
    ) -> Obstacles:
        """The obstacles of ``board`` fitted by ``fit_`` (frame hexes as
        their ``halves``), its harbors' ``marks``, the boxes of what its
        land hexes show and the boxes already ``taken``. The limit is the
        fit's, else the board's own bounds."""
        limit = fit_.limit
        if limit is None:
            x0, y0, x1, y1 = board_extent(board)
            limit = Box(fit_.ox + x0 * fit_.s, fit_.oy + y0 * fit_.s, (x1 - x0) * fit_.s, (y1 - y0) * fit_.s)
        return cls(
            limit,
            tuple(tuple(hex_points(*fit_.at(t.hex), fit_.s)) for t in board.tiles if t.kind == "land"),
            tuple(boundary_segments(frozenset(t.hex for t in board.tiles), fit_, halves)),
            tuple(m.pier for m in marks),
            tuple(m.marker_box for m in marks),
            tuple(land_marks),
            tuple(taken),
        )


def harbor_marks(board: Board, fit_: Fit, st: Style, areas: dict[Hex, tuple[Point, ...]]) -> list[HarborMark]:
    """Each harbor's marker (numbered by :func:`.numbering.harbor_order`)
    and piers on the page: the marker :data:`MARKER_OUT` of the way from
    the hex centre to the middle of the served edge, or nearer the centre
    so that its box keeps 0.4 mm off the coast; its radius a share of the
    hex size, never below three quarters of the least font size.
    ``areas``: the sea hexes' corners as drawn (:func:`.fitting.sea_areas`)."""
    s = fit_.s
    r = max(s * 0.22, MIN_FONT_MM * 0.75)
    marks = []
    for n, h in enumerate(harbor_order(board), start=1):
        cx, cy = fit_.at(h.hex)
        a, b = CORNERS[(h.facing - 1) % 6], CORNERS[h.facing]
        e1, e2 = (cx + a[0] * s, cy + a[1] * s), (cx + b[0] * s, cy + b[1] * s)
        mx, my = (e1[0] + e2[0]) / 2, (e1[1] + e2[1]) / 2
        apothem = s * SQRT3 / 2
        reach = (r + st.mm("token_stroke")) * (abs(mx - cx) + abs(my - cy)) / apothem  # the ring's box
        out = min(MARKER_OUT, 1.0 - (reach + 0.4) / apothem)
        p = (cx + (mx - cx) * out, cy + (my - cy) * out)
        marks.append(HarborMark(n, h, (cx, cy), p, r, areas.get(h.hex), (e1, e2)))
    return marks


#: where a harbor's marker sits: this share of the way from its hex's
#: centre to the middle of the served edge, or nearer the centre so that
#: the box round its ring keeps 0.4 mm off the coast (the rest of the hex
#: holds its label)
MARKER_OUT = 0.7


#: a harbor label's box is this much wider (mm) than its widest line
LABEL_PAD = 0.5


@dataclass(frozen=True, slots=True)
class HarborMark:
    """Harbor ``n`` (its list number) on the page: its hex centre ``c`` and
    marker centre ``p`` (mm), the marker's radius ``r`` (mm) and the
    corners (mm) of its sea hex as drawn (a frame hex: its half), None
    when the harbor's hex is not a sea or frame hex of the board."""

    n: int
    harbor: Harbor
    c: tuple[float, float]
    p: tuple[float, float]
    r: float
    area: tuple[tuple[float, float], ...] | None
    #: the corners (mm) of the served edge, where the piers from the marker end
    pier_ends: tuple[Point, Point]

    @property
    def pier(self) -> tuple[Point, Point, Point]:
        """The triangle (mm) of the two piers: edge corner, marker centre, edge corner."""
        return (self.pier_ends[0], self.p, self.pier_ends[1])

    @property
    def marker_box(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` (mm) round the marker, ring included."""
        (x, y), r = self.p, self.r
        return (x - r - 0.3, y - r - 0.3, x + r + 0.3, y + r + 0.3)


@dataclass(frozen=True, slots=True)
class WordSpot:
    """A harbor label: its lines (the first bold) at font ``size`` (mm),
    centred on ``(x, y)``, ``w`` x ``h`` mm; ``own`` when it lies in the
    harbor's own sea hex (else a leader line joins it to the marker)."""

    lines: tuple[str, ...]
    x: float
    y: float
    w: float
    h: float
    size: float
    own: bool
    #: False for a label that found no free spot (at its wanted spot, where the layout test flags it)
    found: bool = True


#: the pirate ship's heights (x hex size), largest first
PIRATE_SIZES = (0.75, 0.65, 0.55, 0.45)


@dataclass(frozen=True, slots=True)
class PirateHex:
    """The pirate's sea hex on the page: its centre ``at`` and corners
    ``area`` as drawn (mm; None when the hex is not a sea or frame hex)."""

    at: Point
    area: tuple[Point, ...] | None


@dataclass(frozen=True, slots=True)
class Placement:
    """Where the pirate ship goes (``(x, y, height)`` mm, None without
    one) and each harbor's label, in the harbors' order."""

    pirate: tuple[float, float, float] | None
    words: tuple[WordSpot, ...]


def place_labels(
    obstacles: Obstacles, marks: Sequence[HarborMark], pirate: PirateHex | None, s: float, tx: Texts, st: Style
) -> Placement:
    """The pirate ship and every harbor's label placed on free sea, clear
    of ``obstacles`` and of each other, for hexes of size ``s`` mm (a pure
    function: the same arguments give the same placement on every
    machine). The pirate first, at its largest; when a label finds no
    room, again with the smallest pirate, then with no label on one long
    line, then with the labels first and the pirate after them in what its
    hex has left. The try with the fewest misses wins (the first of them
    on a tie)."""
    free = _FreeSea(obstacles, s)
    base = free.snapshot()
    best: tuple[int, Any, list[WordSpot]] | None = None
    for sizes, compact, first in (
        (PIRATE_SIZES, False, True),
        (PIRATE_SIZES[-1:], False, True),
        (PIRATE_SIZES[-1:], True, True),
        (PIRATE_SIZES, False, False),
    ):
        if pirate is None and not first:
            break
        free.restore(base)
        ship, lost = _place_pirate(pirate.at, s, free, sizes) if pirate is not None and first else (None, False)
        spots, missed = _place_words(list(marks), s, free, tx, st, compact)
        if not first and pirate is not None:
            ship, lost = _place_pirate(pirate.at, s, free, sizes, pirate.area)
        missed += lost
        if best is None or missed < best[0]:
            best = (missed, ship, spots)
        if not missed:
            break
    assert best is not None
    return Placement(best[1], tuple(best[2]))


def _place_pirate(
    at: Point, s: float, free: _FreeSea, sizes: Sequence[float] = PIRATE_SIZES, area: Sequence[Point] | None = None
) -> tuple[tuple[float, float, float], bool]:
    """Where the pirate ship goes on its sea hex centred on ``at`` (mm),
    ``(x, y, height)`` mm: the largest of ``sizes`` (x hex size ``s`` mm)
    at the free spot nearest the hex centre (with ``area``, the hex's
    corners: inside it); the spot is taken. Also whether no free spot was
    found (it then takes the centre)."""
    x, y = at
    for hf in sizes:
        h = s * hf
        half_w, half_h = h * 0.65, h * 0.65
        found = free.find(x, y, half_w, half_h, s * 0.9, area=area)
        if found is not None:
            break
    spot = (x, y) if found is None else found
    free.take(spot[0], spot[1], h * 0.65, h * 0.65)
    return (spot[0], spot[1], h), found is None


def _place_words(
    marks: list[HarborMark], s: float, free: _FreeSea, tx: Texts, st: Style, compact: bool = False
) -> tuple[list[WordSpot], int]:
    """Where each harbor's label goes (in the harbors' order), placed one by
    one in turn; when some find no free spot, the placing starts again
    with every label that missed so far first, the latest first (at most
    :data:`PLACING_TRIES` tries, then :func:`_repair`), and the try with
    the fewest misses, then fewest labels outside their own hex, wins (a
    miss goes to its wanted spot, where the layout test would flag it).
    The free sea is left as the winning try took it. Returns the spots
    and the number of misses."""
    base = free.snapshot()
    others = [_others(marks, i) for i in range(len(marks))]
    order = list(range(len(marks)))
    ever: list[int] = []  # every label that missed in a try, the latest first
    best: tuple[tuple[int, int], list[WordSpot]] | None = None
    for _ in range(PLACING_TRIES):
        free.restore(base)
        placed, score = _place_in_order(marks, order, others, s, free, tx, st, compact)
        if best is None or score < best[0]:
            best = (score, placed)
        if not score[0]:
            break
        missed = [i for i in order if not placed[i].found]
        ever = missed + [i for i in ever if i not in missed]
        order = ever + [i for i in order if i not in ever]
    assert best is not None
    if best[0][0]:
        best = _repair(marks, others, s, free, tx, st, compact, best, base)
    free.restore(base)
    for m, spot in zip(marks, best[1]):
        _take(free, m, spot)
    return best[1], best[0][0]


def _place_in_order(
    marks: list[HarborMark],
    order: Sequence[int],
    others: Sequence[tuple[tuple[Point, ...], ...]],
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool,
) -> tuple[list[WordSpot], tuple[int, int]]:
    """Every label placed in ``order`` (:func:`_word_spot`; ``others[i]``
    the hexes label ``i`` keeps out of first): the spots in the harbors'
    order, and the try's score ``(misses, labels away from their hex)``."""
    spots: dict[int, WordSpot] = {}
    for i in order:
        spots[i] = _word_spot(marks[i], s, free, tx, st, compact, others[i])
    placed = [spots[i] for i in range(len(marks))]
    return placed, (sum(not p.found for p in placed), sum(p.found and not p.own for p in placed))


def _repair(
    marks: list[HarborMark],
    others: Sequence[tuple[tuple[Point, ...], ...]],
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool,
    best: tuple[tuple[int, int], list[WordSpot]],
    base: tuple[int, int],
) -> tuple[tuple[int, int], list[WordSpot]]:
    """Labels that find no room though placed first: each such label first
    again, with one of its four nearest neighbours (by their markers)
    placed last, so that the neighbour looks for room where the others
    leave it (each try from ``base``, the free sea before any label); the
    try with the fewest misses wins."""
    missed = [i for i, spot in enumerate(best[1]) if not spot.found]
    for i in missed:
        near = sorted(
            (j for j in range(len(marks)) if j != i),
            key=lambda j: (marks[j].p[0] - marks[i].p[0]) ** 2 + (marks[j].p[1] - marks[i].p[1]) ** 2,
        )
        for j in near[:4]:
            free.restore(base)
            order = [i] + [k for k in range(len(marks)) if k not in (i, j)] + [j]
            placed, score = _place_in_order(marks, order, others, s, free, tx, st, compact)
            if score < best[0]:
                best = (score, placed)
            if not score[0]:
                return best
    return best


#: how many times the labels are placed when some find no room
PLACING_TRIES = 5


def _others(marks: list[HarborMark], i: int) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The sea hexes (corners, mm) of every harbor but ``marks[i]`` and
    those sharing its hex: where its label goes only when nothing else is
    free."""
    own = marks[i].area
    return tuple(dict.fromkeys(m.area for j, m in enumerate(marks) if j != i and m.area is not None and m.area != own))


#: how far (hex sizes) a harbor label may go from its harbor when its own
#: hex has no room (it is then joined to the marker by a leader line)
_REACHES = (1.2, 1.8, 2.6, 4.0, 6.0)


def _word_spot(
    m: HarborMark,
    s: float,
    free: _FreeSea,
    tx: Texts,
    st: Style,
    compact: bool = False,
    others: Sequence[Sequence[tuple[float, float]]] = (),
) -> WordSpot:
    """The label of harbor ``m`` at the free spot nearest the point
    opposite the marker in its own hex (inside that hex: on two lines,
    else on one, at the style's size, then at 8 pt), else on free sea ever
    further away (first outside ``others``, the other harbors' hexes),
    its leader over sea, else (at 8 pt, on up to three lines) over land
    clear of what land hexes show; ``compact``: never on one long line
    (room for its neighbours); the spot is taken (:attr:`WordSpot.found`
    says whether it is free). The label starts with the harbor's number
    and ratio ("7 · 2:1"), then the resource word ("brick")."""
    ratio, word = harbor_words(m.harbor.type, tx)
    head = f"{m.n} · {ratio}"
    forms = [(head, word), (f"{head} {word}",)] if word else [(head,)]
    narrow = (str(m.n), ratio, word) if word else (str(m.n), ratio)
    if compact:  # never one long line
        forms = [forms[0], narrow]
    px, py = m.c[0] - (m.p[0] - m.c[0]) * 0.3, m.c[1] - (m.p[1] - m.c[1]) * 0.3
    sizes = sorted({max(MIN_FONT_MM, st.mm("harbor_text")), MIN_FONT_MM}, reverse=True)
    Areas = Sequence[Sequence[tuple[float, float]]]
    tries: list[tuple[float, tuple[str, ...], float, bool, bool, Areas]] = (
        [(size, lines, s, True, False, ()) for size in sizes for lines in forms + [narrow]] if m.area else []
    )
    for avoid in ([others] if others else []) + [()]:
        tries += [(sizes[0], lines, k * s, False, False, avoid) for k in _REACHES for lines in forms]
    for avoid in ([others] if others else []) + [()]:
        tries += [(sizes[-1], lines, k * s, False, True, avoid) for k in _REACHES for lines in forms + [narrow]]
    for size, lines, reach, own, land, avoid in tries:
        w, th = _words_size(lines, size)
        tether = None if own else m
        spot = free.find(
            px,
            py,
            w / 2 + 0.2,
            th / 2 + 0.2,
            reach,
            area=m.area if own else None,
            tether=tether,
            over_land=land,
            avoid=avoid,
        )
        if spot is not None:
            placed = WordSpot(lines, spot[0], spot[1], w, th, size, own)
            _take(free, m, placed)
            return placed
    missed = WordSpot(lines, px, py, w, th, size, False, found=False)
    _take(free, m, missed)
    return missed


def _take(free: _FreeSea, m: HarborMark, spot: WordSpot) -> None:
    """Mark a label's box (with 0.2 mm round it) and, away from its hex,
    its leader line as used."""
    free.take(spot.x, spot.y, spot.w / 2 + 0.2, spot.h / 2 + 0.2)
    if not spot.own and spot.found:
        free.take_leader(leader(m.p[0], m.p[1], m.r, spot.x, spot.y, spot.w / 2, spot.h / 2))


def _words_size(lines: tuple[str, ...], size: float) -> tuple[float, float]:
    """Width and height (mm) of a label's box: the first line bold."""
    w = max(text_width(x, size, bold=(i == 0)) for i, x in enumerate(lines)) + LABEL_PAD
    return w, size * 1.12 * len(lines) + 0.3


class _FreeSea:
    """Where words and the pirate may go: inside the board block (the
    fit's limit), at least :data:`CLEAR` mm off the board's outline, the
    land, piers, harbor markers, leader lines and what was placed before.
    Candidate spots lie on a lattice of 1/9 hex size (1/18 inside one
    hex), tried nearest first; the fixed obstacles are tested with a
    shapely STRtree (vectorised), placed boxes with box arithmetic, so the
    choice is the same on every machine. A spot joined to its marker by
    a leader line is free only when that line crosses no land, marker,
    pier or placed box (it may cross the board's outline)."""

    CLEAR = 0.4

    def __init__(self, obstacles: Obstacles, s: float) -> None:
        import numpy as np
        import shapely

        self.s = s
        self._limit = obstacles.limit
        fixed: list[Any] = list(shapely.polygons(list(obstacles.land))) if obstacles.land else []
        fixed += list(shapely.linestrings(list(obstacles.outline))) if obstacles.outline else []
        kinds = [_LAND] * len(obstacles.land) + [_OUTLINE] * len(obstacles.outline)
        owners = [0] * len(fixed)
        for n, (pier, (x0, y0, x1, y1)) in enumerate(zip(obstacles.piers, obstacles.markers), start=1):
            fixed += [shapely.polygons(list(pier)), shapely.box(x0, y0, x1, y1)]
            kinds += [_PIER, _PIER]
            owners += [n, n]
        self._tree: Any = shapely.STRtree(fixed)
        #: per fixed obstacle (in the tree's order) its kind, and the harbor number owning a pier or marker (0: none)
        self._kind, self._owner = np.asarray(kinds, dtype=int), np.asarray(owners, dtype=int)
        grown = [(x0 - 0.3, y0 - 0.3, x1 + 0.3, y1 + 0.3) for x0, y0, x1, y1 in obstacles.land_marks]
        self._land_marks: Any = shapely.STRtree(list(shapely.box(*zip(*grown)))) if grown else None
        self._taken: list[tuple[float, float, float, float]] = [
            (x - hw, y - hh, x + hw, y + hh) for x, y, hw, hh in obstacles.taken
        ]
        self._leaders: list[Any] = []

    def find(
        self,
        x: float,
        y: float,
        hw: float,
        hh: float,
        reach: float,
        area: Sequence[tuple[float, float]] | None = None,
        tether: HarborMark | None = None,
        over_land: bool = False,
        avoid: Sequence[Sequence[tuple[float, float]]] = (),
    ) -> tuple[float, float] | None:
        """The free centre nearest ``(x, y)`` (within ``reach`` mm) of a
        box ``2 hw`` x ``2 hh`` mm, or None; with ``area`` (the corners
        of a convex polygon, mm) only a box inside it; with ``tether``
        (a marker's centre and radius, mm) only a box whose leader line
        (:func:`leader`) is free too: over sea only, or with ``over_land``
        over land clear of what its hexes show; never a box centred in one
        of the convex polygons ``avoid``."""
        import numpy as np

        cx, cy = _lattice(x, y, self.s / (9 if area is None else 18), reach)
        lim = self._limit
        ok = (cx - hw >= lim.x) & (cx + hw <= lim.x + lim.w) & (cy - hh >= lim.y) & (cy + hh <= lim.y + lim.h)
        if area is not None:
            ok &= _box_inside(cx, cy, hw, hh, area)
        for other in avoid:
            ok &= ~_box_inside(cx, cy, 0.0, 0.0, other)
        if self._taken:
            t = np.asarray(self._taken)[:, :, None]
            ok &= ~np.any((cx - hw < t[:, 2]) & (cx + hw > t[:, 0]) & (cy - hh < t[:, 3]) & (cy + hh > t[:, 1]), axis=0)
        idx = np.flatnonzero(ok)
        start, size = 0, 16
        while start < len(idx):
            chunk = idx[start : start + size]
            free = self._free(cx[chunk], cy[chunk], hw, hh, tether, over_land)
            if len(free):
                i = chunk[free[0]]
                return float(cx[i]), float(cy[i])
            start, size = start + size, size * 4
        return None

    def _free(self, cx: Any, cy: Any, hw: float, hh: float, tether: HarborMark | None, over_land: bool = False) -> Any:
        """Indices of the boxes centred on ``(cx, cy)`` (numpy arrays) clear
        of the fixed obstacles and the leader lines (and, with ``tether``,
        whose own leader line is clear)."""
        import numpy as np
        import shapely

        c = self.CLEAR
        boxes = shapely.box(cx - hw - c, cy - hh - c, cx + hw + c, cy + hh + c)
        hit = np.zeros(len(cx), dtype=bool)
        hit[self._tree.query(boxes, predicate="intersects")[0]] = True
        for line in self._leaders:
            hit |= shapely.intersects(boxes, line)
        if tether is not None:
            (px, py), r = tether.p, tether.r
            bx, by = np.clip(px, cx - hw, cx + hw), np.clip(py, cy - hh, cy + hh)
            d = np.maximum(np.hypot(bx - px, by - py), 1e-9)
            ax, ay = px + (bx - px) / d * r, py + (by - py) / d * r
            lines = shapely.linestrings(np.stack([np.stack([ax, ay], -1), np.stack([bx, by], -1)], 1))
            pairs = self._tree.query(lines, predicate="intersects")
            crossed = (self._owner[pairs[1]] != tether.n) & (self._kind[pairs[1]] != _OUTLINE)
            if over_land:
                crossed &= self._kind[pairs[1]] != _LAND
                if self._land_marks is not None:
                    hit[self._land_marks.query(lines, predicate="intersects")[0]] = True
            hit[pairs[0][crossed]] = True
            if self._taken:
                taken = shapely.box(*np.asarray(self._taken).T)
                hit |= shapely.intersects(lines[:, None], taken[None, :]).any(axis=1)
        return np.flatnonzero(~hit)

    def take(self, x: float, y: float, hw: float, hh: float) -> None:
        """Mark the box centred on ``(x, y)`` as used."""
        self._taken.append((x - hw, y - hh, x + hw, y + hh))

    def take_leader(self, line: tuple[tuple[float, float], tuple[float, float]]) -> None:
        """Keep later boxes off a leader line (two points, mm)."""
        import shapely

        self._leaders.append(shapely.linestrings([line[0], line[1]]))

    def snapshot(self) -> tuple[int, int]:
        """A mark to :meth:`restore` to (the boxes and leaders taken so far)."""
        return len(self._taken), len(self._leaders)

    def restore(self, mark: tuple[int, int]) -> None:
        """Forget the boxes and leaders taken since :meth:`snapshot` gave ``mark``."""
        del self._taken[mark[0] :]
        del self._leaders[mark[1] :]


def leader(
    px: float, py: float, r: float, x: float, y: float, hw: float, hh: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The leader line (two points, mm) from the ring of a marker of radius
    ``r`` at ``(px, py)`` to the nearest point of the box ``2 hw`` x ``2 hh``
    centred on ``(x, y)``, pointing at that point."""
    bx, by = min(max(px, x - hw), x + hw), min(max(py, y - hh), y + hh)
    dx, dy = bx - px, by - py
    d = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    return (px + dx / d * r, py + dy / d * r), (bx, by)


def _box_inside(cx: Any, cy: Any, hw: float, hh: float, area: Sequence[tuple[float, float]]) -> Any:
    """Which boxes ``2 hw`` x ``2 hh`` mm centred on ``(cx, cy)`` (numpy
    arrays, mm) lie inside the convex polygon ``area`` (corners in order,
    either way round): the centre at least the box's reach (``hw |nx| +
    hh |ny|``) on the inner side of every edge (inward normal ``n``)."""
    import numpy as np

    nx, ny, offset = _inward_edges(tuple(area))
    need = hw * np.abs(nx) + hh * np.abs(ny) + offset
    return np.all(nx[:, None] * cx + ny[:, None] * cy >= need[:, None], axis=0)


@functools.lru_cache(maxsize=64)
def _inward_edges(area: tuple[tuple[float, float], ...]) -> tuple[Any, Any, Any]:
    """The unit inward normals ``(nx, ny)`` of a convex polygon's edges and
    each edge's offset ``n · corner`` (numpy arrays), for :func:`_box_inside`."""
    import numpy as np

    pts = np.asarray(area, dtype=float)
    nxt = np.roll(pts, -1, axis=0)
    e = nxt - pts
    turn = float(np.sum(pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1]))
    normal = np.stack([-e[:, 1], e[:, 0]], 1) * (1.0 if turn > 0 else -1.0)
    normal /= np.hypot(normal[:, 0], normal[:, 1])[:, None]
    return normal[:, 0].copy(), normal[:, 1].copy(), np.sum(normal * pts, 1)


_LATTICE: dict[tuple[float, float], tuple[Any, Any]] = {}


def _lattice(x: float, y: float, step: float, reach: float) -> tuple[Any, Any]:
    """Candidate centres (numpy arrays, mm) around ``(x, y)`` within
    ``reach`` mm, nearest first (ties by y, then x): a square lattice of
    ``step`` mm out to 4 steps, of 2 steps beyond (a spot far from the
    wanted one need not be exact, and a quarter of the candidates is
    quicker to test)."""
    import numpy as np

    key = (round(step, 6), round(reach, 6))
    offsets = _LATTICE.get(key)
    if offsets is None:
        k = int(reach / step)
        grid = np.arange(-k, k + 1) * step
        gx, gy = (a.ravel() for a in np.meshgrid(grid, grid))
        idx = np.arange(-k, k + 1)
        ix, iy = (a.ravel() for a in np.meshgrid(idx, idx))
        near = ix * ix + iy * iy <= 16
        keep_grid = near | ((ix % 2 == 0) & (iy % 2 == 0))
        gx, gy = gx[keep_grid], gy[keep_grid]
        d2 = np.round(gx * gx + gy * gy, 6)
        order = np.lexsort((gx, gy, d2))
        keep = d2[order] <= reach * reach + 1e-9
        offsets = _LATTICE[key] = (gx[order][keep], gy[order][keep])
        if len(_LATTICE) > 64:
            _LATTICE.pop(next(iter(_LATTICE)))
    return x + offsets[0], y + offsets[1]
