"""The schedule, standings and finals pages read well (issue 10): scenario
names and start-position wording on the schedule, an alphabetical player
lookup, standings "after round N" with each round's placing points, numbers
right-aligned and in the language's format, finals players with their rank
in choosing order; and the German wording, with ``de-CH`` (Swiss German)
inheriting from ``de``. Expected values are written out by hand."""

import dataclasses
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from setupgen.core import data, templates
from setupgen.core.errors import SetupgenError
from setupgen.render import listing
from setupgen.tournament import jobs, model

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"

#: ids and names; sorted by hand: case ignored, umlauts with their base letters
PLAYERS = [
    ("a", "Anna Äbi"),
    ("b", "bea Müller"),
    ("c", "Özgür Kaya"),
    ("d", "Zora Ulmer"),
    ("e", "Änne Roth"),
    ("f", "Otto Berg"),
    ("g", "Ueli Amsler"),
    ("h", "Adrian Zünd"),
]
LOOKUP_ORDER = [
    "Adrian Zünd",
    "Anna Äbi",
    "Änne Roth",
    "bea Müller",
    "Otto Berg",
    "Özgür Kaya",
    "Ueli Amsler",
    "Zora Ulmer",
]

#: a hand-made schedule (round, table, seat, player) ...
SCHEDULE = """round,table,seat,player
1,1,1,a
1,1,2,b
1,1,3,c
1,1,4,d
1,2,1,e
1,2,2,f
1,2,3,g
1,2,4,h
2,1,1,a
2,1,2,e
2,1,3,b
2,1,4,f
2,2,1,c
2,2,2,g
2,2,3,d
2,2,4,h
"""
#: ... and its results. Placing points 4/3/2/1, shared on VP ties after the winner:
#: R1 T1: a 4, b and c (3+2)/2 = 2.5, d 1;  R1 T2: e 4, f 3, g 2, h 1
#: R2 T1: b 4, a 3, e and f (2+1)/2 = 1.5;  R2 T2: h 4, g 3, c and d 1.5
RESULTS = """round,table,player,vp,winner
1,1,a,10,yes
1,1,b,8,no
1,1,c,8,no
1,1,d,5,no
1,2,e,10,yes
1,2,f,7,no
1,2,g,6,no
1,2,h,2,no
2,1,b,10,yes
2,1,a,10,no
2,1,e,4,no
2,1,f,4,no
2,2,h,10,yes
2,2,g,9,no
2,2,c,3,no
2,2,d,3,no
"""


def make_tournament(folder: Path, language: str = "en", rounds: int = 2, final: bool = True) -> model.Tournament:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in PLAYERS), encoding="utf-8")
    text = (
        f'name = "Pages Open"\nseed = "pages"\nlanguage = "{language}"\nplayers = "players.csv"\n'
        + '[[rounds]]\nscenario = "base-3-4"\n' * rounds
        + ('[final]\nplayers = 8\nscenario = "cities-knights"\n' if final else "")
    )
    (folder / "tournament.toml").write_text(text, encoding="utf-8")
    return model.load(folder / "tournament.toml")


@pytest.fixture()
def played(tmp_path):
    """A tournament of 8 players, its hand-made schedule and results file."""

    def make(language="en", results=RESULTS):
        t = make_tournament(tmp_path / f"t-{language}", language)
        (tmp_path / "schedule.csv").write_text(SCHEDULE)
        (tmp_path / "results.csv").write_text(results)
        return t, jobs.current_schedule(t, tmp_path), tmp_path / "results.csv"

    return make


def texts_of(svg: str) -> list[tuple[str, float, float, str]]:
    """Every text of an SVG page: (text, x, y, text-anchor)."""
    root = ET.fromstring(svg.encode("utf-8"))
    return [
        ("".join(el.itertext()), float(el.get("x")), float(el.get("y")), el.get("text-anchor", "start"))
        for el in root.iter(f"{SVG}text")
    ]


# -- schedule --------------------------------------------------------------------------


def test_round_pages_name_the_scenario_and_say_start_position(played):
    for lang, scenario, first in (
        ("en", "Base game, 3-4 players", "Start position 1"),
        ("de", "Basisspiel, 3-4 Spieler", "Startposition 1"),
    ):
        t, sched, _ = played(lang)
        rounds = jobs.schedule_listings(t, sched)[:2]
        assert [r.subtitle for r in rounds] == [scenario, scenario]
        assert rounds[0].columns[1] == first
        assert "base-3-4" not in " ".join(w for r in rounds for w in (r.title, r.subtitle, *r.columns))


