"""The players' side of the day (issue 27): the round clock (worked by
hand, kept across a restart), announcements, /public by stage and its
projector view, the player list and a player's page, a table's board,
the update channel and console.js, player pages and their errors in the
event's language."""

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console import hall, public, store  # noqa: E402
from setupgen.console.clock import ACTIONS, Clock, ClockError, apply  # noqa: E402
from setupgen.core.errors import SetupgenError  # noqa: E402
from setupgen.tournament import model, tokens  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

G = Game.preliminary
PLAYERS = [
    ("p1", "Anna"),
    ("p2", "Beat"),
    ("p3", "Carla"),
    ("p4", "Dario"),
    ("p5", "Eva"),
    ("p6", "Fritz"),
    ("p7", "Gina"),
    ("p8", "Jürg Müller"),
]


def tournament(tmp_path: Path, head: str = "", minutes: str = "minutes = 90\n", players=PLAYERS) -> Path:
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in players), encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "Club Night"\nseed = "club"\nplayers = "players.csv"\ntable_size = 4\n{head}\n'
        f'[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n{minutes}\n'
        '[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n',
        encoding="utf-8",
    )
    return path


@pytest.fixture
def day(tmp_path):
    d = consoleday.open_day(tournament(tmp_path), tmp_path / "out")
    yield d
    d.store.close()


def client_of(day) -> TestClient:
    return TestClient(consoleapp.create_app(day), raise_server_exceptions=False)


def link(day, n, t, stage=None) -> str:
    """A table's own path (its QR code's URL without the host)."""
    url = (
        tokens.table_url("http://testserver", day.key, n, t)
        if stage is None
        else tokens.table_url("http://testserver", day.key, n, t, stage)
    )
    return url.removeprefix("http://testserver")


def csrf(client: TestClient, path: str = "/") -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(path).text).group(1)


# ------------------------------------------------------------------ the clock, by hand


def test_clock_worked_by_hand():
    c = Clock.started(90, 1000.0)
    assert (c.seconds, c.left(1000.0), c.state(1000.0)) == (5400, 5400, "running")
    assert c.left(1600.0) == 4800 and c.left(1600.4) == 4800 and c.left(1600.5) == 4800  # rounded up
    assert c.left(1599.5) == 4801
    p = c.pause(1600.0)
    assert (p.used, p.since, p.state(9999.0), p.left(9999.0)) == (600.0, None, "paused", 4800)
    r = p.resume(5000.0)
    assert r.left(5060.0) == 4740 and r.ends_at(5060.0) == 5060.0 + 4740
    assert r.left(5000.0 + 4800) == 0 and r.state(5000.0 + 4800) == "up"
    e = r.end(5100.0)
    assert (e.ended, e.left(5100.0), e.state(5100.0), e.ends_at(5100.0)) == (True, 0, "ended", None)
    assert e.used == 700.0


@pytest.mark.parametrize(
    "clock, action",
    [
        (None, "pause"),
        (None, "resume"),
        (None, "end"),
        (Clock(600, 0.0, 1.0), "start"),
        (Clock(600, 0.0, 1.0), "resume"),
        (Clock(600, 10.0, None), "pause"),
        (Clock(600, 10.0, None, True), "end"),
        (Clock(600, 10.0, None, True), "pause"),
        (Clock(600), "lap"),
    ],
)
def test_clock_actions_that_do_not_follow_are_refused(clock, action):
    with pytest.raises(ClockError):
        apply(clock, action, 50.0, 10)


@pytest.mark.parametrize("minutes", [0, 601, -5, True, None])
def test_clock_lengths_out_of_range_are_refused(minutes):
    with pytest.raises(ClockError):
        apply(None, "start", 0.0, minutes)


def test_an_ended_clock_starts_again():
    again = apply(Clock(600, 600.0, None, True), "start", 100.0, 30)
    assert again == Clock(1800, 0.0, 100.0) and ACTIONS == ("start", "pause", "resume", "end")


