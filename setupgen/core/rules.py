"""The vocabulary and the rules every stage shares (``docs/rules.md``
sections 1-3): terrains, hex kinds, methods, harbor types, rule names, the
number rule and the harbor-spacing rule, each defined once.

Generators, :mod:`setupgen.check` and the Oil Springs step all use these
definitions; the swap rule's hot path uses :func:`clash_table`, derived
from :func:`clashes`. Terms follow the glossary in ``docs/rules.md``.
Hexes are axial ``(q, r)`` tuples.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from . import hexgrid
from .hexgrid import Hex

# -- vocabulary --------------------------------------------------------------

TERRAINS: tuple[str, ...] = ("forest", "pasture", "fields", "hills", "mountains", "desert", "gold", "sea")
#: terrains a land hex may have (everything but sea)
LAND_TERRAINS: tuple[str, ...] = TERRAINS[:-1]
RESOURCES: tuple[str, ...] = ("lumber", "wool", "grain", "brick", "ore")
#: the resource each producing terrain yields (gold yields one of choice)
RESOURCE_OF: Mapping[str, str] = {
    "forest": "lumber",
    "pasture": "wool",
    "fields": "grain",
    "hills": "brick",
    "mountains": "ore",
}
HARBOR_TYPES: tuple[str, ...] = ("3:1",) + RESOURCES
#: a tournament's stages (docs/rules.md section 6): the preliminary rounds,
#: then the finals (semi-finals with 16 finalists, the final)
PRELIMINARY, SEMI_FINAL, FINAL = "preliminary", "semi-final", "final"
#: the finals' stages, in the order they are played
FINALS_STAGES: tuple[str, ...] = (SEMI_FINAL, FINAL)
#: hex kinds of a layout and a board
KINDS: tuple[str, ...] = ("land", "sea", "frame")
#: number-token placement methods
NUMBER_METHODS: tuple[str, ...] = ("swap", "spiral", "uniform")
#: harbor methods (``fixed``: the layout or board file fixes every harbor)
HARBOR_METHODS: tuple[str, ...] = ("shuffled", "free", "players", "fixed")
NUMBERS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
#: the kinds of scenario pieces a map carries at the start (docs/rules.md section 4b): ``village``, a
#: village of the forgotten tribe that trades cloth on its number (Cloth for Catan, on an intersection);
#: ``vp`` a victory-point chit and ``card`` a development card face down, gifts of the forgotten tribe on
#: an edge (The Forgotten Tribe); ``no-start``, an intersection marked on the map where no starting
#: settlement may go (The Wonders of Catan); a player's ``settlement`` and ``ship`` at the start, the
#: pirates' ``fortress`` of that player's colour, the ``lone-settlement`` spot on the way to it, and the
#: pirate fleet's ``path`` (its steps on sea hexes, in order) (The Pirate Islands)
PIECE_KINDS: tuple[str, ...] = (
    "village",
    "vp",
    "card",
    "no-start",
    "settlement",
    "ship",
    "fortress",
    "lone-settlement",
    "path",
)
#: where each kind of piece stands: on an intersection (``corner``), an edge or a hex
PIECE_SPOTS: Mapping[str, str] = {
    "village": "corner",
    "vp": "edge",
    "card": "edge",
    "no-start": "corner",
    "settlement": "corner",
    "ship": "edge",
    "fortress": "corner",
    "lone-settlement": "corner",
    "path": "hex",
}
RED_NUMBERS: frozenset[int] = frozenset((6, 8))
#: dots on a number token: the ways to roll it with two dice
PIPS: Mapping[int, int] = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

# -- rule names (used in violations and errors) -----------------------------

RULE_EQUAL = "equal-adjacent"
RULE_RED = "red-adjacent"
RULE_RED_BARRED = "red-on-barred-terrain"
#: a token with more pips than the layout allows on its hex (``max_pips``: The Forgotten Tribe's east coast)
RULE_PIPS_CAP = "pips-over-cap"
RULE_COAST = "harbor-coast"
RULE_ONE_PER_SEA = "harbor-one-per-sea-hex"
RULE_CORNERS = "harbor-shared-intersection"
# the board against its layout (section 1)
RULE_HEX_MISSING = "hex-missing"
RULE_HEX_EXTRA = "hex-extra"
RULE_HEX_KIND = "hex-kind"
RULE_HEX_TERRAIN = "hex-terrain"
RULE_HEX_HIDDEN = "hex-hidden"
RULE_TERRAIN_POOL = "terrain-pool"
RULE_NUMBER_FIXED = "number-fixed"
RULE_NUMBER_ON_SEA = "number-on-sea"
RULE_NUMBER_ON_DESERT = "number-on-desert"
RULE_NUMBER_MISSING = "number-missing"
RULE_NUMBER_POOL = "number-pool"
RULE_HARBOR_METHOD = "harbor-method"
RULE_HARBOR_POOL = "harbor-pool"
RULE_HARBOR_PLACE = "harbor-place"
RULE_ROBBER = "robber"
RULE_PIRATE = "pirate"
#: the scenario's pieces on the map (villages ...) where, and as, the layout puts them
RULE_PIECES = "pieces"
# oil springs (section 5)
RULE_OIL_SPRING = "oil-spring"
RULE_OIL_DESERT = "oil-desert"
RULE_OIL_LEVELS = "oil-levels"
RULE_OIL_ADJACENT = "oil-adjacent"
RULE_FIXED_BOARD = "fixed-board"
# the setup ID (notes only)
RULE_SETUP_ID = "setup-id"
#: every rule name :func:`setupgen.check.check` reports
CHECK_RULES: tuple[str, ...] = (
    RULE_HEX_MISSING,
    RULE_HEX_EXTRA,
    RULE_HEX_KIND,
    RULE_HEX_TERRAIN,
    RULE_HEX_HIDDEN,
    RULE_TERRAIN_POOL,
    RULE_NUMBER_FIXED,
    RULE_NUMBER_ON_SEA,
    RULE_NUMBER_ON_DESERT,
    RULE_NUMBER_MISSING,
    RULE_NUMBER_POOL,
    RULE_EQUAL,
    RULE_RED,
    RULE_RED_BARRED,
    RULE_PIPS_CAP,
    RULE_HARBOR_METHOD,
    RULE_HARBOR_POOL,
    RULE_HARBOR_PLACE,
    RULE_COAST,
    RULE_ONE_PER_SEA,
    RULE_CORNERS,
    RULE_ROBBER,
    RULE_PIRATE,
    RULE_PIECES,
    RULE_OIL_SPRING,
    RULE_OIL_DESERT,
    RULE_OIL_LEVELS,
    RULE_OIL_ADJACENT,
    RULE_FIXED_BOARD,
    RULE_SETUP_ID,
)


# -- the number rule (docs/rules.md section 2) -------------------------------


def clashes(a: int, b: int) -> tuple[str, ...]:
    """Every number rule broken by tokens ``a`` and ``b`` on adjacent hexes,
    in a fixed order: ``RULE_EQUAL`` (equal numbers side by side) and
    ``RULE_RED`` (two red numbers, 6 or 8, side by side). A 6 beside a 6
    breaks both; ``()`` when the pair is allowed."""
    out: tuple[str, ...] = ()
    if a == b:
        out += (RULE_EQUAL,)
    if a in RED_NUMBERS and b in RED_NUMBERS:
        out += (RULE_RED,)
    return out


def clash_table() -> tuple[tuple[bool, ...], ...]:
    """:func:`clashes` as a lookup table for hot loops: ``table[a][b]`` is
    True when tokens ``a`` and ``b`` may not lie side by side; indices 0-12,
    where 0 stands for an empty hex (never a clash; nor are 1 and 7, which
    are no tokens)."""
    return tuple(tuple(a in NUMBERS and b in NUMBERS and bool(clashes(a, b)) for b in range(13)) for a in range(13))


def fits(
    number: int,
    h: Hex,
    numbers: Mapping[Hex, int],
    adjacency: Mapping[Hex, tuple[Hex, ...]] | None = None,
    *,
    equal_exempt: Collection[Hex] = (),
) -> bool:
    """Whether token ``number`` on hex ``h`` breaks no number rule against
    the tokens already in ``numbers`` (hex -> token; ``h`` itself is ignored
    if present). ``adjacency`` (hex -> the neighbouring hexes that can carry
    tokens) saves recomputing neighbours. Tokens on the hexes of
    ``equal_exempt`` (the deserts' oil-spring numbers, docs/rules.md
    section 5) are exempt from the equal-number rule only."""
    for n in hexgrid.neighbors(h) if adjacency is None else adjacency[h]:
        other = numbers.get(n)
        if other is None:
            continue
        broken = clashes(number, other)
        if broken and (n not in equal_exempt or RULE_RED in broken):
            return False
    return True


def red_barred(number: int | None, terrain: str, barred: Collection[str]) -> bool:
    """Whether token ``number`` (None: no token) on a hex of ``terrain``
    breaks ``RULE_RED_BARRED``: a red number (6 or 8) on a terrain the
    layout bars from them (``barred``, the layout's ``red_barred``, e.g.
    ``("gold",)``: docs/rules.md section 4b, Through the Desert)."""
    return number in RED_NUMBERS and terrain in barred


# -- the harbor rules (docs/rules.md sections 1 and 3) ------------------------


def coast_edge(kinds: Mapping[Hex, str], h: Hex, facing: int) -> bool:
    """Whether the edge of hex ``h`` towards ``facing`` (0-5) is a coast edge
    a harbor may serve: ``h`` is a playable sea hex and its neighbour there is
    land (``kinds``: hex -> kind; frame half hexes never hold a harbor)."""
    return kinds.get(h) == "sea" and kinds.get(hexgrid.neighbor(h, facing)) == "land"


def harbor_conflict(a: tuple[Hex, int], b: tuple[Hex, int]) -> str | None:
    """The harbor rule broken by harbors on coast edges ``a`` and ``b``
    (each ``(sea hex, facing)``) together: ``RULE_ONE_PER_SEA`` when they
    lie on one sea hex (the same edge included), ``RULE_CORNERS`` when the
    two edges share an intersection, else None."""
    if a[0] == b[0]:
        return RULE_ONE_PER_SEA
    if set(hexgrid.edge_corners(*a)) & set(hexgrid.edge_corners(*b)):
        return RULE_CORNERS
    return None


__all__ = [
    "TERRAINS",
    "LAND_TERRAINS",
    "RESOURCES",
    "RESOURCE_OF",
    "HARBOR_TYPES",
    "PRELIMINARY",
    "SEMI_FINAL",
    "FINAL",
    "FINALS_STAGES",
    "KINDS",
    "NUMBER_METHODS",
    "HARBOR_METHODS",
    "NUMBERS",
    "PIECE_KINDS",
    "PIECE_SPOTS",
    "RED_NUMBERS",
    "PIPS",
    "CHECK_RULES",
    "clashes",
    "clash_table",
    "fits",
    "red_barred",
    "coast_edge",
    "harbor_conflict",
    "RULE_EQUAL",
    "RULE_RED",
    "RULE_RED_BARRED",
    "RULE_PIPS_CAP",
    "RULE_COAST",
    "RULE_ONE_PER_SEA",
    "RULE_CORNERS",
    "RULE_HEX_MISSING",
    "RULE_HEX_EXTRA",
    "RULE_HEX_KIND",
    "RULE_HEX_TERRAIN",
    "RULE_HEX_HIDDEN",
    "RULE_TERRAIN_POOL",
    "RULE_NUMBER_FIXED",
    "RULE_NUMBER_ON_SEA",
    "RULE_NUMBER_ON_DESERT",
    "RULE_NUMBER_MISSING",
    "RULE_NUMBER_POOL",
    "RULE_HARBOR_METHOD",
    "RULE_HARBOR_POOL",
    "RULE_HARBOR_PLACE",
    "RULE_ROBBER",
    "RULE_PIRATE",
    "RULE_PIECES",
    "RULE_OIL_SPRING",
    "RULE_OIL_DESERT",
    "RULE_OIL_LEVELS",
    "RULE_OIL_ADJACENT",
    "RULE_FIXED_BOARD",
    "RULE_SETUP_ID",
]
