"""The table sheet read back from its own output, independently of the
layout code (docs/sheet.md): nothing collides, it is legible in
grayscale, and the build list alone rebuilds the board.

Boxes come from the SVG (tests/sheetsvg.py: text measured with the real
DejaVu fonts through PIL, shapes from their attributes); grey levels from
the PNG cairo draws, converted to grayscale by PIL; the rebuild parses the
build list's text and compares with the board JSON using only the
templates' words.
"""

from __future__ import annotations

import io
import itertools
import math
import re

import pytest
import sheetsvg as S
from PIL import Image, ImageDraw
from test_harbor_labels import SCENARIOS  # every generated scenario

from setupgen import generate
from setupgen.core import layout, templates
from setupgen.core.board import Board
from setupgen.render import sheet
from setupgen.render.pdf import svg_to_png

PLAYERS = ("Anna Bergmann", "Ben Okafor", "Chiara Rossi", "Dmitri Volkov", "Eva Lindqvist", "Friedrich Maier")


def render(scenario: str, seed: str, lang: str, paper: str, **kw) -> tuple[Board, str]:
    b = generate.from_seed(scenario, seed, **kw)
    lay = layout.load(scenario)
    n = 6 if lay.players == "5-6" else 4
    ctx = sheet.SheetContext("Swiss Catan Championship", 3, 12, PLAYERS[:n])
    return b, sheet.render_sheet(b, lay, lang=lang, paper=paper, context=ctx)


# --------------------------------------------------------------------------
# 2. nothing collides


def collisions(svg: str) -> list[str]:
    """Every pair of overlapping item boxes and every text item crossed by
    the coast or frame line, as readable strings."""
    items, _, paths, _ = S.parse(svg)
    out = []
    for a, b in itertools.combinations(items, 2):
        if S.overlap(a.box, b.box):
            out.append(f"{a.kind} {[t.text for t in a.texts][:2]} overlaps {b.kind} {[t.text for t in b.texts][:2]}")
    lines = [seg for cls in ("frame", "coast") for d in paths.get(cls, []) for seg in S.segments(d)]
    assert lines, "the sheet draws no coast or frame line"
    for it in items:
        if it.texts and it.kind not in S.OVER_COAST and any(S.crosses(it, p, q) for p, q in lines):
            out.append(f"{it.kind} {[t.text for t in it.texts][:2]} crosses the coast or frame")
    return out


def test_a_token_is_judged_by_its_disc_and_a_piece_may_stand_on_the_coast():
    """A token's disc may come near the coast where its square box would
    touch it, but a disc the coast crosses is reported; a village stands on
    the coast (drawn over it), and is still reported when it overlaps a
    token. Worked on Cloth for Catan, seed a: the first token moved onto
    the first coast corner, then the first village onto the first token."""
    import re as _re

    _, svg = render("seafarers-cloth-for-catan", "a", "en", "a4")
    assert collisions(svg) == []
    _, _, paths, _ = S.parse(svg)
    (px, py), _q = S.segments(paths["coast"][0])[0]
    token = _re.search(r'<g class="mark token">\s*<circle cx="([\d.]+)" cy="([\d.]+)"', svg)
    moved = svg.replace(
        token.group(0),
        token.group(0)
        .replace(f'cx="{token.group(1)}"', f'cx="{px:.2f}"')
        .replace(f'cy="{token.group(2)}"', f'cy="{py:.2f}"'),
    )
    assert any(c.startswith("token") and c.endswith("crosses the coast or frame") for c in collisions(moved))
    village = _re.search(r'<g class="mark village">\s*<path d="M([\d.]+),([\d.]+)', svg)
    dx, dy = float(token.group(1)) - float(village.group(1)), float(token.group(2)) - float(village.group(2))
    block = svg[village.start() : svg.index("</g>", village.start())]
    shifted = _re.sub(
        r"([\d.]+),([\d.]+)", lambda m: f"{float(m.group(1)) + dx:.2f},{float(m.group(2)) + dy:.2f}", block
    )
    shifted = _re.sub(
        r' x="([\d.]+)" y="([\d.]+)"',
        lambda m: f' x="{float(m.group(1)) + dx:.2f}" y="{float(m.group(2)) + dy:.2f}"',
        shifted,
    )
    found = collisions(svg.replace(block, shifted))
    assert any(c.startswith("token") and "overlaps village" in c for c in found)
    assert not any(c.startswith("village") and "crosses" in c for c in found)


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("lang,paper", [("en", "a4"), ("de", "letter"), ("de", "a4"), ("en", "letter")])
def test_no_box_overlaps_and_no_text_crosses_the_coast(scenario, lang, paper):
    for seed in ("a", "b", "c"):
        _, svg = render(scenario, seed, lang, paper)
        assert collisions(svg) == [], (scenario, seed)


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_collisions_over_many_seeds(scenario):
    for i, (lang, paper) in enumerate(
        itertools.islice(itertools.cycle([("en", "a4"), ("de", "letter"), ("de", "a4"), ("en", "letter")]), 40)
    ):
        _, svg = render(scenario, f"many{i}", lang, paper)
        assert collisions(svg) == [], (scenario, i, lang, paper)