def test_player_lookup_is_alphabetical_ignoring_case_and_umlauts(played):
    t, sched, _ = played("en")
    lookup = jobs.schedule_listings(t, sched)[-1]
    assert [row[0] for row in lookup.rows] == LOOKUP_ORDER
    # table and start position per round, from the hand-made schedule
    assert dict((row[0], row[1:]) for row in lookup.rows)["Anna Äbi"] == (
        "Table 1, start position 1",
        "Table 1, start position 1",
    )
    assert dict((row[0], row[1:]) for row in lookup.rows)["Zora Ulmer"] == (
        "Table 1, start position 4",
        "Table 2, start position 3",
    )
    assert lookup.columns == ("", "Round 1", "Round 2")
    # and printed in that order, top to bottom
    page = listing.render_listing(lookup)[0]
    ys = {text: y for text, _, y, _ in texts_of(page)}
    assert sorted(LOOKUP_ORDER, key=ys.__getitem__) == LOOKUP_ORDER


def test_lookup_key_folds_case_and_accents():
    assert jobs.lookup_key("Ärni")[0] == "arni"
    assert jobs.lookup_key("Straßer")[0] == "strasser"
    names = ["Zürcher", "zoe", "Öhri", "Ober", "Ähler", "Abt"]
    assert sorted(names, key=jobs.lookup_key) == ["Abt", "Ähler", "Ober", "Öhri", "zoe", "Zürcher"]


def test_german_lookup_wording(played):
    t, sched, _ = played("de")
    lookup = jobs.schedule_listings(t, sched)[-1]
    assert lookup.title == "Pages Open · Spieler A–Z"
    assert dict((row[0], row[1:]) for row in lookup.rows)["Zora Ulmer"] == (
        "Tisch 1, Startposition 4",
        "Tisch 2, Startposition 3",
    )


def test_many_rounds_use_the_short_form_with_a_legend(tmp_path):
    t = make_tournament(tmp_path / "t", "en", rounds=7, final=False)
    sched = jobs.make_schedule(t, tmp_path)
    lookup = jobs.schedule_listings(t, sched)[-1]
    assert lookup.subtitle == "8 players · per round: table / start position"
    assert all(re.fullmatch(r"[12] / [1-4]", cell) for row in lookup.rows for cell in row[1:])


# -- standings -------------------------------------------------------------------------


def test_standings_after_round_with_per_round_points_in_german(played):
    t, sched, results = played("de")
    ranked, csv_text, pages = jobs.make_standings(t, sched, results)
    table = jobs.standings_listing(t, ranked, _round_points(t, sched, results))
    assert table.title == "Rangliste nach Runde 2"
    assert table.columns == ("#", "Spieler", "R1", "R2", "Platzpunkte", "SP", "SP-Anteil", "Spiele", "Los")
    # totals: a 7, b 6.5, e 5.5, g 5 and h 5 (g has more capped VP: 15 to 12), f 4.5, c 4, d 2.5
    # VP shares (capped VP over the table's; table totals R1: 31 and 25, R2: 28 and 25):
    # a 10/31 + 10/28 = 32.26 + 35.71; b 8/31 + 10/28 = 25.81 + 35.71; e 10/25 + 4/28 = 40.00 + 14.29;
    # g 6/25 + 9/25; h 2/25 + 10/25; f 7/25 + 4/28 = 28.00 + 14.29; c 8/31 + 3/25; d 5/31 + 3/25 = 16.13 + 12.00
    assert [row[:7] for row in table.rows] == [
        ("1", "Anna Äbi", "4", "3", "7", "20", "67,97"),
        ("2", "bea Müller", "2,5", "4", "6,5", "18", "61,52"),
        ("3", "Änne Roth", "4", "1,5", "5,5", "14", "54,29"),
        ("4", "Ueli Amsler", "2", "3", "5", "15", "60,00"),
        ("5", "Adrian Zünd", "1", "4", "5", "12", "48,00"),
        ("6", "Otto Berg", "3", "1,5", "4,5", "11", "42,29"),
        ("7", "Özgür Kaya", "2,5", "1,5", "4", "11", "37,81"),
        ("8", "Zora Ulmer", "1", "1,5", "2,5", "8", "28,13"),
    ]
    printed = [text for text, *_ in texts_of(pages[0])]
    assert "Rangliste nach Runde 2" in printed and "6,5" in printed and "6.5" not in printed
    # the CSV keeps its format: decimal points, no per-round columns
    assert csv_text.splitlines()[:3] == [
        "rank,player,placing_points,victory_points,vp_share,games",
        "1,a,7,20,67.97,2",
        "2,b,6.5,18,61.52,2",
    ]


