"""Adding a language is adding one TOML file: a made-up language ``xx``
(every English text wrapped in « ») dropped into a copy of ``templates/``
renders sheets, keys, the director's page and the tournament listings
with no word from anywhere else."""

import re
import shutil
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import setupgen
from setupgen.core import data, templates
from setupgen.render import director, key, listing
from setupgen.tournament import jobs, model

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def wrapped(value):
    if isinstance(value, dict):
        return {k: wrapped(v) for k, v in value.items()}
    if isinstance(value, str):
        return f"«{value}»"
    return value


def toml_text(table: dict, prefix: str = "") -> str:
    """A minimal TOML writer for nested tables of strings."""
    plain = [f"{k} = {json_str(v)}" for k, v in table.items() if not isinstance(v, dict)]
    out = ([f"[{prefix}]"] if prefix and plain else []) + plain
    for k, v in table.items():
        if isinstance(v, dict):
            out.append(toml_text(v, f"{prefix}.{k}" if prefix else k))
    return "\n".join(out) + "\n"


def json_str(v: str) -> str:
    import json

    return json.dumps(v, ensure_ascii=False)


@pytest.fixture()
def xx(tmp_path, monkeypatch):
    folder = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", folder)
    english = tomllib.loads((ROOT / "templates" / "en.toml").read_text(encoding="utf-8"))
    (folder / "xx.toml").write_text(toml_text(wrapped(english)), encoding="utf-8")
    real = data.data_dir
    monkeypatch.setattr(data, "data_dir", lambda name: folder if name == "templates" else real(name))
    monkeypatch.setattr(templates, "data_dir", lambda name: folder if name == "templates" else real(name))
    templates.texts.__globals__["_TEXTS"].clear()
    yield "xx"
    templates.texts.__globals__["_TEXTS"].clear()


def printed(svg: str) -> list[str]:
    root = ET.fromstring(svg.encode("utf-8"))
    return ["".join(el.itertext()) for el in root.iter(f"{SVG}text")]


def leaks(texts, data_words=()):
    """Words printed outside the made-up language's « » spans, once data
    (names, seeds, setup IDs, scenario codes) is taken out. The page's texts
    are read in order as one run, since a wrapped text continues on the next
    line; a text fitted by cutting ends in "…" instead of "»"."""
    rest, before = "\n".join(texts), None
    while rest != before:  # innermost first: a text may hold another ("«{stage}: table 2»" with «Round 1»)
        rest, before = re.sub(r"«[^»«]*?(»|…(?=\s|$))", " ", rest), rest
    for word in sorted(data_words, key=len, reverse=True):
        rest = rest.replace(word, " ")
    rest = re.sub(r"\b[0-9A-Z]{4}(-[0-9A-Z]{4}){3}\b", " ", rest)  # setup IDs
    return [line for line in rest.splitlines() if re.search(r"[A-Za-zÄÖÜäöüß]{2,}", line)]


def test_made_up_language_is_listed(xx):
    assert "xx" in templates.languages()


@pytest.mark.parametrize("scenario", ["base-3-4", "base-5-6", "seafarers-sm2010", "oil-springs", "cities-knights"])
def test_sheet_and_key_speak_only_the_new_language(xx, scenario):
    layout = setupgen.load_layout(scenario)
    board = setupgen.from_seed(layout, "lang")
    pages = [setupgen.render_sheet(board, layout, lang=xx)]
    if any(t.hidden for t in board.tiles):
        pages.append(key.render_key(board, layout, lang=xx))
    for svg in pages:
        texts = printed(svg)
        assert any("«" in t for t in texts)
        assert leaks(texts, ["lang"]) == []


def test_director_page_speaks_only_the_new_language(xx):
    rows = [
        director.DirectorRow(t, "base-3-4", setupgen.from_seed("base-3-4", f"d/t{t}").setup_id, f"d/t{t}")
        for t in range(1, 4)
    ]
    for svg in director.render_director_pages(rows, title="Club", lang=xx, seed="d"):
        assert leaks(printed(svg), ["Club", "d/t1", "d/t2", "d/t3"]) == []