@pytest.mark.parametrize(
    "kw", [{"harbors": "players"}, {"numbers": "spiral"}, {"numbers": "uniform", "harbors": "free"}]
)
def test_no_collisions_with_other_methods(kw):
    for scenario, lang, paper in (("base-3-4", "de", "letter"), ("base-5-6", "en", "a4"), ("base-5-6", "de", "letter")):
        _, svg = render(scenario, "methods", lang, paper, **kw)
        assert collisions(svg) == []


def test_room_is_kept_for_a_qr_code_and_a_balance_line():
    _, svg = render("base-5-6", "a", "de", "letter")
    items, _, _, _ = S.parse(svg)
    kinds = [i.kind for i in items]
    assert "reserved qr" in kinds and "reserved balance" in kinds
    qr = next(i for i in items if i.kind == "reserved qr").box
    assert qr[2] - qr[0] >= 16.9 and qr[3] - qr[1] >= 16.9  # 17 mm square
    b = generate.from_seed("base-5-6", "a")
    line = sheet.render_sheet(
        b,
        layout.load("base-5-6"),
        context=sheet.SheetContext("Cup", 1, 2, balance="Balance 78/100 · most pips at one intersection 12"),
    )
    assert "Balance 78/100" in line and collisions(line) == []


# --------------------------------------------------------------------------
# 4. 5-6 boards larger: token diameters (mm) from the SVG


def token_diameters(svg: str) -> list[float]:
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg.encode("utf-8"))
    return [
        2 * float(g.find(f"{S.NS}circle").get("r")) for g in root.iter(f"{S.NS}g") if g.get("class") == "mark token"
    ]


