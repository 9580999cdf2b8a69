"""The almanac on the command line (issue 11, point 5): ``--rules``,
``--variant`` and ``--almanac/--no-almanac`` on ``board`` and ``round``;
a PDF gets the almanac as page 2, SVG and PNG a second file; one table of
a tournament reprinted alone equals its page pair in the round pack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sheetsvg as S
from cli_helpers import error_line, run
from pypdf import PdfReader
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
SWISS = ROOT / "examples" / "swiss-2010" / "tournament.toml"


@pytest.fixture()
def runner():
    return CliRunner()


def test_board_pdf_has_the_almanac_as_page_two(runner, tmp_path):
    res = run(
        runner, "board", "--seed", "al", "--rules", "swiss-2010", "--variant", "fishermen", "-o", tmp_path / "b.pdf"
    )
    assert res.exit_code == 0, res.output
    pages = [p.extract_text() for p in PdfReader(str(tmp_path / "b.pdf")).pages]
    assert len(pages) == 2 and "Build list" in pages[0]
    assert "House rules: Swiss Championship 2010" in pages[1] and "Fishermen of Catan 2" in pages[1]
    assert "4 × fishing-ship marker" in pages[1]  # no players named: a full table of 4
    res = run(runner, "board", "--seed", "al", "--no-almanac", "-o", tmp_path / "c.pdf")
    assert res.exit_code == 0 and len(PdfReader(str(tmp_path / "c.pdf")).pages) == 1


def test_board_svg_and_png_get_a_second_file(runner, tmp_path):
    res = run(runner, "board", "--seed", "al", "-o", tmp_path / "b.svg")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b-almanac.svg", "b.svg"]
    assert "and " + str(tmp_path / "b-almanac.svg") in res.stderr
    assert "Almanac" in (tmp_path / "b-almanac.svg").read_text()
    assert "House rules" in (tmp_path / "b-almanac.svg").read_text()  # preset none: the win line only
    res = run(runner, "board", "--seed", "al", "-o", tmp_path / "p.png")
    assert res.exit_code == 0
    assert (tmp_path / "p-almanac.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the almanac's file belongs to someone else: nothing is written
    (tmp_path / "d-almanac.svg").write_text("mine")
    assert "setupgen did not write" in error_line(run(runner, "board", "--seed", "al", "-o", tmp_path / "d.svg"))
    assert not (tmp_path / "d.svg").exists() and (tmp_path / "d-almanac.svg").read_text() == "mine"


def test_board_to_stdout_says_where_the_almanac_went(runner):
    res = run(runner, "board", "--seed", "al", "--format", "svg", "-o", "-")
    assert res.exit_code == 0 and res.stdout.startswith("<?xml")
    assert "not written to standard output" in res.stderr
    res = run(runner, "board", "--seed", "al", "--format", "svg", "--no-almanac", "-o", "-")
    assert res.exit_code == 0 and res.stderr == ""


@pytest.mark.parametrize(
    "args, fragment",
    [
        (
            ["--rules", "swiss-2011"],
            "error: --rules: unknown rule preset 'swiss-2011' (known: australian-2006, none, swiss-2010)",
        ),
        (["--variant", "pirates"], "error: --variant: unknown variant 'pirates' (known: fishermen)"),
        (["--rules", "swiss-2010", "--no-almanac"], "print on the almanac page; drop --no-almanac"),
        (["--rules", "swiss-2010", "--format", "json"], "board json has none"),
        (["--variant", "fishermen", "--key"], "the director's key has none"),
    ],
)
def test_board_almanac_option_errors(runner, tmp_path, args, fragment):
    line = error_line(
        run(
            runner,
            "board",
            "--seed",
            "al",
            *args,
            "-o",
            tmp_path / "x.pdf" if "json" not in args else tmp_path / "x.json",
        )
    )
    assert fragment in line
    assert list(tmp_path.iterdir()) == []


def test_round_quick_form_takes_rules_and_variant(runner, tmp_path):
    out = tmp_path / "r"
    res = run(
        runner,
        "round",
        "--scenario",
        "seafarers-sm2010",
        "--tables",
        "2",
        "--seed",
        "q",
        "--rules",
        "australian-2006",
        "--variant",
        "fishermen",
        "-o",
        out,
    )
    assert res.exit_code == 0, res.output
    assert "sheet and almanac each" in res.stderr and "print duplex" in res.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["almanac"] == {
        "preset": "australian-2006",
        "final": False,
        "drop": [],
        "add": [],
        "variant": "fishermen",
    }
    back = " ".join(t.text for t in S.parse((out / manifest["boards"][1]["almanac"]).read_text())[1])
    assert "Australian Championship 2006" in back and "(with Seafarers)" in back
    res = run(runner, "round", SWISS, "--round", "1", "--rules", "none", "-o", tmp_path / "t")
    assert "not both (--rules)" in error_line(res)


def test_one_table_reprinted_equals_its_pages_in_the_pack(runner, tmp_path):
    """``board --tournament T --round 3 --table 5`` gives the very sheet and
    almanac of table 5 in round 3's pack (players, threshold, rules, language)."""
    folder = tmp_path / "sm"
    assert run(runner, "round", SWISS, "--round", "3", "-o", folder).exit_code == 0
    res = run(runner, "board", "--tournament", SWISS, "--round", "3", "--table", "5", "-o", tmp_path / "t5.svg")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "t5.svg").read_bytes() == (folder / "round-3" / "table-05.svg").read_bytes()
    assert (tmp_path / "t5-almanac.svg").read_bytes() == (folder / "round-3" / "table-05-almanac.svg").read_bytes()
    assert "Zum Sieg: 12 Siegpunkte" in (tmp_path / "t5-almanac.svg").read_text()
    res = run(
        runner, "board", "--tournament", SWISS, "--round", "3", "--table", "5", "--lang", "en", "-o", tmp_path / "x.svg"
    )
    assert "drop --lang" in error_line(res)
