"""The director's console (issue 14, docs/console.md): database, tokens,
QR codes on sheets, and every route through Starlette's TestClient,
bad input included (never a 500)."""

import csv
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

starlette = pytest.importorskip("starlette")
from console_forms import form_token, result_form  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from setupgen.console import app as consoleapp  # noqa: E402
from setupgen.console import day as consoleday  # noqa: E402
from setupgen.console import security, store  # noqa: E402
from setupgen.core.errors import SetupgenError  # noqa: E402
from setupgen.tournament import jobs, tokens  # noqa: E402
from setupgen.tournament.games import Game  # noqa: E402

G = Game.preliminary

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = [
    ("p1", "Anna"),
    ("p2", "Beat"),
    ("p3", "Carla"),
    ("p4", "Dario"),
    ("p5", "Eva"),
    ("p6", "Fritz"),
    ("p7", "Gina"),
    ("p8", "<script>alert(1)</script>"),
]
TOURNAMENT = """name = "Club Night"
seed = "club"
players = "players.csv"
table_size = 4

[[rounds]]
scenario = "base-3-4"
victory_points = 10

[[rounds]]
scenario = "base-3-4"
victory_points = 10
"""


def make_tournament(tmp_path: Path) -> Path:
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in PLAYERS), encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(TOURNAMENT, encoding="utf-8")
    return path


@pytest.fixture
def tour(tmp_path):
    return make_tournament(tmp_path)


@pytest.fixture
def day(tour, tmp_path):
    d = consoleday.open_day(tour, tmp_path / "out")
    yield d
    d.store.close()


def client_of(day, **kw) -> TestClient:
    return TestClient(consoleapp.create_app(day, **kw), raise_server_exceptions=False)


def csrf(client: TestClient, path: str = "/") -> str:
    """The page's CSRF token (with its result form's seating stamp, :mod:`console_forms`)."""
    return form_token(client.get(path).text)


# ------------------------------------------------------------------ database


def copy_schedule(folder: Path, other: Path) -> None:
    """The console's saved schedule copied into the command line's folder
    (standings, finals and placings rank by a saved schedule, never plan one)."""
    other.mkdir(parents=True, exist_ok=True)
    shutil.copy(folder / "schedule.csv", other / "schedule.csv")


def test_store_schema_version_and_one_transaction_per_change(tmp_path):
    s = store.Store(tmp_path)
    assert s.fresh and store.version(s.db) == store.SCHEMA_VERSION == 9
    assert s.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    new = store.TableResult(G(1, 2), ("a", "b", "c"), (10, 7, 3), 1, "reported", "table", "2026-01-01T10:00:00Z")
    assert s.record(new, "report") is None

    def refuse(old):
        raise store.StoreError("no")

    with pytest.raises(store.StoreError):
        s.record(
            store.TableResult(G(1, 2), ("a", "b", "c"), (9, 10, 3), 2, "confirmed", "director", "t"), "correct", refuse
        )
    assert s.result(G(1, 2)) == new  # rolled back: result and audit together
    assert [e.action for e in s.audit()] == ["report"]
    s.close()
    again = store.Store(tmp_path)
    assert not again.fresh and again.result(G(1, 2)) == new
    again.db.execute("UPDATE schema_version SET version = 99")
    again.close()
    with pytest.raises(store.StoreError, match="schema version 99"):
        store.Store(tmp_path)


# ------------------------------------------------------------------ tokens


def test_tokens_are_128_bit_hmacs_under_a_key_made_once(tmp_path):
    k = tokens.key(tmp_path)
    text = (tmp_path / "console.key").read_text()
    assert re.fullmatch(r"[0-9a-f]{64}\n", text) and len(k) == 32
    assert tokens.key(tmp_path) == k and (tmp_path / "console.key").read_text() == text
    import hmac

    want = hmac.new(k, b"setupgen-table/1/2/7", hashlib.sha256).hexdigest()[:32]
    assert tokens.table_token(k, 2, 7) == want and len(want) == 32
    assert tokens.table_token(k, 2, 8) != want and tokens.table_token(k, 7, 2) != want
    assert tokens.token_matches(k, 2, 7, want) and not tokens.token_matches(k, 2, 7, want[:-1] + "x")
    assert tokens.table_url("http://10.0.0.5:8000/", k, 2, 7) == f"http://10.0.0.5:8000/t/2/7/{want}"
    (tmp_path / "console.key").write_text("not a key\n")
    with pytest.raises(SetupgenError, match="not a console key"):
        tokens.key(tmp_path)
    assert (tmp_path / "console.key").read_text() == "not a key\n"  # never rewritten
    for bad in ("ftp://x", "http://a b", "javascript:alert(1)", "http://" + "a" * 300, "http://x/<script>"):
        with pytest.raises(SetupgenError):
            tokens.check_base_url(bad)
    import segno

    longest = tokens.table_url("http://" + "a" * 53, k, 1000, 500)
    assert segno.make(longest, error="m", micro=False, boost_error=False).version <= 6


# ------------------------------------------------------------------ QR codes on sheets


def qr_runs(svg: str) -> list[tuple[float, float, float, float]]:
    group = re.search(r'<g class="mark qr">(.*?)</g>', svg, re.S)
    assert group, "no QR code"
    d = re.search(r' d="([^"]+)"', group.group(1)).group(1)
    return [tuple(map(float, m)) for m in re.findall(r"M([\d.]+) ([\d.]+)L([\d.]+) [\d.]+L[\d.]+ ([\d.]+)", d)]


def test_round_console_url_prints_each_tables_url_as_a_qr_code(tour, tmp_path):
    import segno
    from typer.testing import CliRunner

    from setupgen.cli import app

    out = tmp_path / "out"
    args = ["round", str(tour), "--round", "1", "-o", str(out), "--console-url", "http://10.0.0.5:8000"]
    run = CliRunner().invoke(app, args)
    assert run.exit_code == 0, run.output
    key = tokens.read_key(out)
    url = tokens.table_url("http://10.0.0.5:8000", key, 1, 2)
    svg = (out / "round-1" / "table-02.svg").read_text()
    runs = qr_runs(svg)
    matrix = [list(r) for r in segno.make(url, error="m", micro=False, boost_error=False).matrix]
    dark_runs = sum(1 for row in matrix for k, v in enumerate(row) if v and (k == 0 or not row[k - 1]))
    assert len(runs) == dark_runs
    x0, y0 = min(r[0] for r in runs), min(r[1] for r in runs)
    x1, y1 = max(r[2] for r in runs), max(r[3] for r in runs)
    assert abs((x1 - x0) - 17 * len(matrix) / (len(matrix) + 2)) < 0.05 and abs((y1 - y0) - (x1 - x0)) < 0.05
    before = {p.name: p.read_bytes() for p in (out / "round-1").iterdir()}
    assert CliRunner().invoke(app, args).exit_code == 0  # rerun: the same bytes
    assert {p.name: p.read_bytes() for p in (out / "round-1").iterdir()} == before
    plain = tmp_path / "plain"
    assert CliRunner().invoke(app, ["round", str(tour), "--round", "1", "-o", str(plain)]).exit_code == 0
    assert 'class="reserved qr"' in (plain / "round-1" / "table-02.svg").read_text()
    assert not (plain / "console.key").exists()
    quick = CliRunner().invoke(
        app, ["round", "--tables", "2", "--seed", "s", "--console-url", "http://x:1", "-o", str(tmp_path / "q")]
    )
    assert quick.exit_code == 2 and "--console-url: a table's result page belongs to a tournament" in quick.output


# ------------------------------------------------------------------ the day, results.csv


def test_results_csv_written_from_the_database_after_every_change(day):
    folder = day.folder
    assert (folder / "results.csv").read_text() == "round,table,player,vp,winner\n"
    seats = day.players_of(G(1, 1))
    consoleday.enter(day, G(1, 1), ["10", "7", "5", "3"], "1")
    rows = list(csv.reader(io.StringIO((folder / "results.csv").read_text())))
    assert rows[1:] == [
        ["1", "1", seats[0], "10", "yes"],
        ["1", "1", seats[1], "7", "no"],
        ["1", "1", seats[2], "5", "no"],
        ["1", "1", seats[3], "3", "no"],
    ]
    consoleday.report(day, G(1, 2), ["4", "10", "6", "2"], "2")  # reported: not in results.csv yet
    assert len((folder / "results.csv").read_text().splitlines()) == 5
    consoleday.confirm(day, G(1, 2))
    assert len((folder / "results.csv").read_text().splitlines()) == 9
    with pytest.raises(store.StoreError, match="confirmed"):
        consoleday.report(day, G(1, 2), ["4", "10", "6", "3"], "2")
    (folder / "results.csv").write_text("round,table,player,vp,winner\n")  # edited by hand
    with pytest.raises(consoleday.ResultRefused, match="changed outside the console"):
        consoleday.enter(day, G(1, 1), ["10", "7", "5", "4"], "1")
    assert day.store.result(G(1, 1)).vp == (10, 7, 5, 3)


