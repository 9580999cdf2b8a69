"""Board generation: terrain, number tokens, harbors, robber and pirate.

:func:`generate` is a pure function of a layout and an explicit
``random.Random``; :func:`from_seed` and :func:`from_setup_id` derive the
stream (``setupgen.core.rng``) and stamp the seed and setup ID on the board.
Draw order (part of the reproducible stream): terrain per region (regions
sorted by name), number tokens per region, oil springs (Oil Springs
scenarios; may redo numbers or terrain), harbors.
"""

from __future__ import annotations

import dataclasses
import random

from ..core import layout as layoutmod
from ..core import rng as rngmod
from ..core import balance, setupid
from ..core.balance import Limits
from ..core.board import BalanceRecord, Board, Harbor, Tile
from ..core.errors import GenerationError, SetupgenError, SetupIdError
from ..core.hexgrid import Hex
from ..core.layout import Layout
from ..core.limits import check_text
from ..core.rules import HARBOR_METHODS, NUMBER_METHODS
from . import harbors as harbormod
from . import numbers as numbermod
from . import oil as oilmod


def generate(layout: Layout, rng: random.Random, numbers: str | None = None,
             harbors: str | None = None) -> Board:
    """A random legal board of ``layout``.

    ``numbers``: ``swap`` | ``spiral`` | ``uniform`` (None: the layout's
    default); ``harbors``: ``shuffled`` | ``free`` | ``players`` (None: the
    layout's default). The board's ``seed`` is None and ``setup_id`` empty;
    :func:`from_seed` fills them.

    Raises :class:`SetupgenError` for an unknown method and
    :class:`GenerationError` when bounded retries run out.
    """
    return _generate(layout, rng, numbers, harbors, None, "")


# Tiles are immutable and few distinct ones exist per layout: share them
# (layout name -> (hex, terrain, number, hidden, oil spring) -> Tile).
_TILES: dict[str, dict[tuple, Tile]] = {}


def _generate(layout: Layout, rng: random.Random, numbers: str | None,
              harbors: str | None, seed: str | None, setup_id: str) -> Board:
    """:func:`generate`, stamping ``seed`` and ``setup_id`` on the board."""
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    terrain, hidden, numbers_on, oil_springs = _land(layout, number_method, rng)

    # harbors
    if harbor_method == "fixed":
        placed = tuple(Harbor(pl.hex, pl.facing, pl.type or "") for pl in layout.harbor_places)  # all typed
    elif harbor_method == "shuffled":
        placed = harbormod.shuffled([(p.hex, p.facing) for p in layout.harbor_places], layout.harbor_pool, rng)
    elif harbor_method == "free":
        placed = harbormod.free(layout.coast_edges, layout.harbor_pool, rng, layout_name=layout.name)
    else:
        placed = ()

    robber: Hex | None
    if isinstance(layout.robber, str):  # "desert"
        deserts = [s.hex for s in layout.hexes if terrain.get(s.hex) == "desert"]
        robber = deserts[0] if deserts else None
    else:
        robber = layout.robber  # a fixed hex or None (off the board)

    get_number = numbers_on.get
    known = _TILES.setdefault(layout.name, {})
    if len(known) > 1 << 16:
        known.clear()
    tiles: list[Tile] = []
    for s in layout.hexes:
        h = s.hex
        key = (h, terrain[h], get_number(h), h in hidden, h in oil_springs)
        tile = known.get(key)
        if tile is None or tile.kind != s.kind:
            tile = known[key] = Tile(h, s.kind, *key[1:])
        tiles.append(tile)
    return Board(
        scenario=layout.name, seed=seed,
        setup_id=setup_id,
        number_method=number_method,
        harbor_method=harbor_method, tiles=tuple(tiles),
        harbors=tuple(sorted(placed, key=lambda x: (x.hex[1], x.hex[0], x.facing))),
        robber=robber, pirate=layout.pirate,
    )


#: number placements tried per terrain before the terrain is redone (Oil Springs)
OIL_NUMBER_REDOS = 100
#: terrain placements tried before an Oil Springs board gives up
OIL_TERRAIN_REDOS = 100


