"""Issue 49 in a real browser (Debian's Chromium driven by Playwright
against ``setupgen serve`` of the Swiss example, de-CH): a phone opens its
table's page by a host name that is not this machine's loopback (so the
page is not a secure context, as on the hall's Wi-Fi), reports while
offline, and the report reaches the director once when the network is
back; the same with the network dropping in the middle of the request;
a correction before the confirmation still works. Then the phone calls a
referee, the director's page shows the call within 10 s by itself, a
referee logs in on a device of their own, marks the call done and adds
5 minutes to that table, and is refused a result entry; all of it in the
audit log in the event's language."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_console_browser import ARGS, PASSWORD, ROOT, Console, fill_result

pytestmark = pytest.mark.browser

REFEREE = "schiedsrichter-pass"
HALL = "hall.test"  # resolved to this machine by Chromium alone: not localhost, so not a secure context


class HallConsole(Console):
    """The Swiss example served with a referees' password, its tables'
    address on the hall's host name (``http://hall.test:PORT``)."""

    def serve_options(self) -> list[str]:
        self.hall = f"http://{HALL}:{self.port}"
        referee_file = self.password_file.with_name("referee.txt")
        referee_file.write_text(REFEREE + "\n")
        return ["--referee-password-file", str(referee_file), "--console-url", self.hall, "--trust-console-url"]


