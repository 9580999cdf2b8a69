"""The console under a full hall (issue 25; a script, not a test).

A 400-player tournament of two rounds (100 tables a round; tables 51-100
of round 1 confirmed before the start, so the standings rank 200 players)
is served by ``setupgen serve`` in its own process. Phases:

(a) ``/public`` alone, 300 pages one after another: the server process's
    CPU per page (its own CPU time from ``/proc``, not wall time);
(b) 200 clients refreshing ``/public`` every 2 s while 50 tables (round 1,
    tables 1-50) report at once, 5 bursts 2 s apart: report and
    ``/public`` p50/p99, errors;
(c) the same with a re-plan from round 2 started in the middle;
(d) the players' side (issue 27), round 1's pack made and its clock
    running, an announcement shown: the server's CPU per request of the
    player list, a player's page, a table's page with its board (first
    visit: the board drawn; again: kept), the public and a table's update
    channel (``status.json``);
(e) issue 49: (b) again while every reporting table's phone drops and
    returns (each report carries its submission id, reaches the console,
    its answer is lost, and the outbox sends it again 0.5 s later) and
    20 tables call a referee in the middle of the burst.

In (b), (c) and (e) the 200 phones also ask the update channel every 5 s,
as ``console.js`` does.

Server and clients are pinned to different cores (``os.sched_setaffinity``)
where there are two. Every figure is given as a ratio to the CPU time of
the calibration loop (``s = 0; for i in range(6_000_000): s += (i * i) % 7``
in a fresh ``python3``, run before and after, alternating with the
phases), the absolute figure beside it. Goals: (a) <= 1/500 of the loop a
page; (b) no error, report p99 <= 0.3x the loop, ``/public`` p99 <= 0.5x;
(c) report p99 at most 0.2x the loop above (b); (b) the update channel's
p99 <= 0.2x the loop; (d) every player page <= 1/200 of the loop a
request (a table page's first visit, which draws its board, <= 1/50),
the update channel <= 1/1000; (e) the goals of (b) for reports and
``/public``, no report lost or doubled (read from the database after the
console stopped), every call stored once. Exit 1 when a goal is missed.

    python benchmarks/console_bench.py [--clients 200] [--tables 50] [--bursts 5]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PLAYERS = 400
#: phase (e): tables calling a referee during the burst
CALLS = 20
#: phase (d)'s goals: each request at most this share of the loop's CPU (a table's board is drawn once per
#: table and pack, then kept: its first visit may cost more)
PLAYERS_SIDE_SHARE = {
    "player list": 200,
    "player's page": 200,
    "table page, board drawn": 50,
    "table page, board kept": 200,
    "public status.json": 1000,
    "table status.json": 1000,
}
LOOP = "s = 0\nfor i in range(6_000_000):\n    s += (i * i) % 7\n"


def calibration(cores: set[int] | None) -> float:
    """CPU seconds of the calibration loop in a fresh ``python3`` (on ``cores``)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        ["python3", "-c", LOOP], check=True, preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def tournament(folder: Path) -> Path:
    """The tournament file, and round 1's tables 51-100 confirmed in its folder's database."""
    (folder / "players.csv").write_text("id,name\n" + "".join(f"p{k:03d},Player {k}\n" for k in range(PLAYERS)))
    (folder / "t.toml").write_text(
        'name = "Hall"\nseed = "hall"\nplayers = "players.csv"\ntable_size = 4\n\n'
        '[[rounds]]\nscenario = "base-3-4"\n\n[[rounds]]\nscenario = "base-3-4"\n'
    )
    from setupgen.console import day as consoleday
    from setupgen.tournament.games import Game

    day = consoleday.open_day(folder / "t.toml", folder / "out")
    for t in range(51, PLAYERS // 4 + 1):
        consoleday.enter(day, Game.preliminary(1, t), ["10", str(t % 9), "5", "3"], "1")
    day.store.close()
    return folder / "t.toml"


def start(tour: Path, folder: Path, cores: set[int] | None) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "setupgen",
            "serve",
            str(tour),
            "-o",
            str(folder),
            "--port",
            str(port),
            "--console-url",
            base,
        ],
        cwd=ROOT,
        preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None,
    )
    for _ in range(600):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, base
        except OSError:
            time.sleep(0.05)
    raise SystemExit("serve did not start")


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def askers(
    base: str,
    path: str,
    kind: str,
    every: float,
    clients: int,
    start_at: float,
    stop_at: float,
    out,
    first: bool = False,
) -> None:
    """``clients`` threads, each with a kept-alive connection, GETting
    ``path`` every ``every`` seconds from ``start_at`` (spread over that
    time) to ``stop_at``; (``kind``, seconds, status) to ``out``. With
    ``first``, each reads the page once before ``start_at`` (a phone that
    has it open). The standard library's client: the lightest, so the
    clients' own CPU does not stand in for the server's time."""
    import http.client

    host, port = base.split("//", 1)[1].rsplit(":", 1)
    steps = max(1, round(every / 0.1))

    def one(k: int) -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        if first:
            conn.request("GET", path)
            conn.getresponse().read()
        time.sleep(max(0.0, start_at - time.time() + (k % steps) * 0.1))
        while time.time() < stop_at:
            began = time.perf_counter()
            status = 0
            for _attempt in range(2):  # a connection the server closed while idle is opened again, as a browser does
                try:
                    conn.request("GET", path)
                    answer = conn.getresponse()
                    answer.read()
                    status = answer.status
                    break
                except (OSError, http.client.HTTPException):
                    conn.close()
                    conn = http.client.HTTPConnection(host, int(port), timeout=30)
            out.put((kind, time.perf_counter() - began, status))
            time.sleep(max(0.0, every - (time.perf_counter() - began)))
        conn.close()

    threads = [threading.Thread(target=one, args=(k,)) for k in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def readers(base: str, clients: int, start_at: float, stop_at: float, out) -> None:
    """Phones with ``/public`` open, refreshing it every 2 s."""
    askers(base, "/public", "public", 2.0, clients, start_at, stop_at, out, first=True)


def pollers(base: str, clients: int, start_at: float, stop_at: float, out) -> None:
    """Phones asking ``/public/status.json`` every 5 s (what ``console.js`` does on an open page)."""
    askers(base, "/public/status.json", "status", 5.0, clients, start_at, stop_at, out)


def players_side(c: httpx.Client, pid: int, urls: list[str], requests: int) -> dict[str, float]:
    """Phase (d): the server's CPU seconds per request of each player page and update channel."""
    kinds = {
        "player list": lambda k: "/public/players" + ("?q=player 1" if k % 2 else ""),
        "player's page": lambda k: f"/public/players/p{k % PLAYERS:03d}",
        "table page, board drawn": lambda k: urls[k % len(urls)],
        "table page, board kept": lambda k: urls[k % len(urls)],
        "public status.json": lambda k: "/public/status.json",
        "table status.json": lambda k: urls[k % len(urls)] + "/status.json",
    }
    out = {}
    for name, path in kinds.items():
        count = min(requests, len(urls)) if name == "table page, board drawn" else requests
        before = cpu_of(pid)
        for k in range(count):
            got = c.get(path(k))
            assert got.status_code == 200, (name, got.status_code)
            if name.startswith("table page"):
                assert '<svg baseProfile="full"' in got.text
        out[name] = (cpu_of(pid) - before) / count
    return out


def tables(urls: list[str], bursts: int, first_at: float, out, dropping: bool = False) -> None:
    """Every table of ``urls`` reports at once, ``bursts`` times 2 s apart
    from ``first_at``. With ``dropping`` (phase (e), issue 49) each report
    carries its submission id, as the phone's outbox sends it, and every
    phone's network drops: the console gets the report but the phone never
    hears back, so the outbox sends the same submission again half a
    second later, when the network returns; each id goes to ``out``."""
    import secrets

    clients = []
    for url in urls:
        c = httpx.Client(timeout=30)
        page = c.get(url).text
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
        seating = re.search(r'name="seating" value="([0-9a-f]+)"', page).group(1)
        clients.append((c, url, csrf, seating))
    for burst in range(bursts):
        at = first_at + 2.0 * burst
        time.sleep(max(0.0, at - time.time()))

        def report(c: httpx.Client, url: str, csrf: str, seating: str, burst: int = burst) -> None:
            form = {
                "csrf": csrf,
                "seating": seating,
                "vp1": "10",
                "vp2": str(burst),
                "vp3": "3",
                "vp4": "2",
                "winner": "1",
            }
            if dropping:
                form["submission"] = secrets.token_hex(16)
                out.put(("submission", url, form["submission"]))
                try:
                    c.post(url, data=form)  # reaches the console; the answer is lost on the way back
                except httpx.HTTPError:
                    pass
                time.sleep(0.5)
            out.put(("report", *timed_post(c, url, form)))

        at_once(report, clients)
    for c, *_ in clients:
        c.close()


def callers(urls: list[str], at: float, out) -> None:
    """Tables call a referee at once from their own pages, in the middle of the burst (phase (e))."""
    clients = []
    for url in urls:
        c = httpx.Client(timeout=30)
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get(url).text).group(1)
        clients.append((c, url, csrf))
    time.sleep(max(0.0, at - time.time()))

    def call(c: httpx.Client, url: str, csrf: str) -> None:
        out.put(("call", *timed_post(c, url + "/call", {"csrf": csrf, "action": "call"})))

    at_once(call, clients)
    for c, *_ in clients:
        c.close()


