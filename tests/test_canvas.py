"""The page description and its backends: the SVG setupgen writes draws
the same picture in an independent renderer (cairosvg) as setupgen's own
cairo backend; PDFs are the same bytes however many worker processes lay
the pages out; the finals slip lists players by rank with a box for the
start position they choose."""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ET

import pytest
from PIL import Image, ImageChops
from typer.testing import CliRunner

from setupgen import generate
from setupgen.cli import app
from setupgen.core import layout, templates
from setupgen.core.errors import SetupgenError
from setupgen.render import batch, canvas, sheet
from setupgen.render.pdf import pages_to_pdf, svg_to_png

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("scenario,lang", [("base-3-4", "en"), ("seafarers-sm2010", "de"), ("oil-springs-5-6", "en")])
def test_svg_and_cairo_backends_draw_the_same_page(scenario, lang):
    import cairosvg

    b = generate.from_seed(scenario, "backends")
    page = sheet.render_sheet(b, layout.load(scenario), lang=lang, context=sheet.SheetContext("Cup", 2, 3))
    ours = Image.open(io.BytesIO(svg_to_png(page, 60))).convert("L")
    theirs = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=str(page).encode("utf-8"), dpi=60))).convert("L")
    assert ours.size == theirs.size
    diff = list(ImageChops.difference(ours, theirs).tobytes())
    # the same picture: pattern tiles start at other pixel phases, and
    # cairosvg centres text by its own glyph extents (fractions of a mm)
    assert sum(diff) / len(diff) < 3.5
    assert sum(1 for d in diff if d > 96) / len(diff) < 0.01


def test_svg_text_is_escaped_and_parses():
    cv = canvas.Canvas(50, 20)
    cv.text('A & B < C > "D"', 1, 10, 3, 'Family "X"', False, "start", "#000000", False, 0.0)
    root = ET.fromstring(cv.svg().encode("utf-8"))
    el = root.find(f"{SVG}text")
    assert el.text == 'A & B < C > "D"' and el.get("font-family") == 'Family "X"'
    assert cv.svg().startswith(canvas.SVG_START)


def test_measure_canvas_records_nothing():
    m = canvas.MeasureCanvas(10, 10)
    m.text("x", 0, 0, 3, "f", False, "start", "#000000", False, 0.0)
    m.rect(0, 0, 1, 1, "#000000", None, 0.0)
    m.reserve("qr", 0, 0, 1, 1)
    assert m.ops == [] and m.measuring and not canvas.Canvas(1, 1).measuring


def test_pages_are_the_same_whatever_the_worker_count(monkeypatch, tmp_path):
    """A pack big enough to use worker processes gives the same bytes
    with none, one and two workers."""
    outputs = []
    for n in ("0", "1", "2"):
        monkeypatch.setenv("SETUPGEN_WORKERS", n)
        r = CliRunner().invoke(
            app,
            [
                "round",
                "--scenario",
                "seafarers-sm2010",
                "--tables",
                str(batch.MIN_PARALLEL + 1),
                "--seed",
                "w",
                "-o",
                str(tmp_path / n),
            ],
        )
        assert r.exit_code == 0, r.output
        outputs.append({p.name: p.read_bytes() for p in (tmp_path / n).iterdir()})
    assert outputs[0] == outputs[1] == outputs[2]
    assert "key.pdf" in outputs[0]


@pytest.mark.parametrize("value", ["-1", "x", "65", "1.5", ""])
def test_bad_worker_count_is_one_clear_error(monkeypatch, tmp_path, value):
    monkeypatch.setenv("SETUPGEN_WORKERS", value)
    with pytest.raises(SetupgenError, match="SETUPGEN_WORKERS must be a whole number from 0 to 64"):
        batch.workers()
    r = CliRunner().invoke(
        app, ["round", "--scenario", "base-3-4", "--tables", "8", "--seed", "w", "-o", str(tmp_path / "p")]
    )
    assert r.exit_code == 2 and "SETUPGEN_WORKERS" in r.output and "Traceback" not in r.output
    assert not (tmp_path / "p").exists()


def test_default_worker_count_leaves_a_cpu_for_drawing(monkeypatch):
    # the machine's load is set here, not read: the count must not depend on what else runs (issue 41)
    from setupgen.core import parallel

    monkeypatch.delenv("SETUPGEN_WORKERS", raising=False)
    monkeypatch.setattr(parallel, "cpus", lambda: 4)
    monkeypatch.setattr(parallel, "load_average", lambda: 0.5)
    assert batch.workers() == 3
    monkeypatch.setattr(parallel, "load_average", lambda: None)  # a system without a load average
    assert batch.workers() == 3
    monkeypatch.setattr(parallel, "load_average", lambda: 4.0)  # no core spare
    assert batch.workers() == 0


def test_the_worker_count_test_holds_whatever_the_machines_load(monkeypatch):
    # a test of the test above: the real load average forced high or low changes nothing
    from setupgen.core import parallel

    for load in (0.0, 64.0):
        monkeypatch.setattr(parallel.os, "getloadavg", lambda load=load: (load, load, load))
        test_default_worker_count_leaves_a_cpu_for_drawing(monkeypatch)


