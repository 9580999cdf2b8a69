"""What each table needs (issue 11, point 4): the game boxes and pieces of
every scenario and variant (setupgen.core.almanac.table_material), counted
by hand from docs/rules.md (sections 1, 5, 7.5, 7.6) and almanac/README.md, and
the director's page listing them: what every table needs alike, the
tables that need something else, and the round's totals, read back from
the SVG; nothing overlapping, nothing off the page, 8 pt at least, every
table still listed once, and without material the pages unchanged."""

from __future__ import annotations

import hashlib
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from sheetsvg import text_boxes
from test_director import MARGIN, MIN_FONT_MM, overlaps, rects, texts
from test_languages import leaks, printed, xx  # noqa: F401  (xx: the made-up language fixture)

from setupgen.core import almanac, layout, templates
from setupgen.core.almanac import Material
from setupgen.core.errors import SetupgenError
from setupgen.core.layout import scenario_names
from setupgen.render import director

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"
G = tomllib.loads((ROOT / "templates" / "style.toml").read_text(encoding="utf-8"))["director"]


def box(key):
    return Material(key, 1, "box")


BASE, EXT56, SEA, CK, OIL = (
    box("base"),
    box("extension-5-6"),
    box("seafarers"),
    box("cities-knights"),
    box("oil-springs"),
)
#: by hand: the boxes of each scenario (docs/rules.md 1: the 5-6 set extends the
#: base game; Seafarers and Cities & Knights are played with the base game;
#: Oil Springs on a base (or 5-6) board with the Oil Springs set), and the
#: Oil Springs material of docs/rules.md 7.5 (3-4 / 5-6: oil tokens 15 / 21,
#: metropolis tokens 4 / 6, oil-spring tiles 3 / 4, one Champion token,
#: 7 VP tokens, one disaster track); Seafarers (Schweizer Meisterschaft 2010): the pirate ship and
#: the frame pieces of the narrowed map, top E-F, double X, F-G and bottom
#: C-B, double X, B-A
OIL_COMMON = (Material("champion-token", 1), Material("vp-token", 7), Material("disaster-track", 1))
OIL_34 = (Material("oil-token", 15), Material("metropolis-token", 4), Material("oil-spring-tile", 3)) + OIL_COMMON
OIL_56 = (Material("oil-token", 21), Material("metropolis-token", 6), Material("oil-spring-tile", 4)) + OIL_COMMON
SEA_PIECES = (Material("pirate-ship", 1), Material("frame-top-sm2010", 3), Material("frame-bottom-sm2010", 3))
BY_HAND = {
    "base-3-4": (BASE,),
    "base-5-6": (BASE, EXT56),
    "seafarers-sm2010": (BASE, SEA) + SEA_PIECES,
    "cities-knights": (BASE, CK),
    "cities-knights-5-6": (BASE, EXT56, CK, Material("cities-knights-5-6", 1, "box")),
    "seafarers-fog-islands-3": (BASE, SEA),
    "seafarers-fog-islands-4": (BASE, SEA),
    "seafarers-new-world": (BASE, SEA),
    "seafarers-cloth-for-catan": (BASE, SEA),
    "seafarers-forgotten-tribe": (BASE, SEA),
    "seafarers-wonders": (BASE, SEA),
    "seafarers-pirate-islands": (BASE, SEA),
    "seafarers-four-islands-3": (BASE, SEA),
    "seafarers-four-islands-4": (BASE, SEA),
    "seafarers-new-shores-3": (BASE, SEA),
    "seafarers-new-shores-4": (BASE, SEA),
    "seafarers-through-the-desert-3": (BASE, SEA),
    "seafarers-through-the-desert-4": (BASE, SEA),
    "oil-springs": (BASE, OIL) + OIL_34,
    "oil-springs-fixed": (BASE, OIL) + OIL_34,
    "oil-springs-5-6": (BASE, EXT56, OIL) + OIL_56,
    "oil-springs-5-6-fixed": (BASE, EXT56, OIL) + OIL_56,
}


# -- table_material ------------------------------------------------------------------


def test_every_scenario_has_its_boxes_and_pieces():
    assert set(BY_HAND) == set(scenario_names()) == set(almanac.scenarios())
    for scenario, expected in BY_HAND.items():
        players = 5 if "5-6" in scenario else 3
        assert almanac.table_material(scenario, players) == expected, scenario


