"""Table sheets, director's page, PDF and PNG output.

Units: the SVG's user unit is 1 mm, so every ``font-size`` is in mm and
8 pt = 8 * 25.4 / 72 = 2.822 mm is the floor.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from sheetsvg import text_boxes

from setupgen import generate
from setupgen.core import layout, templates
from setupgen.core.errors import SetupgenError
from setupgen.render import director, sheet
from setupgen.render.pdf import svg_to_png, svgs_to_pdf

SVG = "{http://www.w3.org/2000/svg}"
MIN_FONT_MM = 8 * 25.4 / 72
ROOT = Path(__file__).resolve().parent.parent


def board_of(scenario: str = "base-3-4", seed: str = "demo", **kw):
    return generate.from_seed(scenario, seed, **kw), layout.load(scenario)


def texts_of(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def tokens_of(svg: str) -> list[ET.Element]:
    """The number text of every number token (a ``mark token`` group)."""
    root = ET.fromstring(svg.encode("utf-8"))
    return [g.find(f"{SVG}text") for g in root.iter(f"{SVG}g") if g.get("class") == "mark token"]


def token_discs(svg: str) -> list[ET.Element]:
    """The disc of every number token."""
    root = ET.fromstring(svg.encode("utf-8"))
    return [g.find(f"{SVG}circle") for g in root.iter(f"{SVG}g") if g.get("class") == "mark token"]


def joined_text(svg: str) -> str:
    return " ".join(texts_of(svg))


@pytest.fixture(scope="module")
def base():
    b, lay = board_of()
    ctx = sheet.SheetContext("Swiss Open", 2, 7, ("Ann", "Ben", "Cid", "Dot"))
    return b, lay, sheet.render_sheet(b, lay, context=ctx)


def test_svg_page_is_a4_in_mm(base):
    root = ET.fromstring(base[2].encode("utf-8"))
    assert root.get("width") == "210.00mm" and root.get("height") == "297.00mm"
    assert root.get("viewBox") == "0 0 210.00 297.00"


def test_letter_paper():
    b, lay = board_of()
    root = ET.fromstring(sheet.render_sheet(b, lay, paper="letter").encode("utf-8"))
    assert root.get("width") == "215.90mm" and root.get("height") == "279.40mm"


def test_every_land_hex_label_and_number(base):
    b, _, svg = base
    words = texts_of(svg)
    tx = templates.texts("en")
    land = [t for t in b.tiles if t.kind == "land"]
    assert len(land) == 19
    for t in land:
        assert tx.get(f"label.{t.terrain}") in words
    labels = [w for w in words if w in ("FOR", "PAS", "FLD", "HIL", "MTN", "DES")]
    assert len(labels) == 19 + 6  # the hexes plus the legend
    board_numbers = sorted(int(e.text) for e in tokens_of(svg))  # the legend's samples sit in its entries
    expected = sorted([t.number for t in land if t.number is not None])
    assert board_numbers == expected


def test_setup_id_seed_and_context(base):
    b, _, svg = base
    words = texts_of(svg)
    assert b.setup_id in words and "demo" in words
    assert "Swiss Open · Round 2" in words and "Table" in words and "7" in words
    assert ["Ann", "Ben", "Cid", "Dot"] == [w for w in words if w in ("Ann", "Ben", "Cid", "Dot")]
    assert "Base game, 3-4 players" in words
    assert "Victory points to win: 10" in joined_text(svg)  # may wrap in the side column


def test_seed_none_shows_only_setup_id():
    b, lay = board_of()
    b = dataclasses.replace(b, seed=None)
    words = texts_of(sheet.render_sheet(b, lay))
    assert b.setup_id in words
    assert "Seed:" not in words


# rows of the build list with their indents in hex widths, worked out by
# hand: the base boards are hexagons of sea around the land, so the middle
# row starts at the edge and each row above or below half a hex further in
@pytest.mark.parametrize(
    "scenario,indents",
    [
        ("base-3-4", ["1½", "1", "½", "0", "½", "1", "1½"]),
        ("base-5-6", ["2", "1½", "1", "½", "0", "½", "1", "1½", "2"]),
        ("cities-knights", ["1½", "1", "½", "0", "½", "1", "1½"]),
    ],
)
def test_build_list_has_one_line_per_row_with_its_indent(scenario, indents):
    b, lay = board_of(scenario)
    words = texts_of(sheet.render_sheet(b, lay))
    assert [w for w in words if w.startswith("Row ")] == [f"Row {i} (+{x})" for i, x in enumerate(indents, start=1)]
    tx = templates.texts("en")
    land = [t for t in b.tiles if t.kind == "land"]
    # every land hex appears as its terrain word, in reading order
    land_words = {tx.get(f"terrain.{t}") for t in ("forest", "pasture", "fields", "hills", "mountains", "desert")}
    terrain_words = [w.rstrip(",") for w in words if w.rstrip(",") in land_words]
    legend = [tx.get(f"terrain.{t}") for t in ("forest", "pasture", "fields", "hills", "mountains", "desert")]
    assert terrain_words[:6] == legend
    assert terrain_words[6:] == [tx.get(f"terrain.{t.terrain}") for t in land]


def test_six_and_eight_are_inverted(base):
    """6 and 8: a solid black disc (#000: nothing to dither in 1-bit
    print) in a thin red ring, with white bold digits on the board; white
    bold digits on a black box in the build list (so they get darker in
    grayscale, not lighter)."""
    st = templates.style()
    svg = base[2]
    toks, discs = tokens_of(svg), token_discs(svg)
    reds = [(e, d) for e, d in zip(toks, discs) if e.text in ("6", "8")]
    assert len(reds) == 4  # two 6s, two 8s on the board
    for e, d in zip(toks, discs):
        if e.text in ("6", "8"):
            assert e.get("fill") == "#ffffff" and e.get("font-weight") == "bold"
            assert d.get("fill") == "#000000" and d.get("stroke") == st.colour["red"]
            assert 0.3 <= float(d.get("stroke-width")) <= 0.6
        else:
            assert e.get("fill") == st.colour["ink"] and d.get("fill") == st.fill["token"]
    root = ET.fromstring(svg.encode("utf-8"))
    els = list(root)
    build = [
        b
        for a, b in zip(els, els[1:])
        if a.tag == f"{SVG}rect"
        and a.get("fill") == st.colour["ink"]
        and b.tag == f"{SVG}text"
        and b.text in ("6", "8")
    ]
    assert len(build) == 4 and all(b.get("fill") == "#ffffff" and b.get("font-weight") == "bold" for b in build)


def test_german_text():
    b, lay = board_of("cities-knights", harbors="players")
    svg = sheet.render_sheet(b, lay, lang="de")
    words = texts_of(svg)
    for w in ("Aufbauliste", "Hinweise", "Ergebnis", "Städte & Ritter", "Zu legende Häfen", "Räuber", "Unterschrift"):
        assert w in words
    assert "Siegpunkte zum Sieg: 13" in " ".join(words)  # may wrap in the side column
    assert {"WAL", "WEI", "ACK", "HÜG", "GEB", "WÜS"} <= set(words)
    assert "Build list" not in words and "FOR" not in words
    joined = " ".join(words)
    assert "Barbaren" in joined and "4, 3, 2, 1" in joined


def test_hidden_hexes_reveal_nothing():
    b, lay = board_of()
    tiles = tuple(dataclasses.replace(t, hidden=True) if t.terrain == "hills" else t for t in b.tiles)
    hidden = dataclasses.replace(b, tiles=tiles)
    svg = sheet.render_sheet(hidden, lay)
    st = templates.style()
    assert "HIL" not in svg and "Hills" not in svg and "hills" not in svg.lower()
    assert st.fill["hills"] not in svg  # not even the colour
    assert "<title" not in svg
    assert set(re.findall(r' id="([^"]*)"', svg)) <= {
        f"pattern-{t}" for t in ("forest", "pasture", "fields", "mountains", "desert", "gold")
    }
    assert "hex hidden" in svg
    words = texts_of(svg)
    assert words.count("?") == 3 + 3 + 1  # on the board, in the build list, in the legend
    hidden_numbers = sorted(t.number for t in tiles if t.hidden)
    assert sorted(int(e.text) for e in tokens_of(svg)) == sorted([t.number for t in tiles if t.number is not None])
    assert all(n is not None for n in hidden_numbers)


def test_oil_spring_and_pirate_are_marked():
    b, lay = board_of()
    first_pasture = next(t.hex for t in b.tiles if t.terrain == "pasture")
    tiles = tuple(dataclasses.replace(t, oil_spring=True) if t.hex == first_pasture else t for t in b.tiles)
    words = texts_of(sheet.render_sheet(dataclasses.replace(b, tiles=tiles, pirate=(0, -3)), lay))
    assert "Oil spring" in words and "Pirate" in words
    assert any(w.rstrip(",").endswith("+ oil") for w in words)


def test_harbors_drawn_and_listed(base):
    b, _, svg = base
    root = ET.fromstring(svg.encode("utf-8"))
    groups = [g for g in root.iter(f"{SVG}g")]
    words_on_board = [
        " ".join(t.text for t in g.iter(f"{SVG}text")) for g in groups if g.get("class") == "mark harbor-words"
    ]
    tx = templates.texts("en")
    # each label starts with its harbor's number, the number of the marker in its hex
    markers = {int(g.find(f"{SVG}text").text): g for g in groups if g.get("class") == "mark harbor"}
    assert sorted(markers) == list(range(1, 10))
    numbered = {int(m[1]): m[2] for m in (re.fullmatch(r"(\d+)(?: · | )(.*)", w) for w in words_on_board)}
    assert sorted(numbered) == list(range(1, 10))
    expected = sorted("3:1" if h.type == "3:1" else f"2:1 {tx.get(f'resource.{h.type}')}" for h in b.harbors)
    assert sorted(numbered.values()) == expected
    words = texts_of(svg)
    lines = [w for w in words if re.fullmatch(r"[23]:1( \w+)?\u2002\d+·\d+ → \d+·\d+", w)]
    assert len(lines) == 9


def test_players_harbors_note_and_pool():
    b, lay = board_of("base-3-4", harbors="players")
    words = texts_of(sheet.render_sheet(b, lay))
    assert "Harbors to lay" in words and "4 ×" in words
    joined = " ".join(words)
    assert "players 4, 3, 2, 1" in joined and "one harbor per sea hex" in joined


def test_spiral_equal_neighbours_note():
    b, lay = board_of("base-5-6", "s9", numbers="spiral")
    pairs = sheet.equal_neighbours(b)
    assert pairs  # this seed leaves two equal numbers side by side
    joined = " ".join(texts_of(sheet.render_sheet(b, lay)))
    # rows count from the top sea row: the first land row is row 2
    assert "Equal numbers touch: two 11s (row 2), two 12s (row 6)." in joined
    b2, _ = board_of("base-5-6", "s0")
    assert not sheet.equal_neighbours(b2)
    assert "Equal numbers" not in " ".join(texts_of(sheet.render_sheet(b2, lay)))


def test_blank_result_slip_lines():
    for scenario, n in (("base-3-4", 4), ("base-5-6", 6)):
        b, lay = board_of(scenario)
        words = texts_of(sheet.render_sheet(b, lay))
        start = words.index("Signature")
        assert words[start + 1 : start + 1 + n] == [str(i) for i in range(1, n + 1)]


def test_no_font_below_8pt_and_text_inside_margins():
    cases = [board_of(), board_of("base-5-6", "s0", numbers="spiral"), board_of("cities-knights", harbors="players")]
    long_ctx = sheet.SheetContext("T" * 200, 3, 12345, ("x" * 100,) * 6)
    for b, lay in cases:
        for paper in ("a4", "letter"):
            for lang in ("en", "de"):
                svg = sheet.render_sheet(b, lay, lang=lang, paper=paper, context=long_ctx)
                root = ET.fromstring(svg.encode("utf-8"))
                w, h = templates.paper_size(paper)
                for el in root.iter(f"{SVG}text"):
                    assert float(el.get("font-size")) >= MIN_FONT_MM, el.text
                    assert 10 <= float(el.get("x")) <= w - 10
                    assert 10 <= float(el.get("y")) <= h - 10


def test_same_board_same_bytes(base):
    b, lay, svg = base
    ctx = sheet.SheetContext("Swiss Open", 2, 7, ("Ann", "Ben", "Cid", "Dot"))
    assert sheet.render_sheet(b, lay, context=ctx) == svg
    assert all(i.startswith("pattern-") for i in re.findall(r' id="([^"]*)"', svg))  # named, never numbered


def test_same_bytes_across_hash_seeds():
    code = (
        "import hashlib, setupgen; "
        "b = setupgen.from_seed('base-5-6', 'x', harbors='free'); "
        "print(hashlib.sha256(setupgen.render_sheet(b, setupgen.load_layout('base-5-6'), lang='de').encode()).hexdigest())"
    )
    out = set()
    for hs in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=hs)
        r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        out.add(r.stdout.strip())
    assert len(out) == 1


def test_unknown_language_and_paper():
    b, lay = board_of()
    with pytest.raises(SetupgenError, match=r"unknown language 'fr' \(known: de, de-CH, en\)"):
        sheet.render_sheet(b, lay, lang="fr")
    with pytest.raises(SetupgenError, match=r"unknown paper 'a3' \(known: a4, letter\)"):
        sheet.render_sheet(b, lay, paper="a3")
    with pytest.raises(SetupgenError, match="unknown language"):
        director.render_director_page([], title=None, lang="xx")
    with pytest.raises(SetupgenError, match="unknown paper"):
        director.render_director_page([], title=None, paper="legal")


def test_unknown_note_key_is_an_error():
    b, lay = board_of()
    odd = dataclasses.replace(lay, notes=("no-such-note",))
    with pytest.raises(SetupgenError, match="no note 'no-such-note'"):
        sheet.render_sheet(b, odd)


# the director's page: tests/test_director.py


def test_pdf_is_deterministic_and_has_one_page_per_svg(base):
    from pypdf import PdfReader

    b, lay, svg = base
    front = director.render_director_page([director.DirectorRow(7, b.scenario, b.setup_id, b.seed)], title="Swiss Open")
    b2, lay2 = board_of("base-5-6", "other")
    pages = [front, svg, sheet.render_sheet(b2, lay2, lang="de")]
    one = svgs_to_pdf(pages)
    two = svgs_to_pdf(pages)
    assert one == two
    reader = PdfReader(io.BytesIO(one))
    assert len(reader.pages) == 3
    assert reader.metadata["/CreationDate"] in ("D:20000101000000Z", "20000101000000Z")  # cairo writes it without D:
    assert reader.metadata["/Creator"] == "setupgen"
    assert b.setup_id in reader.pages[1].extract_text()
    assert [round(float(x)) for x in reader.pages[1].mediabox[2:]] == [595, 842]


def test_pdf_same_bytes_in_a_fresh_process():
    code = (
        "import hashlib, setupgen; "
        "b = setupgen.from_seed('base-3-4', 'p'); "
        "print(hashlib.sha256(setupgen.svgs_to_pdf([setupgen.render_sheet(b, setupgen.load_layout('base-3-4'))])).hexdigest())"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(2)
    }
    assert len(runs) == 1


def test_pdf_errors():
    with pytest.raises(SetupgenError, match="no pages"):
        svgs_to_pdf([])
    with pytest.raises(SetupgenError) as err:
        svgs_to_pdf(["<svg this is not xml"])
    assert "\n" not in str(err.value) and str(err.value) == str(err.value).lower()


def test_png(base):
    png = svg_to_png(base[2], dpi=30)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SetupgenError):
        svg_to_png(base[2], dpi=0)


def test_templates_are_lazy_and_complete():
    code = (
        "import sys, setupgen.render.sheet, setupgen.render.pdf, setupgen.core.templates as t; "
        "print([m in sys.modules for m in ('cairosvg', 'pypdf', 'svgwrite', 'shapely')], t._TEXTS, t._STYLE)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[False, False, False, False] {} []"
    en, de = templates.texts("en"), templates.texts("de")

    def keys(d, prefix=""):
        out = set()
        for k, v in d.items():
            out |= keys(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k}
        return out

    assert keys(dict(en.data)) == keys(dict(de.data))
    for name in layout.scenario_names():
        lay = layout.load(name)
        assert en.has(f"scenario.{name}") and de.has(f"scenario.{name}")
        for key in lay.notes:
            assert en.has(f"note.{key}") and de.has(f"note.{key}")


@pytest.mark.parametrize(
    "scenario,kw,paper,lang",
    [
        ("base-3-4", {}, "a4", "en"),
        ("base-5-6", {"harbors": "free"}, "letter", "de"),
        ("base-5-6", {"numbers": "spiral", "harbors": "players"}, "letter", "de"),
        ("cities-knights", {"harbors": "players"}, "a4", "de"),
    ],
)
def test_no_two_texts_overlap(scenario, kw, paper, lang):
    ctx = sheet.SheetContext(
        "Swiss Open 2010", 3, 14, ("Anna", "Ben", "Cid", "Dora", "Eve", "Finn")[: 6 if "5-6" in scenario else 4]
    )
    for seed in ("a", "b", "s0"):
        b, lay = board_of(scenario, seed, **kw)
        boxes = text_boxes(sheet.render_sheet(b, lay, lang=lang, paper=paper, context=ctx))
        for i, p in enumerate(boxes):
            for q in boxes[i + 1 :]:
                clash = p[0] < q[2] - 0.05 and q[0] < p[2] - 0.05 and p[1] < q[3] - 0.05 and q[1] < p[3] - 0.05
                assert not clash, (p, q)


def test_too_many_players():
    b, lay = board_of()
    with pytest.raises(SetupgenError, match="at most 6 players, got 7"):
        sheet.render_sheet(b, lay, context=sheet.SheetContext(players=tuple("ABCDEFG")))
