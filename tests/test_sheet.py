"""Table sheets, director's page, PDF and PNG output.

Units: the SVG's user unit is 1 mm, so every ``font-size`` is in mm and
8 pt = 8 * 25.4 / 72 = 2.822 mm is the floor.
"""

from __future__ import annotations

import dataclasses
import io
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from setupgen.render import director

from setupgen import generate

from setupgen.core import layout

from setupgen.render import sheet

from setupgen.core import templates
from setupgen.core.errors import SetupgenError
from setupgen.render.pdf import svg_to_png, svgs_to_pdf
from setupgen.render.page import text_width

SVG = "{http://www.w3.org/2000/svg}"
MIN_FONT_MM = 8 * 25.4 / 72
ROOT = Path(__file__).resolve().parent.parent


def board_of(scenario: str = "base-3-4", seed: str = "demo", **kw):
    return generate.from_seed(scenario, seed, **kw), layout.load(scenario)


def texts_of(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def tokens_of(svg: str) -> list[ET.Element]:
    """The number text of every token disc (the element right after a disc
    filled with the token colour)."""
    token_fill = templates.style().fill["token"]
    root = ET.fromstring(svg.encode("utf-8"))
    els = list(root.iter())
    out = []
    for a, b in zip(els, els[1:]):
        if a.tag == f"{SVG}circle" and a.get("fill") == token_fill and b.tag == f"{SVG}text":
            out.append(b)
    return out


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
    board_numbers = sorted(int(e.text) for e in tokens_of(svg))
    expected = sorted([t.number for t in land if t.number is not None] + [5, 8])  # legend samples
    assert board_numbers == expected


def test_setup_id_seed_and_context(base):
    b, _, svg = base
    words = texts_of(svg)
    assert b.setup_id in words and "demo" in words
    assert "Swiss Open · Round 2" in words and "Table" in words and "7" in words
    assert ["Ann", "Ben", "Cid", "Dot"] == [w for w in words if w in ("Ann", "Ben", "Cid", "Dot")]
    assert "Base game, 3-4 players" in words
    assert "Victory points to win: 10" in words


def test_seed_none_shows_only_setup_id():
    b, lay = board_of()
    b = dataclasses.replace(b, seed=None)
    words = texts_of(sheet.render_sheet(b, lay))
    assert b.setup_id in words
    assert "Seed:" not in words


@pytest.mark.parametrize("scenario,rows", [("base-3-4", 5), ("base-5-6", 7), ("cities-knights", 5)])
def test_build_list_has_one_line_per_land_row(scenario, rows):
    b, lay = board_of(scenario)
    words = texts_of(sheet.render_sheet(b, lay))
    assert [w for w in words if w.startswith("Row ")] == [f"Row {i}" for i in range(1, rows + 1)]
    tx = templates.texts("en")
    land = [t for t in b.tiles if t.kind == "land"]
    # every hex appears as its terrain word, in reading order
    terrain_words = [w for w in words if w in {tx.get(f"terrain.{t}") for t in templates.style().fill if tx.has(f"terrain.{t}")}]
    legend = [tx.get(f"terrain.{t}") for t in ("forest", "pasture", "fields", "hills", "mountains", "desert")]
    assert terrain_words[:6] == legend
    assert terrain_words[6:] == [tx.get(f"terrain.{t.terrain}") for t in land]


def test_six_and_eight_are_red_and_bold(base):
    red = templates.style().colour["red"]
    toks = tokens_of(base[2])
    reds = [e for e in toks if e.text in ("6", "8")]
    assert len(reds) == 5  # two 6s, two 8s on the board, the legend's 8
    for e in toks:
        if e.text in ("6", "8"):
            assert e.get("fill") == red and e.get("font-weight") == "bold"
        else:
            assert e.get("fill") != red and e.get("font-weight") is None
    # the build list prints them red and bold too
    root = ET.fromstring(base[2].encode("utf-8"))
    build_reds = [e for e in root.iter(f"{SVG}text") if e.text in ("6", "8") and e.get("fill") == red]
    assert len(build_reds) >= 9


def test_german_text():
    b, lay = board_of("cities-knights", harbors="players")
    svg = sheet.render_sheet(b, lay, lang="de")
    words = texts_of(svg)
    for w in ("Aufbauliste", "Hinweise", "Ergebnis", "Städte & Ritter", "Siegpunkte zum Sieg: 13",
              "Zu legende Häfen", "Räuber", "Unterschrift"):
        assert w in words
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
    assert " id=" not in svg and "class=" not in svg and "<title" not in svg
    words = texts_of(svg)
    assert words.count("?") == 3 + 3 + 1  # on the board, in the build list, in the legend
    hidden_numbers = sorted(t.number for t in tiles if t.hidden)
    assert sorted(int(e.text) for e in tokens_of(svg)) == sorted(
        [t.number for t in tiles if t.number is not None] + [5, 8])
    assert all(n is not None for n in hidden_numbers)


def test_oil_spring_and_pirate_are_marked():
    b, lay = board_of()
    first_pasture = next(t.hex for t in b.tiles if t.terrain == "pasture")
    tiles = tuple(dataclasses.replace(t, oil_spring=True) if t.hex == first_pasture else t for t in b.tiles)
    words = texts_of(sheet.render_sheet(dataclasses.replace(b, tiles=tiles, pirate=(0, -3)), lay))
    assert "Oil spring" in words and "Pirate" in words
    assert any(w.endswith("+ oil") for w in words)


def test_harbors_listed_and_numbered(base):
    b, _, svg = base
    words = texts_of(svg)
    assert words.count("2:1") == 5  # on the board
    assert words.count("3:1") == 8  # on the board and in the list
    listed = [w for w in words if w.startswith("2:1 ")]
    assert sorted(listed) == sorted(f"2:1 {h.type}" for h in b.harbors if h.type != "3:1")
    for n in range(1, 10):
        assert str(n) in words


def test_players_harbors_note_and_pool():
    b, lay = board_of("base-3-4", harbors="players")
    words = texts_of(sheet.render_sheet(b, lay))
    assert "Harbors to lay" in words and "4 ×" in words
    joined = " ".join(words)
    assert "Players 4, 3, 2, 1" in joined and "one harbor per sea hex" in joined


def test_spiral_equal_neighbours_note():
    b, lay = board_of("base-5-6", "s9", numbers="spiral")
    pairs = sheet.equal_neighbours(b)
    assert pairs  # this seed leaves two equal numbers side by side
    joined = " ".join(texts_of(sheet.render_sheet(b, lay)))
    assert "Equal numbers touch: two 11s (row 1), two 12s (row 5)." in joined
    b2, _ = board_of("base-5-6", "s0")
    assert not sheet.equal_neighbours(b2)
    assert "Equal numbers" not in " ".join(texts_of(sheet.render_sheet(b2, lay)))


def test_blank_result_slip_lines():
    for scenario, n in (("base-3-4", 4), ("base-5-6", 6)):
        b, lay = board_of(scenario)
        words = texts_of(sheet.render_sheet(b, lay))
        start = words.index("Signature")
        assert words[start + 1: start + 1 + n] == [str(i) for i in range(1, n + 1)]


def test_no_font_below_8pt_and_text_inside_margins():
    cases = [board_of(), board_of("base-5-6", "s0", numbers="spiral"), board_of("cities-knights", harbors="players")]
    long_ctx = sheet.SheetContext("T" * 200, 3, 12345, ("x" * 100,) * 6)
    for (b, lay) in cases:
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
    assert " id=" not in svg


def test_same_bytes_across_hash_seeds():
    code = ("import hashlib, setupgen; "
            "b = setupgen.from_seed('base-5-6', 'x', harbors='free'); "
            "print(hashlib.sha256(setupgen.render_sheet(b, setupgen.load_layout('base-5-6'), lang='de').encode()).hexdigest())")
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


def test_director_page_lists_rows_and_caps():
    rows = [director.DirectorRow(i, "base-3-4", f"B4SS-0000-0000-{i:04d}", f"r1/t{i}") for i in range(1, 46)]
    svg = director.render_director_page(rows, title="Swiss Open, round 1", seed="r1")
    words = texts_of(svg)
    assert "Swiss Open, round 1" in words
    assert any("Round seed: r1" in w for w in words)
    assert [w for w in words if w.startswith("B4SS-")] == [r.setup_id for r in rows[:40]]
    assert any(w.startswith("and 5 more tables") for w in words)
    root = ET.fromstring(svg.encode("utf-8"))
    assert all(float(e.get("font-size")) >= MIN_FONT_MM for e in root.iter(f"{SVG}text"))
    short = director.render_director_page(rows[:3], title=None, seed=None, lang="de")
    words = texts_of(short)
    assert "Turnierleitung" in words and "Basisspiel, 3-4 Spieler" in words
    assert not any("weitere" in w for w in words)
    assert short == director.render_director_page(rows[:3], title=None, seed=None, lang="de")


def test_director_pages_continue_past_forty_tables():
    rows = [director.DirectorRow(i, "base-3-4", f"B4SS-0000-0000-{i:04d}", f"r1/t{i}") for i in range(1, 96)]
    pages = director.render_director_pages(rows, title=None, seed="r1")
    assert len(pages) == 3
    listed = [w for page in pages for w in texts_of(page) if w.startswith("B4SS-")]
    assert listed == [r.setup_id for r in rows]
    assert all(any("95 tables" in w for w in texts_of(page)) for page in pages)
    assert not any("more tables" in w for page in pages for w in texts_of(page))


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
    assert reader.metadata["/CreationDate"] == "D:20000101000000Z"
    assert b.setup_id in reader.pages[1].extract_text()
    assert [round(float(x)) for x in reader.pages[1].mediabox[2:]] == [595, 842]


def test_pdf_same_bytes_in_a_fresh_process():
    code = ("import hashlib, setupgen; "
            "b = setupgen.from_seed('base-3-4', 'p'); "
            "print(hashlib.sha256(setupgen.svgs_to_pdf([setupgen.render_sheet(b, setupgen.load_layout('base-3-4'))])).hexdigest())")
    runs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip() for _ in range(2)}
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
    code = ("import sys, setupgen.render.sheet, setupgen.render.pdf, setupgen.core.templates as t; "
            "print([m in sys.modules for m in ('cairosvg', 'pypdf', 'svgwrite', 'shapely')], t._TEXTS, t._STYLE)")
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