def test_clock_kept_in_the_database_across_a_restart(tmp_path):
    s = store.Store(tmp_path)
    s.change_round_clock("preliminary", 2, lambda old: apply(old, "start", 1000.0, 60), "start", "director")
    s.change_round_clock("preliminary", 2, lambda old: apply(old, "pause", 1300.0, None), "pause", "director")
    with pytest.raises(ClockError):  # refused inside the transaction: nothing stored, no audit row
        s.change_round_clock("preliminary", 2, lambda old: apply(old, "pause", 1400.0, None), "pause", "director")
    s.close()
    again = store.Store(tmp_path)
    clock = again.round_clock("preliminary", 2)
    assert clock == Clock(3600, 300.0, None) and clock.left(99999.0) == 3300
    assert again.round_clock("preliminary", 1) is None and again.round_clock("final", 1) is None
    assert [(e.action, e.round, e.table) for e in again.audit()] == [("clock-pause", 2, 0), ("clock-start", 2, 0)]
    assert json.loads(again.audit()[0].new) == {"ended": False, "seconds": 3600, "since": None, "used": 300.0}


def test_announcements_posted_removed_and_audited(tmp_path):
    s = store.Store(tmp_path, clock=lambda: "2026-12-02T10:00:00Z")
    first = s.announce("  Lunch   at 12:30 ", "director")
    second = s.announce("Round 2 starts at 13:30", "director")
    assert first.text == "Lunch at 12:30" and [a.text for a in s.announcements()] == [second.text, first.text]
    s.remove_announcement(first.id, "director")
    assert s.announcements() == [second]
    with pytest.raises(store.StoreError, match="no announcement"):
        s.remove_announcement(first.id, "director")
    for bad in ("", "   ", "x" * (store.MAX_ANNOUNCEMENT + 1)):
        with pytest.raises(store.StoreError):
            s.announce(bad, "director")
    assert [e.action for e in s.audit()] == ["unannounce", "announce", "announce"]
    assert json.loads(s.audit()[0].old) == {"id": first.id, "text": "Lunch at 12:30"}
    assert s.announce("x" * store.MAX_ANNOUNCEMENT, "director").text == "x" * store.MAX_ANNOUNCEMENT


@pytest.mark.parametrize(
    "value, ok",
    [
        ("90", True),
        ("1", True),
        ("600", True),
        ("0", False),
        ("601", False),
        ("true", False),
        ('"90"', False),
        ("9.5", False),
    ],
)
def test_minutes_in_the_tournament_file(tmp_path, value, ok):
    path = tournament(tmp_path, minutes=f"minutes = {value}\n")
    if ok:
        assert model.load(path).round(1).minutes == int(value) and model.load(path).round(2).minutes is None
    else:
        with pytest.raises(SetupgenError, match="minutes"):
            model.load(path)


# ------------------------------------------------------------------ the director's clock and announcements on the pages


