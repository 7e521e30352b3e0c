"""Deals anyone can check: a hand's deal is a documented function of its seeds.

Before a hand is set up the server draws a secret *seed* (32 random bytes, written
as 64 lowercase hex digits) and shows the table its *commitment*, the SHA-256 (in
hex) of the text ``domino-commit-v1:<table>:<hand>:<seed>``: ``<table>`` is the
table's code, ``<hand>`` the hand's number counted from 1.  The seed stays secret
until the hand is over.  Seated players' browsers may each add a *client seed*
(16 to 64 lowercase hex digits) once they have seen the commitment; the deal is
then, byte by byte:

1. ``key`` = SHA-256 of the text
   ``domino-deal-v1:<table>:<hand>:<seed>:<client seeds>``, the client seeds
   joined by ``,`` in seat order (nothing after the last ``:`` when there are none);
2. the stream: SHA-256(``key`` + ``i`` as 8 bytes big-endian) for ``i`` = 0, 1, 2 …,
   the blocks' bytes one after the other (SHA-256 in counter mode), read 4 bytes
   at a time as big-endian unsigned numbers ``u``;
3. the deck: the 28 tiles in the order 0|0, 1|0, 1|1, 2|0, 2|1, 2|2, 3|0 … 6|6;
4. a Fisher–Yates shuffle: for ``i`` from 27 down to 1, with ``n = i + 1``, take
   the next ``u``, passing over any ``u >= 2**32 - 2**32 % n`` (so that every
   position is equally likely), let ``j = u % n`` and swap ``deck[i]`` and ``deck[j]``;
5. with ``k`` tiles each, seat ``s`` gets ``deck[s*k : (s+1)*k]``; the rest is the
   boneyard, drawn from its first tile on.

The server cannot choose the deal: its seed is fixed by the commitment before the
client seeds exist.  A client cannot either: it does not know the seed.

>>> seed = "00" * 32
>>> commitment("abc", 1, seed)[:16]
'ea7300754e326af1'
>>> d = deal("abc", 1, seed, (), players=2, hand_size=7)
>>> len(d.hands[0]), len(d.boneyard), d == deal("abc", 1, seed, (), players=2, hand_size=7)
(7, 14, True)
>>> d == deal("abc", 1, seed, ("ab" * 8,), players=2, hand_size=7)
False
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .tiles import ALL_TILES, Tile

COMMIT_PREFIX = "domino-commit-v1"
DEAL_PREFIX = "domino-deal-v1"
_SEED = re.compile(r"[0-9a-f]{64}")
_CLIENT_SEED = re.compile(r"[0-9a-f]{16,64}")


@dataclass(frozen=True)
class Deal:
    """Each seat's tiles (in deck order) and the boneyard (next to draw first)."""

    hands: tuple[tuple[Tile, ...], ...]
    boneyard: tuple[Tile, ...]


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the operating system, as hex."""
    return secrets.token_hex(32)


def is_seed(text: str) -> bool:
    """A server seed as written: 64 lowercase hex digits."""
    return bool(_SEED.fullmatch(text))


def is_client_seed(text: str) -> bool:
    """A client seed as accepted: 16 to 64 lowercase hex digits."""
    return bool(_CLIENT_SEED.fullmatch(text))


def commitment(table: str, hand: int, seed: str) -> str:
    """The commitment shown before the hand: SHA-256 of the seed with the table and hand."""
    return hashlib.sha256(f"{COMMIT_PREFIX}:{table}:{hand}:{seed}".encode()).hexdigest()


def _numbers(key: bytes) -> Iterator[int]:
    """SHA-256 in counter mode, as big-endian 32-bit unsigned numbers."""
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for at in range(0, len(block), 4):
            yield int.from_bytes(block[at : at + 4], "big")
        counter += 1


def shuffled(table: str, hand: int, seed: str, client_seeds: Sequence[str]) -> list[Tile]:
    """The 28 tiles in the order the seeds shuffle them (steps 1 to 4 above)."""
    if not is_seed(seed):
        raise ValueError("a seed is 64 lowercase hex digits")
    for client in client_seeds:
        if not is_client_seed(client):
            raise ValueError(f"a client seed is 16 to 64 lowercase hex digits, not {client!r}")
    text = f"{DEAL_PREFIX}:{table}:{hand}:{seed}:{','.join(client_seeds)}"
    numbers = _numbers(hashlib.sha256(text.encode()).digest())
    deck = list(ALL_TILES)
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = 2**32 - 2**32 % n
        u = next(numbers)
        while u >= limit:
            u = next(numbers)
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(
    table: str,
    hand: int,
    seed: str,
    client_seeds: Sequence[str],
    *,
    players: int,
    hand_size: int,
) -> Deal:
    """The hands and the boneyard of hand number ``hand`` (from 1) of ``table``."""
    deck = shuffled(table, hand, seed, client_seeds)
    if players * hand_size > len(deck):
        raise ValueError(f"{players} hands of {hand_size} tiles need more than 28 tiles")
    hands = tuple(tuple(deck[s * hand_size : (s + 1) * hand_size]) for s in range(players))
    return Deal(hands, tuple(deck[players * hand_size :]))