def _text_boxes(svg: str) -> list[tuple[float, float, float, float, str]]:
    """Approximate ink boxes (mm) of every text: advance width from the
    DejaVu metrics, 0.75 em above the baseline, 0.2 em below."""
    out = []
    for e in ET.fromstring(svg.encode("utf-8")).iter(f"{SVG}text"):
        size, x, y = float(e.get("font-size")), float(e.get("x")), float(e.get("y"))
        w = text_width(e.text or "", size, bold=e.get("font-weight") == "bold", mono="Mono" in e.get("font-family"))
        x0 = x - {"middle": w / 2, "end": w}.get(e.get("text-anchor", "start"), 0.0)
        out.append((x0, y - 0.75 * size, x0 + w, y + 0.2 * size, e.text or ""))
    return out


@pytest.mark.parametrize("scenario,kw,paper,lang", [
    ("base-3-4", {}, "a4", "en"),
    ("base-5-6", {"harbors": "free"}, "letter", "de"),
    ("base-5-6", {"numbers": "spiral", "harbors": "players"}, "letter", "de"),
    ("cities-knights", {"harbors": "players"}, "a4", "de"),
])
def test_no_two_texts_overlap(scenario, kw, paper, lang):
    ctx = sheet.SheetContext("Swiss Open 2010", 3, 14, ("Anna", "Ben", "Cid", "Dora", "Eve", "Finn")[:6 if "5-6" in scenario else 4])
    for seed in ("a", "b", "s0"):
        b, lay = board_of(scenario, seed, **kw)
        boxes = _text_boxes(sheet.render_sheet(b, lay, lang=lang, paper=paper, context=ctx))
        for i, p in enumerate(boxes):
            for q in boxes[i + 1:]:
                clash = p[0] < q[2] - 0.05 and q[0] < p[2] - 0.05 and p[1] < q[3] - 0.05 and q[1] < p[3] - 0.05
                assert not clash, (p, q)


def test_too_many_players():
    b, lay = board_of()
    with pytest.raises(SetupgenError, match="at most 6 players, got 7"):
        sheet.render_sheet(b, lay, context=sheet.SheetContext(players=tuple("ABCDEFG")))
