"""The director's key (setupgen.render.key) and the secrecy of the table sheet:
the key reveals every face-down hex in build-list terms; the table sheet
gives nothing away about them."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET

import pytest
from sheetsvg import sheet_rows

from setupgen import generate
from setupgen.core import layout, templates
from setupgen.render import key, sheet
from setupgen.render.page import text_width

SVG = "{http://www.w3.org/2000/svg}"
MIN_FONT_MM = 8 * 25.4 / 72
SF = "seafarers-sm2010"
CTX = sheet.SheetContext("Swiss Catan Championship 2010", 3, 12, ("Anna", "Ben", "Cid", "Dora"))


def texts_of(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return [el.text or "" for el in root.iter(f"{SVG}text")]


def sf(seed: str = "x"):
    return generate.from_seed(SF, seed), layout.load(SF)


def hidden_listing(board, tx) -> list[tuple[str, str, str]]:
    """Expected list lines ``(position text, terrain word, number)`` from
    the build list's rows, computed independently of setupgen.render.key."""
    out = []
    for i, row in enumerate(sheet_rows(board), start=1):
        for j, t in enumerate(row, start=1):
            if t.hidden:
                out.append((tx.get("key.position", row=i, pos=j), tx.get(f"terrain.{t.terrain}"), str(t.number)))
    return out


@pytest.mark.parametrize("seed", ["x", "s0", "s16"])
def test_key_reveals_every_hidden_hex_in_build_list_terms(seed):
    b, lay = sf(seed)
    assert sum(t.hidden for t in b.tiles) == 7
    words = texts_of(key.render_key(b, lay, context=CTX))
    tx = templates.texts("en")
    expected = hidden_listing(b, tx)
    assert len(expected) == 7
    for pos, word, number in expected:
        i = words.index(pos)
        assert words[i + 1 : i + 3] == [word, number], (pos, words[i : i + 3])
    # the board picture shows every hidden hex's true label, none as "?" label
    labels = [tx.get(f"label.{t.terrain}") for t in b.tiles if t.hidden]
    for lab in set(labels):
        assert words.count(lab) >= labels.count(lab)
    assert "Face-down hexes (7)" in words


def test_key_positions_match_the_layout_map():
    """Row 1 of the scenario map is H:8 H:10 ~ ~ ~ ~ H:12 and row 7
    H:5 H:9 ~ ~ ~ H:4 H:6 (docs/rules.md section 4)."""
    b, _ = sf()
    got = [(r, p, t.number) for r, p, t in key.hidden_entries(b)]
    assert got == [(1, 1, 8), (1, 2, 10), (1, 7, 12), (7, 1, 5), (7, 2, 9), (7, 6, 4), (7, 7, 6)]


def test_key_header_footer_and_legend():
    b, lay = sf()
    svg = key.render_key(b, lay, context=CTX)
    words = texts_of(svg)
    tx = templates.texts("en")
    assert tx.get("key.banner") in words
    assert "Swiss Catan Championship 2010 · Round 3" in words
    assert "12" in words and "Table" in words
    assert "Seafarers tournament scenario" in words
    assert b.setup_id in words and "x" in words
    joined = " ".join(words)
    assert "face down at the table" in joined
    assert "never hand it to the players" in joined


def test_key_is_deterministic_and_within_the_page():
    b, lay = sf("s3")
    a = key.render_key(b, lay, context=CTX)
    assert a == key.render_key(b, lay, context=CTX)
    root = ET.fromstring(a.encode("utf-8"))
    assert root.get("width") == "210.00mm" and root.get("height") == "297.00mm"
    assert all(i.startswith("pattern-") for i in re.findall(r' id="([^"]*)"', a))
    m = templates.style().table("page")["sheet_margin"]  # keys use the sheet margin
    for e in root.iter(f"{SVG}text"):
        size, x, y = float(e.get("font-size")), float(e.get("x")), float(e.get("y"))
        assert size >= MIN_FONT_MM - 1e-9
        w = text_width(e.text or "", size, bold=e.get("font-weight") == "bold", mono="Mono" in e.get("font-family"))
        x0 = x - {"middle": w / 2, "end": w}.get(e.get("text-anchor", "start"), 0.0)
        assert m - 0.5 <= x0 and x0 + w <= 210 - m + 0.5, e.text
        assert m <= y <= 297 - m + 0.5, e.text


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "de")])
def test_key_texts_do_not_overlap(paper, lang):
    ctx = sheet.SheetContext("Schweizer Meisterschaft 2010 mit einem langen Namen", 3, 14)
    for seed in ("a", "s0", "s16"):
        b, lay = sf(seed)
        boxes = []
        for e in ET.fromstring(key.render_key(b, lay, lang=lang, paper=paper, context=ctx).encode()).iter(f"{SVG}text"):
            size, x, y = float(e.get("font-size")), float(e.get("x")), float(e.get("y"))
            w = text_width(e.text or "", size, bold=e.get("font-weight") == "bold", mono="Mono" in e.get("font-family"))
            x0 = x - {"middle": w / 2, "end": w}.get(e.get("text-anchor", "start"), 0.0)
            boxes.append((x0, y - 0.75 * size, x0 + w, y + 0.2 * size, e.text))
        for i, p in enumerate(boxes):
            for q in boxes[i + 1 :]:
                clash = p[0] < q[2] - 0.05 and q[0] < p[2] - 0.05 and p[1] < q[3] - 0.05 and q[1] < p[3] - 0.05
                assert not clash, (p, q)


