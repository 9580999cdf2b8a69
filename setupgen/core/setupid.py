"""Setup IDs: short codes that carry a board's scenario, methods and seed
digest (``docs/format.md``, ``setup_id``).

Shape: ``SSNH-XXXX-XXXX-XXXC``: ``SS`` the scenario's code (layout file
``code``, 2 characters), ``N`` the number method, ``H`` the harbor method,
then the 55-bit seed digest (:func:`setupgen.core.rng.digest`) in 11 Crockford
base-32 characters and a check character ``C`` (Luhn mod 32 over the whole
ID), so a mistyped character is always caught, and two swapped neighbours
are caught but for the pair ``0``/``Z`` (Luhn's one blind spot), instead of
giving another board. Reading is case-insensitive and forgives
``O``/``I``/``L`` for ``0``/``1``/``1`` as Crockford does.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .errors import SetupIdError, quoted
from .rng import DIGEST_BITS

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
NUMBER_CODES = {"swap": "S", "spiral": "P", "uniform": "U"}
HARBOR_CODES = {"shuffled": "S", "free": "F", "players": "P", "fixed": "X"}
_DIGITS = DIGEST_BITS // 5  # 11 digest characters, then 1 check character


#: a character's value in the Luhn sum (a header letter outside the
#: alphabet counts as its code point mod 32)
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
#: a value's Luhn addend when doubled: the base-32 digits of 2v summed
_DOUBLED = tuple(2 * v // 32 + 2 * v % 32 for v in range(32))


def check_char(head: str, body: str) -> str:
    """Luhn mod 32 check character over the header (scenario code and method
    letters) and the digest characters: from the right, every first value
    is doubled (its base-32 digits summed)."""
    back = _values(head + body)[::-1]
    total = sum(map(_DOUBLED.__getitem__, back[0::2])) + sum(back[1::2])
    return ALPHABET[-total % 32]


def _values(text: str) -> list[int]:
    """Each character's value in the Luhn sum (:data:`_VALUE`)."""
    return [_VALUE[c] if c in _VALUE else ord(c) % 32 for c in text]


@functools.cache
def _pairs() -> tuple[tuple[str, int], ...]:
    """For each 10-bit value: its two digest characters and their Luhn
    addends (the first doubled, the second as it is)."""
    return tuple((ALPHABET[v >> 5] + ALPHABET[v & 31], _DOUBLED[v >> 5] + (v & 31)) for v in range(1024))


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
        return f"setupgen.core.setupid.decode({str(self)!r})"


def encode(code: str, number_method: str, harbor_method: str, digest: int) -> str:
    """The setup ID text. Raises :class:`SetupIdError` for an unknown method
    or a digest out of range."""
    if number_method not in NUMBER_CODES or harbor_method not in HARBOR_CODES:
        raise SetupIdError(f"no setup-id code for methods {number_method!r}/{harbor_method!r}")
    if not 0 <= digest < (1 << DIGEST_BITS):
        raise SetupIdError("digest out of range")
    head = f"{code}{NUMBER_CODES[number_method]}{HARBOR_CODES[harbor_method]}"
    # the Luhn sum of check_char, with the digest's characters read two at
    # a time (positions from the right: the last digest character and every
    # second one before it are doubled; the header's first and third too)
    h = _values(head)
    pairs = _pairs()
    a, b, c = pairs[digest >> 45 & 1023], pairs[digest >> 35 & 1023], pairs[digest >> 25 & 1023]
    d, e, last = pairs[digest >> 15 & 1023], pairs[digest >> 5 & 1023], digest & 31
    total = _DOUBLED[h[0]] + h[1] + _DOUBLED[h[2]] + h[3] + a[1] + b[1] + c[1] + d[1] + e[1] + _DOUBLED[last]
    return f"{head}-{a[0]}{b[0]}-{c[0]}{d[0]}-{e[0]}{ALPHABET[last]}{ALPHABET[-total % 32]}"


def decode(text: str) -> SetupId:
    """Parse a setup ID. Raises :class:`SetupIdError` with the problem."""
    clean = text.strip().upper().replace("-", "").replace(" ", "")
    if len(clean) != 5 + _DIGITS:
        raise SetupIdError(
            f"setup id {quoted(text, 40)} must have {5 + _DIGITS} letters and digits besides dashes", field="setup_id"
        )
    code, n, h, body = clean[:2], clean[2], clean[3], clean[4:-1]
    body = body.translate(str.maketrans("OIL", "011"))
    check = clean[-1].translate(str.maketrans("OIL", "011"))
    numbers = {v: k for k, v in NUMBER_CODES.items()}
    harbors = {v: k for k, v in HARBOR_CODES.items()}
    if n not in numbers:
        raise SetupIdError(f"setup id {quoted(text, 40)}: unknown number-method letter {n!r}", field="setup_id")
    if h not in harbors:
        raise SetupIdError(f"setup id {quoted(text, 40)}: unknown harbor-method letter {h!r}", field="setup_id")
    value = 0
    for ch in body + check:
        if ALPHABET.find(ch) < 0:
            raise SetupIdError(f"setup id {quoted(text, 40)}: {ch!r} is not a setup-id character", field="setup_id")
    for ch in body:
        value = value * 32 + ALPHABET.find(ch)
    if check_char(clean[:4], body) != check:
        raise SetupIdError(
            f"setup id {quoted(text, 40)} has a typo: its check character does not match", field="setup_id"
        )
    return SetupId(code, numbers[n], harbors[h], value)
