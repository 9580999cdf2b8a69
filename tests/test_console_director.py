"""The director's side of the day (issue 28): printouts from the console,
the same bytes as the command line's."""

import dataclasses
import io
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from pypdf import PdfReader  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from setupgen.cli import app as cli  # noqa: E402
from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.core.errors import SetupgenError  # noqa: E402
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
    ("p8", "Hans"),
]


def tournament(tmp_path: Path, final: str = "", players=PLAYERS, head: str = "", rounds: int = 2) -> Path:
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in players), encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(
        'name = "Club Night"\nseed = "club"\nplayers = "players.csv"\ntable_size = 4\n'
        + head
        + '[[rounds]]\nscenario = "base-3-4"\n' * rounds
        + final,
        encoding="utf-8",
    )
    return path


@pytest.fixture
def day(tmp_path):
    d = consoleday.open_day(tournament(tmp_path, '[final]\nplayers = 8\nscenario = "base-3-4"\n'), tmp_path / "out")
    yield d
    d.store.close()


def client_of(day) -> TestClient:
    return TestClient(consoleapp.create_app(day), raise_server_exceptions=False)


def play(day, rounds=(1, 2)) -> None:
    for n in rounds:
        for t in (1, 2):
            consoleday.enter(day, G(n, t), ["10", str(3 + t), str(2 + n), "5"], "1")


def cli_copy(day, tmp_path: Path) -> Path:
    """The console's folder copied without the console's own files (what the command line reads)."""
    other = tmp_path / "cli"
    shutil.copytree(day.folder, other, ignore=shutil.ignore_patterns("tournament.db*", "console.*", "final"))
    return other


def text_of(pdf: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)


def test_standings_pdf_is_the_command_lines(day, tmp_path):
    c = client_of(day)
    early = c.get("/standings.pdf")
    assert early.status_code == 409 and "no confirmed results" in early.text
    play(day)
    got = c.get("/standings.pdf")
    assert got.status_code == 200 and got.headers["content-type"] == "application/pdf"
    other = cli_copy(day, tmp_path)
    res = CliRunner().invoke(cli, ["standings", str(day.t.path), str(other / "results.csv"), "-o", str(other)])
    assert res.exit_code == 0, res.output
    assert got.content == (other / "standings.pdf").read_bytes()
    assert 'href="/standings.pdf"' in c.get("/standings").text


def test_placings_pdf_once_the_final_is_in(day, tmp_path):
    c = client_of(day)
    play(day)
    refused = c.get("/placings.pdf")
    assert refused.status_code == 409 and "not complete yet" in refused.text
    consoleday.make_finals_pack(day)
    for t in (1, 2):
        consoleday.enter(day, Game.finals("final", t), ["10", "7", str(4 + t), "3"], "1")
    got = c.get("/placings.pdf")
    assert got.status_code == 200 and 'href="/placings.pdf"' in c.get("/finals").text
    other = cli_copy(day, tmp_path)
    res = CliRunner().invoke(cli, ["placings", str(day.t.path), str(other / "results.csv"), "-o", str(other)])
    assert res.exit_code == 0, res.output
    assert got.content == (other / "placings.pdf").read_bytes()


def test_wall_lists_of_a_round_and_of_every_player(day):
    c = client_of(day)
    tables = c.get("/rounds/2/tables.pdf")
    assert tables.status_code == 200 and tables.content.startswith(b"%PDF")
    words = text_of(tables.content)
    for t in (1, 2):
        for p in day.schedule.table(2, t):
            assert day.names()[p] in words
    assert "Round 2" in words and "Round 1" not in words
    lookup = text_of(c.get("/players.pdf").content)
    assert all(n in lookup for _, n in PLAYERS)
    anna = next(line for line in lookup.splitlines() if line.startswith("Anna"))
    seats = [
        (t, k) for n in (1, 2) for t in (1, 2) for k, p in enumerate(day.schedule.table(n, t), start=1) if p == "p1"
    ]
    assert re.findall(r"\d+", anna)[:4] == [str(x) for seat in seats for x in seat]
    assert c.get("/rounds/3/tables.pdf").status_code == 404
    assert 'href="/rounds/1/tables.pdf"' in c.get("/rounds/1").text


