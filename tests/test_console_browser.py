"""The console in a real browser (issue 14, point 6): Debian's Chromium
driven by Playwright against ``setupgen serve`` in its own process. A
round of the day: log in, make round 1's pack, enter a result and correct
it, a table reports through its QR code's URL on a phone-sized screen, the
director confirms, the standings equal ``setupgen standings``', then round
2 and the final seated with its pack.

``SETUPGEN_SCREENSHOTS=1`` also copies the screenshots into ``docs/``."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from test_console import make_tournament

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PASSWORD = "tournament-day"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """``setupgen serve`` on a free port with a director's password; yields (base URL, folder, tournament file)."""
    tour = make_tournament(tmp_path)
    tour.write_text(tour.read_text() + '\n[final]\nplayers = 8\nscenario = "base-3-4"\nvictory_points = 10\n')
    (tmp_path / "password.txt").write_text(PASSWORD + "\n")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    folder = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "setupgen", "serve", str(tour), "-o", str(folder), "--port",
                             str(port), "--password-file", str(tmp_path / "password.txt"), "--console-url", base],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"serve ended: {proc.stdout.read()}")
                time.sleep(0.1)
        yield base, folder, tour
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def fill_result(page, vps, winner) -> None:
    for k, v in enumerate(vps, start=1):
        page.fill(f"#vp{k}", str(v))
    page.check(f"input[name=winner][value='{winner}']")


def test_a_round_of_the_day_in_chromium(chromium, served, tmp_path):
    from playwright.sync_api import sync_playwright

    from setupgen.tournament import tokens

    base, folder, tour = served
    shots = tmp_path / "shots"
    shots.mkdir()
    alerts = []
    with sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(tempfile.mkdtemp(dir=tmp_path), executable_path=chromium,
                                                    headless=True, args=ARGS, viewport={"width": 1100, "height": 800})
        try:
            page = ctx.new_page()
            page.on("dialog", lambda d: (alerts.append(d.message), d.dismiss()))
            page.goto(base + "/")
            assert page.url == base + "/login"
            page.fill("input[name=password]", PASSWORD)
            page.click("button:has-text('Log in')")
            assert page.url == base + "/" and page.is_visible("text=Rounds")
            page.click("tr:has-text('Round 1') >> button:has-text('Make pack')")
            page.wait_for_url(base + "/rounds/1", timeout=60_000)
            assert (folder / "round-1" / "round.pdf").is_file()

            page.goto(base + "/rounds/1/tables/1")
            fill_result(page, (10, 7, 5, 3), 1)
            page.click("button:has-text('Save')")
            page.goto(base + "/rounds/1/tables/1")  # the correction
            fill_result(page, (10, 8, 5, 3), 1)
            page.click("button:has-text('Save')")
            page.wait_for_url(base + "/rounds/1")
            page.goto(base + "/rounds/1/tables/1")
            assert page.locator("table.audit tbody tr").count() == 2 and page.is_visible("td:text-is('correct')")

            url = tokens.table_url(base, tokens.read_key(folder), 1, 2)
            assert page.is_visible(f"code:text-is('{tokens.table_url(base, tokens.read_key(folder), 1, 1)}')")
            phone = ctx.new_page()
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(url)
            fill_result(phone, (4, 10, 6, 2), 2)
            phone.click("button:has-text('Report result')")
            assert phone.is_visible("text=Waiting for the director to confirm")
            phone.screenshot(path=str(shots / "console-table.png"), full_page=True)

            page.goto(base + "/")  # mid-round: one table waits for the director
            page.screenshot(path=str(shots / "console-director.png"), full_page=True)
            page.goto(base + "/rounds/1")
            assert page.locator("tr.reported").count() == 1
            page.screenshot(path=str(shots / "console-round.png"), full_page=True)
            page.click("tr.reported >> button:has-text('Confirm')")
            page.wait_for_url(base + "/rounds/1")
            assert page.locator("tr.confirmed").count() == 2
            phone.reload()
            assert phone.is_visible("text=Confirmed by the director")

            page.goto(base + "/standings")
            assert page.is_visible("text=Round 1: 2 of 2 tables confirmed")
            for table in (1, 2):  # round 2, then the final of the best 8
                page.goto(f"{base}/rounds/2/tables/{table}")
                fill_result(page, (3, 10, 9, 4), 2)
                page.click("button:has-text('Save')")
                page.wait_for_url(base + "/rounds/2")
            page.goto(base + "/finals")
            page.click("button:has-text('Make the final pack')")
            page.wait_for_url(base + "/finals", timeout=60_000)
            assert page.is_visible("a:has-text('round.pdf')") and (folder / "final" / "round.pdf").is_file()
            exported = page.request.get(base + "/standings.csv").body()
        finally:
            ctx.close()
    assert alerts == []  # the player named <script>alert(1)</script> stayed text
    cli = subprocess.run([sys.executable, "-m", "setupgen", "standings", str(tour), str(folder / "results.csv"),
                          "-o", str(tmp_path / "cli")], cwd=ROOT, capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert exported == (tmp_path / "cli" / "standings.csv").read_bytes()
    pack = (folder / "round-1" / "round.pdf").read_bytes()
    again = subprocess.run([sys.executable, "-m", "setupgen", "round", str(tour), "--round", "1", "-o", str(folder),
                            "--console-url", base], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert (folder / "round-1" / "round.pdf").read_bytes() == pack  # the CLI makes the console's pack
    if os.environ.get("SETUPGEN_SCREENSHOTS") == "1":
        for shot in shots.iterdir():
            shutil.copyfile(shot, ROOT / "docs" / shot.name)
