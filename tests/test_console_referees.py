"""Issue 49 on the console's server: a table's report carries its own
submission id and is stored once however often the phone sends it; a
table calls a referee (limited, open from the pack until the result is
confirmed); referees log in with their own password, see the calls, the
round and table pages and the clock, mark calls and add time, and
nothing else; minutes added to one table's clock show on its page and the
director's round page. Every change in the audit log, every refusal in
the event's language. (The phone's outbox and the calls in a real
browser: ``tests/test_console_hall_browser.py``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from console_forms import form_token, result_form  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import calls, security, store  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.tournament import tokens  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

G = Game.preliminary
ID_A = "0123456789abcdef0123456789abcdef"
ID_B = "fedcba9876543210fedcba9876543210"
DIRECTOR, REFEREE = "director-pass", "referee-pass"


def club(tmp_path: Path, language: str = "en") -> Path:
    (tmp_path / "players.csv").write_text(
        "id,name\n" + "".join(f"p{k},Player {k}\n" for k in range(1, 9)), encoding="utf-8"
    )
    path = tmp_path / "t.toml"
    path.write_text(
        f'name = "Club"\nseed = "club"\nplayers = "players.csv"\ntable_size = 4\nlanguage = "{language}"\n'
        + '\n[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\nminutes = 60\n' * 2,
        encoding="utf-8",
    )
    return path


@pytest.fixture
def open_day(tmp_path):
    days = []

    def make(language: str = "en"):
        day = consoleday.open_day(club(tmp_path, language), tmp_path / f"out-{len(days)}")
        days.append(day)
        return day

    yield make
    for day in days:
        day.tasks.close()
        day.store.close()


def app_of(day, referees: bool = False):
    salt = security.password_salt(day.key)
    return consoleapp.create_app(
        day,
        password=security.hash_password(DIRECTOR, salt) if referees else None,
        referee_password=security.hash_password(REFEREE, salt) if referees else None,
    )


def client(app) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def logged_in(app, password: str) -> TestClient:
    c = client(app)
    token = form_token(c.get("/login").text)
    assert c.post("/login", data={"csrf": token, "password": password}, follow_redirects=False).status_code == 303
    return c


def table_url(day, t: int = 2) -> str:
    return f"/t/1/{t}/{tokens.table_token(day.key, 1, t)}"


def reported(c, url: str, vps, winner, submission: str | None, token=None):
    form = result_form(token if token is not None else form_token(c.get(url).text), vps, winner)
    if submission is not None:
        form["submission"] = submission
    return c.post(url, data=form, follow_redirects=False)


def with_pack(day, c) -> None:
    made = c.post("/rounds/1/pack", data={"csrf": form_token(c.get("/").text)}, follow_redirects=False)
    assert made.status_code == 303 and (day.folder / "round-1" / "manifest.json").is_file()


# ------------------------------------------------------------------ part 1: one report, stored once


def test_a_resent_submission_is_stored_once_and_a_new_one_corrects(open_day):
    day = open_day()
    c, url = client(app_of(day)), table_url(day)
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A).status_code == 303
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A).status_code == 303  # the network dropped the answer
    assert [e.action for e in day.store.audit(G(1, 2))] == ["report"]
    assert reported(c, url, (4, 10, 7, 2), 2, ID_B).status_code == 303  # a correction: stored
    assert [e.action for e in day.store.audit(G(1, 2))] == ["report", "report"]
    # a late resend of the first report is recognised: it does not undo the correction
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A).status_code == 303
    assert day.store.result(G(1, 2)).vp == (4, 10, 7, 2) and len(day.store.audit(G(1, 2))) == 2


def test_a_resend_after_the_confirmation_is_recognised_not_refused(open_day):
    day = open_day()
    c, url = client(app_of(day)), table_url(day)
    token = form_token(c.get(url).text)
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A, token).status_code == 303
    confirm = {"csrf": form_token(c.get("/").text), "version": "1"}
    assert c.post("/rounds/1/tables/2/confirm", data=confirm).status_code == 200
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A, token).status_code == 303
    assert "Confirmed by the director" in c.get(url).text
    refused = reported(c, url, (4, 10, 6, 3), 2, ID_B, token)
    assert refused.status_code == 409 and "ask the director to correct it" in refused.text
    assert [e.action for e in day.store.audit(G(1, 2))] == ["confirm", "report"]
    assert not day.store.submitted(ID_B)


def test_a_resend_for_a_seating_that_changed_is_refused(open_day):
    day = open_day()
    c, url = client(app_of(day)), table_url(day)
    token = form_token(c.get(url).text)
    token.seating = "0" * 16  # the form was made for other players (a re-plan since)
    refused = reported(c, url, (4, 10, 6, 2), 2, ID_A, token)
    assert refused.status_code == 409 and day.store.result(G(1, 2)) is None and not day.store.submitted(ID_A)


@pytest.mark.parametrize("bad", ["short", "0123456789ABCDEF0123456789ABCDEF", "x" * 32, ID_A + "0"])
def test_a_malformed_submission_id_is_refused_and_nothing_stored(open_day, bad):
    day = open_day()
    c, url = client(app_of(day)), table_url(day)
    assert reported(c, url, (4, 10, 6, 2), 2, bad).status_code == 400
    assert day.store.result(G(1, 2)) is None


def test_a_report_without_the_script_still_works(open_day):
    day = open_day()
    c, url = client(app_of(day)), table_url(day)
    assert reported(c, url, (4, 10, 6, 2), 2, None).status_code == 303
    assert reported(c, url, (4, 10, 6, 2), 2, None).status_code == 303
    assert [e.action for e in day.store.audit(G(1, 2))] == ["report", "report"]  # no id: nothing to recognise


def test_the_table_page_carries_the_outbox_and_its_words(open_day):
    day = open_day("de")
    c = client(app_of(day))
    page = c.get(table_url(day)).text
    assert 'data-outbox="/t/1/2/' in page and 'name="submission" value=""' in page
    assert 'id="outbox"' in page and "Auf diesem Telefon gespeichert, noch nicht gesendet" in page
    assert "data-outbox" not in c.get("/rounds/1/tables/2").text  # the director's form has no outbox


def test_schema_9_keeps_submissions_calls_added_time_and_roles(tmp_path):
    s = store.Store(tmp_path)
    assert store.version(s.db) == store.SCHEMA_VERSION == 9
    names = {r[0] for r in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"submissions", "calls", "added_time"} <= names
    assert "role" in {r[1] for r in s.db.execute("PRAGMA table_info(sessions)")}
    s.close()


# ------------------------------------------------------------------ part 2: calls


def test_calls_are_limited_worked_by_hand(tmp_path):
    s = store.Store(tmp_path)
    g, t0 = G(1, 3), 1_000_000.0
    first = calls.open_call(s, g, t0)
    assert (first.state, first.waited(t0 + 75.4)) == ("open", 75)
    with pytest.raises(calls.CallError, match="still waiting"):
        calls.open_call(s, g, t0 + 1)
    calls.cancel_call(s, g, t0 + 10)
    with pytest.raises(calls.CallError, match=r"call again in 51 s"):  # 60 s after the last call, not the cancel
        calls.open_call(s, g, t0 + 10)
    for k in range(1, calls.MAX_CALLS):
        calls.cancel_call(s, g, t0 + 61 * k + 1) if k > 1 else None
        calls.open_call(s, g, t0 + 61 * k)
    calls.cancel_call(s, g, t0 + 61 * calls.MAX_CALLS)
    with pytest.raises(calls.CallError, match=f"{calls.MAX_CALLS} calls in this game"):
        calls.open_call(s, g, t0 + 1000)
    assert calls.open_call(s, G(1, 4), t0).state == "open"  # another table is not limited by this one
    assert [c.game.table for c in calls.waiting_calls(s)] == [4]
    s.close()


def test_marking_a_call_and_adding_time(tmp_path):
    s = store.Store(tmp_path)
    g = G(1, 3)
    call = calls.open_call(s, g, 100.0)
    assert calls.mark_call(s, call.id, "coming", "referee", 130.0).state == "coming"
    with pytest.raises(calls.CallError, match="no longer waiting"):
        calls.mark_call(s, call.id, "coming", "referee", 131.0)
    assert calls.mark_call(s, call.id, "done", "director", 140.0).state == "done"
    with pytest.raises(calls.CallError, match="no longer waiting"):
        calls.mark_call(s, call.id, "done", "director", 141.0)
    with pytest.raises(calls.CallError, match="no such call"):
        calls.mark_call(s, 999, "done", "director", 141.0)
    with pytest.raises(calls.CallError, match="coming or done"):
        calls.mark_call(s, call.id, "open", "director", 141.0)
    assert calls.add_time(s, g, 5, "referee") == 300 and calls.add_time(s, g, 2, "director") == 420
    for bad in (0, 61, -1, True, "5"):
        with pytest.raises(calls.CallError, match="from 1 to 60"):
            calls.add_time(s, g, bad, "director")  # type: ignore[arg-type]
    assert calls.added_times(s, "preliminary", 1) == {3: 420} and calls.added_time(s, G(1, 4)) == 0
    assert [e.action for e in s.audit(g)] == ["time-added", "time-added", "call-done", "call-coming", "call"]
    s.close()


def test_a_table_calls_from_its_page_between_its_pack_and_its_confirmation(open_day):
    day = open_day()
    c = client(app_of(day))
    url = table_url(day)
    token = form_token(c.get(url).text)
    early = c.post(url + "/call", data={"csrf": token, "action": "call"})
    assert early.status_code == 409 and "pack is not made yet" in early.text and not calls.waiting_calls(day.store)
    assert "Call a referee" not in c.get(url).text
    with_pack(day, c)
    assert "Call a referee" in c.get(url).text
    made = c.post(url + "/call", data={"csrf": token, "action": "call"}, follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == url
    page = c.get(url).text
    assert "A referee is called" in page and "Cancel the call" in page
    again = c.post(url + "/call", data={"csrf": token, "action": "call"})
    assert again.status_code == 409 and "still waiting" in again.text and len(calls.waiting_calls(day.store)) == 1
    assert c.post(url + "/call", data={"csrf": "0" * 32, "action": "call"}).status_code == 403  # its own token only
    other = table_url(day, 1)
    assert c.post(other + "/call", data={"csrf": token, "action": "call"}).status_code == 403  # not for another table
    assert c.post(url + "/call", data={"csrf": token, "action": "cancel"}, follow_redirects=False).status_code == 303
    assert not calls.waiting_calls(day.store)
    assert reported(c, url, (4, 10, 6, 2), 2, ID_A).status_code == 303
    confirm = {"csrf": form_token(c.get("/").text), "version": "1"}
    assert c.post("/rounds/1/tables/2/confirm", data=confirm).status_code == 200
    day.store.db.execute("UPDATE calls SET opened = opened - 120")  # a minute since the last call, without waiting
    late = c.post(url + "/call", data={"csrf": token, "action": "call"})
    assert late.status_code == 409 and "result is confirmed" in late.text and not calls.waiting_calls(day.store)


def test_a_flood_of_calls_is_refused_in_german(open_day):
    day = open_day("de")
    c = client(app_of(day))
    with_pack(day, c)
    url = table_url(day)
    token = form_token(c.get(url).text)
    assert c.post(url + "/call", data={"csrf": token, "action": "call"}, follow_redirects=False).status_code == 303
    for _ in range(5):
        refused = c.post(url + "/call", data={"csrf": token, "action": "call"})
        assert refused.status_code == 409 and "wartet noch" in refused.text
    assert c.post(url + "/call", data={"csrf": token, "action": "cancel"}, follow_redirects=False).status_code == 303
    soon = c.post(url + "/call", data={"csrf": token, "action": "call"})
    assert soon.status_code == 409 and "eben gerufen" in soon.text
    assert [e.action for e in day.store.audit(G(1, 2))] == ["call-cancelled", "call"]


def test_the_director_sees_waiting_calls_on_every_page_newest_first(open_day):
    day = open_day()
    app = app_of(day)
    c = client(app)
    with_pack(day, c)
    for t in (1, 2):
        url = table_url(day, t)
        token = form_token(c.get(url).text)
        assert c.post(url + "/call", data={"csrf": token, "action": "call"}, follow_redirects=False).status_code == 303
    for path in ("/", "/rounds/1", "/standings", "/audit", "/entries", "/rounds/1/tables/1"):
        page = c.get(path).text
        assert "<title>(2) " in page and "Referee calls waiting: 2" in page, path
        assert page.index("Round 1 · Table 2") < page.index("Round 1 · Table 1"), path  # newest first
        assert 'data-status="' in page, path
    calls_page = c.get("/calls").text
    first = re.search(r'action="/calls/(\d+)/coming"', calls_page).group(1)
    token = form_token(calls_page)
    stamp = c.get("/status.json?only=calls").json()["stamp"]
    assert c.post(f"/calls/{first}/coming", data={"csrf": token}, follow_redirects=False).status_code == 303
    assert c.get("/status.json?only=calls").json()["stamp"] != stamp  # the pages reload by themselves
    assert "referee on the way" in c.get("/").text
    assert c.post(f"/calls/{first}/done", data={"csrf": token}, follow_redirects=False).status_code == 303
    assert "<title>(1) " in c.get("/").text
    audit = c.get("/audit").text
    assert "referee called" in audit and "referee on the way" in audit and "call done" in audit


# ------------------------------------------------------------------ parts 3 and 4: referees, time added


def test_a_referee_sees_calls_rounds_and_tables_and_changes_nothing_else(open_day):
    day = open_day()
    app = app_of(day, referees=True)
    director = logged_in(app, DIRECTOR)
    with_pack(day, director)
    url = table_url(day)
    token = form_token(director.get(url).text)
    assert (
        director.post(url + "/call", data={"csrf": token, "action": "call"}, follow_redirects=False).status_code == 303
    )
    referee = logged_in(app, REFEREE)
    assert referee.get("/", follow_redirects=False).headers["location"] == "/calls"
    calls_page = referee.get("/calls")
    assert calls_page.status_code == 200 and "Round 1 · Table 2" in calls_page.text and "Log out" in calls_page.text
    rtoken = form_token(calls_page.text)
    round_page = referee.get("/rounds/1")
    assert round_page.status_code == 200 and "Make pack" not in round_page.text and "Confirm" not in round_page.text
    table = referee.get("/rounds/1/tables/2")
    assert table.status_code == 200 and 'name="vp1"' not in table.text and "Add minutes to this table" in table.text
    assert tokens.table_token(day.key, 1, 2) not in table.text  # the table's own link is the table's, not a referee's
    ident = re.search(r'action="/calls/(\d+)/done"', calls_page.text).group(1)
    assert referee.post(f"/calls/{ident}/done", data={"csrf": rtoken}, follow_redirects=False).status_code == 303
    added = referee.post("/rounds/1/tables/2/time", data={"csrf": rtoken, "minutes": "5"}, follow_redirects=False)
    assert added.status_code == 303 and calls.added_time(day.store, G(1, 2)) == 300
    form = result_form(rtoken, (4, 10, 6, 2), 2)
    for path, data in (
        ("/rounds/1/tables/2", form),
        ("/rounds/1/pack", {"csrf": rtoken}),
        ("/rounds/1/confirm-all", {"csrf": rtoken, "versions": ""}),
        ("/entries/replan", {"csrf": rtoken, "from_round": "2"}),
        ("/clock", {"csrf": rtoken, "action": "start", "minutes": "60"}),
        ("/announcements", {"csrf": rtoken, "text": "hello"}),
    ):
        refused = referee.post(path, data=data, follow_redirects=False)
        assert refused.status_code == 403 and "login cannot do this" in refused.text, path
    for path in ("/standings.csv", "/audit", "/entries", "/finals"):
        assert referee.get(path).status_code == 403, path
    assert day.store.result(G(1, 2)) is None and not day.has_pack(2)
    entries = [(e.by, e.action) for e in day.store.audit(G(1, 2))]
    assert entries[:2] == [("referee", "time-added"), ("referee", "call-done")]


def test_a_referees_logout_ends_that_session_alone_the_directors_ends_all(open_day):
    day = open_day()
    app = app_of(day, referees=True)
    director, referee, other = logged_in(app, DIRECTOR), logged_in(app, REFEREE), logged_in(app, REFEREE)
    token = form_token(referee.get("/calls").text)
    assert referee.post("/logout", data={"csrf": token}, follow_redirects=False).status_code == 303
    assert referee.get("/calls", follow_redirects=False).status_code == 303  # to the login page
    assert other.get("/calls").status_code == 200 and director.get("/").status_code == 200
    dtoken = form_token(director.get("/").text)
    assert director.post("/logout", data={"csrf": dtoken}, follow_redirects=False).status_code == 303
    assert other.get("/calls", follow_redirects=False).status_code == 303


def test_a_new_directors_password_ends_the_referees_sessions(open_day, tmp_path):
    day = open_day()
    referee = logged_in(app_of(day, referees=True), REFEREE)
    assert referee.get("/calls").status_code == 200
    salt = security.password_salt(day.key)
    changed = consoleapp.create_app(  # a restart with another director's password, the same referees'
        day,
        password=security.hash_password("another-pass", salt),
        referee_password=security.hash_password(REFEREE, salt),
    )
    again = client(changed)
    again.cookies = referee.cookies
    assert again.get("/calls", follow_redirects=False).status_code == 303
    kept = logged_in(app_of(day, referees=True), REFEREE)
    same = client(app_of(day, referees=True))  # a restart with the same passwords keeps sessions
    same.cookies = kept.cookies
    assert same.get("/calls").status_code == 200


def test_time_added_shows_on_the_table_page_and_the_round_page(open_day):
    day = open_day()
    c = client(app_of(day))
    token = form_token(c.get("/").text)
    assert c.post(
        "/clock", data={"csrf": token, "action": "start", "minutes": "60", "stage": "preliminary", "round": "1"}
    ).status_code in (200, 303)
    assert (
        c.post("/rounds/1/tables/2/time", data={"csrf": token, "minutes": "5"}, follow_redirects=False).status_code
        == 303
    )
    url = table_url(day)
    status = c.get(url + "/status.json").json()
    plain = c.get(table_url(day, 1) + "/status.json").json()
    assert 3595 <= plain["clock"]["left"] <= 3600 and status["clock"]["left"] - plain["clock"]["left"] == 300
    assert "This table has 5 more minutes" in c.get(url).text
    assert re.search(r"This table: \+5 min, 1:0[45]:\d\d left", c.get("/rounds/1").text)
    bad = c.post("/rounds/1/tables/2/time", data={"csrf": token, "minutes": "500"})
    assert bad.status_code == 400 and "from 1 to 60" in bad.text and calls.added_time(day.store, G(1, 2)) == 300
    assert c.post("/rounds/1/tables/99/time", data={"csrf": token, "minutes": "5"}).status_code == 404


def test_serve_refuses_a_bad_referees_password_file_in_one_line(tmp_path):
    """Without a director's password, the same as the director's, missing,
    too short: one line naming the option, exit 2, no folder made."""
    from typer.testing import CliRunner

    from setupgen.cli import app

    tour = club(tmp_path)
    (tmp_path / "d.txt").write_text(DIRECTOR + "\n")
    (tmp_path / "short.txt").write_text("short\n")
    serve = ["serve", str(tour), "-o", str(tmp_path / "out")]
    for extra, line in (
        (["--referee-password-file", str(tmp_path / "d.txt")], "the referees' password needs the director's"),
        (
            ["--password-file", str(tmp_path / "d.txt"), "--referee-password-file", str(tmp_path / "d.txt")],
            "--referee-password-file: the referees' password must differ from the director's",
        ),
        (
            ["--password-file", str(tmp_path / "d.txt"), "--referee-password-file", str(tmp_path / "none.txt")],
            "--referee-password-file: ",
        ),
        (
            ["--password-file", str(tmp_path / "d.txt"), "--referee-password-file", str(tmp_path / "short.txt")],
            "--referee-password-file: the password in",
        ),
    ):
        res = CliRunner().invoke(app, serve + extra)
        assert res.exit_code == 2 and line in res.output and len(res.output.strip().splitlines()) == 1, res.output
    assert not (tmp_path / "out").exists()