def test_standings_page_explains_every_key_in_the_files_order(tmp_path):
    path = tournament(tmp_path)
    path.write_text(
        path.read_text().replace(
            "[[rounds]]",
            "[scoring]\n"
            "placing_points = { 4 = [5, 3, 2, 1], 3 = [5, 3, 1] }\n"
            'tie_breakers = ["placing_points", "vp_share", "victory_points", '
            '"lots"]\n[[rounds]]',
            1,
        )
    )
    day = consoleday.open_day(path, tmp_path / "out")
    try:
        page = client_of(day).get("/standings").text
        lines = re.findall(r"<li>(.*?)</li>", page.split('<details class="ranking" open>', 1)[1])
        assert [line.split(":", 1)[0] for line in lines] == ["Placing points", "VP share", "VP", "Lot"]
        assert "4 players 5/3/2/1, 3 players 5/3/1" in lines[0]
        assert "draw from the tournament&#39;s seed" in lines[3]
    finally:
        day.store.close()


def csrf(client: TestClient, path: str = "/") -> str:
    return re.search(r'name="csrf" value="([0-9a-f]+)"', client.get(path).text).group(1)


def test_save_and_next_table_goes_to_the_next_unconfirmed_table(tmp_path):
    players = [(f"p{k}", f"Player {k}") for k in range(1, 17)]  # four tables a round
    day = consoleday.open_day(tournament(tmp_path, players=players, rounds=1), tmp_path / "out")
    try:
        c = client_of(day)
        token = csrf(c, "/rounds/1/tables/1")
        assert "autofocus" in c.get("/rounds/1/tables/1").text
        consoleday.enter(day, G(1, 3), ["10", "5", "4", "3"], "1")  # table 3 is confirmed already
        form = {"csrf": token, "vp1": "10", "vp2": "5", "vp3": "4", "vp4": "3", "winner": "1", "then": "next"}

        def at(t: int, **extra) -> dict:  # the form of table t's page: its seating stamp
            return dict(form, seating=stamp(day.players_of(G(1, t))), **extra)

        first = c.post("/rounds/1/tables/2", data=at(2, version="0"), follow_redirects=False)
        assert first.status_code == 303 and first.headers["location"] == "/rounds/1/tables/4"  # 3 skipped
        last = c.post("/rounds/1/tables/4", data=at(4, version="0"), follow_redirects=False)
        assert last.headers["location"] == "/rounds/1/tables/1"  # round the end
        plain = at(1, version="0")
        del plain["then"]
        assert c.post("/rounds/1/tables/1", data=plain, follow_redirects=False).headers["location"] == "/rounds/1"
        again = c.post("/rounds/1/tables/1", data=at(1, version="1"), follow_redirects=False)
        assert again.headers["location"] == "/rounds/1"  # every table confirmed: back to the round
    finally:
        day.store.close()


def test_round_page_reported_first_and_filtered_by_state(day):
    c = client_of(day)
    consoleday.report(day, G(1, 2), ["10", "5", "4", "3"], "1")
    page = c.get("/rounds/1").text
    order = re.findall(r'<tr class="(\w+)">\s*<td class="num"><a href="/rounds/1/tables/(\d)"', page)
    assert order == [("reported", "2"), ("waiting", "1")]
    only = c.get("/rounds/1?state=waiting").text
    assert re.findall(r'<tr class="(\w+)">', only) == ["waiting"] and "<strong>waiting (1)</strong>" in only
    assert len(re.findall(r'<tr class="(\w+)">', c.get("/rounds/1?state=nonsense").text)) == 2


def test_a_late_entry_without_an_id_gets_the_next_free_one(day):
    c = client_of(day)
    token = csrf(c, "/entries")
    assert "empty: late01, the next free id" in c.get("/entries").text
    for name in ("Lea", "Max"):
        got = c.post(
            "/entries/change", data={"csrf": token, "change": "joined", "player": "", "name": name, "from_round": "2"}
        )
        assert got.status_code == 200, got.text[:300]
    from setupgen.tournament import jobs

    assert [(e.player, e.name) for e in jobs.read_entries(day.t, day.folder)] == [("late01", "Lea"), ("late02", "Max")]
    assert "empty: late03" in c.get("/entries").text


# ------------------------------------------------------------------ undo

from console_forms import stamp  # noqa: E402

from setupgen.console import undo  # noqa: E402


