"""The two-party commutative-encryption shuffle over the Ed25519 prime-order group.

Tiles are encoded as group elements with no known discrete logarithm between them; the
host encrypts with ``a`` and shuffles, the joiner encrypts with ``b`` and shuffles, then the
host and the joiner in turn swap their global key for one key per position. The deck
``W_j = a_j * b_j * M(tile at j)`` can only be opened with both keys of a position.

Secrets are derived from one 32-byte seed per peer, so a journal holding the seed rebuilds
them exactly. See docs/protocol.md, section 5.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from nacl import bindings as nb

from tui_domino import rules

L = 2**252 + 27742317777372353535851937790883648493
POINT_BYTES = 32
SCALAR_BYTES = 32


class BadElement(ValueError):
    """A received point or scalar is not a valid element of the group."""


# -- elements -----------------------------------------------------------------------------------


def scalar_to_int(s: bytes) -> int:
    return int.from_bytes(s, "little")


def check_scalar(s: bytes) -> bytes:
    """A canonical, non-zero scalar, or BadElement."""
    if not isinstance(s, bytes) or len(s) != SCALAR_BYTES:
        raise BadElement("a scalar must be 32 bytes")
    n = scalar_to_int(s)
    if not 0 < n < L:
        raise BadElement("a scalar must be canonical and non-zero")
    return s


def check_point(p: bytes) -> bytes:
    """A point of the prime-order subgroup (not of small order), or BadElement."""
    if not isinstance(p, bytes) or len(p) != POINT_BYTES:
        raise BadElement("a point must be 32 bytes")
    if not nb.crypto_core_ed25519_is_valid_point(p):
        raise BadElement("not a point of the Ed25519 prime-order subgroup")
    return p


def point_from_hex(text: str) -> bytes:
    try:
        raw = bytes.fromhex(text)
    except ValueError as exc:
        raise BadElement("a point must be 64 hex digits") from exc
    return check_point(raw)


def scalar_from_hex(text: str) -> bytes:
    try:
        raw = bytes.fromhex(text)
    except ValueError as exc:
        raise BadElement("a scalar must be 64 hex digits") from exc
    return check_scalar(raw)


def mul(s: bytes, p: bytes) -> bytes:
    """``s * p`` (no clamping)."""
    return bytes(nb.crypto_scalarmult_ed25519_noclamp(s, p))


def inv(s: bytes) -> bytes:
    return bytes(nb.crypto_core_ed25519_scalar_invert(s))


def smul(x: bytes, y: bytes) -> bytes:
    return bytes(nb.crypto_core_ed25519_scalar_mul(x, y))


def derive_scalar(seed: bytes, label: str) -> bytes:
    """A non-zero scalar from a secret seed and a label (deterministic)."""
    counter = 0
    while True:
        digest = hashlib.sha512(seed + f"|{label}|{counter}".encode()).digest()
        s = bytes(nb.crypto_core_ed25519_scalar_reduce(digest))
        if scalar_to_int(s) != 0:
            return s
        counter += 1  # pragma: no cover - probability 2**-252


def derive_permutation(seed: bytes, label: str, n: int) -> list[int]:
    perm = list(range(n))
    rng = random.Random(hashlib.sha512(seed + f"|perm|{label}".encode()).digest())
    rng.shuffle(perm)
    return perm


# -- tile encodings -----------------------------------------------------------------------------

Encodings = tuple[tuple[tuple[int, ...], ...], tuple[bytes, ...], dict[bytes, int]]
_ENCODINGS: dict[str, Encodings] = {}


def tile_name(tile: Sequence[int]) -> str:
    return "-".join(str(n) for n in tile)


def encodings(variant: str) -> Encodings:
    """(tiles, their points, point -> tile index) of a variant's full set."""
    cached = _ENCODINGS.get(variant)
    if cached is None:
        tiles = tuple(rules.full_set(variant))
        points = []
        for t in tiles:
            h = hashlib.sha512(f"tui-domino/tile/v1/{variant}/{tile_name(t)}".encode()).digest()
            points.append(bytes(nb.crypto_core_ed25519_from_uniform(h[:32])))
        index = {p: i for i, p in enumerate(points)}
        assert len(index) == len(tiles)
        cached = (tiles, tuple(points), index)
        _ENCODINGS[variant] = cached
    return cached


# -- one peer's secrets for one deal ------------------------------------------------------------


@dataclass
class DealSecrets:
    """A peer's keys for one deal: the global key and one key per position."""

    key: bytes
    keys: list[bytes]
    perm: list[int]

    @classmethod
    def derive(cls, seed: bytes, label: str, n: int) -> DealSecrets:
        return cls(
            key=derive_scalar(seed, f"{label}/global"),
            keys=[derive_scalar(seed, f"{label}/pos/{j}") for j in range(n)],
            perm=derive_permutation(seed, label, n),
        )


def stage1(variant: str, s: DealSecrets) -> list[bytes]:
    """Host: encrypt every tile with ``a`` and shuffle."""
    _, points, _ = encodings(variant)
    enc = [mul(s.key, p) for p in points]
    return [enc[i] for i in s.perm]


