"""Component facts and the number rules (``../shared/RULES.md`` sections 1-2).

Terms follow the RULES.md glossary.
"""

from __future__ import annotations

from typing import Mapping

from . import hexgrid
from .hexgrid import Hex

TERRAINS: tuple[str, ...] = (
    "forest", "pasture", "fields", "hills", "mountains", "desert", "gold", "sea",
)
LAND_TERRAINS: tuple[str, ...] = TERRAINS[:-1]
RESOURCES: tuple[str, ...] = ("lumber", "wool", "grain", "brick", "ore")
HARBOR_TYPES: tuple[str, ...] = ("3:1",) + RESOURCES
NUMBERS: tuple[int, ...] = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
RED_NUMBERS: frozenset[int] = frozenset((6, 8))
PIPS: Mapping[int, int] = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}

#: rule names used in violations and errors
RULE_EQUAL = "equal-adjacent"
RULE_RED = "red-adjacent"


def clash(a: int, b: int) -> str | None:
    """The number rule broken by tokens ``a`` and ``b`` on adjacent hexes
    (``RULE_EQUAL`` or ``RULE_RED``), or None (RULES.md section 2)."""
    if a == b:
        return RULE_EQUAL
    if a in RED_NUMBERS and b in RED_NUMBERS:
        return RULE_RED
    return None


def fits(number: int, h: Hex, numbers: Mapping[Hex, int],
         adjacency: Mapping[Hex, tuple[Hex, ...]] | None = None) -> bool:
    """Whether token ``number`` on hex ``h`` breaks no number rule against the
    tokens already in ``numbers`` (a mapping hex -> token; ``h`` itself is
    ignored if present). ``adjacency`` (hex -> neighbouring hexes that can
    carry tokens) may be given to save recomputing neighbours."""
    for n in (hexgrid.neighbors(h) if adjacency is None else adjacency[h]):
        other = numbers.get(n)
        if other is not None and (other == number or (number in RED_NUMBERS and other in RED_NUMBERS)):
            return False
    return True