def test_fishermen_counts_worked_by_hand():
    fish = lambda n: Material("fish-token", n)  # noqa: E731
    ships = lambda n: Material("fishing-ship-marker", n)  # noqa: E731
    sticks = lambda n: Material("matchstick", n)  # noqa: E731
    tm = almanac.table_material
    # base game, table of 4: 30 fish tokens (2-4 players), a marker and a matchstick each
    assert tm("base-3-4", 4, "fishermen") == (BASE, fish(30), ships(4), sticks(4))
    assert tm("base-3-4", 3, "fishermen") == (BASE, fish(30), ships(3), sticks(3))
    # 5-6: the source's minimum, 30, as for every table (it gives no count for 5-6: issue 43)
    assert tm("base-5-6", 6, "fishermen") == (BASE, EXT56, fish(30), ships(6), sticks(6))
    assert tm("base-5-6", 5, "fishermen") == (BASE, EXT56, fish(30), ships(5), sticks(5))
    # with Seafarers the ships are real: no matchsticks
    assert tm("seafarers-sm2010", 4, "fishermen") == (BASE, SEA, *SEA_PIECES, fish(30), ships(4))
    assert tm("cities-knights", 3, "fishermen") == (BASE, CK, fish(30), ships(3), sticks(3))
    # scenario pieces before the variant's
    assert tm("oil-springs-5-6-fixed", 6, "fishermen") == (BASE, EXT56, OIL, *OIL_56, fish(30), ships(6), sticks(6))
    assert tm("base-3-4", 4, None) == (BASE,)


def test_material_stays_compatible():
    m = Material("fish-token", 30)
    assert (m.key, m.count, m.kind) == ("fish-token", 30, "piece")
    assert m == Material("fish-token", 30, "piece") and m != Material("fish-token", 30, "box")
    assert almanac.variant("fishermen").material(4, "base-3-4")[0] == m
    assert director.DirectorRow(1, "base-3-4", "ID", "s").material == ()
    assert almanac.MATERIAL_KINDS == ("box", "piece")


@pytest.mark.parametrize("players", [0, 7, "4", True, 4.0, None])
def test_bad_table_sizes_are_clear_errors(players):
    with pytest.raises(SetupgenError, match="players: expected a whole number 1-6") as exc:
        almanac.table_material("base-3-4", players)
    assert exc.value.field == "rules"


def test_unknown_scenario_and_variant():
    with pytest.raises(SetupgenError, match="no almanac rules for scenario 'my-map'") as exc:
        almanac.table_material("my-map", 4)
    assert exc.value.field == "rules"
    with pytest.raises(SetupgenError, match="unknown variant 'pirates'"):
        almanac.table_material("base-3-4", 4, "pirates")
    with pytest.raises(SetupgenError, match="no count for a table of 1 players") as exc:
        almanac.table_material("base-3-4", 1, "fishermen")
    assert exc.value.field == "rules"


@pytest.fixture()
def folder(tmp_path):
    copy = tmp_path / "almanac"
    shutil.copytree(ROOT / "almanac", copy)
    return copy


@pytest.mark.parametrize(
    "old, new, scenario, message",
    [
        (
            'boxes = ["base", "seafarers"]\n',
            "",
            "seafarers-sm2010",
            "scenario.seafarers-sm2010.boxes: expected a list of distinct kebab-case box keys",
        ),
        (
            'boxes = ["base", "seafarers"]',
            'boxes = ["base", "base"]',
            "seafarers-sm2010",
            "scenario.seafarers-sm2010.boxes: expected a list of distinct",
        ),
        (
            'boxes = ["base", "seafarers"]',
            'boxes = ["Base Game"]',
            "seafarers-sm2010",
            "scenario.seafarers-sm2010.boxes: expected a list of distinct kebab-case",
        ),
        (
            '{ key = "oil-token", count = 15,',
            '{ key = "oil-token", count = 0,',
            "oil-springs",
            "scenario.oil-springs.material[0] (key 'oil-token').count: expected a whole number 1-1000",
        ),
        (
            '{ key = "oil-token", count = 15,',
            '{ key = "oil-token", count = 15, per_player = 1,',
            "oil-springs",
            "scenario.oil-springs.material[0].per_player: unknown field",
        ),
        (
            '{ key = "metropolis-token", count = 4,',
            '{ key = "oil-token", count = 4,',
            "oil-springs-fixed",
            "scenario.oil-springs.material[1] (key 'oil-token'): the key is listed twice",
        ),
        (
            '{ key = "pirate-ship", count = 1, source = "Schweizer Meisterschaft 2010, Seefahrer-Szenario, Regel 8" }',
            '{ key = "pirate-ship", count = 1 }',
            "seafarers-sm2010",
            "scenario.seafarers-sm2010.material[0] (key 'pirate-ship').source: every entry names its source",
        ),
        (
            '{ key = "vp-token", count = 7, source = "Catan: Die Ölquellen, Spielmaterial" }',
            '{ key = "vp-token", count = 7, source = "setupgen" }',
            "oil-springs",
            "scenario.oil-springs.material[4] (key 'vp-token').source: a game rule cannot have the source",
        ),
        (
            'inherits = "oil-springs"\n',
            'inherits = "oil-springs"\nmaterial = []\n',
            "oil-springs-fixed",
            "scenario.oil-springs-fixed.material: an entry that inherits takes this from its parent",
        ),
    ],
)
def test_malformed_material_names_file_and_entry(folder, old, new, scenario, message):
    path = folder / "scenarios.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SetupgenError) as exc:
        almanac.table_material(scenario, 4, folder=folder)
    assert str(exc.value).startswith(f"{path}: {message}")