def test_tournament_listings_speak_only_the_new_language(xx, tmp_path):
    folder = tmp_path / "t"
    shutil.copytree(ROOT / "examples" / "australian", folder)
    toml = folder / "tournament.toml"
    toml.write_text(re.sub(r'language = "\w+"', 'language = "xx"', toml.read_text()), encoding="utf-8")
    if 'language = "xx"' not in toml.read_text():
        toml.write_text('language = "xx"\n' + toml.read_text(), encoding="utf-8")
    t = model.load(toml)
    assert t.language == "xx"
    sched = jobs.make_schedule(t, tmp_path / "out")
    names = [p.name for p in t.players] + [p.id for p in t.players] + [t.name, t.seed]
    scenario_codes = [r.scenario for r in t.rounds]
    for page in listing.listing_pages(jobs.schedule_listings(t, sched), paper=t.paper):
        assert leaks(printed(page), names + scenario_codes) == []
    lines = ["round,table,player,vp,winner"]
    for r in sched.round_numbers():
        for table in range(1, sched.tables(r) + 1):
            for seat, pid in enumerate(sched.table(r, table)):
                lines.append(f"{r},{table},{pid},{10 if seat == 0 else 5},{'yes' if seat == 0 else 'no'}")
    (tmp_path / "results.csv").write_text("\n".join(lines) + "\n")
    _, _, pages = jobs.make_standings(t, sched, tmp_path / "results.csv")
    for page in pages:
        assert leaks(printed(page), names) == []
    request, _ = jobs.finals_request(t, sched, tmp_path / "results.csv", 16)
    assert request.title == t.name and request.stage == "semi-final" and request.lang == "xx"
    from setupgen.render import sheet

    assert "«" in sheet.stage_word(request.stage, templates.texts("xx"))  # the stage is named in the language


def page_words(html: str) -> list[str]:
    """What a reader of an HTML page sees: its text nodes and the labels
    shown or read out (``data-label``, shown by the style sheet on a phone;
    ``aria-label``), without the style sheet's and script's names."""
    from html.parser import HTMLParser

    class Texts(HTMLParser):
        def __init__(self):
            super().__init__()
            self.out, self.skip = [], 0

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("script", "style", "svg")
            self.out += [v for k, v in attrs if k in ("data-label", "aria-label") and v]

        def handle_endtag(self, tag):
            self.skip -= tag in ("script", "style", "svg")

        def handle_data(self, data):
            if not self.skip and data.strip():
                self.out.append(data.strip())

    parser = Texts()
    parser.feed(html)
    return parser.out


CLUB = [
    ("p1", "Anna"),
    ("p2", "Beat"),
    ("p3", "Carla"),
    ("p4", "Dario"),
    ("p5", "Eva"),
    ("p6", "Fritz"),
    ("p7", "Gina"),
    ("p8", "Hans"),
]


def club_day(tmp_path, rounds: int, final: str = ""):
    """The console's day of an 8-player club event in the made-up language
    (``rounds`` base rounds of 60 minutes, ``final`` a TOML section)."""
    from setupgen.console import day as consoleday

    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in CLUB))
    tour = tmp_path / "t.toml"
    tour.write_text(
        'name = "Club"\nseed = "club"\nlanguage = "xx"\nplayers = "players.csv"\ntable_size = 4\n'
        + '[[rounds]]\nscenario = "base-3-4"\nminutes = 60\n' * rounds
        + final
    )
    return consoleday.open_day(tour, tmp_path / "out", console_url="http://testserver")


def test_player_pages_speak_only_the_new_language(xx, tmp_path):
    """Every page a player sees in the console (issue 27, point 3): the
    public page and its projector view, the player list and a player's
    page, a table's page with the clock and an announcement, the error
    pages of a wrong table link and an unknown player. (The board on a
    table's page is the sheet's drawing, whose words the sheet's test
    above checks; no pack is made here: the worker process would not see
    the made-up language.)"""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from setupgen.console import app as consoleapp
    from setupgen.console import day as consoleday
    from setupgen.console import hall
    from setupgen.tournament import tokens
    from setupgen.tournament.games import Game

    day = club_day(tmp_path, rounds=1)
    try:
        c = TestClient(consoleapp.create_app(day), raise_server_exceptions=False)
        hall.clock_action(day, hall.Stage("preliminary", 1), "start", 60, 1e12)  # far ahead: "running"
        day.store.announce("Lunch", "director")
        consoleday.enter(day, Game.preliminary(1, 1), ["10", "5", "4", "3"], "1")
        seated = day.players_of(Game.preliminary(1, 2))
        table = tokens.table_url("http://testserver", day.key, 1, 2).removeprefix("http://testserver")
        data_words = ["Club", "Lunch"] + [n for _, n in CLUB] + [f"p{k}" for k in range(1, 9)]
        for path in (
            "/public",
            "/public?screen=1",
            "/public/players",
            "/public/players?q=an",
            "/public/players/p1",
            f"/public/players/{seated[0]}",
            table,
            "/t/1/1/" + "0" * 32,
            "/public/players/nobody",
            "/public/nowhere",
        ):
            page = c.get(path)
            assert '<html lang="xx">' in page.text, path
            assert leaks(page_words(page.text), data_words) == [], path
    finally:
        day.store.close()