def test_clock_and_announcement_shown_on_public_and_table_pages(day):
    c = client_of(day)
    token = csrf(c)
    assert "90" in c.get("/").text  # the round's minutes fill the start form
    started = c.post(
        "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": "90"}
    )
    assert started.status_code == 200
    page = c.get("/public").text
    assert re.search(r'class="clock running" data-left="(5400|539\d)"', page)
    assert re.search(r"Time left: <span class=\"left\">1:(30:00|29:5\d)</span> \(until \d\d:\d\d\)", page)
    c.post("/announcements", data={"csrf": token, "text": "Lunch <b>now</b>"})
    table = c.get(link(day, 1, 2)).text
    assert "Lunch &lt;b&gt;now&lt;/b&gt;" in table and "Time left:" in table
    assert c.post("/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "pause"}).is_success
    assert "Clock paused: <span" in c.get("/public").text
    refused = c.post("/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "pause"})
    assert refused.status_code == 409 and "not running" in refused.text
    stale = c.post("/clock", data={"csrf": token, "stage": "final", "round": "1", "action": "resume"})
    assert stale.status_code == 409 and "another stage" in stale.text
    for bad in ("0", "x", "601"):
        assert c.post(
            "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": bad}
        ).status_code in (400, 409)
    shown = day.store.announcements()[0]
    assert c.post(f"/announcements/{shown.id}/remove", data={"csrf": token}).is_success
    assert "Lunch" not in c.get("/public").text
    assert c.post(f"/announcements/{shown.id}/remove", data={"csrf": token}).status_code == 404
    assert c.post("/announcements", data={"text": "no token"}).status_code == 403


def test_clock_survives_a_console_restart(tmp_path):
    path = tournament(tmp_path)
    first = consoleday.open_day(path, tmp_path / "out")
    hall.clock_action(first, hall.Stage("preliminary", 1), "start", 90, 1000.0)
    hall.clock_action(first, hall.Stage("preliminary", 1), "pause", None, 1000.0 + 1200)
    first.store.close()
    again = consoleday.open_day(path, tmp_path / "out")
    try:
        page = client_of(again).get("/public").text
        assert 'data-left="4200"' in page and 'Clock paused: <span class="left">1:10:00</span>' in page
    finally:
        again.store.close()


# ------------------------------------------------------------------ /public, players, a player's page


def confirm(day, game, vps, winner):
    consoleday.enter(day, game, [str(v) for v in vps], str(winner))
    consoleday.confirm(day, game)


def test_players_list_search_and_a_players_page(day):
    c = client_of(day)
    listed = c.get("/public/players").text
    assert all(f">{n}</a>" in listed for _, n in PLAYERS) and "8 players" in listed
    found = c.get("/public/players?q=muller").text  # accents and case ignored
    assert "Jürg Müller" in found and "Anna" not in found
    assert "Jürg Müller" in c.get("/public/players?q=J%C3%9CRG").text  # "JÜRG": case and accents both ways
    assert "Jürg Müller" in c.get("/public/players?q=P8").text and "Anna" in c.get("/public/players?q=p1").text
    at = {p: (t, k) for t in (1, 2) for k, p in enumerate(day.schedule.table(1, t), start=1)}["p8"]
    assert f'Jürg Müller</a> <span class="hint">· Table {at[0]}, Start {at[1]}</span>' in found
    assert "No player matches “zz&lt;x”." in c.get("/public/players?q=zz<x").text
    seats = {p: (t, k) for t in (1, 2) for k, p in enumerate(day.schedule.table(1, t), start=1)}
    table, seat = seats["p8"]
    mine = c.get("/public/players/p8").text
    assert f"Round 1: table {table}, start position {seat}" in mine and "No confirmed game yet." in mine
    assert "No rank yet" in mine
    players = day.players_of(G(1, table))
    vps = [10 if p == "p8" else 4 + k for k, p in enumerate(players)]
    confirm(day, G(1, table), vps, players.index("p8") + 1)
    mine = c.get("/public/players/p8").text
    # a table of 4 gives 4/3/2/1 placing points: the winner takes 4
    row = re.search(
        r"<tr><td>Round 1</td><td class=\"num\">(\d)</td><td class=\"num\">(\d)</td>"
        r"<td class=\"num\">(\d+) <span class=\"phone\" aria-hidden=\"true\">★</span></td>"
        r"<td class=\"wide\">yes</td><td class=\"num\">(\S+)</td></tr>",
        mine,
    )
    assert row and row.groups() == (str(table), str(seat), "10", "4")
    assert "Rank 1 of 4 in the standings" in mine
    assert c.get("/public/players/nobody").status_code == 404


def test_public_page_follows_the_stage_and_the_projector_pages(tmp_path):
    players = [(f"p{i:02d}", f"Player {i:02d}") for i in range(1, 41)]  # 10 tables: two projector pages
    path = tournament(tmp_path, players=players)
    day = consoleday.open_day(path, tmp_path / "out")
    try:
        c = client_of(day)
        page = c.get("/public").text
        assert "<h1>Round 1 <small>" in page and page.count('<th scope="row"') == 10
        first = c.get("/public?screen=1").text
        assert 'content="15;url=/public?screen=1&amp;page=2"' in first and "Page 1 of 2" in first
        assert first.count('<th scope="row"') == 6 == public.SCREEN_TABLES and 'class="screen"' in first
        second = c.get("/public?screen=1&page=2").text
        assert second.count('<th scope="row"') == 4 and "Table 10" in second and "page=1" in second
        assert "Table 7<" in second and "Table 6<" not in second
        assert c.get("/public?screen=1&page=x").status_code == 200
        for t in range(1, 11):
            confirm(day, G(1, t), (10, 3, 4, 5), 1)
        assert "<h1>Round 2 <small>" not in c.get("/public").text  # no pack or result of round 2 yet
        consoleday.enter(day, G(2, 1), ["10", "3", "4", "5"], "1")
        assert "<h1>Round 2 <small>" in c.get("/public").text
    finally:
        day.store.close()


def test_public_page_during_the_final(tmp_path):
    path = tournament(tmp_path, head="", minutes="")
    path.write_text(path.read_text() + '\n[final]\nplayers = 8\nscenario = "base-3-4"\nminutes = 75\n')
    day = consoleday.open_day(path, tmp_path / "out")
    try:
        for n in (1, 2):
            for t in (1, 2):
                confirm(day, G(n, t), (10, 3 + t, 4, 5), 1)
        c = client_of(day)
        consoleday.make_finals_pack(day)
        stage = hall.current_stage(day)
        assert stage == hall.Stage("final", 1) and hall.stage_minutes(day, stage) == 75
        page = c.get("/public").text
        assert "<h1>Final </h1>" in page and "Choice 1" in page and "Round 2" not in page.split("<h2>")[0]
        final = [day.names()[p] for p in day.players_of(Game.finals("final", 1))]
        assert all(n in page for n in final)
        assert 'value="75"' in c.get("/").text
        seat = c.get(f"/public/players/{day.players_of(Game.finals('final', 1))[2]}").text
        assert "Final: table 1, choice 3" in seat
        assert "<svg" in c.get(link(day, 1, 1, "final")).text  # the final's board
    finally:
        day.store.close()


# ------------------------------------------------------------------ a table's board


def test_table_page_shows_its_board_once_the_pack_is_made(day):
    c = client_of(day)
    url = link(day, 1, 2)
    assert "once the director has made this round" in c.get(url).text
    consoleday.make_pack(day, 1)
    page = c.get(url).text
    svg = page.split('<figure class="board">', 1)[1].split("</figure>", 1)[0]
    assert svg.startswith('<svg baseProfile="full" xmlns="http://www.w3.org/2000/svg" version="1.1" class="board"')
    assert "style=" not in svg and "<script" not in svg and "<?xml" not in svg
    assert "Check the board you built" in page and "face-down" not in page  # a base board has none
    from setupgen.core.board import Board
    from setupgen.render.sheet import board_picture

    board = Board.from_json((day.folder / "round-1" / "table-02.json").read_text())
    assert public.inline_svg(str(board_picture(board, "en")), "board") == svg


def test_board_drawing_shows_nothing_of_a_face_down_hex():
    import setupgen
    from setupgen.core import layout as layouts
    from setupgen.render.sheet import board_picture

    lay = layouts.load("seafarers-sm2010")
    board = setupgen.from_seed(lay, "hidden")
    hidden = [k for k, t in enumerate(board.tiles) if t.hidden]
    assert len(hidden) >= 2
    terrains = [board.tiles[k].terrain for k in hidden]
    assert len(set(terrains)) > 1
    rng = random.Random(7)
    picture = board_picture(board, "de-CH")
    for _ in range(5):
        shuffled = terrains[:]
        while shuffled == terrains:
            rng.shuffle(shuffled)
        tiles = list(board.tiles)
        for k, terrain in zip(hidden, shuffled):
            tiles[k] = dataclasses.replace(tiles[k], terrain=terrain)
        other = dataclasses.replace(board, tiles=tuple(tiles))
        assert other != board and board_picture(other, "de-CH") == picture


# ------------------------------------------------------------------ the update channel and the script


def test_update_channel_and_script(day):
    c = client_of(day)
    page = c.get("/public")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert '<script src="/console.js" defer></script>' in page.text
    assert not re.search(r"<script(?![^>]*\bsrc=)", page.text)  # no inline script anywhere
    stamp = re.search(r'data-stamp="([^"]+)"', page.text).group(1)
    status = c.get("/public/status.json").json()
    assert status == {"stamp": stamp, "poll": 5, "clock": None}
    for other in ("/public?screen=1", "/public/players/p3"):  # every page's stamp is its channel's: no reload loop
        assert re.search(r'data-stamp="([^"]+)"', c.get(other).text).group(1) == stamp, other
    confirm(day, G(1, 1), (10, 3, 4, 5), 1)
    assert c.get("/public/status.json").json()["stamp"] != stamp
    url = link(day, 1, 2)
    table = c.get(url).text
    assert f'data-status="{url}/status.json"' in table
    table_stamp = re.search(r'data-stamp="([^"]+)"', table).group(1)
    assert c.get(url + "/status.json").json()["stamp"] == table_stamp
    consoleday.report(day, G(1, 2), ["10", "3", "4", "5"], "1")
    assert c.get(url + "/status.json").json()["stamp"] != table_stamp
    assert c.get("/t/1/2/" + "0" * 32 + "/status.json").status_code == 404
    script = c.get("/console.js")
    assert script.headers["content-type"].startswith("text/javascript") and "setInterval(poll, every)" in script.text
    assert re.search(r"var every = (\d+);", script.text).group(1) == "5000"  # at most every 5 s
    assert "Set-Cookie" not in script.headers and "set-cookie" not in c.get("/public/players").headers


# ------------------------------------------------------------------ the event's language on every player page


def test_player_pages_and_their_errors_in_the_events_language(tmp_path):
    path = tournament(tmp_path, head='language = "de-CH"\n')
    day = consoleday.open_day(path, tmp_path / "out")
    try:
        c = client_of(day)
        for where, words in (
            ("/public", ["Runde 1", "Rangliste", "Noch keine bestätigten Ergebnisse."]),
            ("/public/players", ["Spielerinnen und Spieler", "Suchen"]),
            ("/public/players/p1", ["Runde 1: Tisch", "Startposition", "Noch kein Rang"]),
        ):
            page = c.get(where)
            assert page.status_code == 200 and '<html lang="de-CH">' in page.text, where
            assert all(w in page.text for w in words), where
            assert "ß" not in page.text
        for where, status, words in (
            ("/t/1/1/" + "0" * 32, 404, "Dieser Tisch-Link ist ungültig"),
            ("/public/nowhere", 404, "Diese Seite gibt es nicht."),
            ("/public/players/nobody", 404, "Diese Person gibt es nicht."),
        ):
            page = c.get(where)
            assert page.status_code == status and words in page.text and "Fehler 404" in page.text, where
            assert '<html lang="de-CH">' in page.text and "Back" not in page.text and "Zurück" in page.text
        url = link(day, 1, 1)
        form_token = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get(url).text).group(1)
        seating = re.search(r'name="seating" value="([0-9a-f]+)"', c.get(url).text).group(1)
        names = [day.names()[p] for p in day.players_of(G(1, 1))]
        bad = c.post(
            url, data={"csrf": form_token, "seating": seating, "vp1": "-5", "vp2": "x", "vp3": "", "vp4": "99"}
        )
        found = re.findall(r"<li>(.*?)</li>", bad.text)
        assert bad.status_code == 400 and found[0] == "Wählt den Sieger" and len(found) == 5, found
        assert f"{names[0]}: SP -5: nicht negativ" in found and f"{names[1]}: SP &#39;x&#39;: keine ganze Zahl" in found
        assert f"{names[2]}: SP fehlen" in found and f"{names[3]}: SP 99: mehr als 20 (Runde 1: Ziel 10 + 10)" in found
        low = c.post(
            url,
            data={
                "csrf": form_token,
                "seating": seating,
                "vp1": "8",
                "vp2": "9",
                "vp3": "3",
                "vp4": "2",
                "winner": "1",
            },
        )
        assert f"Sieger {names[0]} hat 8 SP, aber {names[1]} hat 9" in low.text
        stale = c.post(url, data={"csrf": "wrong", "vp1": "10", "winner": "1"})
        assert stale.status_code == 403 and "Das Formular ist veraltet" in stale.text
        for _ in range(40):
            c.get("/t/1/1/" + "1" * 32)
        blocked = c.get(url)
        assert blocked.status_code == 429 and "Zu viele ungültige Tisch-Links" in blocked.text
    finally:
        day.store.close()


