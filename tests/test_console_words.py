"""The players' side in the event's language and time zone (issue 27,
points 2 and 3 for a table's own page): the tournament file's
``timezone``, times in the language's format, and a table's page in
``de-CH`` with its refusal in German."""

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from markupsafe import escape  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console.words import Words, local_time  # noqa: E402
from setupgen.core import templates  # noqa: E402
from setupgen.tournament import model, tokens  # noqa: E402
from setupgen.tournament import standings as st  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

PLAYERS = [("p1", "Anna"), ("p2", "Beat"), ("p3", "Carla"), ("p4", "<b>Dario</b>")]


def tournament(tmp_path: Path, head: str) -> Path:
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in PLAYERS), encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "Clubabend"\nseed = "club"\nplayers = "players.csv"\n{head}\n'
        '[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n',
        encoding="utf-8",
    )
    return path


# ------------------------------------------------------------------ times, worked by hand


@pytest.mark.parametrize(
    "lang, at, want",
    [
        ("en", "2026-12-01T17:51:07Z", "1 Dec 2026, 18:51"),  # CET: UTC+1
        ("de", "2026-12-01T17:51:07Z", "01.12.2026, 18:51 Uhr"),
        ("de-CH", "2026-12-01T17:51:07Z", "01.12.2026, 18:51 Uhr"),
        ("en", "2026-07-01T22:30:00Z", "2 Jul 2026, 00:30"),  # CEST: UTC+2, past midnight
        ("de", "2026-03-29T00:59:59Z", "29.03.2026, 01:59 Uhr"),  # a second before the clocks go forward
        ("de", "2026-03-29T01:00:00Z", "29.03.2026, 03:00 Uhr"),
    ],
)
def test_times_in_the_event_zone_and_the_language_format(lang, at, want):
    assert local_time(at, "Europe/Zurich", templates.texts(lang)) == want


def test_other_zones_and_texts_that_are_no_time():
    en = templates.texts("en")
    assert local_time("2026-12-01T17:51:07Z", "America/New_York", en) == "1 Dec 2026, 12:51"
    assert local_time("2026-12-01T17:51:07Z", "UTC", en) == "1 Dec 2026, 17:51"
    assert local_time("import", "UTC", en) == "import"  # not a time: as it is
    assert local_time("", "UTC", en) == ""


def test_words_escape_their_fields_but_not_markup():
    w = Words("de-CH")
    assert w.lang == "de-CH" and str(w("report")) == "Ergebnis melden"
    assert str(w("won_label", name="<b>x</b>")) == "&lt;b&gt;x&lt;/b&gt; hat gewonnen"
    with pytest.raises(Exception, match="console.nothing"):
        w("nothing")


# ------------------------------------------------------------------ the tournament file's timezone


def test_the_tournament_file_names_its_time_zone(tmp_path):
    assert model.load(tournament(tmp_path, 'timezone = "Europe/Zurich"')).timezone == "Europe/Zurich"
    assert model.load(tournament(tmp_path, "")).timezone is None  # the machine's
    for bad in ('"Europe/Nowhere"', '"../../etc/passwd"', '""', "7"):
        with pytest.raises(model.TournamentError, match="timezone"):
            model.load(tournament(tmp_path, f"timezone = {bad}"))


def test_a_bad_time_zone_is_one_line_and_exit_2(tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    path = tournament(tmp_path, 'timezone = "Mars/Olympus"')
    got = CliRunner().invoke(app, ["schedule", str(path), "-o", str(tmp_path / "out")])
    assert got.exit_code == 2 and "timezone" in got.output and "Traceback" not in got.output
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------ a table's page in de-CH


@pytest.fixture
def swiss(tmp_path):
    day = consoleday.open_day(tournament(tmp_path, 'language = "de-CH"\ntimezone = "Europe/Zurich"'), tmp_path / "out")
    day.store.clock = lambda: "2026-12-01T17:51:07Z"
    yield day
    day.store.close()


def test_a_table_page_speaks_the_event_language(swiss):
    c = TestClient(consoleapp.create_app(swiss), raise_server_exceptions=False)
    url = f"/t/1/1/{tokens.table_token(swiss.key, 1, 1)}"
    page = c.get(url)
    assert page.status_code == 200 and '<html lang="de-CH">' in page.text
    assert "Runde 1 · Tisch 1" in page.text and "Ergebnis melden" in page.text and "Sieger" in page.text
    assert "Report result" not in page.text and "Threshold" not in page.text
    assert "&lt;b&gt;Dario&lt;/b&gt; hat gewonnen" in page.text and "<b>Dario" not in page.text
    token = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)
    seating = re.search(r'name="seating" value="([0-9a-f]+)"', page.text).group(1)
    sent = c.post(
        url,
        data={"csrf": token, "seating": seating, "winner": "1", "vp1": "10", "vp2": "7", "vp3": "5", "vp4": "3"},
        follow_redirects=False,
    )
    assert sent.status_code == 303
    shown = c.get(url).text
    seats = [
        dict(PLAYERS)[p].replace("<", "&lt;").replace(">", "&gt;") for p in swiss.players_of(Game.preliminary(1, 1))
    ]
    assert f"Gesendet am 01.12.2026, 18:51 Uhr: {seats[0]} 10 (Sieger), {seats[1]} 7, " in shown  # Zurich, not 17:51Z
    assert "2026-12-01T17:51:07Z" not in shown
    consoleday.confirm(swiss, Game.preliminary(1, 1))
    assert f"Von der Turnierleitung bestätigt: {seats[0]} 10 (Sieger)" in c.get(url).text
    again = c.post(
        url, data={"csrf": token, "seating": seating, "winner": "2", "vp1": "7", "vp2": "10", "vp3": "5", "vp4": "3"}
    )
    assert again.status_code == 409 and "Nicht gespeichert:" in again.text
    assert "die Turnierleitung hat das Ergebnis dieses Tisches bestätigt" in again.text
    assert "ask the director" not in again.text


