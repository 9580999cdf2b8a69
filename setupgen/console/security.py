"""The console's safeguards (``docs/console.md``, "Security"), free of the
web framework: the director's password (scrypt), CSRF tokens, the rate
limit on table tokens and logins, the size limit on request bodies, the
hosts the console may be reached as, and the response headers.

Shapes: a password hash is ``(salt, digest)``; a rate limit counts
failures per client address in a sliding window.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from pathlib import Path

from ..core.errors import SetupgenError, quoted
from ..tournament.games import PRELIMINARY

#: scrypt cost (2**14, 8, 1: about 16 MB and 50 ms a check)
SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MIN_PASSWORD = 8
MAX_PASSWORD_FILE = 1024
#: largest request body accepted (a result form is a few hundred bytes)
MAX_BODY = 16 * 1024
#: failed token or password attempts per client address and window
MAX_FAILURES = 10
WINDOW_SECONDS = 60.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")

HEADERS = {
    "content-security-policy": "default-src 'none'; style-src 'self'; img-src 'self'; script-src 'self'; "
    "connect-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the console on this machine."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_console_url(url: str, host: str, port: int, tls: bool) -> None:
    """Refuse a console URL the tables could not reach the console at
    (every QR code on the packs would be dead): a scheme other than the
    one served (``https`` without TLS, ``http`` with it), a port other
    than the one listened on (80 / 443 when the URL names none), or a host
    other than this machine while the console listens on this machine
    only. Raises :class:`SetupgenError` (field ``console_url``, remedy
    ``trust_console_url``: for a console behind a reverse proxy)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    served = "https" if tls else "http"
    if parts.scheme != served:
        how = "serve it with a TLS certificate and key" if parts.scheme == "https" else "give an https:// address"
        raise SetupgenError(
            f"the tables' address {quoted(url, 80)} is {parts.scheme}, but the console serves {served}: {how}",
            field="console_url",
            remedy="trust_console_url",
        )
    try:
        named = parts.port
    except ValueError:
        named = None
    wanted = named if named is not None else (443 if parts.scheme == "https" else 80)
    if wanted != port:
        raise SetupgenError(
            f"the tables' address {quoted(url, 80)} has port {wanted}, but the console listens on "
            f"port {port}: give the same port in both",
            field="console_url",
            remedy="trust_console_url",
        )
    name = (parts.hostname or "").strip("[]")
    if is_loopback(host) and not (is_loopback(name) or name == "localhost"):
        raise SetupgenError(
            f"the tables' address {quoted(url, 80)} is another machine's view of this one, but the "
            f"console listens on {host} (this machine only), so no table can reach it: listen on "
            f"the hall's network (0.0.0.0, with the director's password)",
            field="console_url",
            remedy="trust_console_url",
        )


def read_password(path: str | Path, field: str = "password_file") -> str:
    """A password (the director's; the referees' with ``field``
    ``referee_password_file``): the first line of ``path`` (a regular
    file of at most 1 KB, UTF-8), surrounding spaces dropped, at least
    :data:`MIN_PASSWORD` characters. Raises :class:`SetupgenError` naming
    ``field``."""
    p = Path(path)
    try:
        if not p.is_file():
            raise SetupgenError(f"{quoted(str(p), 120)} is not a file", field=field)
        if p.stat().st_size > MAX_PASSWORD_FILE:
            raise SetupgenError(
                f"{quoted(str(p), 120)} is larger than {MAX_PASSWORD_FILE} bytes; it should hold "
                f"one line, the password",
                field=field,
            )
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeError) as exc:
        raise SetupgenError(f"cannot read {quoted(str(p), 120)}: {exc}", field=field) from None
    password = (text.splitlines() or [""])[0].strip()
    if len(password) < MIN_PASSWORD:
        raise SetupgenError(
            f"the password in {quoted(str(p), 120)} must have at least {MIN_PASSWORD} characters", field=field
        )
    return password


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """``(salt, scrypt digest)`` of ``password``; the password itself is not kept."""
    salt = secrets.token_bytes(16) if salt is None else salt
    return salt, hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, **SCRYPT)


def password_salt(key: bytes) -> bytes:
    """The salt of the director's password hash in a tournament folder
    (16 bytes derived from its console key): the same password gives the
    same hash at every start, so sessions survive a restart with it, and
    end with any other (:func:`fingerprint`)."""
    return hmac.new(key, b"setupgen-console-password/1", hashlib.sha256).digest()[:16]


