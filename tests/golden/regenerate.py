"""Rewrite the golden files. Run only after a deliberate change of the
random stream, the board format or the sheet:

    python tests/golden/regenerate.py

and say in the commit why the pinned boards changed (every board printed
before the change can no longer be regenerated from its seed)."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

CASES = [
    # (file stem, scenario, seed, numbers, harbors, lang)
    ("base-3-4-demo", "base-3-4", "demo", None, None, "en"),
    ("base-5-6-club", "base-5-6", "club/r2/t7", "uniform", "free", "en"),
    ("cities-knights-final", "cities-knights", "final", "spiral", "players", "de"),
]

#: almanac pages: (file stem, scenario, seed, lang, preset, final, variant)
ALMANAC_CASES = [
    ("seafarers-sm2010-almanac", "seafarers-sm2010", "sm2010/r3/t1", "de-CH", "swiss-2010", False, "fishermen"),
    ("cities-knights-final-almanac", "cities-knights", "final", "en", "swiss-2010", True, None),
]


def render_almanac(stem, scenario, seed, lang, preset, final, variant):
    from setupgen import generate
    from setupgen.core import layout
    from setupgen.core.almanac import AlmanacRequest
    from setupgen.render import almanac

    board = generate.from_seed(scenario, seed)
    return almanac.render_almanac(
        board, layout.load(scenario), lang=lang, request=AlmanacRequest(preset, final, variant=variant)
    )


def render(stem, scenario, seed, numbers, harbors, lang):
    from setupgen import generate
    from setupgen.core import layout
    from setupgen.render import sheet

    board = generate.from_seed(scenario, seed, numbers, harbors)
    svg = sheet.render_sheet(board, layout.load(scenario), lang=lang)
    return board.to_json() + "\n", svg


if __name__ == "__main__":
    for case in CASES:
        js, svg = render(*case)
        (HERE / f"{case[0]}.json").write_text(js, encoding="utf-8", newline="\n")
        (HERE / f"{case[0]}.svg").write_text(svg, encoding="utf-8", newline="\n")
        print("wrote", case[0])
    for case in ALMANAC_CASES:
        (HERE / f"{case[0]}.svg").write_text(render_almanac(*case), encoding="utf-8", newline="\n")
        print("wrote", case[0])