def test_the_director_sees_the_same_time_in_the_event_zone(swiss):
    c = TestClient(consoleapp.create_app(swiss), raise_server_exceptions=False)
    consoleday.report(swiss, Game.preliminary(1, 1), ["10", "7", "5", "3"], "1")
    page = c.get("/rounds/1/tables/1").text
    assert "Vom Tisch gemeldet um 01.12.2026, 18:51 Uhr." in page and "Ziel 10 Siegpunkte" in page
    assert "<h1>Runde 1 · Tisch 1 " in page and "Zurück zu Runde 1" in page


SEATS = ("a", "b", "c", "d")
NAMES = {"a": "Anna", "b": "Beat Meier", "c": "Anna: X", "d": "Dora"}


def refused(vp, winner, statuses=None, threshold=12, stage=None):
    """The problems of a form's result (st.check_game) as (who, Problem)."""
    with pytest.raises(st.GameRefused) as exc:
        st.check_game(st.RoundName(3, stage), 2, SEATS, vp, winner, statuses, threshold, shown=NAMES.get)
    return exc.value.problems


@pytest.mark.parametrize(
    "vp, winner, statuses, english, german",
    [
        (["10", "7", "5", "3"], None, None, ["choose the winner"], ["Wählt den Sieger"]),
        (["10", "-5", "5", "3"], 0, None, ["Beat Meier: vp -5 is negative"], ["Beat Meier: SP -5: nicht negativ"]),
        (
            ["x", "7", "", "3"],
            0,
            None,
            ["Anna: vp 'x' is not a whole number", "Anna: X: empty vp"],
            ["Anna: SP &#39;x&#39;: keine ganze Zahl", "Anna: X: SP fehlen"],
        ),
        (
            ["10", "99", "5", "3"],
            0,
            None,
            ["Beat Meier: vp 99 is above 22 (round 3 threshold 12 + 10)"],
            ["Beat Meier: SP 99: mehr als 22 (Runde 3: Ziel 12 + 10)"],
        ),
        (
            ["8", "9", "5", "3"],
            0,
            None,
            ["winner Anna has 8 vp but Beat Meier has 9"],
            ["Sieger Anna hat 8 SP, aber Beat Meier hat 9"],
        ),
        (
            ["10", "+7", "1234567", "3"],
            None,
            None,
            [
                "choose the winner",
                "Beat Meier: vp '+7' has a sign: write the digits alone (7)",
                "Anna: X: vp '1234567' has more than 6 digits",
            ],
            [
                "Wählt den Sieger",
                "Beat Meier: SP &#39;+7&#39;: ohne Vorzeichen schreiben (7)",
                "Anna: X: SP &#39;1234567&#39;: mehr als 6 Ziffern",
            ],
        ),
        (
            ["10", "0", "0", "0"],
            0,
            ["", "no-show", "no-show", "no-show"],
            ["only one player at the table played"],
            ["am Tisch hat nur ein Spieler gespielt"],
        ),
        (
            ["10", "3", "0", "0"],
            2,
            ["", "", "no-show", "banned"],
            [
                "Anna: X: a no-show has 0 vp and is not the winner",
                "Dora: status 'banned' is not one of played, no-show, disqualified",
            ],
            [
                "Anna: X: wer nicht erschienen ist, hat 0 SP und ist nicht Sieger",
                "Dora: Status &#39;banned&#39; ist unbekannt (gespielt, nicht erschienen, disqualifiziert)",
            ],
        ),
        (["10", "3"], 0, None, ["give the VP of all 4 players"], ["Gebt die SP aller 4 Spieler an"]),
    ],
)
def test_a_refused_results_problems_in_the_events_language(vp, winner, statuses, english, german):
    problems = refused(vp, winner, statuses)
    assert st.GameRefused(problems).lines == english
    assert [Words("de").problem(p, who) for who, p in problems] == german
    assert [Words("en").problem(p, who) for who, p in problems] == [str(escape(e)) for e in english]


def test_a_finals_tables_problem_names_the_stage_in_the_events_language():
    ((who, problem),) = refused(["10", "40", "5", "3"], 0, threshold=13, stage="final")
    assert str(problem) == "vp 40 is above 23 (final threshold 13 + 10)"
    assert Words("de-CH").problem(problem, who) == "Beat Meier: SP 40: mehr als 23 (Final: Ziel 13 + 10)"
    assert Words("de").problem(problem) == "SP 40: mehr als 23 (Finale: Ziel 13 + 10)"


def test_a_form_that_is_fine_gives_its_rows():
    rows = st.check_game(st.RoundName(3), 2, SEATS, [" 10", "10 ", "0", "3"], 1, ["", "played", "no-show", ""], 12)
    assert [(r.player, r.vp, r.winner, r.status) for r in rows] == [
        ("a", 10, False, "played"),
        ("b", 10, True, "played"),
        ("c", 0, False, "no-show"),
        ("d", 3, False, "played"),
    ]