def _round_points(t, sched, results):
    from setupgen.tournament import standings as st

    return st.round_points(jobs.results_of(t, sched, results), st.Scoring(dict(t.placing_points)))


def test_round_points_by_hand(played):
    from fractions import Fraction

    t, sched, results = played("en")
    points = _round_points(t, sched, results)
    assert points["b"] == {1: Fraction(5, 2), 2: Fraction(4)}
    assert points["f"] == {1: Fraction(3), 2: Fraction(3, 2)}
    assert points["h"] == {1: Fraction(1), 2: Fraction(4)}


def test_standings_after_the_last_round_with_results(played):
    only_round_1 = "\n".join(line for line in RESULTS.splitlines() if not line.startswith("2,")) + "\n"
    t, sched, results = played("en", only_round_1)
    ranked, _, pages = jobs.make_standings(t, sched, results)
    table = jobs.standings_listing(t, ranked, _round_points(t, sched, results))
    assert table.title == "Standings after round 1"
    assert table.columns[2:4] == ("R1", "Placing pts")
    assert "Standings after round 1" in [text for text, *_ in texts_of(pages[0])]
    # a and e both won with 10 VP; e's share is larger (10/25 = 40.00 to 10/31 = 32.26)
    assert [row[:5] for row in table.rows[:2]] == [
        ("1", "Änne Roth", "4", "4", "10"),
        ("2", "Anna Äbi", "4", "4", "10"),
    ]


def test_standings_numbers_are_right_aligned(played):
    t, sched, results = played("de")
    _, _, pages = jobs.make_standings(t, sched, results)
    texts = texts_of(pages[0])

    def at(word):
        found = [(x, anchor) for text, x, _, anchor in texts if text == word]
        assert found, word
        return found

    # a column's header and numbers end at one x
    for header, values in (
        ("Platzpunkte", ["7", "6,5", "5,5", "2,5"]),
        ("SP-Anteil", ["67,97", "61,52", "28,13"]),
        ("SP", ["20", "18", "14", "8"]),
    ):
        ((hx, hanchor),) = at(header)
        assert hanchor == "end"
        for v in values:
            assert (hx, "end") in at(v), (header, v)
    # names stay left-aligned, starting at one x
    name_x = {x for text, x, _, anchor in texts if text in LOOKUP_ORDER and anchor == "start"}
    assert len(name_x) == 1


# -- finals ----------------------------------------------------------------------------


def test_finals_tables_list_players_in_choosing_order_with_their_rank(played):
    for lang, word in (("en", "rank"), ("de", "Rang")):
        t, sched, results = played(lang)
        request, tables = jobs.finals_request(t, sched, results, 8)
        # ranking a, b, e, g, h, f, c, d; final of 8: ranks 1-4-5-8 and 2-3-6-7, best rank chooses first
        assert tables == (("a", "g", "h", "d"), ("b", "e", "f", "c"))
        assert request.players == (
            (f"Anna Äbi · {word} 1", f"Ueli Amsler · {word} 4", f"Adrian Zünd · {word} 5", f"Zora Ulmer · {word} 8"),
            (f"bea Müller · {word} 2", f"Änne Roth · {word} 3", f"Otto Berg · {word} 6", f"Özgür Kaya · {word} 7"),
        )


STAGE_WORDS = {"en": ("Semi-final", "Final"), "de": ("Halbfinale", "Finale"), "de-CH": ("Halbfinal", "Final")}