def _land(layout: Layout, number_method: str, rng: random.Random
          ) -> tuple[dict[Hex, str], set[Hex], dict[Hex, int], frozenset[Hex]]:
    """Terrain, face-down hexes, number tokens and oil springs. Without oil
    springs: one pass. With them (docs/rules.md section 5): the oil step may ask
    to redo the numbers (at most :data:`OIL_NUMBER_REDOS` times per
    terrain) or the terrain (at most :data:`OIL_TERRAIN_REDOS` times), all
    continuing the same stream."""
    for _ in range(OIL_TERRAIN_REDOS + 1 if layout.oil is not None else 1):
        terrain, hidden = _terrain(layout, rng)
        for _ in range(OIL_NUMBER_REDOS + 1 if layout.oil is not None else 1):
            numbers_on = _numbers(layout, terrain, number_method, rng)
            if layout.oil is None:
                return terrain, hidden, numbers_on, frozenset()
            result = oilmod.place(layout.land(), terrain, numbers_on, layout.oil, layout.adjacency, rng)
            if result == oilmod.REDO_TERRAIN:
                break
            if isinstance(result, oilmod.OilResult):
                return terrain, hidden, dict(result.numbers), result.oil_springs
    raise GenerationError(f"{layout.name}: no oil-spring placement found after {OIL_TERRAIN_REDOS} terrain "
                          f"and {OIL_NUMBER_REDOS} number redos each (rule: no two oil springs adjacent)")


def _terrain(layout: Layout, rng: random.Random) -> tuple[dict[Hex, str], set[Hex]]:
    """Each region's pool shuffled onto its hexes (regions sorted by name),
    fixed terrain elsewhere; and the face-down hexes."""
    terrain: dict[Hex, str] = {}
    hidden: set[Hex] = set()
    for region in layout.regions:
        pool = list(region.terrain_pool)
        rngmod.shuffle(rng, pool)
        members = layout.region_hexes(region.name)
        terrain.update(zip(members, pool))
        if region.hidden:
            hidden.update(members)
    for spec in layout.hexes:
        if spec.region is None and spec.terrain is not None:
            terrain[spec.hex] = spec.terrain
    return terrain, hidden


def _numbers(layout: Layout, terrain: dict[Hex, str], number_method: str, rng: random.Random) -> dict[Hex, int]:
    """Fixed tokens, then each region's tokens by the number method."""
    numbers_on: dict[Hex, int] = {s.hex: s.number for s in layout.hexes if s.number is not None}
    for region in layout.regions:
        if not region.number_tokens:
            continue
        members = layout.region_hexes(region.name)
        order = [h for h in members if terrain[h] != "desert" and h not in numbers_on]
        if number_method == "swap":
            numbers_on.update(numbermod.swap(order, region.number_tokens, numbers_on, rng,
                                             layout_name=layout.name, adjacency=layout.adjacency))
        elif number_method == "uniform":
            numbers_on.update(numbermod.uniform(order, region.number_tokens, numbers_on, rng,
                                                layout_name=layout.name, adjacency=layout.adjacency))
        else:
            skip = frozenset(h for h in members if terrain[h] == "desert" or h in numbers_on)
            numbers_on.update(numbermod.spiral(members, skip, layout.spiral, rng, layout_name=layout.name,
                                               fixed=numbers_on))
    return numbers_on


def resolve_methods(layout: Layout, numbers: str | None, harbors: str | None) -> tuple[str, str]:
    """The (number, harbor) methods a generation of ``layout`` will use: the
    given ones, or the layout's defaults for None. Raises
    :class:`SetupgenError` for an unknown method or one the layout cannot
    use."""
    if layout.source == "board-file":
        raise SetupgenError(f"scenario {layout.name!r} takes its board from a board file", field="scenario")
    number_method = layout.default_numbers if numbers is None else numbers
    harbor_method = layout.default_harbors if harbors is None else harbors
    if number_method not in NUMBER_METHODS:
        raise SetupgenError(f"unknown number method {number_method!r} (known: {', '.join(NUMBER_METHODS)})",
                            field="numbers")
    if harbor_method not in HARBOR_METHODS:
        raise SetupgenError(f"unknown harbor method {harbor_method!r} (known: {', '.join(HARBOR_METHODS)})",
                            field="harbors")
    if harbor_method == "fixed" and not (layout.harbor_places and all(pl.type for pl in layout.harbor_places)):
        raise SetupgenError(f"scenario {layout.name!r} does not fix its harbors; use shuffled, free or players",
                            field="harbors")
    if harbor_method == "shuffled" and not layout.harbor_places:
        raise SetupgenError(f"scenario {layout.name!r} has no fixed harbor places; use free or players", field="harbors")
    if number_method == "spiral" and not layout.spiral:
        raise SetupgenError(f"scenario {layout.name!r} has no spiral order; use swap or uniform", field="numbers")
    return number_method, harbor_method