def test_a_same_size_edit_of_results_csv_is_seen(day):
    # the digest is kept with the file's size, inode and mtime, but only once the file
    # is 2 s older than the digest: an edit that keeps the size (a 7 made a 9) within
    # the same tick of the file clock, moments after the console wrote it, is caught
    import os

    consoleday.enter(day, G(1, 1), ["10", "7", "5", "3"], "1")
    path = day.folder / "results.csv"
    consoleday.report(day, G(1, 2), ["4", "10", "6", "2"], "2")  # the digest taken now is not kept
    text, before = path.read_text(), path.stat()
    path.write_text(text.replace(",7,", ",9,"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the same size, inode and mtime
    with pytest.raises(consoleday.ResultRefused, match="changed outside the console"):
        consoleday.report(day, G(1, 2), ["4", "10", "6", "3"], "2")
    path.write_text(text)  # back as the console wrote it, then settled: the kept digest serves
    old = before.st_mtime_ns - 10**10
    os.utime(path, ns=(old, old))
    consoleday.report(day, G(1, 2), ["4", "10", "6", "3"], "2")
    assert day.results_stamp is not None and day.results_stamp[0][2] == old
    consoleday.report(day, G(1, 2), ["4", "10", "6", "1"], "2")
    assert day.store.result(G(1, 2)).vp == (4, 10, 6, 1)


def test_urlencoded_forms_read_like_starlettes(day):
    c = client_of(day)
    token = csrf(c, "/rounds/1/tables/1")
    body = (
        f"csrf={token}&seating={token.seating}&vp1=1&vp1=10&vp2=7&vp3=5&vp4=3&winner=1"
    ).encode()  # the last of a repeated field counts
    answer = c.post(
        "/rounds/1/tables/1",
        content=body,
        follow_redirects=False,
        headers={"content-type": "application/x-www-form-urlencoded; charset=utf-8"},
    )
    assert answer.status_code == 303 and day.store.result(G(1, 1)).vp == (10, 7, 5, 3)
    for bad in (b"vp1=\xff\xfe&csrf=" + token.encode(), "&".join(f"f{k}=1" for k in range(41)).encode()):
        answer = c.post(
            "/rounds/1/tables/1", content=bad, headers={"content-type": "application/x-www-form-urlencoded"}
        )
        assert (
            answer.status_code == 400 and "The request could not be read: reload the page and try again." in answer.text
        )


def test_a_results_csv_the_console_did_not_write_is_imported_and_kept(tour, tmp_path):
    folder = tmp_path / "out"
    first = consoleday.open_day(tour, folder)
    seats = first.players_of(G(1, 1))
    first.store.close()
    for name in ("tournament.db", "tournament.db-wal", "tournament.db-shm", "results.csv"):
        (folder / name).unlink(missing_ok=True)
    typed = "round,table,player,vp,winner\n" + "".join(
        f"1,1,{p},{v},{'yes' if k == 0 else 'no'}\n" for k, (p, v) in enumerate(zip(seats, (10, 8, 6, 4)))
    )
    (folder / "results.csv").write_text(typed)
    day = consoleday.open_day(tour, folder)
    assert (folder / "results.before-console.csv").read_text() == typed
    assert (folder / "results.csv").read_text() == typed  # the same rows, now the console's file
    assert day.store.result(G(1, 1)).vp == (10, 8, 6, 4) and day.store.audit()[0].by == "import"
    day.store.close()
    (folder / "results.csv").write_text(typed + "\n")
    with pytest.raises(SetupgenError, match="changed since the console wrote it"):
        consoleday.open_day(tour, folder)


def test_results_are_validated_as_standings_validates_them(day):
    def problems(vp, winner):
        with pytest.raises(consoleday.ResultRefused) as exc:
            consoleday.check_result(day, G(1, 1), vp, winner)
        return exc.value.lines

    names = day.names()
    first, second = (names[p] for p in day.players_of(G(1, 1))[:2])
    assert consoleday.check_result(day, G(1, 1), ["10", "7", "5", "3"], "1") == ((10, 7, 5, 3), 1, ())
    assert consoleday.check_result(
        day, G(1, 1), ["10", "0", "5", "3"], "1", ["", "no-show", "played", "disqualified"]
    ) == ((10, 0, 5, 3), 1, ("played", "no-show", "played", "disqualified"))
    with pytest.raises(consoleday.ResultRefused, match="a no-show has 0 vp and is not the winner"):
        consoleday.check_result(day, G(1, 1), ["10", "4", "5", "3"], "1", ["played", "no-show", "played", "played"])
    with pytest.raises(consoleday.ResultRefused, match="status 'gone' is not one of"):
        consoleday.check_result(day, G(1, 1), ["10", "4", "5", "3"], "1", ["played", "gone", "played", "played"])
    assert problems(["x", "7", "5", "3"], "1") == [f"{first}: vp 'x' is not a whole number"]
    assert problems(["10", "21", "5", "3"], "1") == [f"{second}: vp 21 is above 20 (round 1 threshold 10 + 10)"]
    assert problems(["10", "1234567", "5", "3"], "1") == [f"{second}: vp '1234567' has more than 6 digits"]
    assert problems(["10", "-1", "x", "3"], "1")[0] == f"{second}: vp -1 is negative"
    assert problems(["7", "10", "5", "3"], "1") == [f"winner {first} has 7 vp but {second} has 10"]
    assert problems(["10", "7", "5"], "1") == ["give the VP of all 4 players"]
    assert problems(["10", "7", "5", "3"], "9") == ["choose the winner"]
    with pytest.raises(SetupgenError, match="has tables 1-2, not 3"):
        consoleday.check_result(day, G(1, 3), ["1"], "1")


# ------------------------------------------------------------------ routes


def test_director_pages_and_a_whole_round(day):
    c = client_of(day)
    home = c.get("/")
    assert home.status_code == 200 and "Round 1" in home.text and "Make pack" in home.text
    assert home.headers["content-security-policy"].startswith("default-src 'none'")
    assert "httponly" in home.headers["set-cookie"].lower() and "samesite=strict" in home.headers["set-cookie"].lower()
    token = csrf(c)
    made = c.post("/rounds/1/pack", data={"csrf": token}, follow_redirects=False)
    assert made.status_code == 303 and (day.folder / "round-1" / "manifest.json").is_file()
    pdf = c.get("/rounds/1/round.pdf")
    assert pdf.status_code == 200 and pdf.content == (day.folder / "round-1" / "round.pdf").read_bytes()
    assert c.get("/rounds/1/key.pdf").status_code == 404  # base boards have no face-down hexes
    assert c.get("/rounds/1/manifest.json").status_code == 404
    page = c.get("/rounds/1")
    assert (
        page.status_code == 200 and "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text and "<script>" not in page.text
    )
    token = csrf(c, "/rounds/1/tables/1")
    ok = c.post(
        "/rounds/1/tables/1", data=table_form(c, "/rounds/1/tables/1", (10, 7, 5, 3), 1), follow_redirects=False
    )
    assert ok.status_code == 303 and day.state(G(1, 1)) == "confirmed"
    fixed = c.post(
        "/rounds/1/tables/1", data=table_form(c, "/rounds/1/tables/1", (10, 8, 5, 3), 1), follow_redirects=False
    )
    assert fixed.status_code == 303
    entries = day.store.audit(G(1, 1))
    assert [e.action for e in entries] == ["correct", "enter"] and entries[0].by == "director"
    assert json.loads(entries[0].old)["vp"] == [10, 7, 5, 3] and json.loads(entries[0].new)["vp"] == [10, 8, 5, 3]
    table = c.get("/rounds/1/tables/1")
    assert table.status_code == 200 and "correct" in table.text and 'value="8"' in table.text
    assert c.get("/audit").status_code == 200


def test_table_reports_by_token_and_the_director_confirms(day):
    c = client_of(day)
    good = tokens.table_token(day.key, 1, 2)
    page = c.get(f"/t/1/2/{good}")
    assert (
        page.status_code == 200
        and "Report result" in page.text
        and 'href="/audit"' not in page.text
        and 'href="/rounds' not in page.text
    )
    token = csrf(c, f"/t/1/2/{good}")
    sent = c.post(f"/t/1/2/{good}", data=result_form(token, (4, 10, 6, 2), 2), follow_redirects=False)
    assert sent.status_code == 303 and day.state(G(1, 2)) == "reported"
    shown = c.get(f"/t/1/2/{good}")
    assert "Waiting for the director" in shown.text
    assert re.search(r">\s*10 \(winner\)|\b10 \(winner\)", shown.text)  # the reported winner's VP
    assert c.get(f"/t/1/1/{good}").status_code == 404  # a token opens only its own table
    assert c.get(f"/t/2/2/{good}").status_code == 404
    assert c.get(f"/t/1/99/{good}").status_code == 404
    done = c.post("/rounds/1/tables/2/confirm", data={"csrf": csrf(c), "version": "1"}, follow_redirects=False)
    assert done.status_code == 303 and day.state(G(1, 2)) == "confirmed"
    again = c.post(f"/t/1/2/{good}", data=result_form(token, (4, 10, 6, 3), 2))
    assert again.status_code == 409 and "Confirmed by the director" in again.text  # no form any more
    assert "ask the director to correct it" in again.text and "Report result" not in again.text
    assert [e.action for e in day.store.audit(G(1, 2))] == ["confirm", "report"]
    assert c.post("/rounds/1/tables/1/confirm", data={"csrf": csrf(c), "version": "0"}).status_code == 409


def test_a_table_page_carries_no_session_and_checks_its_own_form_token(day):
    # a table's page needs no cookie: its form's CSRF token is 128 bits of HMAC under the
    # folder's key for its round and table (the table's URL token is its authority)
    fresh = client_of(day)
    good = tokens.table_token(day.key, 1, 2)
    page = fresh.get(f"/t/1/2/{good}")
    assert page.status_code == 200 and "set-cookie" not in page.headers
    want = security.table_csrf(day.key, 1, 2)
    assert re.fullmatch(r"[0-9a-f]{32}", want) and f'name="csrf" value="{want}"' in page.text
    assert want != security.table_csrf(day.key, 1, 1) != security.table_csrf(day.key, 2, 1)
    for bad in ({}, {"csrf": ""}, {"csrf": security.table_csrf(day.key, 1, 1)}, {"csrf": csrf(client_of(day))}):
        answer = fresh.post(
            f"/t/1/2/{good}",
            data={**result_form("x", (4, 10, 6, 2), 2), **bad}
            if bad
            else {k: v for k, v in result_form("x", (4, 10, 6, 2), 2).items() if k != "csrf"},
        )
        assert answer.status_code == 403 and day.store.result(G(1, 2)) is None
    sent = fresh.post(
        f"/t/1/2/{good}", data=result_form(form_token(page.text), (4, 10, 6, 2), 2), follow_redirects=False
    )
    assert sent.status_code == 303 and "set-cookie" not in sent.headers and day.state(G(1, 2)) == "reported"


def test_wrong_tokens_are_rate_limited(day):
    c = client_of(day)
    for k in range(security.MAX_FAILURES):
        assert c.get(f"/t/1/1/{k:032x}").status_code == 404
    good = tokens.table_token(day.key, 1, 1)
    assert c.get(f"/t/1/1/{good}").status_code == 429


@pytest.mark.parametrize(
    "path,form,status",
    [
        ("/rounds/1/tables/1", {"vp1": "10", "vp2": "7", "vp3": "5", "vp4": "3", "winner": "1"}, 403),  # no csrf
        ("/rounds/1/tables/1", {"csrf": "0" * 32, "vp1": "10", "winner": "1"}, 403),
        ("/rounds/1/pack", {}, 403),
        ("/rounds/9/pack", {"csrf": None}, 404),
        ("/rounds/1/tables/7", {"csrf": None}, 404),
        ("/rounds/99999999999999999999/tables/1", {"csrf": None}, 404),
        ("/rounds/1/tables/1", {"csrf": None, "vp1": "ten", "vp2": "7", "vp3": "5", "vp4": "3", "winner": "1"}, 400),
        ("/rounds/1/tables/1", {"csrf": None, "vp1": "9" * 40, "vp2": "7", "vp3": "5", "vp4": "3", "winner": "1"}, 400),
        ("/rounds/1/tables/1", {"csrf": None, "vp1": "3", "vp2": "7", "vp3": "5", "vp4": "3", "winner": "1"}, 400),
        ("/rounds/1/tables/1", {"csrf": None, "vp1": "3", "vp2": "7", "vp3": "5", "vp4": "3", "winner": "x"}, 400),
        ("/rounds/1/tables/1", {"csrf": None}, 400),
        ("/rounds/1/tables/1/confirm", {"csrf": None, "version": "0"}, 409),  # nothing to confirm
        ("/rounds/1/tables/1/confirm", {"csrf": None}, 400),  # which version the page showed is missing
        ("/rounds/1/tables/1/confirm", {"csrf": None, "version": "-1"}, 400),
        ("/rounds/1/confirm-all", {"csrf": None, "versions": "1:x"}, 400),
        ("/rounds/1/confirm-all", {"csrf": None, "versions": "1"}, 400),
        ("/rounds/1/confirm-all", {"csrf": None, "versions": "x:1"}, 400),
        ("/rounds/1/confirm-all", {"csrf": None, "versions": "99:1"}, 404),
        ("/rounds/1/confirm-all", {"csrf": None, "versions": "0:1"}, 404),
        ("/logout", {}, 403),
    ],
)
def test_bad_input_gets_a_clear_4xx_page(day, path, form, status):
    c = client_of(day)
    if "csrf" in form and form["csrf"] is None:  # the token and seating of the page the form is on
        token = csrf(c, path if path == "/rounds/1/tables/1" else "/")
        form = dict(form, csrf=token, **({"seating": token.seating} if token.seating else {}))
    answer = c.post(path, data=form)
    assert answer.status_code == status, answer.text[:300]
    assert "Traceback" not in answer.text and "<h1>" in answer.text
    assert day.store.results() == []


def test_oversized_bodies_unknown_pages_and_hosts(day):
    c = client_of(day)
    big = c.post(
        "/rounds/1/tables/1",
        content=b"a=" + b"x" * (security.MAX_BODY + 10),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert big.status_code == 413
    assert c.get("/nope").status_code == 404 and "Traceback" not in c.get("/nope").text
    assert c.get("/rounds/x").status_code == 404 and c.get("/rounds/3").status_code == 404
    assert c.put("/rounds/1").status_code == 405
    assert (
        c.post(
            "/rounds/1/tables/1", content=b"\xff\xfe" * 50, headers={"content-type": "multipart/form-data; boundary=zz"}
        ).status_code
        == 400
    )
    assert c.get("/", headers={"host": "evil.example"}).status_code == 400
    chunks = (b"x" * 4096 for _ in range(10))  # no content-length: counted while read
    streamed = c.post(
        "/rounds/1/tables/1", content=chunks, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert streamed.status_code == 413 and "larger than 16384 bytes." in streamed.text
    assert consoleapp.hosts_for("0.0.0.0", None) == ("*",)
    assert consoleapp.hosts_for("127.0.0.1", "http://10.0.0.5:8000") == ("10.0.0.5", "127.0.0.1", "::1", "localhost")


def test_public_page_shows_tables_and_standings_and_no_secrets(day):
    c = client_of(day, password=security.hash_password("correct horse"))
    consoleday.enter(day, G(1, 1), ["10", "7", "5", "3"], "1")
    public = c.get("/public")
    assert public.status_code == 200 and "Start 1" in public.text and "Anna" in public.text
    assert tokens.table_token(day.key, 1, 1) not in public.text and "/t/" not in public.text
    assert (
        'href="/audit"' not in public.text and 'href="/entries"' not in public.text and "&lt;script&gt;" in public.text
    )


def test_director_password_session_and_login_limit(day):
    c = client_of(day, password=security.hash_password("correct horse"))
    assert c.get("/", follow_redirects=False).headers["location"] == "/login"
    assert c.get("/standings.csv", follow_redirects=False).status_code == 303
    token = csrf(c, "/login")
    assert c.post("/login", data={"csrf": token, "password": "wrong"}).status_code == 403
    assert c.post("/login", data={"password": "correct horse"}).status_code == 403  # no csrf
    ok = c.post("/login", data={"csrf": token, "password": "correct horse"}, follow_redirects=False)
    assert ok.status_code == 303 and c.get("/").status_code == 200
    assert c.post("/logout", data={"csrf": csrf(c)}, follow_redirects=False).status_code == 303
    assert c.get("/", follow_redirects=False).status_code == 303
    token = csrf(c, "/login")
    for _ in range(security.MAX_FAILURES - 1):
        c.post("/login", data={"csrf": token, "password": "wrong"})
    assert c.post("/login", data={"csrf": token, "password": "correct horse"}).status_code == 429


def test_standings_csv_is_byte_identical_to_the_cli(day, tour):
    from typer.testing import CliRunner

    from setupgen.cli import app

    for table, (vp, winner) in enumerate((((10, 7, 5, 3), 1), ((4, 10, 10, 2), 2)), start=1):
        consoleday.enter(day, G(1, table), [str(v) for v in vp], str(winner))
    c = client_of(day)
    export = c.get("/standings.csv")
    assert export.status_code == 200 and export.headers["content-type"].startswith("text/csv")
    run = CliRunner().invoke(app, ["standings", str(tour), str(day.folder / "results.csv"), "-o", str(day.folder)])
    assert run.exit_code == 0, run.output
    assert export.content == (day.folder / "standings.csv").read_bytes()
    page = c.get("/standings")
    assert "Round 1: 2 of 2 tables confirmed" in page.text and "Round 2: 0 of 2" in page.text


def test_serve_refuses_other_hosts_without_a_password_and_bad_files(tour, tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    run = CliRunner().invoke(app, ["serve", str(tour), "--host", "0.0.0.0", "-o", str(tmp_path / "o")])
    assert run.exit_code == 2 and run.output == (
        "error: listening on '0.0.0.0' lets other machines in: the director's password is needed, "
        "in a file (give --password-file)\n"
    )
    (tmp_path / "short.txt").write_text("abc\n")
    run = CliRunner().invoke(app, ["serve", str(tour), "--password-file", str(tmp_path / "short.txt")])
    assert run.exit_code == 2 and "at least 8 characters" in run.output
    run = CliRunner().invoke(app, ["serve", str(tour), "--port", "70000"])
    assert run.exit_code == 2 and "--port: the port must be from 1 to 65535" in run.output
    assert not (tmp_path / "o").exists()


def test_importing_the_cli_does_not_import_the_server():
    code = (
        "import sys, setupgen.cli; print(sorted(m for m in ('starlette', 'uvicorn', 'jinja2', 'segno', "
        "'sqlite3') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_password_hashes_are_scrypt_and_compared_in_constant_time():
    salt, digest = security.hash_password("correct horse", b"s" * 16)
    assert digest == hashlib.scrypt(b"correct horse", salt=b"s" * 16, n=2**14, r=8, p=1, dklen=32)
    assert security.password_matches((salt, digest), "correct horse")
    assert not security.password_matches((salt, digest), "correct hors")
    assert security.is_loopback("127.0.0.1") and security.is_loopback("::1") and not security.is_loopback("0.0.0.0")


def test_random_forms_and_paths_never_get_a_500(day):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as hs

    c = client_of(day)
    token = csrf(c)
    good = tokens.table_token(day.key, 1, 1)
    posts = [
        "/rounds/1/tables/1",
        "/rounds/1/tables/1/confirm",
        "/rounds/2/tables/2",
        f"/t/1/1/{good}",
        "/login",
        "/logout",
    ]
    text = hs.text(max_size=30)
    fields = hs.dictionaries(
        hs.sampled_from(["vp1", "vp2", "vp3", "vp4", "vp5", "winner", "csrf", "x"]),
        hs.one_of(text, hs.integers(-(10**30), 10**30).map(str)),
        max_size=7,
    )

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(hs.sampled_from(posts), fields, hs.booleans(), hs.text(max_size=40))
    def check(path, form, with_csrf, junk):
        if with_csrf:
            form = dict(form, csrf=token)
        assert c.post(path, data=form).status_code < 500
        from urllib.parse import quote

        assert c.get("/rounds/" + quote(junk)).status_code < 500
        assert c.get("/t/1/1/" + quote(junk, safe="")).status_code < 500

    check()
    for r in day.store.results():  # whatever was entered kept the rules
        assert consoleday.check_result(day, G(r.round, r.table), [str(v) for v in r.vp], str(r.winner))


def test_serve_on_a_network_asks_for_the_password_at_a_terminal(tour, tmp_path):
    pty = pytest.importorskip("pty")
    import os
    import select
    import signal
    import socket
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pid, fd = pty.fork()
    if pid == 0:  # the child: setupgen serve on every address, no password file
        os.execv(
            sys.executable,
            [
                sys.executable,
                "-m",
                "setupgen",
                "serve",
                str(tour),
                "-o",
                str(tmp_path / "o"),
                "--host",
                "0.0.0.0",
                "--port",
                str(port),
            ],
        )
    seen = b""

    def read_until(text: bytes, seconds: float = 20) -> None:
        nonlocal seen
        end = time.monotonic() + seconds
        while text not in seen and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    seen += os.read(fd, 1000)
                except OSError:
                    return

    try:
        read_until(b"password: ")
        os.write(fd, b"long enough\n")
        read_until(b"confirmation: ")
        os.write(fd, b"long enough\n")
        read_until(b"Ctrl-C ends it")
        assert b"console of 'Club Night' on http://0.0.0.0:" in seen, seen
        for _ in range(100):  # the line comes just before uvicorn listens
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the console did not listen")
        os.kill(pid, signal.SIGINT)
        read_until(b"tournament.db")
        assert b"console stopped; every acknowledged change is in tournament.db" in seen
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)


def confirm_round(day, number):
    for table in range(1, day.schedule.tables(number) + 1):
        seats = len(day.players_of(G(number, table)))
        consoleday.enter(day, G(number, table), [str(10 - 2 * k) for k in range(seats)], "1")


def final_of_8_day(tmp_path: Path, played: bool = False):
    """The club tournament with a final of the best 8 (base, 10 VP), opened
    in ``tmp_path/out``; with ``played`` both rounds entered and confirmed."""
    tour = make_tournament(tmp_path)
    tour.write_text(TOURNAMENT + '\n[final]\nplayers = 8\nscenario = "base-3-4"\nvictory_points = 10\n')
    day = consoleday.open_day(tour, tmp_path / "out")
    if played:
        confirm_round(day, 1)
        confirm_round(day, 2)
    return tour, day


def test_finals_seated_and_packed_as_the_cli_does(tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    tour, day = final_of_8_day(tmp_path)
    c = client_of(day)
    page = c.get("/finals")
    assert page.status_code == 200 and "Not yet: 4 preliminary tables are not confirmed yet." in page.text
    assert c.post("/finals/pack", data={"csrf": csrf(c)}).status_code == 409
    confirm_round(day, 1)
    confirm_round(day, 2)
    page = c.get("/finals")
    assert "Make the final pack" in page.text and page.text.count("· rank ") == 8
    assert c.post("/finals/pack", data={"csrf": csrf(c)}, follow_redirects=False).status_code == 303
    pdf = c.get("/finals/final/round.pdf")
    assert pdf.status_code == 200 and pdf.content == (day.folder / "final" / "round.pdf").read_bytes()
    assert c.get("/finals/other/round.pdf").status_code == 404
    copy_schedule(day.folder, tmp_path / "cli")
    run = CliRunner().invoke(
        app, ["finals", str(tour), str(day.folder / "results.csv"), "--players", "8", "-o", str(tmp_path / "cli")]
    )
    assert run.exit_code == 0, run.output
    assert (tmp_path / "cli" / "final" / "round.pdf").read_bytes() == pdf.content
    day.store.close()


def test_semi_finals_then_the_final_of_their_winners(tmp_path):
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"s{k:02d},Player {k}\n" for k in range(16)))
    tour = tmp_path / "t.toml"
    tour.write_text(
        'name = "Sixteen"\nseed = "sixteen"\nplayers = "players.csv"\ntable_size = 4\n\n'
        '[[rounds]]\nscenario = "base-3-4"\n\n[final]\nplayers = 16\nscenario = "base-3-4"\n'
    )
    day = consoleday.open_day(tour, tmp_path / "out")
    c = client_of(day)
    confirm_round(day, 1)
    token = csrf(c)
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    assert (day.folder / "semi-final" / "manifest.json").is_file()
    page = c.get("/finals")
    assert "Seat the final of these winners" in page.text
    found = consoleday.finals(day)
    winners = {f"w{k}": table[-1] for k, table in enumerate(found.tables, start=1)}
    bad = c.post("/finals/pack", data={"csrf": token, **winners, "w1": found.tables[1][0]})
    assert bad.status_code == 409 and "exactly one winner of each semi-final" in bad.text
    assert c.post("/finals/pack", data={"csrf": token, **winners}, follow_redirects=False).status_code == 303
    manifest = json.loads((day.folder / "final" / "manifest.json").read_text())
    assert manifest["tables"] == 1
    assert "Seat the final" not in c.get("/finals").text
    day.store.close()


def test_a_tournament_pack_has_its_results_template(tour, tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    out = tmp_path / "out"
    assert CliRunner().invoke(app, ["schedule", str(tour), "-o", str(out)]).exit_code == 0
    assert CliRunner().invoke(app, ["round", str(tour), "--round", "2", "-o", str(out)]).exit_code == 0
    pack = out / "round-2"
    text = (pack / "results-round-2.csv").read_text()
    manifest = json.loads((pack / "manifest.json").read_text())
    assert manifest["results_template"] == "results-round-2.csv" and "results-round-2.csv" in manifest["files"]
    rows = list(csv.reader(io.StringIO(text)))
    names = dict(PLAYERS)
    assert rows[0] == ["round", "table", "player", "name", "vp", "winner"] and len(rows) == 9
    assert all(r[0] == "2" and r[3] == names[r[2]] and r[4:] == ["", ""] for r in rows[1:])
    assert [r[1] for r in rows[1:]] == ["1"] * 4 + ["2"] * 4
    filled = [rows[0]] + [r[:4] + [str(10 - k % 4), "yes" if k % 4 == 0 else "no"] for k, r in enumerate(rows[1:])]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(filled)
    (tmp_path / "filled.csv").write_text(buf.getvalue())
    run = CliRunner().invoke(app, ["standings", str(tour), str(tmp_path / "filled.csv"), "-o", str(out)])
    assert run.exit_code == 0, run.output
    quick = tmp_path / "quick"
    assert CliRunner().invoke(app, ["round", "--tables", "1", "--seed", "q", "-o", str(quick)]).exit_code == 0
    assert not list(quick.glob("results-*")) and "results_template" not in (quick / "manifest.json").read_text()


def test_migration_from_schema_1_keeps_every_result(tmp_path):
    db = sqlite3.connect(tmp_path / "tournament.db", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (1)")
    for statement in store.MIGRATIONS[1]:
        db.execute(statement)
    db.execute("INSERT INTO results VALUES (1, 1, '[\"a\", \"b\"]', '[10, 4]', 1, 'confirmed', 'director', 't')")
    db.close()
    s = store.Store(tmp_path)
    assert not s.fresh and store.version(s.db) == 9
    assert s.result(G(1, 1)) == store.TableResult(G(1, 1), ("a", "b"), (10, 4), 1, "confirmed", "director", "t", ())
    s.close()


def test_a_no_show_and_a_disqualification_entered_by_the_director(day, tour):
    from typer.testing import CliRunner

    from setupgen.cli import app

    c = client_of(day)
    form = dict(table_form(c, "/rounds/1/tables/1", (10, 0, 5, 3), 1), status2="no-show", status4="disqualified")
    assert c.post("/rounds/1/tables/1", data=form, follow_redirects=False).status_code == 303
    seats = day.players_of(G(1, 1))
    text = (day.folder / "results.csv").read_text()
    assert text.splitlines()[:3] == [
        "round,table,player,vp,winner,status",
        f"1,1,{seats[0]},10,yes,played",
        f"1,1,{seats[1]},0,no,no-show",
    ]
    assert text.splitlines()[4] == f"1,1,{seats[3]},3,no,disqualified"
    page = c.get("/rounds/1/tables/1")
    assert '<option value="no-show" selected>no-show</option>' in page.text
    assert '<option value="disqualified" selected>disqualified</option>' in page.text
    consoleday.enter(day, G(1, 2), ["4", "10", "6", "2"], "2")
    live = consoleday.live_standings(day)
    assert seats[3] not in {s.player for s in live.ranked} and len(live.ranked) == 7
    run = CliRunner().invoke(app, ["standings", str(tour), str(day.folder / "results.csv"), "-o", str(day.folder)])
    assert run.exit_code == 0, run.output
    assert c.get("/standings.csv").content == (day.folder / "standings.csv").read_bytes()
    good = tokens.table_token(day.key, 1, 2)
    table = c.get(f"/t/1/2/{good}")
    assert "<select" not in table.text  # statuses are the director's
    assert "<em>no-show</em>" in c.get("/rounds/1").text


def test_a_bug_is_one_line_and_a_file_never_a_traceback(day, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(_day):
        raise RuntimeError("boom")

    monkeypatch.setattr(consoleday, "live_standings", broken)
    answer = client_of(day).get("/standings")
    assert answer.status_code == 500 and "Traceback" not in answer.text and "boom" not in answer.text
    assert answer.text.startswith("500 internal error (a bug in setupgen, not your input); details in ")
    (crash,) = (tmp_path / "state" / "setupgen").glob("console-crash-*.txt")
    assert "RuntimeError: boom" in crash.read_text() and crash.read_text().startswith("GET /standings")


def test_the_swiss_example_run_from_the_console_alone(tmp_path):
    """Issue 14, "Done when": a three-round tournament (48 players, base,
    base, Seafarers with its key) run from the console; the standings and
    the final's pack equal the command line's from the exported results."""
    import shutil

    from typer.testing import CliRunner

    from setupgen.cli import app

    shutil.copytree(ROOT / "examples" / "swiss-2010", tmp_path / "ex")
    tour = tmp_path / "ex" / "tournament.toml"
    day = consoleday.open_day(tour, tmp_path / "out")
    c = client_of(day)
    token = csrf(c)
    for n in day.rounds:
        assert c.post(f"/rounds/{n}/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
        top = day.t.thresholds()[n]
        for t in range(1, day.schedule.tables(n) + 1):
            seats = len(day.players_of(G(n, t)))
            winner = 1 + (t + n) % seats
            vps = [top if k == winner else 3 + (k * t + n) % (top - 3) for k in range(1, seats + 1)]
            assert (
                c.post(
                    f"/rounds/{n}/tables/{t}",
                    data=table_form(c, f"/rounds/{n}/tables/{t}", vps, winner),
                    follow_redirects=False,
                ).status_code
                == 303
            )
    assert c.get("/rounds/3/key.pdf").content == (day.folder / "round-3" / "key.pdf").read_bytes()
    exported = c.get("/standings.csv").content
    runner = CliRunner()
    results = str(day.folder / "results.csv")
    copy_schedule(day.folder, tmp_path / "cli")
    assert runner.invoke(app, ["standings", str(tour), results, "-o", str(tmp_path / "cli")]).exit_code == 0
    assert exported == (tmp_path / "cli" / "standings.csv").read_bytes()
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    run = runner.invoke(app, ["finals", str(tour), results, "--players", "8", "-o", str(tmp_path / "cli")])
    assert run.exit_code == 0, run.output
    assert (tmp_path / "cli" / "final" / "round.pdf").read_bytes() == (day.folder / "final" / "round.pdf").read_bytes()
    for n in day.rounds:  # the console's packs are the command line's
        assert runner.invoke(app, ["round", str(tour), "--round", str(n), "-o", str(tmp_path / "cli")]).exit_code == 0
        assert (tmp_path / "cli" / f"round-{n}" / "round.pdf").read_bytes() == (
            day.folder / f"round-{n}" / "round.pdf"
        ).read_bytes()
    day.store.close()


# ------------------------------------------------------------------ the finals' results and the final placings


def table_form(c, path: str, vps, winner) -> dict:
    """The result form of the director's page ``path``, filled in as a
    browser would (its CSRF token and seating stamp from the page)."""
    return result_form(csrf(c, path), vps, winner)


def placed_names(page_text: str) -> list[str]:
    section = re.split(r"<h[12]>Final placings</h[12]>", page_text, maxsplit=1)[1].split("</table>", 1)[0]
    cells = re.findall(r'<tr><td class="num">\d+</td><td>(.*?)</td>', section)
    return [html_unescape(re.sub(r"<a href=[^>]*>(.*)</a>", r"\1", m)) for m in cells]


def html_unescape(text: str) -> str:
    import html

    return html.unescape(text)


def test_finals_results_of_8_and_the_placings_on_both_pages(tmp_path):
    from typer.testing import CliRunner

    from setupgen.cli import app

    tour, day = final_of_8_day(tmp_path, played=True)
    c = client_of(day)
    token = csrf(c)
    early = c.post("/finals/final/tables/1", data=table_form(c, "/finals/final/tables/1", (7, 10, 8, 8), 2))
    assert early.status_code == 409 and "make the final&#39;s pack first" in early.text
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    found = consoleday.finals(day)
    rank = found.ranking  # rank[k - 1] is preliminary rank k; table 1 seats ranks 1, 4, 5, 8; table 2 ranks 2, 3, 6, 7
    page = c.get("/finals")
    assert page.text.count("Enter result") == 2 and "Once every finals table has its result" in page.text
    names = day.names()
    bad = c.post("/finals/final/tables/1", data=table_form(c, "/finals/final/tables/1", ("x", 10, 8, 8), 2))
    shown = names[rank[0]].replace("<", "&lt;").replace(">", "&gt;")
    assert bad.status_code == 400 and f"{shown}: vp &#39;x&#39; is not a whole number" in bad.text
    high = c.post("/finals/final/tables/1", data=table_form(c, "/finals/final/tables/1", (7, 10, 11, 8), 2))
    assert high.status_code == 400 and "has 10 vp but" in high.text
    assert c.post("/finals/final/tables/1", data={"winner": "2", "vp1": "7"}).status_code == 403
    assert c.get("/finals/final/tables/3").status_code == 404
    assert c.get("/finals/quarter/tables/1").status_code == 404
    assert c.post("/finals/semi-final/tables/1", data=result_form(token, (1, 2, 3, 4), 4)).status_code == 404
    # a first entry of table 1, then its correction: 7, 10, 8, 8 (winner seat 2)
    assert (
        c.post(
            "/finals/final/tables/1",
            data=table_form(c, "/finals/final/tables/1", (6, 10, 8, 8), 2),
            follow_redirects=False,
        ).status_code
        == 303
    )
    assert (
        c.post(
            "/finals/final/tables/1",
            data=table_form(c, "/finals/final/tables/1", (7, 10, 8, 8), 2),
            follow_redirects=False,
        ).status_code
        == 303
    )
    assert [e.action for e in day.store.audit(Game.finals("final", 1))] == ["correct", "enter"]
    assert (
        "Once every finals table has its result (now: 1 final table without a confirmed result)"
        in c.get("/finals").text
    )
    assert (
        c.post(
            "/finals/final/tables/2",
            data=table_form(c, "/finals/final/tables/2", (10, 9, 4, 6), 1),
            follow_redirects=False,
        ).status_code
        == 303
    )
    # table 1: rank 4 wins (4 points, 10 of 33 VP = 30.30), ranks 5 and 8 share 2.5 (8 VP each), rank 1 has 1;
    # table 2: rank 2 wins (10 of 29 = 34.48: champion), rank 3 has 3, rank 7 2, rank 6 1
    want = [names[rank[k - 1]] for k in (2, 4, 3, 5, 8, 7, 1, 6)]
    director = c.get("/finals")
    assert placed_names(director.text) == want
    public = c.get("/public")
    assert public.status_code == 200 and placed_names(public.text) == want
    assert "<script>alert(1)</script>" not in public.text and "&lt;script&gt;" in public.text
    assert "/finals/final/tables" not in public.text
    text = (day.folder / "results-final.csv").read_text()
    assert text.splitlines()[0] == "round,table,player,vp,winner"
    assert text.splitlines()[1] == f"final,1,{rank[0]},7,no"
    assert "final" in c.get("/audit").text
    copy_schedule(day.folder, tmp_path / "cli")
    run = CliRunner().invoke(
        app,
        [
            "placings",
            str(tour),
            str(day.folder / "results.csv"),
            "--final",
            str(day.folder / "results-final.csv"),
            "-o",
            str(tmp_path / "cli"),
        ],
    )
    assert run.exit_code == 0, run.output
    rows = list(csv.reader(io.StringIO((tmp_path / "cli" / "placings.csv").read_text())))
    assert [names[r[1]] for r in rows[1:]] == want
    # table 2 corrected: rank 6 (seat 3) disqualified; he leaves the placings, the places close up
    form = dict(
        table_form(c, "/finals/final/tables/2", (10, 9, 4, 6), 1),
        status1="played",
        status2="played",
        status3="disqualified",
        status4="played",
    )
    assert c.post("/finals/final/tables/2", data=form, follow_redirects=False).status_code == 303
    assert "disqualified" in c.get("/finals/final/tables/2").text
    assert placed_names(c.get("/finals").text) == [names[rank[k - 1]] for k in (2, 4, 3, 5, 8, 7, 1)]
    lines = (day.folder / "results-final.csv").read_text().splitlines()
    assert lines[0] == "round,table,player,vp,winner,status" and lines[7] == f"final,2,{rank[5]},4,no,disqualified"
    bad = dict(form, status3="no-show")  # a no-show has 0 VP
    assert c.post("/finals/final/tables/2", data=bad).status_code == 400
    day.store.close()


def test_migration_from_schema_3_gives_the_finals_statuses(tmp_path):
    db = sqlite3.connect(tmp_path / "tournament.db", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (3)")
    for step in (1, 2, 3):
        for statement in store.MIGRATIONS[step]:
            db.execute(statement)
    db.execute("INSERT INTO finals VALUES ('final', 1, '[\"a\", \"b\"]', '[13, 4]', 1, 'director', 't')")
    db.close()
    s = store.Store(tmp_path)
    assert store.version(s.db) == 9
    assert s.result(Game.finals("final", 1)) == store.TableResult(
        Game("final", 1, 1), ("a", "b"), (13, 4), 1, "confirmed", "director", "t"
    )
    s.close()


def test_semi_final_results_name_the_winners_then_the_final(tmp_path):
    (tmp_path / "players.csv").write_text("id,name\n" + "".join(f"s{k:02d},Player {k}\n" for k in range(16)))
    tour = tmp_path / "t.toml"
    tour.write_text(
        'name = "Sixteen"\nseed = "sixteen"\nplayers = "players.csv"\ntable_size = 4\n\n'
        '[[rounds]]\nscenario = "base-3-4"\n\n[final]\nplayers = 16\nscenario = "base-3-4"\n'
    )
    day = consoleday.open_day(tour, tmp_path / "out")
    c = client_of(day)
    confirm_round(day, 1)
    token = csrf(c)
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    found = consoleday.finals(day)
    rank = found.ranking
    # seats by rank: 1-8-9-16 / 2-7-10-15 / 3-6-11-14 / 4-5-12-13
    semis = {1: ((6, 10, 7, 7), 2), 2: ((10, 9, 3, 5), 1), 3: ((8, 8, 10, 2), 3), 4: ((10, 10, 4, 9), 1)}
    for k, (vps, winner) in semis.items():
        assert (
            c.post(
                f"/finals/semi-final/tables/{k}",
                data=table_form(c, f"/finals/semi-final/tables/{k}", vps, winner),
                follow_redirects=False,
            ).status_code
            == 303
        )
    early = c.post(
        "/finals/final/tables/1", data=table_form(c, "/finals/final/tables/1", (7, 9, 10, 9), 3)
    )  # seated, not packed yet
    assert early.status_code == 409 and "make the final&#39;s pack first" in early.text
    page = c.get("/finals")
    winners = [rank[k - 1] for k in (8, 2, 11, 4)]
    for w in winners:
        assert f'value="{w}" required checked' in page.text
    other = {f"w{k}": found.tables[k - 1][0] for k in range(1, 5)}
    refused = c.post("/finals/pack", data={"csrf": token, **other})
    assert refused.status_code == 409 and "the semi-finals&#39; results name the winners" in refused.text
    chosen = {f"w{k}": w for k, w in enumerate(winners, start=1)}
    assert c.post("/finals/pack", data={"csrf": token, **chosen}, follow_redirects=False).status_code == 303
    # the final seats ranks 2, 4, 8, 11 in that order
    assert (
        c.post(
            "/finals/final/tables/1",
            data=table_form(c, "/finals/final/tables/1", (7, 9, 10, 9), 3),
            follow_redirects=False,
        ).status_code
        == 303
    )
    names = day.names()
    want = [names[rank[k - 1]] for k in (8, 4, 11, 2, 5, 7, 3, 6, 9, 16, 13, 15, 1, 12, 10, 14)]
    assert placed_names(c.get("/finals").text) == want
    assert placed_names(c.get("/public").text) == want
    assert (day.folder / "results-semi-final.csv").read_text().count("\nsemi-final,") == 16
    day.store.close()


def test_migration_from_schema_2_keeps_results_and_adds_the_finals(tmp_path):
    db = sqlite3.connect(tmp_path / "tournament.db", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (2)")
    for step in (1, 2):
        for statement in store.MIGRATIONS[step]:
            db.execute(statement)
    db.execute(
        "INSERT INTO results VALUES (1, 1, '[\"a\", \"b\"]', '[10, 4]', 1, 'confirmed', 'director', 't', "
        '\'["played", "no-show"]\')'
    )
    db.execute(
        "INSERT INTO audit (at, by, round, table_no, action, old, new) VALUES ('t', 'director', 1, 1, "
        "'enter', '', '{}')"
    )
    db.close()
    s = store.Store(tmp_path)
    assert not s.fresh and store.version(s.db) == 9
    assert s.result(G(1, 1)) == store.TableResult(
        G(1, 1), ("a", "b"), (10, 4), 1, "confirmed", "director", "t", ("played", "no-show")
    )
    (entry,) = s.audit()
    assert (entry.round, entry.action, entry.stage) == (1, "enter", "preliminary")
    assert s.results("final") == []
    final = Game.finals("final", 1)
    new = store.TableResult(final, ("a", "b"), (13, 9), 1, "confirmed", "director", "t2")
    assert s.record(new, "enter") is None
    assert s.result(final) == new and s.audit(G(1, 1)) == [entry] and s.result(G(1, 1)).vp == (10, 4)
    assert [(e.stage, e.round, e.table) for e in s.audit(final)] == [("final", 1, 1)]
    with pytest.raises(ValueError, match="unknown stage 'quarter'"):
        Game("quarter", 1, 1)
    s.close()


def test_once_a_finals_pack_is_made_the_preliminary_results_stay(tmp_path):
    # the finals are seated from the preliminary results: a correction afterwards would
    # seat other finalists beside the final's results; it is refused (409), and a
    # results.csv edited by hand blocks the finals' results too
    tour, day = final_of_8_day(tmp_path, played=True)
    c = client_of(day)
    token = csrf(c)
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    late = c.post("/rounds/1/tables/1", data=table_form(c, "/rounds/1/tables/1", (10, 0, 0, 0), 1))
    assert late.status_code == 409 and "a preliminary result no longer changes" in late.text
    with pytest.raises(store.StoreError, match="final&#39;s pack is made|final's pack is made"):
        consoleday.enter(day, G(2, 1), ["10", "0", "0", "0"], "1")
    assert day.store.result(G(1, 1)).vp == (10, 8, 6, 4)
    (day.folder / "results.csv").write_text((day.folder / "results.csv").read_text() + "\n")
    refused = c.post("/finals/final/tables/1", data=table_form(c, "/finals/final/tables/1", (7, 10, 8, 8), 2))
    assert refused.status_code == 400 and "changed outside the console" in refused.text
    assert day.store.results("final") == []
    day.store.close()


def test_the_console_refuses_a_schedule_its_results_were_not_played_with(tour, tmp_path):
    day = consoleday.open_day(tour, tmp_path / "out")
    consoleday.enter(day, G(1, 1), ["10", "8", "6", "4"], "1")
    jobs.write_schedule(day.t, day.schedule, day.folder)
    day.store.close()
    text = (day.folder / "schedule.csv").read_text().splitlines()
    first, second = text[1].split(","), text[2].split(",")  # round 1 table 1: seats 1 and 2 swapped
    text[1], text[2] = ",".join(first[:3] + second[3:]), ",".join(second[:3] + first[3:])
    (day.folder / "schedule.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(SetupgenError, match="round 1 table 1 has a result for other players than"):
        consoleday.open_day(tour, tmp_path / "out")


def test_finals_page_says_why_not_yet_when_the_results_do_not_read(tmp_path, monkeypatch):
    tour, day = final_of_8_day(tmp_path, played=True)

    def unreadable(*args, **kw):
        raise SetupgenError("results.csv: line 3: vp 'x' is not a whole number")

    monkeypatch.setattr(consoleday.jobs, "finals_request", unreadable)
    monkeypatch.setattr(consoleday, "live_standings", unreadable)
    page = client_of(day).get("/finals")
    assert page.status_code == 200 and "Not yet: results.csv: line 3: vp &#39;x&#39; is not a whole number" in page.text
    day.store.close()


def test_a_finals_table_reports_by_its_link_and_the_director_confirms_as_in_a_round(tmp_path):
    # one key for every game: the final's table 2 reports on /t/final/2/<token> (a token of its own,
    # not round 1 table 2's), the director confirms on the same route as a round's, and only then
    # is the result in results-final.csv
    tour, day = final_of_8_day(tmp_path, played=True)
    c = client_of(day)
    token = csrf(c)
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    final = Game.finals("final", 2)
    good = tokens.table_token(day.key, 1, 2, "final")
    assert c.get(f"/t/final/2/{tokens.table_token(day.key, 1, 2)}").status_code == 404  # round 1's token
    assert c.get(f"/t/1/2/{good}").status_code == 404 and c.get(f"/t/quarter/2/{good}").status_code == 404
    page = c.get(f"/t/final/2/{good}")
    assert page.status_code == 200 and "Final · Table 2" in page.text and "Report result" in page.text
    form_token = csrf(c, f"/t/final/2/{good}")
    sent = c.post(f"/t/final/2/{good}", data=result_form(form_token, (10, 9, 4, 6), 1), follow_redirects=False)
    assert sent.status_code == 303 and day.state(final) == "reported"
    assert not (day.folder / "results-final.csv").exists()  # reported, not confirmed
    listing = c.get("/finals").text
    assert 'action="/finals/final/tables/2/confirm"' in listing and "Enter result" in listing
    assert c.get("/finals/final/tables/2").text.count("Confirm this result") == 1
    done = c.post("/finals/final/tables/2/confirm", data={"csrf": token, "version": "1"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/finals" and day.state(final) == "confirmed"
    lines = (day.folder / "results-final.csv").read_text().splitlines()
    assert len(lines) == 5 and all(line.startswith("final,2,") for line in lines[1:])
    assert [e.action for e in day.store.audit(final)] == ["confirm", "report"]
    again = c.post(f"/t/final/2/{good}", data=result_form(form_token, (10, 9, 4, 5), 1))
    assert again.status_code == 409 and "ask the director to correct it" in again.text
    nothing = c.post("/finals/final/tables/1/confirm", data={"csrf": token, "version": "0"})
    assert nothing.status_code == 409 and "final table 1 has no result to confirm" in nothing.text
    day.store.close()


# ------------------------------------------------------------------ the director confirms what was seen (F4)


def report_by_link(c, day, table: int, vps, winner) -> None:
    good = tokens.table_token(day.key, 1, table)
    token = csrf(c, f"/t/1/{table}/{good}")
    assert (
        c.post(f"/t/1/{table}/{good}", data=result_form(token, vps, winner), follow_redirects=False).status_code == 303
    )


def shown_versions(page: str) -> dict[int, int]:
    """table -> the version a round page's Confirm button carries."""
    return {
        int(t): int(v)
        for t, v in re.findall(
            r'action="/rounds/\d+/tables/(\d+)/confirm" class="inline"><input type="hidden" name="csrf" '
            r'value="[0-9a-f]+"><input type="hidden" name="version" value="(\d+)">',
            page,
        )
    }


def test_confirm_applies_to_the_version_the_director_saw(day):
    # F4: table 2 reports, the director opens the round page, the table changes its report;
    # Confirm from the page is refused (409) with the new report beside the old, nothing stored
    c = client_of(day)
    report_by_link(c, day, 2, (4, 10, 6, 2), 2)
    page = c.get("/rounds/1").text
    assert shown_versions(page) == {2: 1}
    report_by_link(c, day, 2, (4, 9, 10, 2), 3)  # the table changed its mind: seat 3 won
    stale = c.post("/rounds/1/tables/2/confirm", data={"csrf": csrf(c), "version": "1"})
    assert stale.status_code == 409 and day.state(G(1, 2)) == "reported"
    assert "This result changed after you opened the page" in stale.text
    names = day.names()
    seat3 = html_escape(names[day.players_of(G(1, 2))[2]])
    row = re.search(
        rf"<tr><td>{re.escape(seat3)}</td><td class=\"num\">(.*?)</td><td class=\"num\">(.*?)</td></tr>", stale.text
    )
    assert row and row.groups() == ("6", "10 ★")  # you saw 6, now 10 and the winner
    assert (day.folder / "results.csv").read_text().count("\n") == 1  # nothing confirmed
    fresh = shown_versions(c.get("/rounds/1").text)
    assert fresh == {2: 2}
    ok = c.post("/rounds/1/tables/2/confirm", data={"csrf": csrf(c), "version": "2"}, follow_redirects=False)
    assert ok.status_code == 303 and day.store.result(G(1, 2)).vp == (4, 9, 10, 2)
    assert day.store.result(G(1, 2)).version == 3 and [e.version for e in day.store.audit(G(1, 2))] == [3, 2, 1]


def html_escape(text: str) -> str:
    import html

    return html.escape(text, quote=True).replace("&#x27;", "&#39;")


def test_confirm_all_reported_confirms_what_was_seen_and_names_the_rest(day):
    c = client_of(day)
    for t, (vps, w) in {1: ((10, 7, 5, 3), 1), 2: ((4, 10, 6, 2), 2)}.items():
        report_by_link(c, day, t, vps, w)
    page = c.get("/rounds/1").text
    assert "Confirm all reported (2)" in page and 'name="versions" value="1:1 2:1"' in page
    report_by_link(c, day, 2, (4, 10, 6, 3), 2)  # table 2 again, after the page was opened
    done = c.post("/rounds/1/confirm-all", data={"csrf": csrf(c), "versions": "1:1 2:1"}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/rounds/1?confirmed=1&changed=2"
    assert (day.state(G(1, 1)), day.state(G(1, 2))) == ("confirmed", "reported")
    shown = c.get(done.headers["location"]).text
    assert "Confirmed 1 table. Changed since the page was opened, so not confirmed: table 2" in shown
    assert "Confirm all reported (1)" in shown
    rows = (day.folder / "results.csv").read_text().splitlines()
    assert len(rows) == 5 and all(r.startswith("1,1,") for r in rows[1:])
    again = c.post("/rounds/1/confirm-all", data={"csrf": csrf(c), "versions": "2:2"}, follow_redirects=False)
    assert again.headers["location"] == "/rounds/1?confirmed=1" and day.state(G(1, 2)) == "confirmed"
    assert [(e.action, e.table) for e in day.store.audit()][:3] == [("confirm", 2), ("confirm", 1), ("report", 2)]


def test_confirm_all_is_one_transaction(day, monkeypatch):
    c = client_of(day)
    for t in (1, 2):
        report_by_link(c, day, t, (10, 7, 5, 3), 1)
    real = day.store._store
    calls = []

    def second_fails(new, action, old):
        calls.append(new.game)
        if len(calls) == 2:
            raise store.StoreError("disk full")
        real(new, action, old)

    monkeypatch.setattr(day.store, "_store", second_fails)
    with pytest.raises(store.StoreError, match="disk full"):
        consoleday.confirm_all(day, {G(1, 1): 1, G(1, 2): 1})
    monkeypatch.undo()
    assert (day.state(G(1, 1)), day.state(G(1, 2))) == ("reported", "reported")  # neither stored
    assert [e.action for e in day.store.audit()] == ["report", "report"]


def test_a_correction_from_a_page_opened_before_a_change_is_refused(tmp_path):
    # the director's form carries the version it showed: a finals table corrected on one page while
    # another page (or the table) changed it is refused, and the same for a round's table
    tour, day = final_of_8_day(tmp_path, played=True)
    c = client_of(day)
    token = csrf(c)
    assert c.post("/finals/pack", data={"csrf": token}, follow_redirects=False).status_code == 303
    first = dict(table_form(c, "/finals/final/tables/1", (7, 10, 8, 8), 2), version="0")
    assert c.post("/finals/final/tables/1", data=first, follow_redirects=False).status_code == 303
    page = c.get("/finals/final/tables/1").text
    assert 'name="version" value="1"' in page
    second = dict(table_form(c, "/finals/final/tables/1", (7, 10, 9, 8), 2), version="1")
    assert c.post("/finals/final/tables/1", data=second, follow_redirects=False).status_code == 303
    stale = c.post(
        "/finals/final/tables/1", data=dict(table_form(c, "/finals/final/tables/1", (6, 10, 8, 8), 2), version="1")
    )
    assert stale.status_code == 409 and "This result changed after you opened the page" in stale.text
    assert day.store.result(Game.finals("final", 1)).vp == (7, 10, 9, 8)
    assert 'value="6"' in stale.text  # the director's own input is kept in the form
    late = c.post("/rounds/1/tables/1", data=dict(table_form(c, "/rounds/1/tables/1", (10, 0, 0, 0), 1), version="9"))
    assert late.status_code == 409
    day.store.close()


# ------------------------------------------------------------------ sessions that end (F1, F2, F3, F5)


def logged_in(day, password: str = "correct horse", **kw):
    """A client logged in with ``password`` (hashed as serve hashes it: the folder's salt)."""
    c = client_of(day, password=security.hash_password(password, security.password_salt(day.key)), **kw)
    ok = c.post("/login", data={"csrf": csrf(c, "/login"), "password": password}, follow_redirects=False)
    assert ok.status_code == 303 and c.get("/", follow_redirects=False).status_code == 200
    return c


def test_logout_ends_a_copied_session_cookie(day):
    # F2: a cookie copied from the director's browser stays the director until logout, not after
    c = logged_in(day)
    thief = client_of(day, password=c.app.state.password)
    thief.cookies.update(c.cookies)
    assert thief.get("/", follow_redirects=False).status_code == 200  # copied: works while the session is open
    assert c.post("/logout", data={"csrf": csrf(c)}, follow_redirects=False).status_code == 303
    assert thief.get("/", follow_redirects=False).headers["location"] == "/login"
    assert thief.get("/standings.csv", follow_redirects=False).status_code == 303
    assert day.store.db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (0,)


def test_a_restart_with_another_password_ends_every_session_and_the_same_password_keeps_them(day):
    # F3: the console restarted with a changed password: the old cookie is no longer the director
    c = logged_in(day)
    cookies = dict(c.cookies)
    same = client_of(day, password=security.hash_password("correct horse", security.password_salt(day.key)))
    same.cookies.update(cookies)
    assert same.get("/", follow_redirects=False).status_code == 200  # a restart with the same password
    other = client_of(day, password=security.hash_password("battery staple", security.password_salt(day.key)))
    other.cookies.update(cookies)
    assert other.get("/", follow_redirects=False).headers["location"] == "/login"
    assert day.store.db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (0,)  # ended at the start
    back = client_of(day, password=security.hash_password("correct horse", security.password_salt(day.key)))
    back.cookies.update(cookies)
    assert back.get("/", follow_redirects=False).status_code == 303  # and they stay ended


def test_an_idle_session_ends(day, monkeypatch):
    c = logged_in(day, session_hours=1)
    now = time.time()
    ((sid, fp),) = day.store.db.execute("SELECT id, password FROM sessions").fetchall()
    monkeypatch.setattr(consoleapp.time, "time", lambda: now + 3500)
    assert c.get("/", follow_redirects=False).status_code == 200  # used within the hour: kept, and seen now
    assert day.store.session_open(sid, fp, now + 3500 + 3599, 3600)  # an hour after its last use less a second
    monkeypatch.setattr(consoleapp.time, "time", lambda: now + 3500 + 3599 + 3601)
    assert c.get("/", follow_redirects=False).headers["location"] == "/login"
    assert not day.store.session_open(sid, fp, now + 3500 + 3599 + 3601, 3600)
    assert day.store.db.execute("SELECT COUNT(*) FROM sessions").fetchone() == (0,)  # ended, not kept
    stale = day.store.start_session(fp, now)  # a session never used again is cleared by the next login
    day.store.start_session(fp, now + 4000, idle=3600)
    assert [r[0] for r in day.store.db.execute("SELECT id FROM sessions")] != [stale]
    assert day.store.db.execute("SELECT COUNT(*) FROM sessions WHERE id = ?", (stale,)).fetchone() == (0,)


def test_parallel_wrong_passwords_are_checked_at_most_ten_times_a_minute(day, monkeypatch):
    # F1: 60 wrong passwords at once from one client: 10 checked, the rest refused before scrypt
    import threading

    c = client_of(day, password=security.hash_password("correct horse"))
    token = csrf(c, "/login")
    checked = []
    real = security.password_matches

    def counted(stored, given):
        checked.append(given)
        return real(stored, given)

    monkeypatch.setattr(security, "password_matches", counted)
    codes: list[int] = []
    lock = threading.Lock()

    def attempt() -> None:
        answer = c.post("/login", data={"csrf": token, "password": "wrong password"})
        with lock:
            codes.append(answer.status_code)

    threads = [threading.Thread(target=attempt) for _ in range(60)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert len(checked) == security.MAX_FAILURES == 10
    assert sorted(codes) == [403] * 10 + [429] * 50
    assert c.app.state.logins.attempt("198.51.100.7")  # another client is not locked out


def test_ctrl_d_at_the_password_prompt_is_one_line_and_exit_2(tour, tmp_path):
    import contextlib
    import os
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: serve on all addresses without a password file, so it asks
        os.execvp(
            sys.executable,
            [sys.executable, "-m", "setupgen", "serve", str(tour), "--host", "0.0.0.0", "-o", str(tmp_path / "o")],
        )
    out = b""
    deadline = time.monotonic() + 30
    sent = 0.0
    status = None
    try:
        while time.monotonic() < deadline and status is None:
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    out += os.read(fd, 1024)
                except OSError:  # the child closed the terminal
                    pass
            # Ctrl-D once the prompt is out, again every half second: the prompt's switch to hidden
            # input flushes what was typed before it reads
            if b"password" in out and time.monotonic() - sent > 0.5:
                os.write(fd, b"\x04")
                sent = time.monotonic()
            done, code = os.waitpid(pid, os.WNOHANG)
            status = code if done else None
    finally:
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    with contextlib.suppress(OSError):
        out += os.read(fd, 4096)
    text = out.decode("utf-8", "replace")
    assert sent and status is not None and os.waitstatus_to_exitcode(status) == 2, text
    assert (
        "error: no password was typed (end of input); the console needs one when it listens on '0.0.0.0' "
        "(give --password-file)" in text
    )
    assert "internal error" not in text and "Traceback" not in text


# ------------------------------------------------------------------ start-up checks (F6, F7)


@pytest.mark.parametrize(
    "args, error",
    [
        (
            ["--console-url", "https://127.0.0.1:8000"],
            "error: --console-url: the tables' address 'https://127.0.0.1:8000' is https, but the console serves http: "
            "serve it with a TLS certificate and key (--trust-console-url to do it anyway)",
        ),
        (
            ["--console-url", "http://127.0.0.1:8001"],
            "error: --console-url: the tables' address 'http://127.0.0.1:8001' has port 8001, but the console listens on "
            "port 8000: give the same port in both (--trust-console-url to do it anyway)",
        ),
        (["--console-url", "http://127.0.0.1"], "has port 80, but the console listens on port 8000"),
        (
            ["--console-url", "http://192.168.1.20:8000"],
            "is another machine's view of this one, but the console listens on 127.0.0.1 (this machine only)",
        ),
        (["--console-url", "http://192.168.1.20:8000", "--host", "::1"], "the console listens on ::1"),
    ],
)
def test_serve_refuses_a_console_url_the_tables_cannot_reach(tour, tmp_path, args, error):
    from typer.testing import CliRunner

    from setupgen.cli import app

    run = CliRunner().invoke(app, ["serve", str(tour), "-o", str(tmp_path / "o"), *args])
    assert run.exit_code == 2 and run.output.count("\n") == 1, run.output
    assert error in run.output and run.output.startswith("error: --console-url: ")
    assert not (tmp_path / "o").exists()  # refused before anything is made


def test_console_url_checks_pass_what_the_tables_can_reach():
    check = security.check_console_url
    check("http://127.0.0.1:8000", "127.0.0.1", 8000, False)
    check("http://localhost:8000/console", "127.0.0.1", 8000, False)
    check("https://192.168.1.20:8443", "0.0.0.0", 8443, True)
    check("http://192.168.1.20", "0.0.0.0", 80, False)
    check("https://catan.example.org", "0.0.0.0", 443, True)
    with pytest.raises(SetupgenError, match="is http, but the console serves https: give an https:// address"):
        check("http://192.168.1.20:8443", "0.0.0.0", 8443, True)


def test_trust_console_url_skips_the_checks_and_a_password_over_http_is_warned(tour, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from setupgen.cli import app
    from setupgen.console import app as web

    started = []
    monkeypatch.setattr(web, "run", lambda *a, **k: started.append(a[1:]))
    (tmp_path / "pw.txt").write_text("correct horse\n")
    run = CliRunner().invoke(
        app,
        [
            "serve",
            str(tour),
            "-o",
            str(tmp_path / "o"),
            "--console-url",
            "https://catan.example.org",
            "--trust-console-url",
        ],
    )
    assert run.exit_code == 0 and started == [("127.0.0.1", 8000, None)], run.output
    assert "warning" not in run.output
    run = CliRunner().invoke(
        app,
        [
            "serve",
            str(tour),
            "-o",
            str(tmp_path / "o"),
            "--host",
            "0.0.0.0",
            "--password-file",
            str(tmp_path / "pw.txt"),
        ],
    )
    assert run.exit_code == 0, run.output
    assert (
        "warning: the director's password and session travel in clear text over plain HTTP on 0.0.0.0; "
        "serve with --tls-cert and --tls-key"
    ) in run.output


# ------------------------------------------------------------------ one folder, two writers (F10, F11, F12)


def cli(*args):
    from typer.testing import CliRunner

    from setupgen.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def test_the_console_writes_its_schedule_so_the_command_line_works_from_its_folder(day, tour):
    # F10: schedule --from-round 2 on the console's folder while it runs
    assert (day.folder / "schedule.csv").read_text() == day.schedule.to_csv()
    assert (day.folder / "schedule.pdf").is_file()
    run = cli("schedule", tour, "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 0, run.output


def test_the_command_line_does_not_re_plan_a_round_the_console_has_results_of(day, tour):
    # F11: a reported (not yet confirmed) table of round 2 is in the database only
    c = client_of(day)
    good = tokens.table_token(day.key, 2, 1)
    token = csrf(c, f"/t/2/1/{good}")
    assert (
        c.post(f"/t/2/1/{good}", data=result_form(token, (10, 7, 5, 3), 1), follow_redirects=False).status_code == 303
    )
    assert "\n2," not in (day.folder / "results.csv").read_text()
    before = (day.folder / "schedule.csv").read_bytes()
    run = cli("schedule", tour, "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 2 and "round 2 has results in the console's database" in run.output, run.output
    assert (day.folder / "schedule.csv").read_bytes() == before
    run = cli("entry", tour, "--leave", "p1", "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 2 and "the console's database" in run.output
    assert run.output.count("\n") == 1


def test_the_console_takes_in_a_late_entry_the_command_line_recorded(day, tour):
    # F12: setupgen entry --join while serving: the console names the new player, no restart
    c = client_of(day)
    assert "Lea Spät" not in c.get("/entries").text
    run = cli("entry", tour, "--join", "late01", "--name", "Lea Spät", "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 0, run.output
    assert "Lea Spät" in c.get("/entries").text
    run = cli("schedule", tour, "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 0, run.output
    page = c.get("/rounds/2").text
    assert "Lea Spät" in page and "late01" not in page
    assert "late01" in {s.player for s in day.schedule.seats if s.round == 2}  # the console took the re-plan in
    kept = sorted(day.folder.glob("schedule.before-*.csv"))
    assert len(kept) == 1 and "late01" not in kept[0].read_text()  # the schedule replaced is kept


def test_a_console_pack_with_qr_codes_is_not_replaced_by_one_without(tmp_path):
    tour = make_tournament(tmp_path)
    d = consoleday.open_day(tour, tmp_path / "out", "http://127.0.0.1:8000")
    try:
        consoleday.make_pack(d, 1)
        pdf = (d.folder / "round-1" / "round.pdf").read_bytes()
        assert (
            json.loads((d.folder / "round-1" / "manifest.json").read_text())["console_url"] == "http://127.0.0.1:8000"
        )
        run = cli("round", tour, "--round", "1", "-o", d.folder)
        assert run.exit_code == 2 and run.output.count("\n") == 1
        assert "was made with QR codes to the console at http://127.0.0.1:8000" in run.output
        assert "(--drop-console-url to do it anyway)" in run.output
        run = cli("round", tour, "--round", "1", "-o", d.folder, "--console-url", "http://127.0.0.1:8001")
        assert run.exit_code == 2 and (d.folder / "round-1" / "round.pdf").read_bytes() == pdf
        run = cli("round", tour, "--round", "1", "-o", d.folder, "--console-url", "http://127.0.0.1:8000")
        assert run.exit_code == 0 and (d.folder / "round-1" / "round.pdf").read_bytes() == pdf
        run = cli("round", tour, "--round", "1", "-o", d.folder, "--drop-console-url")
        assert run.exit_code == 0 and "console_url" not in (d.folder / "round-1" / "manifest.json").read_text()
        run = cli("round", "--tables", "1", "--seed", "s", "--drop-console-url", "-o", tmp_path / "quick")
        assert run.exit_code == 2 and "belong to a tournament round" in run.output
    finally:
        d.store.close()


def test_every_write_to_the_folder_waits_for_the_lock(day, tour):
    # the console and the command line write one folder: each write takes .setupgen.lock (flock) for
    # that write alone, so a write waits while another holds it
    import fcntl
    import threading

    lock = day.folder / ".setupgen.lock"
    assert lock.is_file() and lock.stat().st_size == 0  # the console's first results.csv took it
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    done: dict[str, float] = {}

    def entry() -> None:
        run = cli("entry", tour, "--leave", "p1", "--from-round", "2", "-o", day.folder)
        done["entry"] = time.monotonic() if run.exit_code == 0 else -1.0

    def result() -> None:
        consoleday.enter(day, G(1, 1), ["10", "7", "5", "3"], "1")
        done["result"] = time.monotonic()

    threads = [threading.Thread(target=entry), threading.Thread(target=result)]
    for th in threads:
        th.start()
    time.sleep(1.0)
    assert done == {} and not (day.folder / "entries.csv").exists()  # both wait for the lock
    released = time.monotonic()
    os.close(fd)
    for th in threads:
        th.join(30)
    assert done["entry"] >= released and done["result"] >= released
    assert (day.folder / "entries.csv").is_file() and "1,1," in (day.folder / "results.csv").read_text()


# ------------------------------------------------------------------ edges (F13, F14)


def test_formula_ids_are_refused_and_formula_names_are_written_safely(day, tour, tmp_path):
    # F13: `=cmd` and `=HYPERLINK(…)` typed into the entries page
    c = client_of(day)
    token = csrf(c, "/entries")
    for bad in ("=cmd", "+1", "-x", "@SUM(A1)"):
        refused = c.post(
            "/entries/change",
            data={"csrf": token, "change": "joined", "player": bad, "name": "X", "group": "", "from_round": "2"},
        )
        assert refused.status_code == 400 and "which a spreadsheet reads as a formula" in refused.text, bad
    name = '=HYPERLINK("http://evil.example","click")'
    ok = c.post(
        "/entries/change",
        data={"csrf": token, "change": "joined", "player": "late01", "name": name, "group": "@club", "from_round": "2"},
        follow_redirects=False,
    )
    assert ok.status_code == 303
    text = (day.folder / "entries.csv").read_text()
    assert text.splitlines()[1] == 'joined,2,late01,"\'=HYPERLINK(""http://evil.example"",""click"")",\'@club'
    found = jobs.read_entries(day.t, day.folder)
    assert [(e.name, e.group) for e in found] == [(name, "@club")]  # read back as typed
    import markupsafe

    assert str(markupsafe.escape(name)) in c.get("/entries").text
    run = cli("schedule", tour, "--from-round", "2", "-o", day.folder)
    assert run.exit_code == 0, run.output
    template = jobs.results_template(jobs.with_entries(day.t, day.folder), jobs.read_schedule(day.folder), 2)
    assert ",\"'=HYPERLINK(" in template and ",late01,=" not in template
    (tmp_path / "p2").mkdir()
    (tmp_path / "p2" / "players.csv").write_text("id,name\n=cmd,A\nb,B\nc,C\n")
    (tmp_path / "p2" / "t.toml").write_text(TOURNAMENT)
    run = cli("schedule", tmp_path / "p2" / "t.toml", "-o", tmp_path / "p2" / "out")
    assert run.exit_code == 2 and "line 2: player id '=cmd' starts with '='" in run.output
    (tmp_path / "p2" / "players.csv").write_text("id,name\na,'=A\nb,'Bob\nc,C\n")
    from setupgen.tournament import model

    assert [p.name for p in model.load(tmp_path / "p2" / "t.toml").players] == ["=A", "'Bob", "C"]


def test_oversized_headers_get_431_and_signed_vp_is_refused(day):
    # F14: a 70 KB request header is not answered with a page; VP "+5" is not a number of VP
    c = client_of(day)
    big = c.get("/public", headers={"x-padding": "a" * 70_000})
    assert big.status_code == 431 and "request headers larger than 16384 bytes" in big.text
    assert c.get("/public", headers={"x-padding": "a" * 15_000}).status_code == 200
    for vp, why in (
        ("+5", "has a sign: write the digits alone (5)"),
        ("-2", "is negative"),
        (" 5 5", "is not a whole number"),
    ):
        with pytest.raises(consoleday.ResultRefused, match=re.escape(why)):
            consoleday.enter(day, G(1, 1), ["10", vp, "5", "3"], "1")
    assert day.store.result(G(1, 1)) is None


# ------------------------------------------------------------------ heavy work off the event loop (issue 25)


def test_a_report_is_answered_while_a_re_plan_is_held_in_progress(day, monkeypatch):
    import concurrent.futures
    import threading

    from setupgen.console import worker

    day.tasks = worker.Tasks(concurrent.futures.ThreadPoolExecutor(max_workers=1))
    release, began = threading.Event(), threading.Event()
    real = consoleday.jobs.schedule_job

    def held(*args, **kw):
        began.set()
        assert release.wait(30)
        return real(*args, **kw)

    monkeypatch.setattr(consoleday.jobs, "schedule_job", held)
    c = client_of(day)
    token = csrf(c, "/entries")
    answers = []
    poster = threading.Thread(
        target=lambda: answers.append(
            c.post("/entries/replan", data={"csrf": token, "from_round": "2"}, follow_redirects=False)
        )
    )
    poster.start()
    assert began.wait(30)  # the re-plan runs, and waits
    assert day.replanning == 2 and [t.label for t in day.tasks.running()] == ["re-plan from round 2"]
    good = tokens.table_token(day.key, 1, 2)
    form_token = csrf(c, f"/t/1/2/{good}")
    sent = c.post(f"/t/1/2/{good}", data=result_form(form_token, (4, 10, 6, 2), 2), follow_redirects=False)
    assert sent.status_code == 303 and day.state(G(1, 2)) == "reported"  # answered meanwhile
    assert c.get("/public").status_code == 200 and c.get("/rounds/1").status_code == 200
    later = tokens.table_token(day.key, 2, 1)
    refused = c.post(f"/t/2/1/{later}", data=result_form(csrf(c, f"/t/2/1/{later}"), (10, 7, 5, 3), 1))
    assert refused.status_code == 409 and "being re-planned from round 2" in refused.text
    running = c.get("/")
    assert "Re-plan from round 2: running" in running.text and 'http-equiv="refresh" content="2"' in running.text
    release.set()
    poster.join(30)
    assert answers[0].status_code == 303 and answers[0].headers["location"] == "/"
    done = c.get("/").text
    assert "Re-planned from round 2: Pairs of opponents meeting more than once:" in done and day.replanning is None
    assert [e.action for e in day.store.audit(round_number=2)][:1] == ["replan"]


def test_re_plans_and_packs_run_in_another_process(day):
    import concurrent.futures
    import os

    from setupgen.console import worker

    consoleday.replan(day, 2)
    assert isinstance(day.tasks.executor(), concurrent.futures.ProcessPoolExecutor)
    pid = day.tasks.executor().submit(os.getpid).result(30)
    assert pid != os.getpid()
    manifest = consoleday.make_pack(day, 2)
    assert manifest["round"] == 2 and (day.folder / "round-2" / "round.pdf").is_file()
    assert worker.in_worker(consoleday.jobs.round_request, day.t, day.schedule, 9)[0] == "refused"
    bug = day.tasks.start("a bug", int, ("x3",), then=str)  # not a domain error: the task fails, nothing else
    assert bug.done.wait(30) and bug.state == "failed" and bug.message.startswith("internal error (ValueError")
    day.tasks.close()


def test_migration_to_schema_8_puts_stored_ids_in_nfc(tmp_path):
    """A version-7 database holding an id typed as e + combining accent:
    after the migration its result is found under the players file's NFC
    id, other ids and values untouched."""
    db = sqlite3.connect(tmp_path / "tournament.db", isolation_level=None)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (7)")
    for step in range(1, 8):  # a version-7 database
        for statement in store.MIGRATIONS[step]:
            db.execute(statement)
    nfd = "Rene\u0301"
    db.execute(
        "INSERT INTO games (stage, round, table_no, players, vp, winner, state, by, at) VALUES "
        "('preliminary', 1, 1, ?, '[10, 4]', 1, 'confirmed', 'director', 't')",
        (json.dumps([nfd, "b"]),),
    )
    db.close()
    s = store.Store(tmp_path)
    assert store.version(s.db) == 9
    assert s.result(G(1, 1)).players == ("Ren\u00e9", "b") and s.result(G(1, 1)).vp == (10, 4)
    s.close()
