"""The console killed with SIGKILL in the middle of a burst of results
(issue 14, "Reliability"): after a restart every acknowledged result is
there, nothing is half-written, and ``results.csv`` matches the database."""

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

ROOT = Path(__file__).resolve().parent.parent
TABLES = 12
STEPS = 10


def tournament(folder: Path, players: int) -> Path:
    (folder / "players.csv").write_text("id,name\n" + "".join(f"p{k:03d},Player {k}\n" for k in range(players)))
    (folder / "t.toml").write_text(
        'name = "Burst"\nseed = "burst"\nplayers = "players.csv"\ntable_size = 4\n\n'
        '[[rounds]]\nscenario = "base-3-4"\nvictory_points = 10\n'
    )
    return folder / "t.toml"


def serve(tour: Path, folder: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "setupgen", "serve", str(tour), "-o", str(folder), "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"serve ended: {proc.stdout.read()}")
            time.sleep(0.05)
    proc.kill()
    pytest.fail("serve did not start")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def correct_until_gone(base: str, t: int, acknowledged) -> None:
    """The director corrects round 1 table ``t`` STEPS times (VP of seat 2
    = the step); ``acknowledged(step)`` for each answered 303, until the
    server is gone or refuses."""
    with httpx.Client(base_url=base, timeout=10) as c:
        page = c.get(f"/rounds/1/tables/{t}").text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        seating = re.search(r'name="seating" value="([0-9a-f]+)"', page).group(1)
        for step in range(STEPS):
            form = {
                "csrf": token,
                "seating": seating,
                "vp1": "10",
                "vp2": str(step),
                "vp3": "2",
                "vp4": "1",
                "winner": "1",
            }
            try:
                answer = c.post(f"/rounds/1/tables/{t}", data=form)
            except httpx.HTTPError:
                return  # the server is gone
            if answer.status_code != 303:
                return
            acknowledged(step)  # acknowledged: recorded


def test_sigkill_in_a_burst_loses_no_acknowledged_result(tmp_path):
    tour = tournament(tmp_path, 4 * TABLES)
    folder, port = tmp_path / "out", free_port()
    proc = serve(tour, folder, port)
    base = f"http://127.0.0.1:{port}"
    acked: dict[int, int] = {}
    lock = threading.Lock()
    enough = threading.Event()

    def table(t: int) -> None:
        def acknowledged(step: int) -> None:
            with lock:
                acked[t] = step
                if sum(acked.values()) >= TABLES * STEPS // 3:
                    enough.set()

        correct_until_gone(base, t, acknowledged)

    threads = [threading.Thread(target=table, args=(t,)) for t in range(1, TABLES + 1)]
    for th in threads:
        th.start()
    assert enough.wait(60), "the burst did not get going"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    for th in threads:
        th.join(30)
    with lock:
        seen = dict(acked)
    assert sum(seen.values()) < TABLES * (STEPS - 1), "the burst ended before the kill"
    db = sqlite3.connect(folder / "tournament.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    again = serve(tour, folder, port)  # starts: results.csv is still the console's own
    try:
        from setupgen.console import day as consoleday

        rows = {}
        text = (folder / "results.csv").read_text()
        for line in text.splitlines()[1:]:
            rnd, tbl, player, vp, winner = line.split(",")
            rows.setdefault(int(tbl), []).append(int(vp))
        for t, step in seen.items():
            assert rows[t][1] >= step, f"table {t}: acknowledged step {step}, found {rows[t]}"
            assert rows[t][0] == 10 and rows[t][2:] == [2, 1]
        assert set(seen) <= set(rows)
        with httpx.Client(base_url=base, timeout=10) as c:
            assert c.get("/rounds/1").status_code == 200
    finally:
        again.terminate()
        again.wait(10)
    day = consoleday.open_day(tour, folder)
    try:
        assert (folder / "results.csv").read_text() == consoleday.results_csv(day)
        assert len(day.store.audit()) >= sum(s + 1 for s in seen.values())
    finally:
        day.store.close()


def test_serve_over_tls_sets_secure_cookies(tmp_path):
    import shutil

    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed (it makes the test's certificate)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
    )
    tour = tournament(tmp_path, 8)
    port = free_port()
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "setupgen",
            "serve",
            str(tour),
            "--tls-cert",
            str(key),
            "--tls-key",
            str(key),
            "--port",
            str(port),
            "-o",
            str(tmp_path / "o"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: --tls-cert: cannot use the certificate")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "setupgen",
            "serve",
            str(tour),
            "-o",
            str(tmp_path / "o"),
            "--port",
            str(port),
            "--tls-cert",
            str(cert),
            "--tls-key",
            str(key),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        for _ in range(200):
            try:
                answer = httpx.get(f"https://127.0.0.1:{port}/", verify=False, timeout=5)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            pytest.fail("no HTTPS answer")
        assert answer.status_code == 200 and "; secure" in answer.headers["set-cookie"].lower()
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5)  # plain HTTP is not spoken
    finally:
        proc.terminate()
        proc.wait(10)


def tournament_of_two_rounds(folder: Path, players: int) -> Path:
    (folder / "players.csv").write_text("id,name\n" + "".join(f"p{k:03d},Player {k}\n" for k in range(players)))
    (folder / "t.toml").write_text(
        'name = "Burst"\nseed = "burst"\nplayers = "players.csv"\ntable_size = 4\n\n'
        '[[rounds]]\nscenario = "base-3-4"\n\n[[rounds]]\nscenario = "base-3-4"\n'
    )
    return folder / "t.toml"


def results_match_the_database(tour: Path, folder: Path, acked: dict[int, int]) -> None:
    """After a restart: results.csv is the database's, and holds every acknowledged change."""
    from setupgen.console import day as consoleday

    day = consoleday.open_day(tour, folder)
    try:
        text = (folder / "results.csv").read_text()
        assert text == consoleday.results_csv(day)
        rows: dict[int, list[int]] = {}
        for line in text.splitlines()[1:]:
            rnd, tbl, _player, vp, _winner = line.split(",")
            if rnd == "1":
                rows.setdefault(int(tbl), []).append(int(vp))
        for t, step in acked.items():
            assert rows[t][1] >= step, f"table {t}: acknowledged step {step}, found {rows.get(t)}"
    finally:
        day.store.close()


@pytest.mark.parametrize("kill_during", ["replan", "pack"])
def test_sigkill_during_a_replan_or_a_pack_loses_nothing_acknowledged(tmp_path, kill_during):
    # 400 players: a re-plan of round 2 takes about 0.3 s here, a pack of 12 tables about 1.4 s
    tour = tournament_of_two_rounds(tmp_path, 400 if kill_during == "replan" else 4 * TABLES)
    folder, port = tmp_path / "out", free_port()
    proc = serve(tour, folder, port)
    base = f"http://127.0.0.1:{port}"
    acked: dict[int, int] = {}
    lock = threading.Lock()
    started = threading.Event()

    def table(t: int) -> None:
        def acknowledged(step: int) -> None:
            with lock:
                acked[t] = step
            started.set()

        correct_until_gone(base, t, acknowledged)

    posting = threading.Event()

    def heavy() -> None:
        with httpx.Client(base_url=base, timeout=30) as c:
            try:
                token = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/").text).group(1)
                posting.set()  # the kill comes a moment after this
                if kill_during == "replan":
                    c.post("/entries/replan", data={"csrf": token, "from_round": "2"})
                else:
                    c.post("/rounds/2/pack", data={"csrf": token})
            except httpx.HTTPError:
                pass

    threads = [threading.Thread(target=table, args=(t,)) for t in range(1, TABLES + 1)]
    for th in threads:
        th.start()
    assert started.wait(60), "the burst did not get going"
    worker = threading.Thread(target=heavy)
    worker.start()
    assert posting.wait(30), "the re-plan or the pack was not asked for"
    time.sleep(0.1 if kill_during == "replan" else 0.6)  # in the middle of the re-plan or the pack
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    for th in threads + [worker]:
        th.join(30)
    with lock:
        seen = dict(acked)
    db = sqlite3.connect(folder / "tournament.db")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    from setupgen.tournament import jobs

    assert jobs.read_schedule(folder) is not None  # schedule.csv whole: the old one or the new one
    pack = folder / "round-2"
    assert not pack.exists() or (pack / "manifest.json").is_file()  # no half-made pack
    results_match_the_database(tour, folder, seen)
    again = serve(tour, folder, port)  # and the console starts again on the folder
    try:
        with httpx.Client(base_url=base, timeout=10) as c:
            assert c.get("/rounds/1").status_code == 200
    finally:
        again.terminate()
        again.wait(10)
    results_match_the_database(tour, folder, seen)