# -- texts -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "de-CH"])
def test_every_box_and_piece_has_a_text(lang):
    words = templates.texts(lang)
    keys = almanac.data_keys()
    assert keys["box"] == {"base", "extension-5-6", "seafarers", "cities-knights", "cities-knights-5-6", "oil-springs"}
    assert {"oil-token", "metropolis-token", "fish-token", "fishing-ship-marker", "matchstick"} <= keys["material"]
    for kind, found in (("box", keys["box"]), ("material", keys["material"])):
        for key in found:
            assert words.has(f"almanac.{kind}.{key}"), (lang, kind, key)
    for scenario in BY_HAND:
        for m in almanac.table_material(scenario, 5 if "5-6" in scenario else 4, "fishermen"):
            assert almanac.material_text(m, lang)
    for key in ("material_every", "material_table", "material_tables", "material_other", "material_total"):
        assert words.has(f"director.{key}"), (lang, key)


def test_material_texts():
    assert (
        almanac.material_text(Material("fish-token", 30), "en")
        == "30 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)"
    )
    assert almanac.material_text(SEA, "en") == "1 × Seafarers"
    assert almanac.material_text(SEA, "en", count=False) == "Seafarers"
    assert [almanac.material_text(m, "de", count=False) for m in BY_HAND["oil-springs-5-6"][:3]] == [
        "Basisspiel",
        "Ergänzung 5-6 Spieler",
        "Ölquellen",
    ]
    assert almanac.material_text(CK, "de", count=False) == templates.texts("de").get("scenario.cities-knights")
    assert almanac.material_text(Material("oil-token", 21), "de-CH") == "21 × Ölkärtchen"
    assert all("ß" not in templates.texts("de-CH").get(f"almanac.box.{k}") for k in almanac.data_keys()["box"])


# -- the director's page ---------------------------------------------------------------


def rows(sizes, scenario="base-3-4", variant="fishermen", players=True):
    """One row a table; ``sizes`` the players of each table."""
    return [
        director.DirectorRow(
            t,
            scenario,
            f"B4SS-0000-0000-{t:04d}",
            f"r1/t{t}",
            tuple(f"P{t}-{i}" for i in range(1, n + 1)) if players else (),
            almanac.table_material(scenario, n, variant),
        )
        for t, n in enumerate(sizes, start=1)
    ]


def paragraphs(page: str, lang: str = "en") -> dict[str, list[str]]:
    """The material box read back: label -> its items. Labels are the bold
    texts in the box (a long one over several lines, ending in ":"); the
    plain texts after a label are its items, lines joined, split at " · "."""
    fx, fy, fw, fh = frames(page, lang)[-1]
    out: dict[str, list[str]] = {}
    label, current = "", None
    for e in ET.fromstring(page.encode("utf-8")).iter(f"{SVG}text"):
        if not (fx < float(e.get("x")) < fx + fw and fy < float(e.get("y")) < fy + fh):
            continue
        if e.get("font-weight") == "bold":
            label = f"{label} {e.text}" if label else e.text
            if label.endswith(":"):
                current, label = label, ""
                out[current] = []
        else:
            out[current].append(e.text)
    return {k: " · ".join(v).split(" · ") for k, v in out.items()}