def test_home_page_has_a_qr_code_of_the_public_page(day):
    page = client_of(day).get("/").text
    qr = page.split("<svg", 1)[1].split("</svg>", 1)[0]
    assert 'class="qr"' in qr and "style=" not in qr and "http://testserver/public" in page


def test_random_hall_forms_and_queries_never_get_a_500(day):
    from urllib.parse import quote

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as hs

    c = client_of(day)
    token = csrf(c)
    text = hs.one_of(hs.text(max_size=40), hs.integers(-(10**30), 10**30).map(str))
    fields = hs.dictionaries(hs.sampled_from(["stage", "round", "action", "minutes", "text", "x"]), text, max_size=6)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        hs.sampled_from(["/clock", "/announcements", "/announcements/1/remove", "/announcements/99/remove"]),
        fields,
        hs.booleans(),
        hs.text(max_size=40),
    )
    def check(path, form, with_csrf, junk):
        if with_csrf:
            form = dict(form, csrf=token)
        assert c.post(path, data=form).status_code < 500
        for url in (
            "/public?screen=1&page=" + quote(junk, safe=""),
            "/public/players?q=" + quote(junk, safe=""),
            "/public/players/" + quote(junk, safe=""),
            "/public?screen=" + quote(junk, safe=""),
        ):
            answer = c.get(url)
            assert answer.status_code < 500 and (answer.status_code != 200 or "<html" in answer.text), url

    check()
    clock = day.store.round_clock("preliminary", 1)
    assert clock is None or 60 <= clock.seconds <= 36_000  # whatever was started kept the range
    assert all(0 < len(a.text) <= store.MAX_ANNOUNCEMENT for a in day.store.announcements())


