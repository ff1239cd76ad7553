"""Dice anyone can verify, with no dice server (aa-battle.md, "The dice construction").

Each side keeps a hash chain: ``x_N`` is 32 secure random bytes and ``x_k = SHA-256(x_{k+1})`` down to
``x_0``, which the side posts first.  Reveal ``k`` posts both sides' ``x_k``; anyone checks it against the
``x_{k-1}`` posted before.  The dice of one firing step of one battle round are the bytes of
HMAC-SHA-256 blocks keyed by both sides' ``x_k`` over a message naming the state (its digest), the battle,
the round, the side and the step; a byte of 252 or more is skipped, any other gives ``b mod 6 + 1``.

Pure functions on bytes and text: nothing here reads a file or a board.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence

VERSION = "movecheck-dice-1"
"""The first field of every message: the construction's name and version."""
LINK_BYTES = 32
SKIP_FROM = 252
"""Bytes at or above this are skipped: 252 is the largest multiple of 6 up to 256, so every die is even."""
SIDES = ("attacker", "defender")
STEPS = ("aa", "bombard", "sub_strike", "subs", "air", "fire", "damage")
KINDS = ("land", "sea", "raid")


def link_below(link: bytes) -> bytes:
    """The link before ``link`` in its chain: ``x_{k-1} = SHA-256(x_k)`` over the raw bytes."""
    return hashlib.sha256(link).digest()


def make_chain(seed: bytes, length: int) -> list[bytes]:
    """The chain ``x_0 ... x_length`` whose last link is ``seed``."""
    links = [seed]
    for _k in range(length):
        links.append(link_below(links[-1]))
    return links[::-1]


def new_chain(length: int) -> list[bytes]:
    """A fresh chain of ``length`` reveals from 32 secure random bytes."""
    return make_chain(secrets.token_bytes(LINK_BYTES), length)


def follows(link: bytes, before: bytes) -> bool:
    """``link`` is the link after ``before``: it hashes to it."""
    return hmac.compare_digest(link_below(link), before)


def broken_links(links: Sequence[bytes]) -> list[int]:
    """The indices k >= 1 of the links that do not hash to the link before them."""
    return [k for k in range(1, len(links)) if not follows(links[k], links[k - 1])]


def as_hex(link: bytes) -> str:
    return link.hex()


def from_hex(text: object) -> bytes | None:
    """A link written as 64 hex digits (either case), or None when it is not one."""
    if not isinstance(text, str) or len(text) != 2 * LINK_BYTES:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def state_digest(raw: bytes) -> str:
    """The state digest: SHA-256 of the battles state file's bytes, 64 lowercase hex digits."""
    return hashlib.sha256(raw).hexdigest()


def message(digest: str, space: str, kind: str, round_number: int, side: str, step: str, block: int) -> bytes:
    """The eight fields of a block's message, each followed by a line feed, in UTF-8."""
    fields = (VERSION, digest, space, kind, str(round_number), side, step, str(block))
    return "".join(f + "\n" for f in fields).encode("utf-8")


def blocks(key: bytes, digest: str, space: str, kind: str, round_number: int, side: str,
           step: str) -> Iterator[bytes]:
    """block_0, block_1, ...: HMAC-SHA-256 under ``key`` of each message."""
    j = 0
    while True:
        yield hmac.new(key, message(digest, space, kind, round_number, side, step, j), hashlib.sha256).digest()
        j += 1


def step_dice(attacker: bytes, defender: bytes, digest: str, space: str, kind: str, round_number: int,
              side: str, step: str, count: int) -> list[int]:
    """The first ``count`` dice of one step: the reveal's two links are the key (attacker's first)."""
    dice: list[int] = []
    if count <= 0:
        return dice
    for block in blocks(attacker + defender, digest, space, kind, round_number, side, step):
        dice.extend(b % 6 + 1 for b in block if b < SKIP_FROM)
        if len(dice) >= count:
            return dice[:count]
    raise AssertionError("unreachable: the blocks never end")  # pragma: no cover


def deal(dice: Sequence[int], owed: Sequence[tuple[str, int]]) -> dict[str, list[int]]:
    """A step's dice given out in order: ``owed`` is (value or plane type, count) in the construction's
    order (by value hit on, lowest first; AA dice by plane type in the map's unit order)."""
    found: dict[str, list[int]] = {}
    start = 0
    for key, count in owed:
        if count > 0:
            found.setdefault(key, []).extend(dice[start:start + count])
            start += count
    return found


__all__ = ["KINDS", "SIDES", "STEPS", "VERSION", "as_hex", "broken_links", "deal", "follows", "from_hex",
           "link_below", "make_chain", "message", "new_chain", "state_digest", "step_dice"]
