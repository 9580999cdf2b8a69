"""Stage 2 of the pipeline: random legal boards from layouts.

``generate(layout, rng) -> Board`` (:mod:`.pipeline`) draws terrain, number
tokens (:mod:`.numbers`: the swap rule, the spiral, uniform), oil springs
(:mod:`.oil`) and harbors (:mod:`.harbors`); :mod:`.fixed` reads complete
boards from files and applies the fixed Oil Springs setups. Generators use
the rule definitions of :mod:`setupgen.core.rules` and nothing of the later
stages.
"""

from .pipeline import ATTEMPTS, from_seed, from_seed_within, from_setup_id, generate, resolve_methods, setup_id_layout

__all__ = [
    "generate",
    "from_seed",
    "from_seed_within",
    "from_setup_id",
    "resolve_methods",
    "setup_id_layout",
    "ATTEMPTS",
]