def test_a_table_page_reloads_for_its_own_result_not_for_another_tables(day):
    c = client_of(day)
    url = link(day, 1, 2)
    stamp = c.get(url + "/status.json").json()["stamp"]
    confirm(day, G(1, 1), (10, 3, 4, 5), 1)  # another table confirmed: this page stays
    assert c.get(url + "/status.json").json()["stamp"] == stamp
    day.store.announce("Lunch", "director")  # an announcement: every page shows it
    after = c.get(url + "/status.json").json()["stamp"]
    assert after != stamp
    consoleday.enter(day, G(1, 2), ["10", "3", "4", "5"], "1")
    assert c.get(url + "/status.json").json()["stamp"] != after


def test_a_pack_made_early_does_not_move_the_hall_on(day):
    c = client_of(day)
    consoleday.enter(day, G(1, 1), ["10", "3", "4", "5"], "1")
    consoleday.make_pack(day, 2)  # round 2's pack made while round 1 is still played
    assert hall.current_stage(day) == hall.Stage("preliminary", 1) and "<h1>Round 1 <small>" in c.get("/public").text
    consoleday.report(day, G(1, 2), ["10", "3", "4", "5"], "1")  # reported is not done: still round 1
    assert hall.current_stage(day).round == 1
    consoleday.confirm(day, G(1, 2))
    assert hall.current_stage(day).round == 2 and "<h1>Round 2 <small>" in c.get("/public").text


def test_announcements_and_clock_forms_refuse_what_the_breaker_found(day):
    c = client_of(day)
    token = csrf(c)
    c.post("/announcements", data={"csrf": token, "text": "\x00nul\x07 and\u200b tab\there"})
    assert day.store.announcements()[0].text == "nul and tab here"  # control and format characters gone
    assert c.post("/announcements/99999999999999999999999/remove", data={"csrf": token}).status_code == 404
    arabic = c.post(
        "/clock", data={"csrf": token, "stage": "preliminary", "round": "1", "action": "start", "minutes": "٣"}
    )
    assert arabic.status_code == 400 and day.store.round_clock("preliminary", 1) is None