def from_seed(scenario: str | Layout, seed: str, numbers: str | None = None,
              harbors: str | None = None) -> Board:
    """The board of a scenario (name or layout) for seed text ``seed``: the
    stream is seeded from :func:`setupgen.core.rng.digest` of the seed, and the
    board carries the seed and its setup ID.

    Raises :class:`UnknownScenarioError`, :class:`SetupgenError` (also for a
    seed over 200 characters or holding a control character),
    :class:`GenerationError`.
    """
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    check_text(seed, "the seed", field="seed")
    digest = rngmod.digest(seed)
    sid = setupid.encode(layout.code, number_method, harbor_method, digest)
    return _generate(layout, rngmod.stream(digest), number_method, harbor_method, seed, sid)


#: attempts a board under balance limits may take, per number method, so that
#: impossible limits end within about 5 s on the slowest layout (swap and
#: spiral: under 1 ms a board; uniform on 5-6 boards: 8-10 ms)
ATTEMPTS = {"swap": 2000, "spiral": 2000, "uniform": 400}


def from_seed_within(scenario: str | Layout, seed: str, limits: Limits, numbers: str | None = None,
                     harbors: str | None = None) -> Board:
    """The board of ``seed`` that meets balance ``limits`` (docs/balance.md):
    the first board of the seed's attempt stream (attempt 0 is
    :func:`from_seed`'s board, attempt k seeded by
    :func:`setupgen.core.rng.attempt_digest`) that meets every limit, each
    drawn whole by the number and harbor method, so an accepted board is
    one the table procedure could have produced (its odds are those of
    the procedure given the limits). The board records the limits and the
    attempt (``Board.balance``); its setup ID regenerates it alone.

    A layout's own ``[balance]`` limits hold too (``limits`` taking their
    place where both set one). Without limits this is :func:`from_seed`.
    Raises what :func:`from_seed` raises, and :class:`GenerationError`
    naming the limit failing most when :data:`ATTEMPTS` of the method run
    out."""
    layout = layoutmod.load(scenario) if isinstance(scenario, str) else scenario
    if layout.balance is not None:
        limits = layout.balance.merged(limits)
    if not limits:
        return from_seed(layout, seed, numbers, harbors)
    number_method, harbor_method = resolve_methods(layout, numbers, harbors)
    check_text(seed, "the seed", field="seed")
    first = rngmod.digest(seed)
    budget = ATTEMPTS[number_method]
    failed: dict[str, int] = {}
    for attempt in range(budget):
        d = rngmod.attempt_digest(first, attempt)
        sid = setupid.encode(layout.code, number_method, harbor_method, d)
        try:
            board = _generate(layout, rngmod.stream(d), number_method, harbor_method, seed, sid)
        except GenerationError:  # this attempt's stream found no legal board (Oil Springs redos): the next
            failed["generation"] = failed.get("generation", 0) + 1
            continue
        failing = balance.first_failure(board, limits, start_barred=layout.start_barred)
        if failing is None:
            return dataclasses.replace(board, balance=BalanceRecord(limits, attempt))
        failed[failing] = failed.get(failing, 0) + 1
    worst = max(failed, key=lambda k: (failed[k], k))
    raise GenerationError(f"no {layout.name} board met the balance limits in {budget} attempts (none accepted); "
                          f"the limit failing most: {worst.replace('_', ' ')} ({failed[worst]} of {budget} "
                          f"attempts); loosen it")


def from_setup_id(text: str, layout: Layout | None = None) -> Board:
    """Regenerate the board a setup ID names (its ``seed`` field is None: the
    seed text cannot be recovered from the ID). ``layout``: the layout the
    ID was made with, when it is not a shipped one.

    Raises :class:`SetupIdError` for an unreadable ID or one of another
    layout, and :class:`UnknownScenarioError` for an unknown scenario code.
    """
    sid = setupid.decode(text)
    if layout is None:
        layout = layoutmod.by_code(sid.code)
    elif layout.code != sid.code:
        raise SetupIdError(f"setup id {text!r} is for scenario code {sid.code}, not {layout.code} ({layout.name})")
    return _generate(layout, rngmod.stream(sid.digest), sid.number_method, sid.harbor_method, None, str(sid))
