"""Reproducibility: pinned seeds give byte-identical board JSON and sheet
SVG on every machine and Python version (docs/format.md)."""

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent / "golden"
spec = importlib.util.spec_from_file_location("golden_regenerate", HERE / "regenerate.py")
regen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(regen)


@pytest.mark.parametrize("case", regen.CASES, ids=[c[0] for c in regen.CASES])
def test_golden_json_and_svg_bytes(case):
    js, svg = regen.render(*case)
    assert js.encode("utf-8") == (HERE / f"{case[0]}.json").read_bytes()
    assert svg.encode("utf-8") == (HERE / f"{case[0]}.svg").read_bytes()


@pytest.mark.parametrize("case", regen.ALMANAC_CASES, ids=[c[0] for c in regen.ALMANAC_CASES])
def test_golden_almanac_bytes(case):
    assert regen.render_almanac(*case).encode("utf-8") == (HERE / f"{case[0]}.svg").read_bytes()


def test_golden_board_regenerates_from_its_setup_id():
    from setupgen import generate
    from setupgen.core.board import Board

    pinned = Board.from_json((HERE / "base-5-6-club.json").read_text())
    again = generate.from_setup_id(pinned.setup_id)
    assert again.tiles == pinned.tiles and again.harbors == pinned.harbors


def test_pdf_is_byte_identical_across_runs():
    """Two processes (another hash seed, fresh caches) make the same PDF
    bytes of the golden sheet: no time stamp, no random id, no dict order."""
    import hashlib
    import os
    import subprocess
    import sys

    code = (
        "import hashlib, sys; from setupgen.render import pdf; svg = open(sys.argv[1]).read(); "
        "print(hashlib.sha256(pdf.svgs_to_pdf([svg, svg])).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code, str(HERE / "base-3-4-demo.svg")],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout.strip()
        for seed in (1, 2)
    }
    from setupgen.render import pdf

    svg = (HERE / "base-3-4-demo.svg").read_text()
    assert digests == {hashlib.sha256(pdf.svgs_to_pdf([svg, svg])).hexdigest()}