@pytest.mark.parametrize("lang", ["en", "de", "de-CH"])
def test_finals_pages_name_their_stage_never_a_blank_round(played, lang, tmp_path):
    """Every page of a finals pack names the stage ("Final"; de "Finale";
    de-CH "Final", "Halbfinal"), with no blank round to fill in; the
    slip's hint starts with the stage; the director's page heads the
    choosing order "Choice"; the pack holds a blank results file named
    so that ``placings`` never takes it for the stage's results."""
    from setupgen.render import director
    from setupgen.render import sheet as sheetmod
    from setupgen.tournament import roundpack

    t, sched, results = played(lang)
    request, tables = jobs.finals_request(t, sched, results, 8)
    semi, final = STAGE_WORDS[lang]
    tx = templates.texts(lang)
    assert request.stage == "final" and request.title == "Pages Open"
    assert sheetmod.stage_word("semi-final", tx) == semi and sheetmod.stage_word("final", tx) == final
    manifest = roundpack.write_round(request, tmp_path / "final")
    blank = tx.get("sheet.round_blank").split()[0]
    for name in ("table-01.svg", "table-01-almanac.svg"):
        words = [w for w, *_ in texts_of((tmp_path / "final" / name).read_text(encoding="utf-8"))]
        assert any(w.endswith(f" · {final}") or w.startswith(f"{final} · ") or f" · {final} · " in w for w in words), (
            name,
            words[:4],
        )
        assert not any("___" in w for w in words) and not any(w.startswith(blank + " ") for w in words)
    sheet_words = [w for w, *_ in texts_of((tmp_path / "final" / "table-01.svg").read_text(encoding="utf-8"))]
    assert any(w.startswith(f"({final}: ") for w in sheet_words)  # the slip's hint
    rows = [
        director.DirectorRow(k, request.scenario, f"ID{k}", request.seed_of(k), request.players[k - 1])
        for k in range(1, request.tables + 1)
    ]
    (page,) = director.render_director_pages(rows, title=request.title, lang=lang, stage=request.stage)
    words = [w for w, *_ in texts_of(page)]
    assert words[0] == f"Pages Open · {final}" and tx.get("slip.rank") in words and tx.get("slip.player") in words
    assert not any("___" in w for w in words)
    blank_file = tmp_path / "final" / "results-final-blank.csv"
    assert manifest["results_template"] == "results-final-blank.csv" and blank_file.is_file()
    lines = blank_file.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "round,table,player,name,vp,winner"
    assert [ln.split(",")[:3] for ln in lines[1:]] == [
        ["final", str(k), p] for k, table in enumerate(tables, 1) for p in table
    ]
    assert jobs.STAGE_RESULTS["final"] == "results-final.csv" != blank_file.name


def test_semi_final_sheets_say_semi_final(played, tmp_path):
    from setupgen.tournament import roundpack

    t, sched, results = played("de-CH")
    request, _ = jobs.finals_request(t, sched, results, 8)
    semi = dataclasses.replace(request, stage="semi-final", results_template=None)
    roundpack.write_round(semi, tmp_path / "semi")
    words = [w for w, *_ in texts_of((tmp_path / "semi" / "table-01.svg").read_text(encoding="utf-8"))]
    assert "Pages Open · Halbfinal" in words and any(w.startswith("(Halbfinal: nach Rang") for w in words)


# -- wording ---------------------------------------------------------------------------