def stage2(deck: Sequence[bytes], s: DealSecrets) -> list[bytes]:
    """Joiner: encrypt with ``b`` and shuffle."""
    enc = [mul(s.key, p) for p in deck]
    return [enc[i] for i in s.perm]


def stage_rekey(deck: Sequence[bytes], s: DealSecrets) -> list[bytes]:
    """Stages 3 and 4: remove the global key, lock each position with its own key."""
    k_inv = inv(s.key)
    return [mul(smul(s.keys[j], k_inv), p) for j, p in enumerate(deck)]


def open_position(variant: str, point: bytes, key_a: bytes, key_b: bytes) -> int | None:
    """The tile index at a deck position given both keys, or None if it is no tile."""
    _, _, index = encodings(variant)
    m = mul(inv(smul(key_a, key_b)), point)
    return index.get(m)


def distinct(points: Sequence[bytes]) -> bool:
    return len(set(points)) == len(points)


# -- verification at the end of a round ---------------------------------------------------------


@dataclass
class Transcript:
    """The four public decks of one deal."""

    x: list[bytes] = field(default_factory=list)
    y: list[bytes] = field(default_factory=list)
    z: list[bytes] = field(default_factory=list)
    w: list[bytes] = field(default_factory=list)


class ShuffleFault(Exception):
    """The revealed keys do not explain the decks: ``player`` cheated."""

    def __init__(self, player: int, reason: str) -> None:
        super().__init__(reason)
        self.player = player
        self.reason = reason


def verify_deal(
    variant: str, tr: Transcript, a: bytes, a_keys: Sequence[bytes], b: bytes,
    b_keys: Sequence[bytes],
) -> list[int]:
    """Checks the whole shuffle with every key revealed; returns the tile index at each
    deck position. Raises ShuffleFault naming the player (0 host, 1 joiner) at fault."""
    tiles, points, index = encodings(variant)
    n = len(tiles)
    if not (len(tr.x) == len(tr.y) == len(tr.z) == len(tr.w) == n):
        raise ShuffleFault(0, "the decks have the wrong length")
    a_inv, b_inv = inv(a), inv(b)
    # Stage 1: X is the tile set encrypted with a, each tile once.
    sigma1 = _unwrap(tr.x, a_inv, index, 0, "host")
    # Stage 2: Y is X encrypted with b, each element once.
    sigma2 = _unwrap(tr.y, b_inv, {p: j for j, p in enumerate(tr.x)}, 1, "joiner")
    # Stages 3 and 4: per-position keys.
    _check_keys(tr.y, tr.z, a_keys, a_inv, 0, "host")
    _check_keys(tr.z, tr.w, b_keys, b_inv, 1, "joiner")
    return [sigma1[sigma2[j]] for j in range(n)]


def verify_stages(
    variant: str, tr: Transcript, a: bytes, a_keys: Sequence[bytes], b: bytes,
    b_keys: Sequence[bytes],
) -> list[int] | None:
    """``verify_deal`` for a deal that may have been cut short (a dispute during the deal):
    checks every stage sent so far; the tile index at each position once all four were
    sent, else None. Raises ShuffleFault naming the player at fault."""
    if tr.w:
        return verify_deal(variant, tr, a, a_keys, b, b_keys)
    _, _, index = encodings(variant)
    a_inv, b_inv = inv(a), inv(b)
    if tr.x:
        _unwrap(tr.x, a_inv, index, 0, "host")
    if tr.x and tr.y:
        _unwrap(tr.y, b_inv, {p: j for j, p in enumerate(tr.x)}, 1, "joiner")
    if tr.y and tr.z:
        _check_keys(tr.y, tr.z, a_keys, a_inv, 0, "host")
    return None


def _unwrap(deck: Sequence[bytes], key_inv: bytes, source: dict[bytes, int], player: int,
            who: str) -> list[int]:
    """Where each element of ``deck``, decrypted with ``key_inv``, sits in ``source``; a
    ShuffleFault for ``player`` unless that is a permutation."""
    order: list[int] = []
    for p in deck:
        i = source.get(mul(key_inv, p))
        if i is None:
            raise ShuffleFault(player, f"the {who}'s shuffle holds something that is not a tile")
        order.append(i)
    if len(set(order)) != len(deck):
        raise ShuffleFault(player, f"the {who}'s shuffle deals a tile twice (a stacked deck)")
    return order


def _check_keys(before: Sequence[bytes], after: Sequence[bytes], keys: Sequence[bytes],
                key_inv: bytes, player: int, who: str) -> None:
    """Each position's key turns ``before`` into ``after`` (the shuffle key taken off)."""
    for j in range(len(before)):
        if mul(smul(keys[j], key_inv), before[j]) != after[j]:
            raise ShuffleFault(player, f"the {who}'s keys do not explain deck position {j}")


def same_bytes(x: bytes, y: bytes) -> bool:
    return hmac.compare_digest(x, y)
