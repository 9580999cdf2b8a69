"""Stage 1 of the pipeline, the core every later stage builds on: the hex
grid (:mod:`.hexgrid`), the vocabulary and rules (:mod:`.rules`,
:mod:`.oil`), layouts (:mod:`.layout`, :mod:`.frames`), the board and its
JSON (:mod:`.board`), seeds and setup IDs (:mod:`.rng`, :mod:`.setupid`),
domain errors (:mod:`.errors`), the shipped data (:mod:`.data`,
:mod:`.templates`) and atomic output (:mod:`.atomic`). Nothing here
imports a later stage."""