@contextlib.contextmanager
def two_devices(chromium: str, tmp_path: Path):
    """Two Chromium contexts, each with a profile (storage) of its own, both
    resolving the hall's host name to this machine: a 1100x800 desktop (the
    director's) and a 390x844 phone (the tables' and a referee's pages)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        made = []
        try:
            for width, height in ((1100, 800), (390, 844)):
                made.append(
                    pw.chromium.launch_persistent_context(
                        tempfile.mkdtemp(dir=tmp_path),
                        executable_path=chromium,
                        headless=True,
                        args=[*ARGS, f"--host-resolver-rules=MAP {HALL} 127.0.0.1"],
                        viewport={"width": width, "height": height},
                    )
                )
            yield made[0], made[1]
        finally:
            for ctx in made:
                ctx.close()


def log_in(ctx, base: str, password: str):
    page = ctx.new_page()
    page.goto(base + "/login")
    page.fill("input[name=password]", password)
    page.click("button:has-text('Anmelden')")
    return page


def reports_of(folder: Path, table: int) -> list[str]:
    """The audit log's actions of round 1's table ``table`` (read from the database, newest first)."""
    from setupgen.console import store
    from setupgen.tournament.games import Game

    s = store.Store(folder)
    try:
        return [e.action for e in s.audit(Game.preliminary(1, table))]
    finally:
        s.close()


def test_a_phone_keeps_its_report_through_the_wifi_and_calls_a_referee(chromium, tmp_path):
    from setupgen.tournament import tokens

    shutil.copytree(ROOT / "examples" / "swiss-2010", tmp_path / "swiss-2010")
    (tmp_path / "password.txt").write_text(PASSWORD + "\n")
    console = HallConsole(tmp_path / "swiss-2010" / "tournament.toml", tmp_path / "out", tmp_path / "password.txt")
    console.start()
    try:
        with two_devices(chromium, tmp_path) as (desk, phones):
            director = log_in(desk, console.base, PASSWORD)
            director.click("tr:has-text('Runde 1') >> button:has-text('Paket machen')")
            director.wait_for_url(f"{console.base}/rounds/1", timeout=180_000)
            folder = console.folder
            key = tokens.read_key(folder)
            offline_report(phones, tokens.table_url(console.hall, key, 1, 2), folder)
            dropped_answer(phones, tokens.table_url(console.hall, key, 1, 3), folder)
            call_and_referee(phones, console, tokens.table_url(console.hall, key, 1, 4), director, folder)
    finally:
        console.stop()


def offline_report(phones, url: str, folder: Path) -> None:
    """Offline: the report stays on the phone and says so; back online and
    reloaded, it is sent, the page says it waits for the director, and the
    director has it once; then a correction goes through."""
    phone = phones.new_page()
    phone.goto(url)
    assert phone.evaluate("window.isSecureContext") is False  # as on the hall's plain HTTP
    phones.set_offline(True)
    fill_result(phone, (10, 7, 5, 3), 1)
    phone.click("button:has-text('Ergebnis melden')")
    phone.wait_for_selector("#outbox:visible", timeout=10_000)
    assert "Auf diesem Telefon gespeichert, noch nicht gesendet" in phone.inner_text("#outbox")
    assert reports_of(folder, 2) == []
    phones.set_offline(False)
    phone.reload()
    phone.wait_for_selector("text=Die Turnierleitung bestätigt es noch", timeout=15_000)
    assert phone.is_hidden("#outbox")
    time.sleep(6)  # a poll and a retry later: still one report
    assert reports_of(folder, 2) == ["report"]
    fill_result(phone, (10, 8, 5, 3), 1)  # a correction before the confirmation
    phone.click("button:has-text('Ergebnis melden')")
    phone.wait_for_selector("text=10 (", timeout=15_000)
    assert reports_of(folder, 2) == ["report", "report"]
    phone.close()


def dropped_answer(phones, url: str, folder: Path) -> None:
    """The request reaches the console but its answer is lost: the phone
    keeps the report; sent again, the console recognises it (stored once)."""
    phone = phones.new_page()
    phone.goto(url)
    lost = []

    def reach_then_drop(route) -> None:
        if route.request.method == "POST":  # the console gets the very request the phone sent ...
            sent = urllib.request.Request(
                route.request.url.replace(HALL, "127.0.0.1"),
                data=route.request.post_data_buffer,
                headers={"content-type": route.request.headers["content-type"]},
            )
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(sent, timeout=30).read()
            lost.append(1)
            route.abort("connectionreset")  # ... and the phone never hears back
        else:
            route.continue_()

    phone.route(url, reach_then_drop)
    fill_result(phone, (6, 10, 4, 3), 2)
    phone.click("button:has-text('Ergebnis melden')")
    phone.wait_for_selector("#outbox:visible", timeout=10_000)
    assert lost == [1] and reports_of(folder, 3) == ["report"]
    phone.unroute(url)
    phone.reload()
    phone.wait_for_selector("text=Die Turnierleitung bestätigt es noch", timeout=15_000)
    assert reports_of(folder, 3) == ["report"]  # the resend was recognised
    phone.close()


def call_and_referee(phones, console: HallConsole, url: str, director, folder: Path) -> None:
    """A call from the phone reaches the director's page by itself; a
    referee marks it done, adds 5 minutes and is refused a result."""
    phone = phones.new_page()
    phone.goto(url)
    director.goto(console.base + "/rounds/1")
    phone.click("button:has-text('Schiedsgericht rufen')")
    phone.wait_for_selector("text=Das Schiedsgericht ist gerufen", timeout=10_000)
    started = time.monotonic()
    director.wait_for_selector("text=Offene Rufe ans Schiedsgericht: 1", timeout=10_000)  # no reload by hand
    assert time.monotonic() - started < 10 and director.title().startswith("(1) ")
    referee = phones.new_page()  # the referee's own device: another login (a phone-sized page)
    referee.goto(console.base + "/login")
    referee.fill("input[name=password]", REFEREE)
    referee.click("button:has-text('Anmelden')")
    referee.wait_for_url(console.base + "/calls")
    referee.click("button:has-text('Erledigt')")
    referee.wait_for_url(console.base + "/calls")
    referee.goto(console.base + "/rounds/1/tables/4")
    referee.fill("input[name=minutes]", "5")
    referee.click("button:has-text('Geben')")
    referee.wait_for_url(console.base + "/rounds/1/tables/4")
    phone.reload()
    assert phone.is_visible("text=Dieser Tisch hat 5 Minuten mehr")
    token = referee.locator("input[name=csrf]").first.get_attribute("value")
    refused = referee.request.post(
        console.base + "/rounds/1/tables/4",
        form={"csrf": token, "vp1": "10", "vp2": "5", "vp3": "4", "vp4": "3", "winner": "1"},
    )
    assert refused.status == 403 and "Login des Schiedsgerichts" in refused.text()
    assert reports_of(folder, 4)[:3] == ["time-added", "call-done", "call"]
    director.goto(console.base + "/audit")
    for words in ("Schiedsgericht gerufen", "Ruf erledigt", "Zeit gegeben: 5 Min."):
        assert director.is_visible(f"text={words}"), words
    phone.close()
    referee.close()
