import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium for the browser tests: installed with apt-get when
    missing (CI runs as root); the test is skipped, saying why, only when
    that fails. Playwright drives it (no browser download)."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
    if not os.path.exists(CHROMIUM):
        if shutil.which("apt-get") is None:
            pytest.skip(f"{CHROMIUM} is missing and there is no apt-get to install it")
        try:
            for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
                subprocess.run(
                    cmd,
                    check=True,
                    capture_output=True,
                    timeout=900,
                    env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
                )
        except (OSError, subprocess.SubprocessError) as exc:
            pytest.skip(f"{CHROMIUM} is missing and 'apt-get install -y chromium' failed: {exc}")
        if not os.path.exists(CHROMIUM):
            pytest.skip(f"apt-get installed chromium but {CHROMIUM} is still missing")
    return CHROMIUM


#: the fallback fonts of templates/style.toml [[fonts.fallback]] and their Debian packages
FALLBACK_FONTS = {
    "Droid Sans Fallback": "fonts-droid-fallback",
    "NanumGothic": "fonts-nanum",
    "Symbola": "fonts-symbola",
}


@pytest.fixture(scope="session")
def fallback_fonts() -> None:
    """The fallback fonts for names in any script (issue 42): installed with
    apt-get when fontconfig does not find them (CI runs as root); the test
    is skipped, saying why, only when that fails."""

    def missing() -> list[str]:
        found = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True).stdout
        return [p for f, p in FALLBACK_FONTS.items() if f not in found]

    if shutil.which("fc-list") is None:
        pytest.skip("fontconfig (fc-list) is missing")
    if missing():
        if shutil.which("apt-get") is None:
            pytest.skip(f"fonts {missing()} are missing and there is no apt-get to install them")
        try:
            for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "--no-install-recommends", *missing()]):
                subprocess.run(
                    cmd,
                    check=True,
                    capture_output=True,
                    timeout=900,
                    env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
                )
        except (OSError, subprocess.SubprocessError) as exc:
            pytest.skip(f"apt-get could not install the fallback fonts: {exc}")
        from setupgen.core import fonts

        fonts.forget()
        if missing():
            pytest.skip(f"apt-get ran but fontconfig still misses {missing()}")


# ------------------------------------------------------- no process left behind (issue 46)

#: set in the environment of this test session: every process a test starts inherits it
SESSION_MARK = "SETUPGEN_TEST_SESSION"


def pytest_sessionstart(session) -> None:
    import uuid

    os.environ[SESSION_MARK] = uuid.uuid4().hex


def _left_behind() -> list[tuple[int, str]]:
    """Live processes (pid, command line) other than this one that carry
    this session's mark in their environment (Linux /proc; elsewhere none
    are found). Zombies and processes of other users cannot be read and
    are not counted."""
    mark = f"{SESSION_MARK}={os.environ.get(SESSION_MARK, '')}".encode()
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        if int(entry.name) == os.getpid():
            continue
        try:
            if mark not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            status = (entry / "status").read_text()
            if "\nState:\tZ" in status:
                continue
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")[:200]
            if f"\nPPid:\t{os.getpid()}\n" in status and "multiprocessing.resource_tracker" in command:
                continue  # multiprocessing's own helper of this process: it ends when this process does
            found.append((int(entry.name), command))
        except OSError:
            continue
    return found


def pytest_sessionfinish(session, exitstatus) -> None:
    """The session fails when a process a test started is still running at
    its end (a console worker whose console was killed, a server never
    stopped): they are listed, then ended, so CI never leaves one behind."""
    import signal
    import time

    if not os.environ.get(SESSION_MARK) or not Path("/proc/self/environ").exists():
        return
    deadline = time.monotonic() + 10
    left = _left_behind()
    while left and time.monotonic() < deadline:  # a process ending as the last test returns
        time.sleep(0.2)
        left = _left_behind()
    if not left:
        return
    for pid, _ in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    lines = "\n".join(f"  pid {pid}: {cmd}" for pid, cmd in left)
    sys.stderr.write(
        f"\nerror: {len(left)} process(es) started by the tests were still running at the "
        f"session's end (now killed):\n{lines}\n"
    )
    session.exitstatus = 1


# ------------------------------------------------------- time limits (issue 47)

#: seconds a test marked slow or browser may run (the others: pyproject.toml's timeout, 300);
#: several times their time on a loaded 2-core machine, so only a hang reaches it
SLOW_TIMEOUT = 1200


def pytest_collection_modifyitems(config, items) -> None:
    """Slow and browser tests without a time limit of their own get
    :data:`SLOW_TIMEOUT`; every other test has the configured one."""
    for item in items:
        if item.get_closest_marker("timeout") is None and (
            item.get_closest_marker("slow") or item.get_closest_marker("browser")
        ):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))