@pytest.mark.parametrize("scenario", ["base-5-6", "oil-springs-5-6"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_five_six_tokens_are_large_enough(scenario, lang):
    """Tokens at least 7.5 mm across on A4 and 7 mm on Letter (the issue's
    figures; base boards are about 7.6 mm)."""
    for paper, least in (("a4", 7.5), ("letter", 7.0)):
        for seed in ("a", "b"):
            _, svg = render(scenario, seed, lang, paper)
            assert min(token_diameters(svg)) >= least, (paper, seed)


# --------------------------------------------------------------------------
# 1. legible without colour

#: least difference (grey levels of 255) between the mean greys of any two
#: kinds of hex in a grayscale print
GREY_GAP = 12


def hex_greys(svg: str, dpi: int = 200) -> dict[str, float]:
    """Mean grey (0-255, PIL's "L") of each kind of hex, over its area
    minus every item box and a 0.6 mm band along its edges."""
    scale = dpi / 25.4
    img = Image.open(io.BytesIO(svg_to_png(svg, dpi))).convert("L")
    items, _, paths, _ = S.parse(svg)
    out = {}
    for cls, ds in paths.items():
        if not cls.startswith("hex "):
            continue
        mask = Image.new("1", img.size, 0)
        draw = ImageDraw.Draw(mask)
        for d in ds:
            for poly in S.polygons(d):
                draw.polygon([(x * scale, y * scale) for x, y in poly], fill=1)
                draw.line([(x * scale, y * scale) for x, y in poly + poly[:1]], fill=0, width=round(1.2 * scale))
        for it in items:
            x0, y0, x1, y1 = it.box
            draw.rectangle([x0 * scale - 2, y0 * scale - 2, x1 * scale + 2, y1 * scale + 2], fill=0)
        pixels = [p for p, m in zip(img.tobytes(), mask.convert("L").tobytes()) if m]
        if len(pixels) > 200:
            out[cls[4:]] = sum(pixels) / len(pixels)
    return out


def test_every_kind_of_hex_has_its_own_grey():
    greys: dict[str, list[float]] = {}
    for scenario in ("seafarers-sm2010", "base-3-4", "oil-springs"):
        _, svg = render(scenario, "grey", "en", "a4")
        for k, v in hex_greys(svg).items():
            greys.setdefault(k, []).append(v)
    means = {k: sum(v) / len(v) for k, v in greys.items()}
    assert set(means) >= {
        "forest",
        "pasture",
        "fields",
        "hills",
        "mountains",
        "desert",
        "gold",
        "sea",
        "frame",
        "hidden",
    }
    for a, b in itertools.combinations(sorted(means), 2):
        assert abs(means[a] - means[b]) >= GREY_GAP, (a, round(means[a]), b, round(means[b]))
    for k, v in greys.items():
        assert max(v) - min(v) < GREY_GAP / 2, k  # the same kind prints the same everywhere


def test_every_terrain_has_a_pattern_in_the_style():
    st = templates.style()
    pats = st.table("pattern")
    for t in ("forest", "pasture", "fields", "hills", "mountains", "desert", "gold"):
        assert t in pats
    kinds = [(tuple(p.get("lines", ())), bool(p.get("dots", False))) for p in pats.values()]
    assert len(set(kinds)) == len(kinds)  # no two terrains share a pattern


def _disc_grey(img: Image.Image, cx: float, cy: float, r: float, scale: float) -> float:
    pix = []
    for y in range(int((cy - r) * scale), int((cy + r) * scale) + 1):
        for x in range(int((cx - r) * scale), int((cx + r) * scale) + 1):
            if (x / scale - cx) ** 2 + (y / scale - cy) ** 2 <= (r * 0.8) ** 2:
                pix.append(img.getpixel((x, y)))
    return sum(pix) / len(pix)


def test_six_and_eight_are_darker_in_grayscale():
    """In grayscale a 6 or 8 token is a dark disc (mean grey under 110) and
    every other token a light one (over 180, digits and pips included); in the build list a 6 or 8
    sits on a black box with white digits."""
    import xml.etree.ElementTree as ET

    b, svg = render("base-3-4", "grey", "en", "a4")
    dpi = 200
    scale = dpi / 25.4
    img = Image.open(io.BytesIO(svg_to_png(svg, dpi))).convert("L")
    root = ET.fromstring(svg.encode("utf-8"))
    seen = {True: 0, False: 0}
    for g in root.iter(f"{S.NS}g"):
        if g.get("class") != "mark token":
            continue
        c = g.find(f"{S.NS}circle")
        n = int(g.find(f"{S.NS}text").text)
        grey = _disc_grey(img, float(c.get("cx")), float(c.get("cy")), float(c.get("r")), scale)
        red = n in (6, 8)
        seen[red] += 1
        assert (grey < 110) if red else (grey > 180), (n, grey)
    assert seen[True] == 4 and seen[False] == 14
    els = list(root)
    boxes = [
        (a, t)
        for a, t in zip(els, els[1:])
        if a.tag == f"{S.NS}rect" and t.tag == f"{S.NS}text" and t.text in ("6", "8") and t.get("fill") == "#ffffff"
    ]
    assert len(boxes) == 4
    for a, _ in boxes:
        x, y, w, h = (float(a.get(k)) for k in ("x", "y", "width", "height"))
        region = img.crop((int(x * scale), int(y * scale), int((x + w) * scale), int((y + h) * scale)))
        data = list(region.tobytes())
        assert sum(data) / len(data) < 110  # mostly black with white digits


# --------------------------------------------------------------------------
# 3. the build list rebuilds the board


def _words(lang: str) -> dict:
    tx = templates.texts(lang)
    terrains = {
        tx.get(f"terrain.{t}"): t
        for t in ("forest", "pasture", "fields", "hills", "mountains", "desert", "gold", "sea")
    }
    resources = {tx.get(f"resource.{r}"): r for r in ("lumber", "wool", "grain", "brick", "ore")}
    return {
        "terrains": terrains,
        "resources": resources,
        "row": tx.get("sheet.row"),
        "hidden": tx.get("label.hidden"),
        "robber": tx.get("sheet.mark_robber"),
        "pirate": tx.get("sheet.mark_pirate"),
        "oil": tx.get("sheet.oil_short"),
        "sea": tx.get("terrain.sea"),
        "harbors": tx.get("sheet.harbors"),
    }


def _build_lines(svg: str, w: dict) -> tuple[list[list[str]], list[list[str]]]:
    """The build list's rows (texts of each row in x order, continuation
    lines joined) and its harbor lines, from the SVG's text elements."""
    _, texts, _, _ = S.parse(svg)
    by_y: dict[float, list] = {}
    for t in texts:
        by_y.setdefault(round(t.y, 2), []).append(t)
    lines = [sorted(v, key=lambda t: t.x) for _, v in sorted(by_y.items())]
    row_re = re.compile(rf"^{re.escape(w['row'])} (\d+) \(\+(\d*)(½?)\)$")
    rows: list[list[str]] = []
    harbors: list[list[str]] = []
    mode = None
    for line in lines:
        first = line[0].text
        inner = [t.text for t in line if t.x > 20]  # right of the label column
        if row_re.match(first):
            mode = "rows"
            rows.append([t.text for t in line])
        elif mode == "rows" and first == w["harbors"]:
            mode = "harbors"
            harbors.extend(inner[i : i + 2] for i in range(0, len(inner), 2))
        elif mode == "rows" and 20 < line[0].x < 60:
            rows[-1].extend(inner)  # a row continued on the next line
        elif mode == "harbors" and not inner:
            continue  # the heading's hint, in the label column
        elif mode == "harbors" and re.fullmatch(r"\d+", inner[0]):
            harbors.extend(inner[i : i + 2] for i in range(0, len(inner), 2))
        elif mode is not None:
            mode = None if mode == "harbors" else mode
    return rows, harbors


def _entries(tokens: list[str], w: dict) -> list[dict]:
    """Parse ``Pasture, 4, ",", 2× Sea, ...`` into one dict per hex."""
    out: list[dict] = []
    groups: list[list[str]] = [[]]
    for tok in tokens:  # a comma ends an entry, alone or at the end of its last text
        if tok == ",":
            groups.append([])
        elif tok.endswith(","):
            groups[-1].append(tok[:-1])
            groups.append([])
        else:
            groups[-1].append(tok)
    run = re.compile(rf"^(\d+)× {re.escape(w['sea'])}$")
    for g in groups:
        m = run.match(g[0])
        if m:
            out.extend({"terrain": "sea"} for _ in range(int(m.group(1))))
            continue
        e: dict = {"hidden": g[0] == w["hidden"]}
        if not e["hidden"]:
            e["terrain"] = w["terrains"][g[0]]
        rest = g[1:]
        if rest and re.fullmatch(r"\d+", rest[0]):
            e["number"] = int(rest.pop(0))
        marks = " ".join(rest)
        e["robber"] = w["robber"] in marks
        e["pirate"] = w["pirate"] in marks
        e["oil"] = w["oil"] in marks
        out.append(e)
    return out


def rebuild(svg: str, lang: str) -> dict:
    """Rows of hexes and harbors from the build list's text alone."""
    w = _words(lang)
    rows_txt, harbors_txt = _build_lines(svg, w)
    rows = []
    for tokens in rows_txt:
        m = re.match(rf"^{re.escape(w['row'])} (\d+) \(\+(\d*)(½?)\)$", tokens[0])
        indent = (int(m.group(2)) if m.group(2) else 0) + (0.5 if m.group(3) else 0.0)
        rows.append((int(m.group(1)), indent, _entries(tokens[1:], w)))
    harbors = []
    for tokens in harbors_txt:
        number, text = int(tokens[0]), " ".join(tokens[1:])
        m = re.fullmatch(r"([23]:1)(?: (\S+))?\s+(\d+)·(\d+) → (\d+)·(\d+)", text)
        kind = "3:1" if m.group(1) == "3:1" else w["resources"][m.group(2)]
        harbors.append((number, kind, (int(m.group(3)), int(m.group(4))), (int(m.group(5)), int(m.group(6)))))
    return {"rows": rows, "harbors": harbors}


def expected_from_json(b: Board) -> dict:
    """Rows, indents and harbors worked out from the board JSON: rows are
    the distinct ``r`` of non-frame hexes, positions their order by ``q``;
    indents in hex widths from the board's left edge at hex size 1 (a hex
    spans its centre x ± sqrt(3)/2, a frame half hex at a row's left end
    only its right half)."""
    import json

    from setupgen.core import hexgrid

    d = json.loads(b.to_json())
    tiles = d["hexes"]
    sq = math.sqrt(3)
    cx = {(t["q"], t["r"]): sq * (t["q"] + t["r"] / 2) for t in tiles}
    row_min = {}
    for t in tiles:
        row_min[t["r"]] = min(row_min.get(t["r"], 99), t["q"])
    left = min(
        cx[(t["q"], t["r"])] if (t["kind"] == "frame" and t["q"] == row_min[t["r"]]) else cx[(t["q"], t["r"])] - sq / 2
        for t in tiles
    )
    real = [t for t in tiles if t["kind"] != "frame"]
    rs = sorted({t["r"] for t in real})
    pos = {}
    rows = []
    for i, r in enumerate(rs, start=1):
        row = sorted((t for t in real if t["r"] == r), key=lambda t: t["q"])
        indent = (cx[(row[0]["q"], r)] - sq / 2 - left) / sq
        rows.append((i, round(indent * 2) / 2, row))
        for j, t in enumerate(row, start=1):
            pos[(t["q"], r)] = (i, j)
    harbors = set()
    for h in d.get("harbors", []):
        sea = (h["q"], h["r"])
        land = hexgrid.neighbor(sea, h["facing"])
        harbors.add((h["type"], pos[sea], pos[land]))

    def at(p):
        return None if p is None else (p["q"], p["r"])

    return {"rows": rows, "harbors": harbors, "robber": at(d.get("robber")), "pirate": at(d.get("pirate"))}


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("lang,paper", [("en", "a4"), ("de", "letter")])
def test_build_list_alone_rebuilds_the_board(scenario, lang, paper):
    for seed in ("r1", "r2"):
        b, svg = render(scenario, seed, lang, paper)
        got, want = rebuild(svg, lang), expected_from_json(b)
        assert [(i, x) for i, x, _ in got["rows"]] == [(i, x) for i, x, _ in want["rows"]]
        robber = pirate = None
        # a face-down hex hiding sea (The Fog Islands) keeps every face-down number off the sheet
        covered = any(t.hidden and t.terrain == "sea" for t in b.tiles)
        for (i, _, entries), (_, _, tiles) in zip(got["rows"], want["rows"]):
            assert len(entries) == len(tiles), (scenario, i)
            for j, (e, t) in enumerate(zip(entries, tiles), start=1):
                if t.get("hidden"):
                    assert e["hidden"] and "terrain" not in e  # face down: only its number
                else:
                    assert e["terrain"] == t["terrain"], (i, j)
                assert e.get("number") == (None if covered and t.get("hidden") else t.get("number")), (i, j)
                assert e.get("oil", False) == bool(t.get("oil_spring", False))
                if e.get("robber"):
                    robber = (t["q"], t["r"])
                if e.get("pirate"):
                    pirate = (t["q"], t["r"])
        assert robber == want["robber"] and pirate == want["pirate"]
        numbers = sorted(h[0] for h in got["harbors"])  # read line by line across the columns
        assert numbers == list(range(1, len(want["harbors"]) + 1))
        assert {(k, s, side) for _, k, s, side in got["harbors"]} == want["harbors"]


def test_build_list_never_truncates_a_word():
    for scenario, lang, paper in itertools.product(SCENARIOS, ("en", "de"), ("a4", "letter")):
        _, svg = render(scenario, "trunc", lang, paper)
        assert "…" not in svg, (scenario, lang, paper)


def test_players_harbors_list_the_pool():
    b, svg = render("base-3-4", "pool", "de", "a4", harbors="players")
    words = [t.text for t in S.parse(svg)[1]]
    assert "Zu legende Häfen" in words
    tx = templates.texts("de")
    assert words.count(tx.get("sheet.harbor_count", n=4)) == 1  # four 3:1 harbors in the pool


def test_fixed_oil_springs_board_from_a_file():
    """The fixed 5-6 Oil Springs setup (a board file, tests/fixtures): no
    collision, no word cut ("Weideland" was cut before), tokens large."""
    from pathlib import Path

    from setupgen import read_board

    b = read_board(Path(__file__).parent / "fixtures" / "oil-5-6-fixed-test-board.json")
    for lang, paper, least in (("en", "a4", 7.5), ("de", "letter", 7.0), ("de", "a4", 7.5)):
        svg = sheet.render_sheet(
            b,
            layout.load("oil-springs-5-6-fixed"),
            lang=lang,
            paper=paper,
            context=sheet.SheetContext("Cup", 2, 3, PLAYERS),
        )
        assert collisions(svg) == [] and "…" not in svg
        assert min(token_diameters(svg)) >= least


# -- cases found by trying to break the sheet ---------------------------------------

LONG_TITLE = "Deutsche Catan-Meisterschaft 2026 · Vorrunde · Gruppe Nord-West · Landesverband Nordrhein-Westfalen"


@pytest.mark.parametrize(
    "scenario,seed,lang,paper,kw,ctx",
    [
        (
            "base-5-6",
            "a",
            "en",
            "letter",
            {},
            sheet.SheetContext("Swiss Catan Championship", 3, 12, PLAYERS, seating="choose"),
        ),
        ("base-5-6", "a", "de", "letter", {}, sheet.SheetContext("Swiss Catan Championship", 1000, 12, PLAYERS)),
        (
            "base-5-6",
            "b",
            "de",
            "letter",
            {"numbers": "spiral"},
            sheet.SheetContext(LONG_TITLE, 3, 12, PLAYERS, seating="choose"),
        ),
        ("base-5-6", "club117440", "de", "a4", {}, sheet.SheetContext(LONG_TITLE, 3, 12, PLAYERS)),
        ("oil-springs-5-6", "club422000", "de", "a4", {"numbers": "spiral"}, sheet.SheetContext(None, 3, 12, PLAYERS)),
        (
            "base-5-6",
            "x" * 27,
            "en",
            "letter",
            {"numbers": "uniform"},
            sheet.SheetContext(LONG_TITLE, None, 1, PLAYERS),
        ),
        (
            "seafarers-sm2010",
            "club788071",
            "en",
            "letter",
            {"numbers": "uniform"},
            sheet.SheetContext(LONG_TITLE, 1000, 1),
        ),
        (
            "seafarers-sm2010",
            "s0",
            "de",
            "letter",
            {},
            sheet.SheetContext("Swiss Catan Championship", 3, 12, PLAYERS[:4]),
        ),
        (
            "seafarers-sm2010",
            "club675464",
            "de",
            "a4",
            {"numbers": "uniform"},
            sheet.SheetContext("Swiss Catan Championship", 3, 12, PLAYERS[:4]),
        ),
    ],
)
def test_long_headers_finals_and_crowded_seas_still_fit(scenario, seed, lang, paper, kw, ctx):
    """The header is always two lines (a long title never shrinks the
    board); harbor words that find no room near their harbor go further
    and carry its number (⑦ 2:1 grain)."""
    b = generate.from_seed(scenario, seed, **kw)
    svg = sheet.render_sheet(b, layout.load(scenario), lang=lang, paper=paper, context=ctx)
    assert collisions(svg) == []
    if "5-6" in scenario:
        assert min(token_diameters(svg)) >= (7.5 if paper == "a4" else 7.0)


def test_table_numbers_are_never_cut():
    b = generate.from_seed("base-3-4", "a")
    for n in (1000, 9999, 123456):
        svg = sheet.render_sheet(b, layout.load("base-3-4"), context=sheet.SheetContext("Cup", 1, n))
        assert str(n) in [t.text for t in S.parse(svg)[1]] and "…" not in svg


@pytest.mark.parametrize(
    "kw,match",
    [
        ({"players": (1, 2)}, "tuple of names"),
        ({"players": "Anna"}, "tuple of names"),
        ({"players": ("",)}, "tuple of names"),
        ({"balance": 5}, "must be text"),
        ({"tournament": 5}, "must be text"),
        ({"tournament": "a\x00b"}, "control character"),
        ({"tournament": "\ud800"}, "control character"),
        ({"tournament": "x" * 201}, "at most 200"),
        ({"table": 0}, "from 1 to 999999"),
        ({"table": -1}, "from 1 to 999999"),
        ({"round": 2.5}, "from 1 to 1000"),
        ({"round": 1001}, "from 1 to 1000"),
        ({"round": True}, "from 1 to 1000"),
        ({"seating": "random"}, "unknown seating"),
    ],
)
def test_a_bad_context_is_one_clear_error(kw, match):
    from setupgen.core.errors import SetupgenError

    with pytest.raises(SetupgenError, match=match):
        sheet.SheetContext(**kw)


def test_seed_characters_the_fonts_lack_print_as_escapes():
    assert sheet.printable_seed("ö日本🎲 Zürich/t1") == "ö\\u65e5\\u672c\\U0001f3b2 Zürich/t1"
    b = generate.from_seed("base-3-4", "ö日本🎲")
    words = [t.text for t in S.parse(sheet.render_sheet(b, layout.load("base-3-4")))[1]]
    assert "ö\\u65e5\\u672c\\U0001f3b2" in words and b.seed == "ö日本🎲"


def test_a_harbor_off_the_listed_hexes_shows_dashes():
    """A board file may hold a harbor on a hex the board does not list
    (check reports it); the sheet still renders, with "–" positions."""
    import dataclasses

    b = generate.from_seed("base-3-4", "x")
    moved = dataclasses.replace(b, harbors=(dataclasses.replace(b.harbors[0], hex=(9, 9)),) + b.harbors[1:])
    assert "–·– → –·–" in sheet.render_sheet(moved, layout.load("base-3-4"))
