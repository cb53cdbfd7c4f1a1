"""Secret, verifiable deals: a committed table secret, players' entropy and a byte-exact shuffle.

Every hand's wall is a pure function of ``(secret, hand number, entropy digest, tile set)``
built only from SHA-256 and HMAC-SHA256, so any language can recompute it. The exact byte
layout, the commitment/reveal protocol and the reasons behind it are in ``docs/deals.md``;
the definitions below are the normative ones:

* secret — 32 random bytes (:func:`new_secret`); written in a log as 64 lowercase hex digits.
* commitment — ``SHA-256(b"laizi-table-secret/v1" || secret)`` as 64 lowercase hex digits
  (:func:`commitment`).
* entropy — a string of 1 to 256 printable ASCII characters (U+0020 to U+007E), encoded as
  ASCII (:func:`check_entropy`).
* entropy digest — ``SHA-256(b"laizi-entropy/v1" || u32(count) || for each entropy e, in log
  order: u16(len(e)) || e)`` (:func:`mix`); 32 bytes.
* hand key — ``HMAC-SHA256(key=secret, msg=b"laizi-hand/v1" || u64(hand) || entropy
  digest)`` (:func:`hand_key`); 32 bytes.
* byte stream — ``block(i) = HMAC-SHA256(key=hand key, msg=b"laizi-shuffle/v1" || u32(i))``
  for i = 0, 1, 2, …, concatenated; read as consecutive 32-bit big-endian words.
* shuffle — Fisher–Yates from the last position down to 1: for ``i = n-1 … 1`` draw
  ``j`` uniform in ``[0, i]`` and swap positions ``i`` and ``j``. A draw with bound
  ``m = i + 1`` takes the next word ``w``, rejects it while ``w >= 2**32 - (2**32 % m)``
  and then gives ``w % m`` (:func:`shuffle`).
* wall — the shuffle of the sorted tile set (:func:`deal_wall`).

``u16``/``u32``/``u64`` are unsigned big-endian integers of 2, 4 and 8 bytes; ``||`` is
concatenation. Nothing here uses :mod:`random`.

:func:`seeded_key` is the plain ``seed=`` mode for simulation and tests: it is NOT secret,
anybody who knows the seed can compute every deal.

Every malformed input raises :class:`laizi.errors.TableError` with
``code=ErrorCode.MALFORMED``; messages never quote a secret's bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence

from laizi.errors import ErrorCode, TableError

__all__ = [
    "COMMITMENT_TAG",
    "ENTROPY_MAX",
    "ENTROPY_TAG",
    "HAND_TAG",
    "SECRET_BYTES",
    "SEED_TAG",
    "STREAM_TAG",
    "check_entropy",
    "check_secret",
    "commitment",
    "deal_wall",
    "hand_key",
    "mix",
    "new_secret",
    "parse_secret",
    "secret_hex",
    "seeded_key",
    "seeded_secret",
    "shuffle",
]

SECRET_BYTES = 32
"""The length of a table secret, of a hand key and of an entropy digest (bytes)."""
ENTROPY_MAX = 256
"""The most characters one entropy contribution may have."""

COMMITMENT_TAG = b"laizi-table-secret/v1"
ENTROPY_TAG = b"laizi-entropy/v1"
HAND_TAG = b"laizi-hand/v1"
STREAM_TAG = b"laizi-shuffle/v1"
SEED_TAG = b"laizi-seed/v1"

_HEX_DIGITS = frozenset("0123456789abcdef")
_WORD = 1 << 32
_MAX_BLOCKS = 1 << 32
_SEED_MIN, _SEED_MAX = -(1 << 63), (1 << 63) - 1


def _malformed(message: str) -> TableError:
    return TableError(message, code=ErrorCode.MALFORMED)


def _check_bytes32(value: object, what: str) -> bytes:
    if type(value) is not bytes:
        raise _malformed(f"{what} must be bytes, not {type(value).__name__}")
    if len(value) != SECRET_BYTES:
        raise _malformed(f"{what} must be {SECRET_BYTES} bytes, not {len(value)}")
    return value


def _check_hex32(value: object, what: str) -> str:
    if type(value) is not str:
        raise _malformed(f"{what} must be a string of hex digits, not {type(value).__name__}")
    if len(value) != 2 * SECRET_BYTES or not _HEX_DIGITS.issuperset(value):
        raise _malformed(f"{what} must be {2 * SECRET_BYTES} lowercase hex digits "
                         f"(got {len(value)} characters)")
    return value


def _check_uint(value: object, what: str, bits: int) -> int:
    if type(value) is not int:
        raise _malformed(f"{what} must be an int, not {type(value).__name__}: {value!r}")
    if not 0 <= value < 1 << bits:
        raise _malformed(f"{what} must be in 0..2**{bits}-1, not {value!r}")
    return value


# ------------------------------------------------------------------ the secret


def new_secret() -> bytes:
    """A fresh table secret: 32 bytes from :func:`secrets.token_bytes`."""
    return secrets.token_bytes(SECRET_BYTES)


def secret_hex(secret: bytes) -> str:
    """The secret as it is written in a log: 64 lowercase hex digits."""
    return _check_bytes32(secret, "a table secret").hex()


def parse_secret(text: str) -> bytes:
    """The secret from its log form (exactly 64 lowercase hex digits)."""
    return bytes.fromhex(_check_hex32(text, "a table secret"))


def commitment(secret: bytes) -> str:
    """``SHA-256(b"laizi-table-secret/v1" || secret)`` as 64 lowercase hex digits.

    Written at the table's start, before any entropy: it binds the table to the secret
    (SHA-256 is collision resistant) without revealing it (the secret has 256 random bits).
    """
    s = _check_bytes32(secret, "a table secret")
    return hashlib.sha256(COMMITMENT_TAG + s).hexdigest()


def check_secret(secret_hex: str, commitment: str) -> bool:
    """Whether the revealed secret (its log form) opens the commitment.

    Both must be exactly 64 lowercase hex digits (else :class:`TableError`); the answer
    is ``False`` only for a well-formed secret that does not match.
    """
    secret = parse_secret(secret_hex)
    expected = _check_hex32(commitment, "a commitment")
    actual = hashlib.sha256(COMMITMENT_TAG + secret).hexdigest()
    return hmac.compare_digest(actual, expected)


# ------------------------------------------------------------------ entropy


def check_entropy(entropy: object) -> str:
    """One entropy contribution, validated: a ``str`` of 1 to 256 printable ASCII
    characters (U+0020 to U+007E). Returns it unchanged; anything else raises
    :class:`TableError` (before the table logs anything).

    A client that wants to contribute other text or raw bytes sends their hex (or a hash).
    """
    if type(entropy) is not str:
        raise _malformed(f"entropy must be a string, not {type(entropy).__name__}")
    if not 1 <= len(entropy) <= ENTROPY_MAX:
        raise _malformed(f"entropy must have 1 to {ENTROPY_MAX} characters, not {len(entropy)}")
    for ch in entropy:
        if not " " <= ch <= "~":
            raise _malformed(f"entropy must be printable ASCII (U+0020 to U+007E); "
                             f"it holds {ch!r}")
    return entropy


def mix(entropy_list: Sequence[str]) -> bytes:
    """The entropy digest of the contributions in log order (32 bytes)::

        SHA-256(b"laizi-entropy/v1" || u32(count) || u16(len(e1)) || e1 || u16(len(e2)) || ...)

    each ``e`` in ASCII. The length prefixes make the encoding unambiguous (``["ab", "c"]``
    and ``["a", "bc"]`` differ); the order matters. ``mix([])`` is the digest of a table
    nobody added entropy to.
    """
    if isinstance(entropy_list, (str, bytes)) or not isinstance(entropy_list, Sequence):
        raise _malformed(f"the entropy list must be a list of strings, "
                         f"not {type(entropy_list).__name__}")
    if len(entropy_list) >= _WORD:
        raise _malformed("too many entropy contributions")
    h = hashlib.sha256(ENTROPY_TAG)
    h.update(len(entropy_list).to_bytes(4, "big"))
    for e in entropy_list:
        data = check_entropy(e).encode("ascii")
        h.update(len(data).to_bytes(2, "big"))
        h.update(data)
    return h.digest()


# ------------------------------------------------------------------ keys


def hand_key(secret: bytes, hand_number: int, entropy_digest: bytes) -> bytes:
    """The key of hand ``hand_number`` (0-based) of a table (32 bytes)::

        HMAC-SHA256(key=secret, msg=b"laizi-hand/v1" || u64(hand_number) || entropy_digest)

    Without the secret, no hand's key (so no wall) can be computed, and seeing every
    earlier wall does not help (HMAC-SHA256 is a pseudo-random function of the secret).
    """
    s = _check_bytes32(secret, "a table secret")
    n = _check_uint(hand_number, "the hand number", 64)
    d = _check_bytes32(entropy_digest, "the entropy digest")
    return hmac.digest(s, HAND_TAG + n.to_bytes(8, "big") + d, "sha256")


def seeded_secret(seed: int) -> bytes:
    """The public stand-in secret of the plain ``seed=`` mode::

        SHA-256(b"laizi-seed/v1" || i64(seed))

    with ``i64`` the 8-byte big-endian two's complement (``seed`` in ``-2**63 .. 2**63-1``).
    NOT secret: anybody who knows the seed knows it.
    """
    if type(seed) is not int:
        raise _malformed(f"a seed must be an int, not {type(seed).__name__}: {seed!r}")
    if not _SEED_MIN <= seed <= _SEED_MAX:
        raise _malformed(f"a seed must be in -2**63..2**63-1, not {seed!r}")
    return hashlib.sha256(SEED_TAG + seed.to_bytes(8, "big", signed=True)).digest()


def seeded_key(seed: int, hand_number: int) -> bytes:
    """The key of hand ``hand_number`` in the plain ``seed=`` mode (simulation, tests)::

        hand_key(seeded_secret(seed), hand_number, mix([]))

    i.e. a table whose "secret" is derived from the seed and that nobody added entropy to.
    It is NOT secret: anybody with the seed can compute every deal, so it must never be
    used where a person could gain by knowing a later wall.
    """
    return hand_key(seeded_secret(seed), hand_number, _EMPTY_MIX)


# ------------------------------------------------------------------ the shuffle


def _words(key: bytes) -> Iterator[int]:
    """The 32-bit big-endian words of the byte stream of ``key``."""
    base = hmac.new(key, digestmod=hashlib.sha256)
    for i in range(_MAX_BLOCKS):
        h = base.copy()
        h.update(STREAM_TAG + i.to_bytes(4, "big"))
        block = h.digest()
        for off in range(0, 32, 4):
            yield int.from_bytes(block[off:off + 4], "big")
    raise _malformed("the byte stream is exhausted")  # pragma: no cover (2**37 bytes)


def _permute(items: list[int], words: Iterator[int]) -> list[int]:
    """Fisher–Yates on ``items`` in place, drawing from ``words``; returns ``items``."""
    for i in range(len(items) - 1, 0, -1):
        m = i + 1
        limit = _WORD - _WORD % m
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % m
        items[i], items[j] = items[j], items[i]
    return items


def shuffle(tiles: Sequence[int], key: bytes) -> list[int]:
    """A new list: ``tiles`` in the order the byte stream of ``key`` gives.

    Fisher–Yates from the last position down to 1; each draw in ``[0, i]`` rejects the
    words ``w >= 2**32 - (2**32 % (i+1))`` and takes ``w % (i+1)`` (see the module doc
    and docs/deals.md). ``tiles`` is not changed and is used in the order given: sort it
    first (:func:`deal_wall` does).
    """
    k = _check_bytes32(key, "a deal key")
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Sequence):
        raise _malformed(f"tiles must be a sequence of ints, not {type(tiles).__name__}")
    items = list(tiles)
    for t in items:
        if type(t) is not int:
            raise _malformed(f"a tile must be an int, not {type(t).__name__}: {t!r}")
    return _permute(items, _words(k))


def deal_wall(secret: bytes, hand_number: int, entropy_digest: bytes,
              tiles: Sequence[int]) -> list[int]:
    """The wall of hand ``hand_number``: ``shuffle(sorted(tiles), hand_key(...))``.

    ``tiles`` is the variant's tile set (``variant.tile_set(options)``) in any order: it is
    sorted here, so the wall depends only on the multiset of tiles.
    """
    key = hand_key(secret, hand_number, entropy_digest)
    if isinstance(tiles, (str, bytes)) or not isinstance(tiles, Sequence):
        raise _malformed(f"tiles must be a sequence of ints, not {type(tiles).__name__}")
    for t in tiles:
        if type(t) is not int:
            raise _malformed(f"a tile must be an int, not {type(t).__name__}: {t!r}")
    return shuffle(sorted(tiles), key)


_EMPTY_MIX = mix([])