def fingerprint(stored: tuple[bytes, bytes]) -> str:
    """What a session keeps of the password it was opened with: SHA-256
    (hex) of the stored salt and scrypt digest, never the password."""
    return hashlib.sha256(stored[0] + stored[1]).hexdigest()


def password_matches(stored: tuple[bytes, bytes], given: str) -> bool:
    """Whether ``given`` is the password of ``stored``, compared in constant time."""
    if len(given) > MAX_PASSWORD_FILE:
        return False
    return hmac.compare_digest(hash_password(given, stored[0])[1], stored[1])


def session_secret(key: bytes) -> str:
    """The cookie signing secret, derived from the folder's console key
    (sessions survive a restart of the console)."""
    return hmac.new(key, b"setupgen-console-session/1", hashlib.sha256).hexdigest()


def table_csrf(key: bytes, round_number: int, table: int, stage: str = PRELIMINARY) -> str:
    """The CSRF token of a table's own page (the game ``(stage, round,
    table)``): 128 bits of HMAC-SHA256 under the folder's console key. A
    table page carries no session (its token in the URL is all the
    authority it has), so its form's token is derived instead of kept in a
    cookie. A preliminary table's message is
    ``setupgen-table-form/1/<round>/<table>``, a finals table's
    ``setupgen-table-form/1/<stage>/<round>/<table>``."""
    where = f"{round_number}/{table}" if stage == PRELIMINARY else f"{stage}/{round_number}/{table}"
    return hmac.new(key, f"setupgen-table-form/1/{where}".encode(), hashlib.sha256).hexdigest()[:32]


def csrf_token(session: dict) -> str:
    """The session's CSRF token (made on first use)."""
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_hex(16)
        session["csrf"] = token
    return token


def csrf_ok(session: dict, given: object) -> bool:
    """Whether a form's CSRF field matches its session's token."""
    token = session.get("csrf")
    return isinstance(token, str) and isinstance(given, str) and hmac.compare_digest(token.encode(), given.encode())


class RateLimit:
    """At most ``limit`` counted events per client in any ``window``
    seconds; a client over it is refused until its oldest event ages out.
    :meth:`attempt` counts before the work it allows, so parallel requests
    of one client never get more than ``limit`` through; no limit is
    shared between clients (nobody can lock another out)."""

    def __init__(
        self, limit: int = MAX_FAILURES, window: float = WINDOW_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self.failures: dict[str, deque[float]] = defaultdict(deque)
        self.lock = threading.Lock()

    def _recent(self, client: str) -> deque[float]:
        seen = self.failures[client]
        cut = self.clock() - self.window
        while seen and seen[0] <= cut:
            seen.popleft()
        return seen

    def blocked(self, client: str) -> bool:
        """Whether ``client`` has used up its failures."""
        with self.lock:
            return len(self._recent(client)) >= self.limit

    def attempt(self, client: str) -> bool:
        """Count an attempt of ``client`` now, atomically, when it is
        within the limit (True), else count nothing (False)."""
        with self.lock:
            recent = self._recent(client)
            if len(recent) >= self.limit:
                return False
            recent.append(self.clock())
            self._forget_idle()
        return True

    def fail(self, client: str) -> None:
        """Count a failure of ``client``."""
        with self.lock:
            self._recent(client).append(self.clock())
            self._forget_idle()

    def _forget_idle(self) -> None:
        if len(self.failures) > 10_000:  # forget idle clients
            for c in [c for c, q in self.failures.items() if not q]:
                del self.failures[c]


class BodyTooLarge(Exception):
    """A request body over :data:`MAX_BODY` bytes."""


#: most bytes of request headers (names and values) a request may have; more is answered 431
MAX_HEADERS = 16 * 1024


class LimitBody:
    """ASGI middleware: request headers over :data:`MAX_HEADERS` bytes are
    answered 431 at once; a request whose declared or actual body exceeds
    ``limit`` bytes raises :class:`BodyTooLarge` while it is read (the
    app answers 413); a declared length over the limit is answered 413 at
    once."""

    def __init__(self, app, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if sum(len(k) + len(v) for k, v in scope.get("headers") or ()) > MAX_HEADERS:
            await _plain(send, 431, f"request headers larger than {MAX_HEADERS} bytes")
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await _plain(
                send,
                413 if declared.isdigit() else 400,
                "request body too large" if declared.isdigit() else "bad content-length",
            )
            return
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge()
            return message

        await self.app(scope, counted, send)


async def _plain(send, status: int, text: str) -> None:
    body = f"{status} {text}\n".encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
            + [(k.encode(), v.encode()) for k, v in HEADERS.items()],
        }
    )
    await send({"type": "http.response.body", "body": body})