def test_a_confirmed_table_back_to_reported_then_to_waiting(day):
    c = client_of(day)
    consoleday.enter(day, G(1, 1), ["10", "5", "4", "3"], "1")
    results = (day.folder / "results.csv").read_text()
    assert results.count("\n1,1,") == 4
    token = csrf(c, "/rounds/1/tables/1")
    stale = c.post("/rounds/1/tables/1/undo", data={"csrf": token, "to": "reported", "version": "7"})
    assert stale.status_code == 409 and day.state(G(1, 1)) == "confirmed"  # the page showed another version
    back = c.post(
        "/rounds/1/tables/1/undo", data={"csrf": token, "to": "reported", "version": "1"}, follow_redirects=False
    )
    assert back.status_code == 303 and day.state(G(1, 1)) == "reported"
    assert "\n1,1," not in (day.folder / "results.csv").read_text()  # the file holds confirmed games only
    assert day.store.result(G(1, 1)).version == 2 and day.store.audit(G(1, 1))[0].action == "unconfirm"
    gone = c.post("/rounds/1/tables/1/undo", data={"csrf": token, "to": "waiting", "version": "2"})
    assert gone.status_code == 200 and day.state(G(1, 1)) == "waiting"
    entry = day.store.audit(G(1, 1))[0]
    assert (entry.action, entry.new, entry.version) == ("remove", "", 3) and '"vp": [10, 5, 4, 3]' in entry.old
    # a page that still shows the removed result is refused; a fresh one (version 0) enters it again
    assert (
        c.post(
            "/rounds/1/tables/1",
            data={
                "csrf": token,
                "vp1": "10",
                "vp2": "5",
                "vp3": "4",
                "vp4": "3",
                "winner": "1",
                "version": "2",
                "seating": stamp(day.players_of(G(1, 1))),
            },
        ).status_code
        == 409
    )
    consoleday.enter(day, G(1, 1), ["10", "6", "4", "3"], "1", version=0)
    assert day.store.result(G(1, 1)).version == 4
    assert c.post("/rounds/1/tables/2/undo", data={"csrf": token, "to": "waiting", "version": "0"}).status_code == 409
    assert c.post("/rounds/1/tables/1/undo", data={"csrf": token, "to": "nowhere", "version": "4"}).status_code == 409


def test_undo_refused_where_later_work_depends_on_it(day):
    play(day)
    consoleday.make_finals_pack(day)
    with pytest.raises(SetupgenError, match="finals are seated from the preliminary results"):
        undo.undo_result(day, G(1, 1), undo.WAITING, None)
    assert day.state(G(1, 1)) == "confirmed"
    consoleday.enter(day, Game.finals("final", 1), ["10", "7", "5", "3"], "1")
    with pytest.raises(SetupgenError, match="the final has 1 result"):
        undo.withdraw_pack(day, "final")
    undo.undo_result(day, Game.finals("final", 1), undo.WAITING, None)
    assert "final,1," not in (day.folder / "results-final.csv").read_text()
    kept = undo.withdraw_pack(day, "final", now=1_800_000_000.0)
    assert re.fullmatch(r"final\.withdrawn-\d{8}-\d{6}", kept) and (day.folder / kept / "round.pdf").is_file()
    assert not (day.folder / "final").exists() and consoleday.finals_made(day) == ()
    assert day.store.audit()[0].action == "withdraw-pack" and kept in day.store.audit()[0].new
    undo.undo_result(day, G(1, 1), undo.REPORTED, None)  # no finals pack now: the preliminary round opens again
    assert day.state(G(1, 1)) == "reported"
    consoleday.confirm(day, G(1, 1))
    consoleday.make_finals_pack(day)  # made again, the same pack
    assert (day.folder / "final" / "round.pdf").read_bytes() == (day.folder / kept / "round.pdf").read_bytes()
    assert undo.withdraw_pack(day, "final", now=1_800_000_000.0) == kept + "-2"  # the same second: kept apart
    with pytest.raises(SetupgenError, match="not made"):
        undo.withdraw_pack(day, "final")
    with pytest.raises(SetupgenError, match="no finals stage"):
        undo.withdraw_pack(day, "quarter-final")


@pytest.fixture
def day3(tmp_path):
    d = consoleday.open_day(tournament(tmp_path, rounds=3), tmp_path / "out")
    yield d
    d.store.close()