def test_the_load_average_is_the_last_minutes(monkeypatch):
    from setupgen.core import parallel

    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (2.5, 9.0, 9.0))
    assert parallel.load_average() == 2.5

    def missing():
        raise OSError("no load average")

    monkeypatch.setattr(parallel.os, "getloadavg", missing)
    assert parallel.load_average() is None


def test_pdf_pages_follow_page_sizes():
    from pypdf import PdfReader

    a, b = canvas.Canvas(210, 297), canvas.Canvas(215.9, 279.4)
    reader = PdfReader(io.BytesIO(pages_to_pdf([a, b])))
    assert [round(float(p.mediabox[2]), 1) for p in reader.pages] == [595.3, 612.0]
    assert reader.metadata["/Creator"] == "setupgen"


def test_finals_slip_lists_rank_order_with_a_start_position_box():
    b = generate.from_seed("base-3-4", "final")
    players = ("Gina Frei · rank 1", "Ali Demir · rank 4", "Bo Lund · rank 5", "Cem Aksoy · rank 8")
    svg = sheet.render_sheet(
        b, layout.load("base-3-4"), context=sheet.SheetContext("Cup", None, 1, players, seating="choose")
    )
    root = ET.fromstring(svg.encode("utf-8"))
    words = [e.text for e in root.iter(f"{SVG}text")]
    tx = templates.texts("en")
    assert tx.get("slip.rank") in words and tx.get("slip.start") in words
    assert [w for w in words if w in players] == list(players)
    joined = " ".join(words)
    assert "in this order each chooses a start position" in joined
    assert "players in starting order" not in joined
    # one start-position box and one VP box per player row (wide boxes), plus the winner squares
    wide = [
        r
        for r in root.iter(f"{SVG}rect")
        if r.get("fill") == "#ffffff" and r.get("stroke") == "#000000" and float(r.get("width")) > 10
    ]
    assert len(wide) == 2 * len(players)
    with pytest.raises(SetupgenError, match="unknown seating"):
        sheet.render_sheet(b, layout.load("base-3-4"), context=sheet.SheetContext(seating="random"))


def test_round_seed_leaves_room_for_the_table_suffix(tmp_path):
    r = CliRunner().invoke(app, ["round", "--tables", "12", "--seed", "s" * 197, "-o", str(tmp_path / "p")])
    assert r.exit_code == 2 and "at most 196" in r.output  # "/t12" follows it on each table
    r = CliRunner().invoke(app, ["round", "--tables", "12", "--seed", "s" * 196, "-o", str(tmp_path / "p")])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize(
    "cpus,load,expected", [(1, 0.0, 0), (2, 0.5, 1), (2, 2.0, 0), (2, 1.99, 1), (8, 9.0, 0), (8, 3.0, 7)]
)
def test_no_worker_without_a_spare_core(monkeypatch, cpus, load, expected):
    """One CPU, or a load average at least the CPUs' count: no worker
    process (it would only add its start to the same CPU time); else one
    less than the CPUs (the caller draws the PDF). SETUPGEN_WORKERS wins."""
    from setupgen.core import parallel

    monkeypatch.delenv("SETUPGEN_WORKERS", raising=False)
    monkeypatch.setattr(parallel, "cpus", lambda: cpus)
    monkeypatch.setattr(parallel, "load_average", lambda: load)
    assert batch.workers() == expected
    assert parallel.workers() == (cpus if expected else 0)
    monkeypatch.setenv("SETUPGEN_WORKERS", "3")
    assert batch.workers() == parallel.workers() == 3


def test_a_small_pack_forks_no_worker(monkeypatch):
    """Below MIN_PARALLEL pages the pages are laid out in this process,
    whatever the CPUs (a worker's start costs more than it saves)."""
    from setupgen.core import parallel

    monkeypatch.delenv("SETUPGEN_WORKERS", raising=False)
    monkeypatch.setattr(parallel, "cpus", lambda: 8)
    monkeypatch.setattr(parallel, "load_average", lambda: 0.0)
    jobs = list(range(batch.MIN_PARALLEL - 1))
    laid_out = batch._map(lambda _common, j: j * 2, None, jobs)
    assert not isinstance(laid_out, parallel.Pooled) and list(laid_out) == [j * 2 for j in jobs]
    assert batch.Background(lambda j: j + 1, 41, size=batch.MIN_PARALLEL - 1).result() == 42


def test_a_data_file_is_parsed_once_and_again_when_edited(tmp_path):
    from setupgen.core import data

    f = tmp_path / "rules.toml"
    f.write_text("a = 1\n", encoding="utf-8")
    first = data.read_data_toml(f)
    assert first == {"a": 1} and data.read_data_toml(f) is first  # parsed once

    f.write_text("a = 22\n", encoding="utf-8")
    os.utime(f, ns=(os.stat(f).st_atime_ns, os.stat(f).st_mtime_ns + 1_000_000_000))
    assert data.read_data_toml(f) == {"a": 22}  # edited: read again
    f.write_text("a = [\n", encoding="utf-8")
    os.utime(f, ns=(os.stat(f).st_atime_ns, os.stat(f).st_mtime_ns + 2_000_000_000))
    with pytest.raises(SetupgenError, match="rules.toml"):
        data.read_data_toml(f)