def frames(page: str, lang: str = "en") -> list[tuple[float, float, float, float]]:
    """The framed boxes across the page above the column heads (director's
    notes, material), top to bottom."""
    head = next(b for b in text_boxes(page) if b[4] == templates.texts(lang).get("director.table"))
    return sorted((r for r in rects(page) if abs(r[0] - MARGIN) < 0.01 and r[1] + r[3] < head[1]), key=lambda r: r[1])


def test_every_table_alike_shows_once_with_the_totals():
    (page,) = director.render_director_pages(rows([4] * 12), title="Cup", round=2)
    got = paragraphs(page)
    assert got == {
        "Every table:": [
            "Base game",
            "30 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
            "4 × fishing-ship markers (1 per player)",
            "4 × matchsticks as fishing ships (1 per player)",
        ],
        "Round total:": [
            "12 × Base game",
            "360 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
            "48 × fishing-ship markers (1 per player)",
            "48 × matchsticks as fishing ships (1 per player)",
        ],
    }


def test_tables_of_three_and_four_seafarers():
    """Ten tables of 4 and two of 3 (tables 11 and 12): 12 x 30 = 360 fish
    tokens, 10 x 4 + 2 x 3 = 46 markers, no matchsticks with Seafarers."""
    data = rows([4] * 10 + [3, 3], "seafarers-sm2010")
    (page,) = director.render_director_pages(data, title="Cup", round=3)
    assert paragraphs(page) == {
        "Every table:": [
            "Base game",
            "Seafarers",
            "1 × pirate ship",
            "3 × frame pieces at the top: E-F, double X, F-G",
            "3 × frame pieces at the bottom: C-B, double X, B-A",
            "30 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
        ],
        "Tables 11, 12:": ["3 × fishing-ship markers (1 per player)"],
        "Other tables:": ["4 × fishing-ship markers (1 per player)"],
        "Round total:": [
            "12 × Base game",
            "12 × Seafarers",
            "12 × pirate ship",
            "36 × frame pieces at the top: E-F, double X, F-G",
            "36 × frame pieces at the bottom: C-B, double X, B-A",
            "360 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
            "46 × fishing-ship markers (1 per player)",
        ],
    }
    assert "matchsticks" not in " ".join(texts(page))
    (de,) = director.render_director_pages(data, title="Cup", round=3, lang="de")
    assert paragraphs(de, "de") == {
        "Jeder Tisch:": [
            "Basisspiel",
            "Seefahrer",
            "1 × Piratenschiff",
            "3 × Rahmenteile oben: E-F, Doppel-X, F-G",
            "3 × Rahmenteile unten: C-B, Doppel-X, B-A",
            "30 × Fischplättchen (1 Plättchen = 2 Fische; mindestens 30 je Tisch, mehr nach Bedarf)",
        ],
        "Tische 11, 12:": ["3 × Fischereischiff-Marker (1 je Spieler)"],
        "Übrige Tische:": ["4 × Fischereischiff-Marker (1 je Spieler)"],
        "Summe der Runde:": [
            "12 × Basisspiel",
            "12 × Seefahrer",
            "12 × Piratenschiff",
            "36 × Rahmenteile oben: E-F, Doppel-X, F-G",
            "36 × Rahmenteile unten: C-B, Doppel-X, B-A",
            "360 × Fischplättchen (1 Plättchen = 2 Fische; mindestens 30 je Tisch, mehr nach Bedarf)",
            "46 × Fischereischiff-Marker (1 je Spieler)",
        ],
    }