def test_an_entry_change_taken_back_before_a_re_plan_uses_it(day3):
    day = day3
    c = client_of(day)
    token = csrf(c, "/entries")
    for form in (
        {"change": "joined", "player": "late01", "name": "Lea", "from_round": "2"},
        {"change": "left", "player": "late01", "from_round": "3"},
    ):
        assert c.post("/entries/change", data=dict(form, csrf=token)).status_code == 200
    from setupgen.tournament import jobs

    # the late entry cannot go while the drop-out naming her stays
    refused = c.post(
        "/entries/remove", data={"csrf": token, "index": "0", "change": "joined", "player": "late01", "from_round": "2"}
    )
    assert refused.status_code == 409 and "the other changes need this one" in refused.text
    stale = c.post(
        "/entries/remove", data={"csrf": token, "index": "1", "change": "left", "player": "p1", "from_round": "2"}
    )
    assert stale.status_code == 409 and "changed since the page was shown" in stale.text
    for index, change, player, n in (("1", "left", "late01", "3"), ("0", "joined", "late01", "2")):
        done = c.post(
            "/entries/remove",
            data={"csrf": token, "index": index, "change": change, "player": player, "from_round": n},
            follow_redirects=False,
        )
        assert done.status_code == 303
    assert len(jobs.read_entries(day.t, day.folder)) == 0 and "late01" not in day.names()
    assert [e.action for e in day.store.audit()[:2]] == ["remove-change", "remove-change"]
    # a change the schedule follows (re-planned) stays: the page offers no Remove, the route refuses
    assert (
        c.post("/entries/change", data={"csrf": token, "change": "left", "player": "p8", "from_round": "2"}).status_code
        == 200
    )
    consoleday.replan(day, 2)
    page = c.get("/entries").text
    assert "in the schedule" in page and 'action="/entries/remove"' not in page
    again = c.post(
        "/entries/remove", data={"csrf": token, "index": "0", "change": "left", "player": "p8", "from_round": "2"}
    )
    assert again.status_code == 409 and "a re-plan has used this change already" in again.text
    assert c.post("/entries/remove", data={"csrf": token, "index": "x"}).status_code == 400


# ------------------------------------------------------------------ the audit log a person can read


def test_audit_log_in_words_with_names_local_times_and_filters(tmp_path):
    players = PLAYERS[:7] + [("p8", '=HYPERLINK("x")')]
    path = tournament(tmp_path, players=players, head='timezone = "Europe/Zurich"\n')
    day = consoleday.open_day(path, tmp_path / "out")
    try:
        day.store.clock = lambda: "2026-12-01T17:51:07Z"  # 18:51 in Zurich
        seats = day.players_of(G(1, 1))
        names = [day.names()[p] for p in seats]
        consoleday.report(day, G(1, 1), ["10", "7", "5", "3"], "1")
        consoleday.enter(day, G(1, 1), ["10", "8", "5", "3"], "1", version=1)
        consoleday.enter(day, G(1, 2), ["8", "10", "5", "3"], "2")
        day.store.announce("Lunch", "director")
        c = client_of(day)
        page = c.get("/audit").text
        rows = re.findall(
            r"<tr><td>(.*?)</td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td><td[^>]*>(.*?)</td></tr>",
            page,
        )
        assert rows[0] == ("1 Dec 2026, 18:51", "director", "", "announcement: Lunch", "", "")
        first = f"{names[0]} 10 ★, {names[1]} 7, {names[2]} 5, {names[3]} 3"
        assert rows[2][:4] == ("1 Dec 2026, 18:51", "director", "Round 1 · table 1", "corrected")
        assert rows[2][4] == first.replace('"', "&#34;") and rows[2][5].startswith("→ ")
        assert rows[3][:4] == ("1 Dec 2026, 18:51", "table", "Round 1 · table 1", "reported by the table")
        assert rows[3][4] == "none" and "Europe/Zurich" in page
        only = c.get("/audit?table=2").text
        assert only.count("Round 1 · table 2") == 1 and "table 1" not in only
        mine = c.get(f"/audit?player={seats[0]}").text
        assert mine.count("Round 1 · table 1") == 2 and "Lunch" not in mine
        assert c.get("/audit?kind=report").text.count(">reported by the table</td>") == 1
        assert "No changes of this kind yet." in c.get("/audit?round=2").text
        for junk in ("/audit?round=x&table=%00", "/audit?player=" + "z" * 500, "/audit.csv?kind=<b>"):
            assert c.get(junk).status_code == 200
        sheet = c.get("/audit.csv?table=2").text.splitlines()
        assert sheet[0] == "when,by,stage,round,table,what,before,after,players" and len(sheet) == 2
        import csv as csvmod

        row = next(csvmod.reader([sheet[1]]))
        assert row[:6] == ["1 Dec 2026, 18:51", "director", "preliminary", "1", "2", "entered"]
        table_two = sorted(day.names()[p] for p in day.players_of(G(1, 2)))
        assert row[8] == "'" * table_two[0].startswith("=") + "; ".join(table_two)
        assert all(not cell.startswith("=") for cell in row)  # a formula-like name never starts a cell
    finally:
        day.store.close()