def flat(table, prefix=""):
    out = {}
    for k, v in table.items():
        if isinstance(v, dict):
            out.update(flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def words(lang):
    return flat(dict(templates.texts(lang).data))


def test_german_wording():
    de = words("de")
    assert de["note.no-start-hidden-gold"].endswith("keine Startsiedlungen.")
    assert "äußersten Feldern der großen Insel" in de["note.frame-ships"]
    assert de["sheet.harbor"] == "Hafen (Nummer in der Liste)"
    assert de["sheet.seed"] == "Startwert" and de["tournament.schedule_footer"] == "Startwert {seed}"
    for key, text in de.items():
        plain = re.sub(r"\{\w+\}", "", str(text))  # fields such as {seed} are not words
        assert not re.search(r"\bSeed\b|\bseed\b", plain), key
        assert "Gründungssiedlung" not in plain and "Nummer der Liste" not in plain, key
        assert not re.search(r"(?i)gross|äusser|strasse|schliess|fuss\b", plain), key  # standard German spells ß


def test_english_wording():
    en = words("en")
    assert "the winner is the player who reached {vp} victory points" in en["slip.hint"]
    assert not any("winner is who" in str(v) for v in en.values())
    assert en["tournament.seat"] == "Start position {n}"


# -- de-CH -----------------------------------------------------------------------------


def test_swiss_german_is_german_with_ss():
    assert "de-CH" in templates.languages()
    de, ch = words("de"), words("de-CH")
    assert ch.pop("lang") == "de-CH" and de.pop("lang") == "de"
    assert set(ch) == set(de)
    # Swiss usage of its own: "Halbfinal", "Final" (templates/de-CH.toml)
    own = {
        "tournament.final": "Final",
        "tournament.semi_final": "Halbfinal",
        "almanac.final": "Final",
        "messages.stage_final": "Final",
        "messages.stage_semi_final": "Halbfinal",
        **{f"console.director.{k}": v for k, v in SWISS_CONSOLE.items()},
    }
    for key, text in ch.items():
        assert "ß" not in str(text), key
        expected = own.get(key, de[key].replace("ß", "ss") if isinstance(de[key], str) else de[key])
        assert text == expected, key
    assert (de["tournament.final"], de["tournament.semi_final"]) == ("Finale", "Halbfinale")
    assert (de["messages.stage_final"], de["messages.stage_semi_final"]) == ("Finale", "Halbfinale")
    assert "äussersten Feldern der grossen Insel" in ch["note.frame-ships"]


def test_swiss_german_file_is_german_respelt():
    import tomllib

    own = tomllib.loads((ROOT / "templates" / "de-CH.toml").read_text(encoding="utf-8"))
    assert own == {
        "inherits": "de",
        "lang": "de-CH",
        "spelling": {"ß": "ss"},
        "tournament": {"final": "Final", "semi_final": "Halbfinal"},
        "almanac": {"final": "Final"},
        "console": {"director": SWISS_CONSOLE},
        "messages": {"stage_final": "Final", "stage_semi_final": "Halbfinal"},
    }


#: the console's own words for the finals in Swiss usage (issue 42: one word per term, as the sheets say it)
SWISS_CONSOLE = {
    "semi_finals": "Halbfinal",
    "final": "Final",
    "semi_finals_lower": "den Halbfinal",
    "final_lower": "den Final",
    "winners_hint": "Die Sieger kommen aus den Resultaten des Halbfinals, sobald sie eingetragen sind.",
    "seat_final": "Den Final dieser Sieger setzen und sein Paket machen",
    "stage_semi_final": "Halbfinal",
    "stage_final": "Final",
    "no_final_result": "noch kein Resultat des Finals",
}


def test_swiss_example_speaks_swiss_german():
    t = model.load(ROOT / "examples" / "swiss-2010" / "tournament.toml")
    assert t.language == "de-CH"


@pytest.fixture()
def folder(tmp_path, monkeypatch):
    """A copy of templates/ the loader reads instead of the shipped one."""
    target = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", target)
    real = data.data_dir
    monkeypatch.setattr(templates, "data_dir", lambda name: target if name == "templates" else real(name))
    templates.texts.__globals__["_TEXTS"].clear()
    yield target
    templates.texts.__globals__["_TEXTS"].clear()


def test_inherits_merges_tables_over_a_chain(folder):
    (folder / "xa.toml").write_text('inherits = "en"\n[sheet]\nrow = "Line"\n', encoding="utf-8")
    (folder / "xb.toml").write_text('inherits = "xa"\n[terrain]\nforest = "Wood"\n', encoding="utf-8")
    xb = templates.texts("xb")
    assert xb.get("terrain.forest") == "Wood" and xb.get("terrain.hills") == "Hills"
    assert xb.get("sheet.row") == "Line" and xb.get("sheet.table") == "Table"
    assert not xb.has("inherits")


def test_inherits_errors_name_the_file(folder):
    (folder / "xa.toml").write_text('inherits = "xb"\n', encoding="utf-8")
    (folder / "xb.toml").write_text('inherits = "xa"\n', encoding="utf-8")
    (folder / "xc.toml").write_text('inherits = "fr"\n', encoding="utf-8")
    with pytest.raises(SetupgenError, match=r"inheritance cycle: xa -> xb -> xa"):
        templates.texts("xa")
    with pytest.raises(SetupgenError, match=r"templates/xc.toml: inherits: no language 'fr'"):
        templates.texts("xc")


def test_spelling_rewrites_inherited_texts_down_the_chain(folder):
    (folder / "xa.toml").write_text('inherits = "de"\n[spelling]\n"ß" = "ss"\n', encoding="utf-8")
    (folder / "xb.toml").write_text(
        'inherits = "xa"\n[note]\n"robber-off" = "Der Räuber beginnt draußen."\n[spelling]\n"Räuber" = "Bandit"\n',
        encoding="utf-8",
    )
    xb = templates.texts("xb")
    assert xb.get("note.robber-off") == "Der Bandit beginnt draussen."  # its own text, both rules
    assert "äussersten Feldern der grossen Insel" in xb.get("note.frame-ships")  # inherited, respelt
    assert not xb.has("spelling") and not xb.has("inherits")
    (folder / "xc.toml").write_text('inherits = "de"\nspelling = "ss"\n', encoding="utf-8")
    with pytest.raises(SetupgenError, match=r"templates/xc.toml: spelling: expected a table"):
        templates.texts("xc")


# -- no text touches a column edge (issue 26) ---------------------------------------------

EXAMPLES = ["swiss-2010", "australian", "fishermen-club"]


def _cells_touching_edges(listing_: listing.Listing, pages: list[str], paper: str) -> list[str]:
    """Every text of a listing's table whose width, measured with the real
    DejaVu fonts (PIL, tests/sheetsvg.py), leaves less than half the cell
    padding to its column's edges, as readable strings."""
    import sheetsvg as S

    w, _ = templates.paper_size(paper)
    m = templates.style().margin
    cw = w - 2 * m
    edges, x = [], m
    for frac in listing_.widths:
        edges.append((x, x + cw * frac))
        x += cw * frac
    keep = listing.CELL_PAD / 2
    bad = []
    for page in pages:
        for t in S.parse(page)[1]:
            width = S.text_width(t.text, t.size, t.bold, t.mono)
            for j, (left, right) in enumerate(edges):
                start = t.anchor == "start" and abs(t.x - (left + listing.CELL_PAD)) < 0.01
                end = t.anchor == "end" and abs(t.x - (right - listing.CELL_PAD)) < 0.01
                if start or end:
                    x0 = t.x if start else t.x - width
                    if x0 < left + keep - 1e-6 or x0 + width > right - keep + 1e-6:
                        bad.append(f"column {j}: {t.text!r} ({x0:.2f}-{x0 + width:.2f} in {left:.2f}-{right:.2f})")
                    break
    return bad


@pytest.mark.parametrize("example", EXAMPLES)
def test_no_text_touches_a_column_edge_with_the_examples_longest_names(example, tmp_path):
    """The schedule, the standings and the final placings of each example
    (its own players, the longest names included): every cell's text,
    headers too, keeps clear of its column's edges."""
    shutil.copytree(ROOT / "examples" / example, tmp_path / example)
    t = model.load(tmp_path / example / "tournament.toml")
    sched = jobs.make_schedule(t, tmp_path / "out")
    listings = list(jobs.schedule_listings(t, sched))
    lines = ["round,table,player,vp,winner"]
    for r in sched.round_numbers():
        for table in range(1, sched.tables(r) + 1):
            for seat, pid in enumerate(sched.table(r, table)):
                lines.append(f"{r},{table},{pid},{10 if seat == 0 else 9 - seat},{'yes' if seat == 0 else 'no'}")
    (tmp_path / "results.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    ranked, _, _ = jobs.make_standings(t, sched, tmp_path / "results.csv")
    from setupgen.tournament import standings as st

    results = jobs.results_of(t, sched, tmp_path / "results.csv")
    listings.append(
        jobs.standings_listing(t, ranked, st.round_points(results, st.Scoring(dict(t.placing_points), t.tie_breakers)))
    )
    from setupgen.tournament import placings as pl

    longest = max((p.id for p in t.players), key=lambda pid: len(jobs.display_names(t)[pid]))
    placed = [
        pl.Placing(k, s.player, "preliminary", k, decided_by="preliminary_rank") for k, s in enumerate(ranked, start=1)
    ]
    placed[0] = pl.Placing(1, placed[0].player, "semi-final", 1, 2, None, 13, "vp_share")
    listings.append(jobs.placings_listing(t, placed))
    assert any(longest in [s.player for s in ranked] for _ in [0])
    problems = []
    for item in listings:
        pages = listing.render_listing(item, paper=t.paper)
        problems += _cells_touching_edges(item, pages, t.paper)
    assert problems == [], problems[:5]
    # the checker itself: a name pushed against its column's right edge is reported
    item = listings[-1]
    page = listing.render_listing(item, paper=t.paper)[0]
    w, _ = templates.paper_size(t.paper)
    m = templates.style().margin
    name = item.rows[0][1]
    x = m + (w - 2 * m) * item.widths[0] + listing.CELL_PAD
    import sheetsvg as S

    shift = (w - 2 * m) * item.widths[1] - 2 * listing.CELL_PAD - S.text_width(name, listing.ROW_TEXT_MM, False, False)
    moved = page.replace(f'x="{x:.2f}"', f'x="{x:.2f}" data-moved="1"', 1)
    assert _cells_touching_edges(item, [moved], t.paper) == []
    wide = page.replace(f">{name}<", f">{name}{'W' * int(shift / 2 + 3)}<", 1)
    assert _cells_touching_edges(item, [wide], t.paper) != []