def test_oil_springs_5_6_and_tables_listed_as_runs():
    """Tables 1-3 and 5 of 6 players, 4 and 6-9 of 5: 21 + 6 tokens at
    every table, 9 x 30 = 270 fish (the source: at least 30), 4 x 6 + 5 x 5 = 49 markers and sticks."""
    data = rows([6, 6, 6, 5, 6, 5, 5, 5, 5], "oil-springs-5-6")
    (page,) = director.render_director_pages(data, title=None)
    got = paragraphs(page)
    assert got["Every table:"] == [
        "Base game",
        "5-6 player extension",
        "Oil Springs set",
        "21 × oil tokens",
        "6 × metropolis tokens",
        "4 × oil-spring tiles (placed as the front shows)",
        "1 × Champion of the Environment token",
        "7 × VP tokens",
        "1 × disaster track with its marker",
        "30 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
    ]
    assert got["Tables 1–3, 5:"] == [
        "6 × fishing-ship markers (1 per player)",
        "6 × matchsticks as fishing ships (1 per player)",
    ]
    assert got["Other tables:"] == [
        "5 × fishing-ship markers (1 per player)",
        "5 × matchsticks as fishing ships (1 per player)",
    ]
    assert got["Round total:"] == [
        "9 × Base game",
        "9 × 5-6 player extension",
        "9 × Oil Springs set",
        "189 × oil tokens",
        "54 × metropolis tokens",
        "36 × oil-spring tiles (placed as the front shows)",
        "9 × Champion of the Environment token",
        "63 × VP tokens",
        "9 × disaster track with its marker",
        "270 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
        "49 × fishing-ship markers (1 per player)",
        "49 × matchsticks as fishing ships (1 per player)",
    ]
    assert list(got) == ["Every table:", "Tables 1–3, 5:", "Other tables:", "Round total:"]


def test_tables_without_material_are_named_not_others():
    """A table without material (empty) is in no list: the ones with
    material are named, nothing is "every table" or "other"."""
    data = rows([4, 4]) + [director.DirectorRow(3, "base-3-4", "B4SS-0000-0000-0003", "r1/t3")]
    (page,) = director.render_director_pages(data, title=None)
    assert paragraphs(page) == {
        "Tables 1, 2:": [
            "Base game",
            "30 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
            "4 × fishing-ship markers (1 per player)",
            "4 × matchsticks as fishing ships (1 per player)",
        ],
        "Round total:": [
            "2 × Base game",
            "60 × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
            "8 × fishing-ship markers (1 per player)",
            "8 × matchsticks as fishing ships (1 per player)",
        ],
    }
    one = rows([4]) + [director.DirectorRow(2, "base-3-4", "B4SS-0000-0000-0002", "r1/t2")]
    assert "Table 1:" in paragraphs(director.render_director_pages(one, title=None)[0])


def check_page(page: str, paper: str, lang: str, boxes_above: int) -> None:
    """No two texts overlap, all on the page at 8 pt or more, nothing in a
    check box, ``boxes_above`` framed boxes above the column heads, each
    text inside a frame or clear of it, the frames apart."""
    boxes = text_boxes(page)
    assert overlaps(boxes) == []
    w, h = templates.paper_size(paper)
    for x0, top, x1, bottom, text in boxes:
        assert MARGIN - 0.01 <= x0 and x1 <= w - MARGIN + 0.01, text
        assert MARGIN - 0.01 <= top and bottom <= h - MARGIN + 1.0, text
    sizes = [float(e.get("font-size")) for e in ET.fromstring(page.encode()).iter(f"{SVG}text")]
    assert min(sizes) >= MIN_FONT_MM - 1e-9
    for bx, by, bw, bh in (r for r in rects(page) if abs(r[2] - G["box"]) < 0.01 and abs(r[3] - G["box"]) < 0.01):
        assert not any(x0 < bx + bw and bx < x1 and top < by + bh and by < bottom for x0, top, x1, bottom, _ in boxes)
    framed = frames(page, lang)
    assert len(framed) == boxes_above
    assert all(abs(r[2] - (w - 2 * MARGIN)) < 0.01 for r in framed)
    for fx, fy, fw, fh in framed:  # every text is inside a frame or clear of it
        for x0, top, x1, bottom, text in boxes:
            inside = fx < x0 and x1 < fx + fw and fy < top and bottom < fy + fh
            apart = bottom <= fy or top >= fy + fh
            assert inside or apart, text
    for a, b in zip(framed, framed[1:]):  # frames stacked, not overlapping
        assert a[1] + a[3] < b[1]


@pytest.mark.parametrize("paper,lang", [("a4", "en"), ("letter", "de"), ("a4", "de-CH"), ("letter", "en")])
def test_no_overlaps_with_material(paper, lang):
    notes = director.notes_for(layout.load("seafarers-sm2010"), lang)
    cases = [
        rows([4] * 12),
        rows([4, 4, 3] * 4, "seafarers-sm2010"),
        rows([6, 5] * 5, "oil-springs-5-6-fixed", players=False),
        rows([4, 3] * 60, "seafarers-sm2010"),
    ]
    for data in cases:
        for extra in ({}, {"key_file": "key.pdf", "notes": notes}):
            pages = director.render_director_pages(
                data,
                title="Schweizer Catan-Meisterschaft 2010",
                round=3,
                lang=lang,
                paper=paper,
                seed="x" * 30,
                **extra,
            )
            for i, page in enumerate(pages):
                check_page(page, paper, lang, (i == 0) + bool(extra))


