"""Issue 42, point 4: the small things a director and the players see.

Who entered a result stays visible after *back to reported*; one word per
term per language (the final and the semi-final in de-CH, placing points in
German); the finals form's first column is the choosing order; a failed
login says so; at most a few announcements on the hall's pages, and the
length refusal counts what was typed; no meta refresh where the update
channel serves; the audit log wraps at word boundaries."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from console_forms import form_token  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console import security, store  # noqa: E402
from setupgen.tournament import tokens  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
G = Game.preliminary


def club(tmp_path: Path, language: str = "en", final: bool = False, rounds: int = 1) -> Path:
    (tmp_path / "players.csv").write_text(
        "id,name\n" + "".join(f"p{k},Player {k}\n" for k in range(1, 9)), encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "Club"\nseed = "club"\nplayers = "players.csv"\ntable_size = 4\nlanguage = "{language}"\n'
        + '\n[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n' * rounds
        + ('\n[final]\nplayers = 8\nscenario = "base-3-4"\nvictory_points = 10\n' if final else ""),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def open_day(tmp_path):
    days = []

    def make(language: str = "en", final: bool = False, rounds: int = 1):
        day = consoleday.open_day(club(tmp_path, language, final, rounds), tmp_path / f"out-{len(days)}")
        days.append(day)
        return day

    yield make
    for day in days:
        day.store.close()


def client(day, **kw) -> TestClient:
    return TestClient(consoleapp.create_app(day, **kw), raise_server_exceptions=False)


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_director_result_taken_back_to_reported_says_who_entered_it(open_day):
    day = open_day()
    c = client(day)
    consoleday.enter(day, G(1, 1), ["10", "5", "4", "3"], "1")
    token = form_token(c.get("/rounds/1/tables/1").text)
    back = c.post(
        "/rounds/1/tables/1/undo", data={"csrf": token, "to": "reported", "version": "1"}, follow_redirects=False
    )
    assert back.status_code == 303 and day.state(G(1, 1)) == "reported"
    page = text_of(c.get("/rounds/1/tables/1").text)
    assert "Entered by the director, taken back to reported at" in page and "Reported by the table" not in page
    consoleday.report(day, G(1, 2), ["10", "5", "4", "3"], "1")
    assert "Reported by the table at" in text_of(c.get("/rounds/1/tables/2").text)


def test_de_ch_director_pages_say_final_and_halbfinal_as_the_sheets_do(open_day):
    day = open_day("de-CH", final=True)
    for t in (1, 2):
        consoleday.enter(day, G(1, t), ["10", "5", "4", "3"], "1")
    c = client(day)
    page = text_of(c.get("/finals").text) + text_of(c.get("/").text)
    assert "Final" in page
    assert not re.search(r"\bFinales?\b|\bHalbfinales?\b", page), re.findall(r"\S*[Ff]inale\S*", page)
    consoleday.make_finals_pack(day)
    table = text_of(c.get("/finals/final/tables/1").text)
    assert not re.search(r"\bFinales?\b", table)


def test_placing_points_have_one_german_name_on_every_page():
    # the sheets' and PDFs' word (tournament tables) is the console's too
    de = tomllib.loads((ROOT / "templates" / "de.toml").read_text(encoding="utf-8"))
    words = re.findall(r"\b\w*punkte\b", (ROOT / "templates" / "de.toml").read_text(encoding="utf-8"))
    assert {w for w in words if w.endswith(("Platzpunkte", "Rangpunkte", "Platzierungspunkte"))} == {"Platzpunkte"}
    assert de["console"]["points"] == de["tournament"]["standings_head"]["placing_points"] == "Platzpunkte"


def test_a_finals_form_heads_its_first_column_with_the_choosing_order(open_day):
    day = open_day("de", final=True)
    for t in (1, 2):
        consoleday.enter(day, G(1, t), ["10", "5", "4", "3"], "1")
    consoleday.make_finals_pack(day)
    c = client(day)
    director = c.get("/finals/final/tables/1").text
    assert "<th>Wahl</th>" in director and "<th>Start</th>" not in director
    phone = c.get(f"/t/final/1/{tokens.table_token(day.key, 1, 1, 'final')}").text
    assert "<th>Wahl</th>" in phone
    assert "<th>Start</th>" in c.get("/rounds/1/tables/1").text  # a round's table: the start order


def test_a_failed_login_says_not_logged_in(open_day):
    day = open_day("de")
    c = client(day, password=security.hash_password("richtig-1234", security.password_salt(day.key)))
    token = form_token(c.get("/login").text)
    wrong = c.post("/login", data={"csrf": token, "password": "falsch-1234"})
    assert wrong.status_code == 403
    assert "Nicht angemeldet:" in wrong.text and "Falsches Passwort." in wrong.text
    assert "Nicht gespeichert" not in wrong.text


def test_the_hall_shows_the_newest_announcements_and_the_refusal_counts_what_was_typed(open_day):
    day = open_day()
    for k in range(1, 9):
        day.store.announce(f"Notice number {k}", "director")
    c = client(day)
    shown = re.findall(r"Notice number (\d)", c.get("/public").text)
    assert shown == ["8", "7", "6", "5", "4"] == [str(k) for k in range(8, 8 - store.SHOWN_ANNOUNCEMENTS, -1)]
    table = c.get(f"/t/1/1/{tokens.table_token(day.key, 1, 1)}").text
    assert re.findall(r"Notice number (\d)", table) == shown
    home = re.findall(r"Notice number (\d)", c.get("/").text)
    assert sorted(set(home)) == [str(k) for k in range(1, 9)]  # the director sees all, to remove them
    token = form_token(c.get("/").text)
    long = c.post("/announcements", data={"csrf": token, "text": "x" * 12_000})
    assert long.status_code == 400 and "at most 300 characters, not 12000" in long.text


def test_public_and_player_pages_follow_the_update_channel_without_a_meta_refresh(open_day):
    day = open_day()
    c = client(day)
    assert 'http-equiv="refresh"' not in c.get("/public/players").text  # a search form: nothing to follow
    for path in ("/public", "/public/players/p1", f"/t/1/1/{tokens.table_token(day.key, 1, 1)}"):
        page = c.get(path).text
        assert 'http-equiv="refresh"' not in page, path
        assert 'src="/console.js"' in page and "status.json" in page, path
    assert 'http-equiv="refresh"' in c.get("/public?screen=1").text  # the projector turns its pages


def test_the_audit_log_wraps_at_word_boundaries_and_stacks_on_a_phone():
    css = (ROOT / "setupgen" / "console" / "templates" / "console.css").read_text()
    audit = re.search(r"table\.audit td \{([^}]*)\}", css).group(1)
    assert "break-all" not in audit and "overflow-wrap: break-word" in audit
    template = (ROOT / "setupgen" / "console" / "templates" / "_audit.html").read_text()
    assert 'class="grid audit stack"' in template and template.count("data-label=") == 5


@pytest.mark.parametrize("language, mark", [("de-CH", "."), ("de", ","), ("en", ".")])
def test_the_console_and_the_standings_pdf_write_the_same_figures_the_same_way(open_day, language, mark):
    # issue 42, point 2: CLDR's decimal mark (de-CH writes 10.5, de 10,5) on the page and in the PDF alike.
    # Table 1: seats 2 and 3 level on 5 VP share 2nd and 3rd place: (3 + 2) / 2 = 2.5 placing points each
    import io

    from pypdf import PdfReader

    day = open_day(language)
    consoleday.enter(day, G(1, 1), ["10", "5", "5", "3"], "1")
    consoleday.enter(day, G(1, 2), ["10", "7", "4", "3"], "1")
    c = client(day)
    page = text_of(c.get("/standings").text)
    pdf = c.get("/standings.pdf")
    assert pdf.status_code == 200
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    half = f"2{mark}5"
    other = "2,5" if mark == "." else "2.5"
    assert half in page and half in printed
    assert other not in page and other not in printed
    share = f"43{mark}48"  # 10 of 23 VP at table 1
    assert share in page and share in printed


def test_the_re_plans_message_is_escaped_once(open_day):
    # the quality lines hold "others' turn": escaped once by the words, never again by the page
    day = open_day(rounds=2)
    c = client(day)
    token = form_token(c.get("/entries").text)
    done = c.post("/entries/replan", data={"csrf": token, "from_round": "2"}, follow_redirects=False)
    assert done.status_code == 303
    home = c.get("/").text
    # 8 players over 2 rounds at tables of 4: 4 pairs must meet twice, and do (the bound is reached)
    assert "Re-planned from round 2: Pairs of opponents meeting more than once: 4 (bound 4: optimal)" in home
    assert "&amp;" not in home.split("<main", 1)[1]  # nothing escaped twice


def test_the_re_plans_quality_in_german(open_day):
    day = open_day("de", rounds=2)
    c = client(day)
    token = form_token(c.get("/entries").text)
    assert c.post("/entries/replan", data={"csrf": token, "from_round": "2"}, follow_redirects=False).status_code == 303
    home = text_of(c.get("/").text)
    assert "Neu geplant ab Runde 2:" in home and "(Schranke 4: optimal)" in home
    assert "repeated opponents" not in home and "bound" not in home


@pytest.mark.parametrize(
    "path,file,kind", [("/console.css", "console.css", "text/css"), ("/console.js", "console.js", "text/javascript")]
)
def test_the_style_sheet_and_script_are_revalidated_not_sent_again(open_day, path, file, kind):
    """Issue 48: the static files carry an ETag (the SHA-256 of their
    bytes, worked out here) and ``no-cache``; asked again with that ETag
    the answer is 304 without a body; every other page stays ``no-store``."""
    import hashlib

    c = client(open_day())
    data = (ROOT / "setupgen" / "console" / "templates" / file).read_bytes()
    etag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
    first = c.get(path)
    assert first.status_code == 200 and first.content == data and first.headers["etag"] == etag
    assert first.headers["content-type"].startswith(kind) and first.headers["cache-control"] == "no-cache"
    again = c.get(path, headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == etag
    assert c.get(path, headers={"if-none-match": '"other"'}).status_code == 200
    assert c.get("/public").headers["cache-control"] == "no-store"
    assert again.headers.get_list("cache-control") == ["no-cache"]  # not both