def test_audit_csv_neutralises_formulas():
    from setupgen.console import auditlog
    from setupgen.console.store import AuditEntry
    from setupgen.console.words import Words

    entry = AuditEntry(
        1, "2026-12-01T17:51:07Z", "director", 0, 0, "announce", "", '{"id": 1, "text": "=cmd|\' /C calc\'!A0"}'
    )
    shown = auditlog.lines([entry], {}, "UTC", Words("en"))
    assert shown[0].what == "announcement: =cmd|' /C calc'!A0"
    import csv as csvmod

    row = list(csvmod.reader(auditlog.to_csv(shown, {}).splitlines()))[1]
    assert row[5] == "announcement: =cmd|' /C calc'!A0" and row[8] == ""  # not at a cell's start: safe as it is
    start = dataclasses.replace(shown[0], what="=1+1", by="@SUM(A1)", before="-2", after="+3")
    cells = list(csvmod.reader(auditlog.to_csv([start], {}).splitlines()))[1]
    assert (cells[1], cells[5], cells[6], cells[7]) == ("'@SUM(A1)", "'=1+1", "'-2", "'+3")


# ------------------------------------------------------------------ the director's pages follow the day


def test_director_pages_follow_the_day_by_themselves(day):
    c = client_of(day)
    stamps = {}
    for path in ("/", "/rounds/1", "/standings"):
        page = c.get(path).text
        assert 'data-status="/status.json"' in page and '<script src="/console.js" defer></script>' in page
        stamps[path] = re.search(r'data-stamp="([^"]+)"', page).group(1)
    now = c.get("/status.json").json()
    assert set(stamps.values()) == {now["stamp"]} and now["poll"] == 5
    consoleday.report(day, G(1, 1), ["10", "5", "4", "3"], "1")  # a table reports: the director's pages reload
    assert c.get("/status.json").json()["stamp"] != now["stamp"]


def test_director_status_needs_the_directors_session(tmp_path):
    from setupgen.console import security

    d = consoleday.open_day(tournament(tmp_path), tmp_path / "out")
    try:
        c = TestClient(
            consoleapp.create_app(d, password=security.hash_password("correct horse")), raise_server_exceptions=False
        )
        assert c.get("/status.json", follow_redirects=False).status_code == 303  # to the login
    finally:
        d.store.close()


def test_a_replan_says_its_quality_measures(day3):
    c = client_of(day3)
    token = csrf(c, "/entries")
    c.post("/entries/change", data={"csrf": token, "change": "left", "player": "p8", "from_round": "2"})
    consoleday.replan(day3, 2)
    home = c.get("/").text
    # the measures of schedule.pdf's first page, in the event's language (issue 42), each with its bound
    q = day3.schedule.quality(day3.t.everyone())
    rows = {key: (value, bound) for key, value, bound, _kind in q.rows()}
    value, bound = rows["pairs_repeated"]
    assert f"Re-planned from round 2: Pairs of opponents meeting more than once: {value} (bound {bound}: " in home
    value, bound = rows["seat_off"]
    assert f"Players off their start-position optimum: {value} (bound {bound}: " in home


def test_every_form_value_is_read_in_nfc_but_the_password(day):
    """A typed "e" + combining accent arrives as "é" (one player, one name
    in every form); the password field is left as typed."""
    c = client_of(day)
    token = csrf(c, "/entries")
    got = c.post("/announcements", data={"csrf": token, "text": "Rene\u0301 to table 1"}, follow_redirects=False)
    assert got.status_code in (200, 303), got.text[:300]
    assert [a.text for a in day.store.announcements()] == ["Ren\u00e9 to table 1"]
    got = c.post(
        "/entries/change",
        data={
            "csrf": token,
            "change": "joined",
            "player": "Jose\u0301",
            "name": "Jose\u0301 Lo\u0301pez",
            "from_round": "2",
        },
    )
    assert got.status_code == 200, got.text[:300]
    from setupgen.tournament import jobs

    assert [(e.player, e.name) for e in jobs.read_entries(day.t, day.folder)] == [("Jos\u00e9", "Jos\u00e9 L\u00f3pez")]