@pytest.mark.parametrize("n,sizes", [(120, (4,)), (120, (4, 4, 3)), (500, (4, 3))])
def test_many_tables_paginate_with_the_box_on_the_first_page(n, sizes):
    data = rows([sizes[t % len(sizes)] for t in range(n)], "seafarers-sm2010")
    pages = director.render_director_pages(
        data,
        title="Big Open",
        round=2,
        seed="r",
        key_file="key.pdf",
        notes=director.notes_for(layout.load("seafarers-sm2010")),
    )
    h = templates.paper_size("a4")[1]
    seen, per_page = [], []
    for i, page in enumerate(pages, start=1):
        words = texts(page)
        ids = [x for x in words if x.startswith("B4SS-")]
        seen += ids
        per_page.append(len(ids))
        assert ("Round total:" in words) == (i == 1)
        assert words[-1] == f"Page {i} of {len(pages)}"
        bottom = max(b[3] for b in text_boxes(page) if b[4] != words[-1])
        assert bottom <= h - MARGIN - 0.75 * G["footer"]  # rows end above the footer
    assert seen == [f"B4SS-0000-0000-{t:04d}" for t in range(1, n + 1)]
    assert 0 < per_page[0] <= per_page[1] and per_page[1:-1] == [per_page[1]] * (len(pages) - 2)
    markers = sum(sizes[t % len(sizes)] for t in range(n))
    assert paragraphs(pages[0])["Round total:"] == [
        f"{n} × Base game",
        f"{n} × Seafarers",
        f"{n} × pirate ship",
        f"{3 * n} × frame pieces at the top: E-F, double X, F-G",
        f"{3 * n} × frame pieces at the bottom: C-B, double X, B-A",
        f"{30 * n} × fish tokens (1 token = 2 fish; at least 30 a table, more as the players need)",
        f"{markers} × fishing-ship markers (1 per player)",
    ]


def test_without_material_the_pages_are_as_before():
    """Pinned: the sha256 of these pages as rendered without material
    (first pinned at commit 784800d; renewed by issue 26: seeds whole, the
    one scenario named under the title, compact rows). A deliberate
    change of the director's page updates them."""
    plain = [
        director.DirectorRow(
            t,
            "base-3-4",
            f"B4SS-0000-0000-{t:04d}",
            f"r1/t{t}",
            tuple(f"{p} {t}" for p in ("Anna", "Ben", "Cid", "Dora")),
        )
        for t in range(1, 13)
    ]
    a = director.render_director_pages(plain, title="Cup", round=3, seed="x", lang="en")
    notes = director.notes_for(layout.load("seafarers-sm2010"), "de")
    bare = [director.DirectorRow(t, "base-3-4", f"B4SS-0000-0000-{t:04d}", f"r1/t{t}") for t in range(1, 41)]
    b = director.render_director_pages(bare, title=None, lang="de", paper="letter", key_file="key.pdf", notes=notes)
    digest = lambda pages: hashlib.sha256("\x00".join(pages).encode()).hexdigest()  # noqa: E731
    assert (digest(a), len(a)) == ("a32b3ecd9bbee6f5a85a1794a21f6d3955ab6ff1099bd998caf35516db017535", 1)
    assert (digest(b), len(b)) == ("d597c2f163f20fc210f4ec4647495e345541896f92d31531ce9f39f6086919b0", 2)


def test_material_box_speaks_only_the_page_language(xx):  # noqa: F811
    data = [
        director.DirectorRow(
            t,
            "seafarers-sm2010",
            f"B4SS-0000-0000-{t:04d}",
            f"d/t{t}",
            (),
            almanac.table_material("seafarers-sm2010", n, "fishermen"),
        )
        for t, n in ((1, 4), (2, 3), (3, 4))
    ]
    (page,) = director.render_director_pages(data, title="Club", lang=xx, seed="d")
    words = printed(page)
    assert any(w.startswith("«Every table:") for w in words)
    assert leaks(words, ["Club", "d/t1", "d/t2", "d/t3"]) == []