def test_key_in_german():
    b, lay = sf()
    words = texts_of(key.render_key(b, lay, lang="de", paper="letter", context=CTX))
    tx = templates.texts("de")
    assert tx.get("key.banner") in words
    assert "Seefahrer-Turnierszenario" in words
    for pos, word, number in hidden_listing(b, tx):
        i = words.index(pos)
        assert words[i + 1 : i + 3] == [word, number]
    assert "Aufbau-ID:" in words
    assert "Face-down hexes (7)" not in words and "Verdeckte Felder (7)" in words


def test_key_of_a_board_without_hidden_hexes():
    b = generate.from_seed("base-3-4", "demo")
    svg = key.render_key(b, layout.load("base-3-4"))
    words = texts_of(svg)
    assert "No face-down hexes on this board." in words
    assert b.setup_id in words
    assert "face down at the table (true terrain shown here)" not in " ".join(words)
    assert "Keine verdeckten Felder auf diesem Spielplan." in texts_of(
        key.render_key(b, layout.load("base-3-4"), lang="de")
    )


def test_key_errors():
    b, lay = sf()
    from setupgen.core.errors import SetupgenError

    with pytest.raises(SetupgenError):
        key.render_key(b, lay, lang="xx")
    with pytest.raises(SetupgenError):
        key.render_key(b, lay, paper="a3")


# -- the table sheet never betrays a hidden hex ---------------------------------


def _permuted(board, shift: int):
    """``board`` with the terrains of its hidden tiles rotated by ``shift``
    among them (numbers stay on their hexes)."""
    hidden = [t for t in board.tiles if t.hidden]
    terrains = [t.terrain for t in hidden]
    new = {t.hex: terrains[(i + shift) % len(terrains)] for i, t in enumerate(hidden)}
    tiles = tuple(dataclasses.replace(t, terrain=new[t.hex]) if t.hex in new else t for t in board.tiles)
    return dataclasses.replace(board, tiles=tiles)


@pytest.mark.parametrize("seed", [f"secret{i}" for i in range(20)])
def test_table_sheet_is_the_same_whatever_lies_face_down(seed):
    b, lay = sf(seed)
    svg = sheet.render_sheet(b, lay, context=CTX)
    shifts = [k for k in range(1, 7) if _permuted(b, k).tiles != b.tiles]
    assert shifts  # the hidden terrains are not all equal
    for k in shifts[:2]:
        other = _permuted(b, k)
        assert [t.number for t in other.tiles] == [t.number for t in b.tiles]
        assert sheet.render_sheet(other, lay, context=CTX) == svg
    assert sheet.render_sheet(b, lay, lang="de") == sheet.render_sheet(_permuted(b, shifts[0]), lay, lang="de")


def test_table_sheet_names_no_hidden_terrain_anywhere():
    b, lay = sf("x")
    svg = sheet.render_sheet(b, lay, context=CTX)
    assert "<title" not in svg and "<!--" not in svg
    assert "<desc" not in svg and "<metadata" not in svg
    # ids and classes name only what is face up (patterns, hex kinds, marks)
    hidden_terrains = {t.terrain for t in b.tiles if t.hidden}
    shown = {t.terrain for t in b.tiles if t.kind == "land" and not t.hidden}
    attrs = " ".join(f"{k}={v}" for el in ET.fromstring(svg.encode()).iter() for k, v in el.attrib.items())
    for terrain in hidden_terrains - shown:
        assert terrain not in attrs.lower()
        assert not re.search(rf"<!--[^>]*{terrain}", svg, re.I)
    # whatever single terrain lies face down everywhere, the sheet is the same
    for terrain in ("forest", "pasture", "fields", "hills", "mountains", "desert", "gold"):
        tiles = tuple(dataclasses.replace(t, terrain=terrain) if t.hidden else t for t in b.tiles)
        assert sheet.render_sheet(dataclasses.replace(b, tiles=tiles), lay, context=CTX) == svg
    words = texts_of(svg)
    assert words.count("?") == 7 + 7 + 1  # board, build list, legend
