"""Stage 5 of the pipeline: tournaments. The tournament file
(:mod:`.model`, core only), the seating schedule (:mod:`.schedule`),
results and standings (:mod:`.standings`), round packs
(:mod:`.roundpack`) and what the tournament commands do (:mod:`.jobs`)."""