def timed_post(c: httpx.Client, url: str, form: dict) -> tuple[float, int]:
    """POST ``form``: (seconds taken, status; 0 when the connection failed)."""
    began = time.perf_counter()
    try:
        status = c.post(url, data=form).status_code
    except httpx.HTTPError:
        status = 0
    return time.perf_counter() - began, status


def at_once(fn, entries: list[tuple]) -> None:
    """``fn(*entry)`` for every entry, each in a thread of its own, all started before any is waited for."""
    threads = [threading.Thread(target=fn, args=entry) for entry in entries]
    for th in threads:
        th.start()
    for th in threads:
        th.join()


def replan(base: str, at: float, out) -> None:
    with httpx.Client(base_url=base, timeout=120) as c:
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/entries").text).group(1)
        time.sleep(max(0.0, at - time.time()))
        began = time.perf_counter()
        status = c.post("/entries/replan", data={"csrf": csrf, "from_round": "2"}).status_code
        out.put(("replan", time.perf_counter() - began, status))


def hall(
    base: str, urls: list[str], args, cores: set[int] | None, with_replan: bool, dropping: bool = False
) -> dict[str, list]:
    """Phase (b), (c) or (e): the readers, the tables' bursts (and the
    re-plan; with ``dropping`` the phones' networks drop and
    :data:`CALLS` tables call a referee), in client processes."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    first = time.time() + 5.0
    stop = first + 2.0 * args.bursts + 1.0
    procs = [ctx.Process(target=readers, args=(base, args.clients // 8, first - 1.0, stop, out)) for _ in range(8)]
    procs += [ctx.Process(target=pollers, args=(base, args.clients // 4, first - 1.0, stop, out)) for _ in range(4)]
    procs.append(ctx.Process(target=tables, args=(urls, args.bursts, first, out, dropping)))
    if dropping:
        procs.append(ctx.Process(target=callers, args=(urls[:CALLS], first + 2.0 * (args.bursts // 2) + 0.3, out)))
    if with_replan:
        procs.append(ctx.Process(target=replan, args=(base, first + 2.0 * (args.bursts // 2) + 0.01, out)))
    for p in procs:
        p.start()
        if cores:
            os.sched_setaffinity(p.pid, cores)
    samples: dict[str, list] = {"public": [], "report": [], "replan": [], "status": [], "call": [], "submission": []}
    while any(p.is_alive() for p in procs) or not out.empty():
        try:
            kind, took, status = out.get(timeout=1)
        except Exception:
            continue
        samples[kind].append((took, status))  # a submission: (its table's URL, its id)
    for p in procs:
        p.join()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--bursts", type=int, default=5)
    parser.add_argument("--pages", type=int, default=300)
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))
    server_cores, client_cores = ({cores[0]}, set(cores[1:])) if len(cores) >= 2 else (None, None)
    from setupgen.tournament import tokens

    loops = [calibration(client_cores)]
    with tempfile.TemporaryDirectory() as tmp:
        tour = tournament(Path(tmp))
        folder = Path(tmp) / "out"
        proc, base = start(tour, folder, server_cores)
        if client_cores:
            os.sched_setaffinity(0, client_cores)
        try:
            key = tokens.read_key(folder)
            urls = [tokens.table_url(base, key, 1, t) for t in range(1, args.tables + 1)]
            with httpx.Client(base_url=base, timeout=600) as c:
                hall_ready(c)
                assert c.get("/public").status_code == 200  # made once
                before = cpu_of(proc.pid)
                for _ in range(args.pages):
                    assert c.get("/public").status_code == 200
                per_page = (cpu_of(proc.pid) - before) / args.pages
            loops.append(calibration(client_cores))
            b = hall(base, urls, args, client_cores, with_replan=False)
            loops.append(calibration(client_cores))
            c_ = hall(base, urls, args, client_cores, with_replan=True)
            loops.append(calibration(client_cores))
            all_tables = [tokens.table_url(base, key, 1, t) for t in range(1, PLAYERS // 4 + 1)]
            with httpx.Client(base_url=base, timeout=60) as c:
                d = players_side(c, proc.pid, all_tables, args.pages)
            loops.append(calibration(client_cores))
            e_start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 1))
            e = hall(base, urls, args, client_cores, with_replan=False, dropping=True)
            loops.append(calibration(client_cores))
        finally:
            proc.terminate()
            proc.wait(10)
        e["kept"] = kept_once(folder, e, e_start, args.bursts)
    report(per_page, b, c_, d, statistics.mean(loops), loops, server_cores, client_cores, e)


def kept_once(folder: Path, e: dict, since: str, bursts: int) -> list:
    """Phase (e)'s books, read from the console's database once it stopped:
    ``[(submissions lost, tables with a report doubled or lost, calls waiting)]``."""
    from setupgen.console import calls, store
    from setupgen.tournament.games import Game

    s = store.Store(folder)
    try:
        lost = sum(1 for _url, ident in e["submission"] if not s.submitted(ident))
        tables = {int(url.split("/")[-2]) for url, _ident in e["submission"]}
        wrong = [
            t
            for t in tables
            if sum(1 for x in s.audit(Game.preliminary(1, t)) if x.action == "report" and x.at >= since) != bursts
        ]
        return [(lost, wrong, len(calls.waiting_calls(s)))]
    finally:
        s.close()


def hall_ready(c: httpx.Client) -> None:
    """Round 1's pack made by the console (its sheets' QR codes and the tables' boards), its clock started
    and an announcement posted, as on the day."""
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/").text).group(1)
    assert c.post("/rounds/1/pack", data={"csrf": csrf}).status_code in (200, 303)
    for _ in range(1200):
        if "round.pdf" in c.get("/").text:
            break
        time.sleep(0.5)
    else:
        raise SystemExit("round 1's pack was not made")
    assert c.post(
        "/clock", data={"csrf": csrf, "stage": "preliminary", "round": "1", "action": "start", "minutes": "90"}
    ).status_code in (200, 303)
    assert c.post("/announcements", data={"csrf": csrf, "text": "Round 1 ends at 15:30"}).status_code in (200, 303)


def report(
    per_page: float, b: dict, c: dict, d: dict, loop: float, loops: list[float], server_cores, client_cores, e: dict
) -> None:
    """Print every figure with its ratio to the loop; exit 1 when a goal is missed."""

    def times(samples: list) -> list[float]:
        return [t for t, _ in samples]

    errors = [
        s for kind in ("public", "report", "status") for s in b[kind] + c[kind] + e[kind] if s[1] not in (200, 303)
    ]
    lost, wrong, waiting = e["kept"][0]
    re_, pe = pct(times(e["report"]), 99), pct(times(e["public"]), 99)
    sb = pct(times(b["status"]), 99)
    replan_ok = [s for s in c["replan"] if s[1] == 303]
    rb, pb, rc, _pc = (
        pct(times(b["report"]), 99),
        pct(times(b["public"]), 99),
        pct(times(c["report"]), 99),
        pct(times(c["public"]), 99),
    )
    goals = {
        "(a) server CPU per /public <= loop/500": per_page <= loop / 500,
        "(b) no error": not errors,
        "(b) report p99 <= 0.3x loop": rb <= 0.3 * loop,
        "(b) /public p99 <= 0.5x loop": pb <= 0.5 * loop,
        "(c) report p99 <= (b) + 0.2x loop": rc <= rb + 0.2 * loop,
        "(c) the re-plan was made": bool(replan_ok),
        "(b) update channel p99 <= 0.2x loop": sb <= 0.2 * loop,
        "(e) report p99 <= 0.3x loop, phones dropping": re_ <= 0.3 * loop,
        "(e) /public p99 <= 0.5x loop, phones dropping": pe <= 0.5 * loop,
        "(e) no report lost or doubled": not lost and not wrong,
        "(e) every call stored once, none refused": waiting == len(e["call"]) > 0  # 20, or one per table if fewer
        and all(st in (200, 303) for _t, st in e["call"]),
        **{
            f"(d) {name} <= loop/{share}": cpu <= loop / share
            for name, cpu in d.items()
            for share in [PLAYERS_SIDE_SHARE[name]]
        },
    }
    print(
        f"calibration loop: {loop:.3f} s CPU (runs: {', '.join(f'{x:.3f}' for x in loops)}); server on cores "
        f"{sorted(server_cores) if server_cores else 'any'}, clients on {sorted(client_cores) if client_cores else 'any'}"
    )
    print(f"(a) /public alone: {per_page * 1000:.2f} ms server CPU a page = 1/{loop / per_page:.0f} of the loop")
    for name, got in (("(b)", b), ("(c)", c)):
        r, p = times(got["report"]), times(got["public"])
        print(
            f"{name} {len(p)} /public: p50 {pct(p, 50) * 1000:.0f} ms, p99 {pct(p, 99) * 1000:.0f} ms "
            f"({pct(p, 99) / loop:.3f}x loop); {len(r)} reports: p50 {pct(r, 50) * 1000:.0f} ms, p99 "
            f"{pct(r, 99) * 1000:.0f} ms ({pct(r, 99) / loop:.3f}x loop)"
        )
    print(
        f"(b) {len(b['status'])} update-channel answers: p50 {pct(times(b['status']), 50) * 1000:.0f} ms, "
        f"p99 {sb * 1000:.0f} ms ({sb / loop:.3f}x loop)"
    )
    for name, cpu in d.items():
        print(f"(d) {name}: {cpu * 1000:.2f} ms server CPU a request = 1/{loop / cpu:.0f} of the loop")
    if c["replan"]:
        print(f"(c) the re-plan's request: {c['replan'][0][0]:.2f} s, status {c['replan'][0][1]}")
    r, p = times(e["report"]), times(e["public"])
    print(
        f"(e) phones dropping: {len(p)} /public: p99 {pe * 1000:.0f} ms ({pe / loop:.3f}x loop); {len(r)} reports "
        f"(each sent twice): p99 {re_ * 1000:.0f} ms ({re_ / loop:.3f}x loop); {len(e['submission'])} submissions, "
        f"{lost} lost, tables doubled or short: {wrong or 'none'}; {len(e['call'])} calls, {waiting} waiting"
    )
    print(f"errors: {errors[:5] or 'none'}")
    for goal, met in goals.items():
        print(f"{'met   ' if met else 'MISSED'} {goal}")
    if not all(goals.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
