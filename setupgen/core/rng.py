"""Reproducible random streams from seed text.

The seed text is hashed (SHA-256) to a *digest*; the digest seeds a
``random.Random``. Every draw in setupgen goes through :func:`randbelow` and
:func:`shuffle` here, which are built on ``Random.random()`` alone: the one
primitive whose sequence Python guarantees across versions for a given
integer seed (``randrange``/``shuffle`` are not guaranteed). So the same seed
gives the same board on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: bits of the seed digest carried in a setup ID and used to seed the stream
DIGEST_BITS = 55


def digest(seed: str) -> int:
    """The ``DIGEST_BITS``-bit digest of seed text (SHA-256 of its UTF-8
    bytes, top bits)."""
    h = hashlib.sha256(seed.encode("utf-8")).digest()
    return int.from_bytes(h[:8], "big") >> (64 - DIGEST_BITS)


def attempt_digest(seed_digest: int, attempt: int) -> int:
    """The digest of attempt ``attempt`` (0-based) of a board under balance
    limits (docs/balance.md): attempt 0 is the seed's own digest, so a
    board that meets the limits at once is the board the seed gives
    without them; attempt k > 0 is the top ``DIGEST_BITS`` bits of the
    SHA-256 of ``"setupgen-attempt:<digest>:<k>"``. A setup ID carries the
    accepted attempt's digest and so regenerates that board alone."""
    if attempt == 0:
        return seed_digest
    h = hashlib.sha256(f"setupgen-attempt:{seed_digest}:{attempt}".encode("ascii")).digest()
    return int.from_bytes(h[:8], "big") >> (64 - DIGEST_BITS)


def stream(seed_digest: int) -> random.Random:
    """A fresh ``random.Random`` seeded from a digest (see :func:`digest`)."""
    if not 0 <= seed_digest < (1 << DIGEST_BITS):
        raise ValueError(f"digest out of range: {seed_digest!r}")
    return random.Random(seed_digest)


def from_seed(seed: str) -> random.Random:
    """The random stream of seed text: ``stream(digest(seed))``."""
    return stream(digest(seed))


def randbelow(rng: random.Random, n: int) -> int:
    """A uniform integer in ``[0, n)`` drawn from ``rng.random()`` only.

    Raises ``ValueError`` for ``n < 1``.
    """
    if n < 1:
        raise ValueError(f"randbelow needs n >= 1, got {n!r}")
    # random() has 53 bits; the bias of floor(u * n) is below n / 2**53.
    return int(rng.random() * n)


def shuffle(rng: random.Random, items: MutableSequence[T]) -> None:
    """Fisher-Yates shuffle in place, drawing through :func:`randbelow`."""
    random_ = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(random_() * (i + 1))  # randbelow(rng, i + 1), inlined
        items[i], items[j] = items[j], items[i]


def choice(rng: random.Random, items: Sequence[T]) -> T:
    """A uniformly chosen element of a non-empty sequence."""
    return items[randbelow(rng, len(items))]


def fresh_seed() -> str:
    """A new random seed text for when the user gives none (uses the
    operating system's entropy, not the global ``random``)."""
    import secrets

    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))
