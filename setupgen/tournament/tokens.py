"""Table tokens of the director's console (``docs/console.md``, "Tokens").

Each table of each round has a secret of its own: the first 128 bits (32
hex digits) of HMAC-SHA256, under the tournament folder's key file
``console.key``, of the text ``setupgen-table/1/<round>/<table>``. The key
is 32 random bytes (64 hex digits and a newline), made once with
exclusive creation and never rewritten, so the CLI (``round
--console-url``) and the console (``serve``) compute the same token and
URL and a pack made twice has the same bytes. A table's URL is
``<base>/t/<round>/<table>/<token>``. A finals table (stage
``semi-final`` or ``final``, round 1) has the message
``setupgen-table/1/<stage>/1/<table>`` and the URL
``<base>/t/<stage>/<table>/<token>``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from ..core.errors import SetupgenError, quoted
from .games import PRELIMINARY, Game

KEY_FILE = "console.key"
#: hex digits of a token (128 bits)
TOKEN_HEX = 32
_KEY = re.compile(r"[0-9a-f]{64}\n?")
_URL = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+(/[A-Za-z0-9._~\-/]*)?")
#: longest base URL: the table URL then fits a QR code of version 6 or less
#: (41 modules, 0.4 mm each in the sheet's 17 mm box), easy to scan
MAX_URL = 60


def read_key(folder: Path) -> bytes | None:
    """The key of ``folder/console.key``, None when the file is missing.
    Raises :class:`SetupgenError` for a file that is not 64 hex digits."""
    path = Path(folder) / KEY_FILE
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeError) as exc:
        raise SetupgenError(f"cannot read the console key {quoted(str(path), 120)}: {exc}") from None
    if not _KEY.fullmatch(text):
        raise SetupgenError(
            f"{quoted(str(path), 120)} is not a console key (64 hex digits); it is kept: "
            f"move it away to make a new one (every printed table code changes)"
        )
    return bytes.fromhex(text[:64])


def key(folder: Path) -> bytes:
    """The folder's key, made when missing (created exclusively, mode 0600:
    an existing key is never rewritten). ``folder`` must exist. Raises
    :class:`SetupgenError`."""
    found = read_key(folder)
    if found is not None:
        return found
    path = Path(folder) / KEY_FILE
    fresh = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # made meanwhile by another process: use that one
        return key(folder)
    except OSError as exc:
        raise SetupgenError(f"cannot make the console key {quoted(str(path), 120)}: {exc.strerror or exc}") from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(fresh + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    return bytes.fromhex(fresh)


def table_token(secret: bytes, round_number: int, table: int, stage: str = PRELIMINARY) -> str:
    """The token of the game ``(stage, round_number, table)``
    (:class:`~setupgen.tournament.games.Game`): 32 hex digits. A
    preliminary table's message is ``setupgen-table/1/<round>/<table>``
    (the tokens printed on every pack so far), a finals table's
    ``setupgen-table/1/<stage>/<round>/<table>``."""
    game = Game(stage, round_number, table)
    where = f"{game.round}/{game.table}" if not game.is_finals else f"{game.stage}/{game.round}/{game.table}"
    return hmac.new(secret, f"setupgen-table/1/{where}".encode("ascii"), hashlib.sha256).hexdigest()[:TOKEN_HEX]


def token_matches(secret: bytes, round_number: int, table: int, given: str, stage: str = PRELIMINARY) -> bool:
    """Whether ``given`` is the game's token, compared in constant time."""
    return hmac.compare_digest(
        table_token(secret, round_number, table, stage).encode("ascii"), given.encode("utf-8", "replace")
    )


def check_base_url(url: str) -> str:
    """The console's base URL without a trailing ``/``: ``http(s)://host
    [:port][/path]``, at most :data:`MAX_URL` characters. Raises
    :class:`SetupgenError` (field ``console_url``)."""
    if not _URL.fullmatch(url):
        raise SetupgenError(
            f"expected the console's address such as http://192.168.1.20:8000, got {quoted(url, 60)}",
            field="console_url",
        )
    if len(url) > MAX_URL:
        raise SetupgenError(
            f"the console's address has {len(url)} characters; at most {MAX_URL} keep the "
            f"sheets' QR codes easy to scan",
            field="console_url",
        )
    return url.rstrip("/")


def table_url(base: str, secret: bytes, round_number: int, table: int, stage: str = PRELIMINARY) -> str:
    """The result page of a game: ``<base>/t/<round>/<table>/<token>`` for
    a preliminary table, ``<base>/t/<stage>/<table>/<token>`` for a finals
    table (its round is always 1)."""
    token = table_token(secret, round_number, table, stage)
    where = round_number if stage == PRELIMINARY else stage
    return f"{check_base_url(base)}/t/{where}/{table}/{token}"
