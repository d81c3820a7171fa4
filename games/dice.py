"""Dice anyone can check: every outcome of a game derived from one committed secret seed.

The scheme, small enough to re-implement in any language:

- A game's seed is 32 random bytes, written as 64 hex digits. Its commitment is the SHA-256 of
  those 32 bytes (hex), shown when the game begins; the seed itself is revealed when it ends.
- Each step of the game has a sequence number: 0 for the setup (the deal, the first shuffle),
  then 1, 2, ... for the moves in the order they were made. The step's key is
  HMAC-SHA256(key=seed bytes, message=f"step:{seq}" in UTF-8). (Every game draws its own fresh
  seed, so the step number alone tells steps apart; the game's number is not part of the
  message because a rematch is set up before the database has numbered it.)
- The step's random bytes are HMAC-SHA256(key=step key, message=counter as 8 bytes big-endian)
  for counter 0, 1, 2, ..., concatenated.
- A uniform number below n takes the next 8 bytes as a big-endian integer x and returns x mod n,
  unless x falls in the last partial block of 2**64 (x >= 2**64 - 2**64 mod n), in which case it
  takes the next 8 bytes instead (so no number is favoured).
- A die with s sides is 1 + (a uniform number below s). A shuffle is Fisher-Yates from the end:
  for i from len-1 down to 1, swap item i with item (a uniform number below i+1).

So the seed fixes every die and shuffle of the game before anyone moves, and anyone holding the
revealed seed can recompute them (see `games.verify`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

SEED_BYTES = 32
SETUP_SEQ = 0
"""The sequence number of a game's setup; moves count from 1."""
_WORD = 8
_SPAN = 1 << (8 * _WORD)


def new_seed() -> str:
    """A fresh secret seed: 256 bits from the operating system's secure source, as hex."""
    return secrets.token_hex(SEED_BYTES)


def seed_from_int(number: int) -> str:
    """A seed from a 256-bit integer (the host's injectable source; tests pass small numbers)."""
    if not 0 <= number < 1 << (8 * SEED_BYTES):
        raise ValueError("a dice seed is a 256-bit number")
    return number.to_bytes(SEED_BYTES, "big").hex()


def seed_bytes(seed: str) -> bytes:
    """The 32 bytes a hex seed stands for; anything else is refused."""
    try:
        raw = bytes.fromhex(seed)
    except (TypeError, ValueError):
        raise ValueError("a dice seed is 64 hexadecimal digits") from None
    if len(raw) != SEED_BYTES:
        raise ValueError("a dice seed is 64 hexadecimal digits")
    return raw


def commitment(seed: str) -> str:
    """What the table shows while the game runs: SHA-256 of the seed's bytes, in hex."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def step_key(seed: str, seq: int) -> bytes:
    """The key of one step's randomness: HMAC-SHA256(seed, "step:<seq>")."""
    return hmac.digest(seed_bytes(seed), f"step:{seq}".encode(), "sha256")


class DiceRandomness:
    """The `Randomness` of one step of one game, drawn from the stream its step key fixes."""

    def __init__(self, seed: str, seq: int) -> None:
        self._key = step_key(seed, seq)
        self._counter = 0
        self._buffer = b""

    def _take(self) -> int:
        while len(self._buffer) < _WORD:
            block = hmac.digest(self._key, self._counter.to_bytes(_WORD, "big"), "sha256")  # one-shot, in C
            self._buffer += block
            self._counter += 1
        word, self._buffer = self._buffer[:_WORD], self._buffer[_WORD:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """A uniform integer in 0..n-1 (rejection sampling: no remainder bias)."""
        if n < 1:
            raise ValueError("nothing to choose from")
        limit = _SPAN - _SPAN % n
        while True:
            x = self._take()
            if x < limit:
                return x % n

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return 1 + self.below(sides)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        shuffled = list(items)
        for i in range(len(shuffled) - 1, 0, -1):
            j = self.below(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        return shuffled
