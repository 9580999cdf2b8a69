"""scripts/check_quotes.py (issue 43): a quote stands verbatim in its seed,
a gap only where marked, and in the numbered item its source names."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("check_quotes", ROOT / "scripts" / "check_quotes.py")
cq = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cq)

SEED = cq.squeeze("""Additional & Supplementary Rules:
  1. The turn of a player starts with throwing the dice.
  2. Dice must be rolled inside
     the box lid.
  3. It is not permitted to build a road beyond a settlement.""")


def test_a_quote_is_found_whitespace_aside_and_gaps_only_where_marked():
    assert cq.found("Dice must be rolled inside the box lid.", SEED)
    assert cq.found("Dice must be … the box lid", SEED)
    assert not cq.found("Dice must be rolled in the box lid", SEED)  # a word dropped
    assert not cq.found("the box lid … Dice must be", SEED)  # parts out of order
    assert cq.found("„road“", cq.squeeze('a "road"'))


def test_a_numbered_source_must_hold_its_quote():
    assert cq.wrong_item("additional rule 2", "Dice must be rolled", SEED) is None
    assert cq.wrong_item("additional rule 3", "Dice must be rolled", SEED) == "2"
    assert cq.wrong_item("Allgemeine Regeln", "Dice must be rolled", SEED) is None  # not a numbered part


def test_the_script_wants_the_seeds_folder(tmp_path, capsys):
    assert cq.main(["check_quotes.py"]) == 2
    try:
        cq.main(["check_quotes.py", str(tmp_path)])
    except SystemExit as exc:
        assert exc.code == 2
    assert "no seed texts" in capsys.readouterr().err