def test_director_pages_speak_only_the_new_language(xx, tmp_path):
    """Every page of the director's console (issue 28) in the event's
    language: home with a message, the rounds (all and filtered), a
    reported and a confirmed table, a refused result, the standings, the
    finals, the entries, the audit log (all, filtered, empty), an error
    page and the login page. The data words are the players', the event's
    and the reasons the library gives (English by design: docs/console.md)."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from setupgen.console import app as consoleapp
    from setupgen.console import day as consoleday
    from setupgen.console import security
    from setupgen.tournament.games import Game

    day = club_day(tmp_path, rounds=3, final='[final]\nplayers = 8\nscenario = "base-3-4"\n')
    try:
        for t in (1, 2):
            consoleday.enter(day, Game.preliminary(1, t), ["10", "5", "4", "3"], "1")
        consoleday.report(day, Game.preliminary(2, 1), ["10", "7", "5", "3"], "1")
        day.store.announce("Lunch", "director")
        c = TestClient(consoleapp.create_app(day), raise_server_exceptions=False)
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/entries").text).group(1)
        joined = c.post(
            "/entries/change",
            data={"csrf": token, "change": "joined", "player": "", "name": "Lea", "from_round": "3"},
            follow_redirects=False,
        )
        assert joined.status_code == 303
        seating = re.search(r'name="seating" value="([0-9a-f]+)"', c.get("/rounds/2/tables/2").text).group(1)
        refused = c.post(
            "/rounds/2/tables/2",
            data={"csrf": token, "seating": seating, "vp1": "-5", "vp2": "x", "vp3": "", "vp4": "3", "winner": "1"},
        )
        assert refused.status_code == 400
        finals = consoleday.finals(day)
        assert finals is not None and str(finals.problem) == "4 preliminary tables are not confirmed yet"
        data_words = (
            [
                "Club",
                "Lunch",
                "Lea",
                "late01",
                "Europe",
                "UTC",
                "entries.csv",
                "results.csv",
                "standings.csv",
                "standings.pdf",
                "players.pdf",
                "round.pdf",
                "audit.csv",
                "setupgen",
                "schedule",
                "standings",
                "finals",
                "from-round",
                "T.toml",
                "[final]",
                "http://testserver/public",
                "http://testserver",
            ]
            + [n for _, n in CLUB]
            + [p for p, _ in CLUB]
            + [day.table_url(Game.preliminary(r, t)) for r in (1, 2, 3) for t in (1, 2)]
        )
        pages = {
            path: c.get(path)
            for path in (
                "/",
                "/?confirmed=2&changed=3,4",
                "/rounds/1",
                "/rounds/2",
                "/rounds/2?state=reported",
                "/rounds/2/tables/1",
                "/rounds/1/tables/1",
                "/standings",
                "/finals",
                "/entries",
                "/audit",
                "/audit?kind=report",
                "/audit?round=3",
            )
        }
        pages["refused"] = refused
        home = c.get("/").text
        stage = {k: re.search(rf'name="{k}" value="([^"]*)"', home).group(1) for k in ("stage", "round")}
        refusals = {  # the console's own refusals are worded in the event's language too
            "no round": c.get("/rounds/9"),
            "no key.pdf": c.get("/rounds/3/key.pdf"),
            "no final pack": c.get("/finals/final/round.pdf"),
            "minutes": c.post("/clock", data={"csrf": token, **stage, "action": "start", "minutes": "1h"}),
            "other stage": c.post("/clock", data={"csrf": token, "stage": "final", "round": "0", "action": "pause"}),
            "re-plan round": c.post("/entries/replan", data={"csrf": token, "from_round": "x"}),
            "stale form": c.post("/entries/replan", data={"csrf": "0", "from_round": "3"}),
        }
        assert [page.status_code for page in refusals.values()] == [404, 404, 404, 400, 409, 400, 403]
        assert "«There is no round 9 (rounds 1, 2, 3).»" in refusals["no round"].text
        # a field filled into a word hides in its « » span: the console's own reasons are words of their own
        assert "«Not yet: «4 preliminary tables are not confirmed yet».»" in pages["/finals"].text
        pages.update(refusals)
        data_words += ["key.pdf", "final", "1h", "x"]
        for path, page in pages.items():
            assert page.status_code in (200, 400, 403, 404, 409), path
            assert '<html lang="xx">' in page.text, path
            assert leaks(page_words(page.text), data_words) == [], path
        missing = c.get("/rounds/2/tables/9")
        assert missing.status_code == 404 and '<html lang="xx">' in missing.text
        assert "«Error 404»" in missing.text
        guarded = TestClient(
            consoleapp.create_app(day, password=security.hash_password("pw")), raise_server_exceptions=False
        )
        login = guarded.get("/login")
        assert login.status_code == 200 and leaks(page_words(login.text), data_words) == []
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', login.text).group(1)
        wrong = guarded.post("/login", data={"csrf": token, "password": "nope"})
        assert wrong.status_code == 403 and "«Wrong password.»" in wrong.text
        assert leaks(page_words(wrong.text), data_words) == []
    finally:
        day.store.close()
