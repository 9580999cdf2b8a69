"""Setup IDs: short codes that carry a board's scenario, methods and seed
digest (``../shared/FORMAT.md``, ``setup_id``).

Shape: ``SSNH-XXXX-XXXX-XXXX``: ``SS`` the scenario's code (layout file
``code``, 2 characters), ``N`` the number method, ``H`` the harbor method,
then the 60-bit seed digest (:func:`setupgen.rng.digest`) in 12 Crockford
base-32 characters. Reading is case-insensitive and forgives ``O``/``I``/``L``
for ``0``/``1``/``1`` as Crockford does.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SetupIdError
from .rng import DIGEST_BITS

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
NUMBER_CODES = {"swap": "S", "spiral": "P", "uniform": "U"}
HARBOR_CODES = {"shuffled": "S", "free": "F", "players": "P", "fixed": "X"}
_DIGITS = DIGEST_BITS // 5


@dataclass(frozen=True, slots=True)
class SetupId:
    """The parts of a setup ID."""

    code: str
    number_method: str
    harbor_method: str
    digest: int

    def __str__(self) -> str:
        return encode(self.code, self.number_method, self.harbor_method, self.digest)

    def __repr__(self) -> str:
        return f"setupgen.setupid.decode({str(self)!r})"


def encode(code: str, number_method: str, harbor_method: str, digest: int) -> str:
    """The setup ID text. Raises :class:`SetupIdError` for an unknown method
    or a digest out of range."""
    if number_method not in NUMBER_CODES or harbor_method not in HARBOR_CODES:
        raise SetupIdError(f"no setup-id code for methods {number_method!r}/{harbor_method!r}")
    if not 0 <= digest < (1 << DIGEST_BITS):
        raise SetupIdError("digest out of range")
    chars = []
    for _ in range(_DIGITS):
        chars.append(ALPHABET[digest & 31])
        digest >>= 5
    body = "".join(reversed(chars))
    head = f"{code}{NUMBER_CODES[number_method]}{HARBOR_CODES[harbor_method]}"
    return "-".join([head, body[0:4], body[4:8], body[8:12]])


def decode(text: str) -> SetupId:
    """Parse a setup ID. Raises :class:`SetupIdError` with the problem."""
    clean = text.strip().upper().replace("-", "").replace(" ", "")
    if len(clean) != 4 + _DIGITS:
        raise SetupIdError(f"setup id {text!r} must have {4 + _DIGITS} letters and digits besides dashes")
    code, n, h, body = clean[:2], clean[2], clean[3], clean[4:]
    numbers = {v: k for k, v in NUMBER_CODES.items()}
    harbors = {v: k for k, v in HARBOR_CODES.items()}
    if n not in numbers:
        raise SetupIdError(f"setup id {text!r}: unknown number-method letter {n!r}")
    if h not in harbors:
        raise SetupIdError(f"setup id {text!r}: unknown harbor-method letter {h!r}")
    body = body.translate(str.maketrans("OIL", "011"))
    value = 0
    for ch in body:
        idx = ALPHABET.find(ch)
        if idx < 0:
            raise SetupIdError(f"setup id {text!r}: {ch!r} is not a setup-id character")
        value = value * 32 + idx
    return SetupId(code, numbers[n], harbors[h], value)
