"""The one source of chance for every game: a deterministic, auditable shuffle.

Algorithm `hmac-sha256-fy-v1` (docs/fairness.md is the normative text):

- key = the server seed (bytes); mix = SHA-256 over the seats' entropy strings, each
  UTF-8 encoded and prefixed by its byte length as 4 bytes big-endian, in seat order.
- The byte stream for draw number `counter` is the concatenation of
  HMAC-SHA256(key, mix || counter (8 bytes BE) || block (8 bytes BE)) for block = 0, 1, 2 ...
- Integers are read from the stream as 4-byte big-endian unsigned values. A value in [0, n)
  is taken by rejection sampling: values >= 2**32 - (2**32 mod n) are skipped, then `v mod n`.
- Fisher-Yates: for i from len-1 down to 1, j = uniform(i + 1), swap items i and j.

Nothing here reads a clock or an OS randomness source; the seed comes in from outside.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import TypeVar

ALGORITHM = "hmac-sha256-fy-v1"
T = TypeVar("T")


def commitment(seed: bytes) -> str:
    """The public promise made before any card moves: hex SHA-256 of the seed bytes."""
    return hashlib.sha256(seed).hexdigest()


def entropy_mix(entropy: Sequence[str]) -> bytes:
    parts = bytearray()
    for item in entropy:
        raw = item.encode("utf-8")
        parts += len(raw).to_bytes(4, "big") + raw
    return hashlib.sha256(bytes(parts)).digest()


class _Stream:
    def __init__(self, seed: bytes, mix: bytes, counter: int) -> None:
        self._seed = seed
        self._prefix = mix + counter.to_bytes(8, "big")
        self._block = 0
        self._buffer = b""

    def _blocks(self) -> Iterator[bytes]:
        while True:
            msg = self._prefix + self._block.to_bytes(8, "big")
            self._block += 1
            yield hmac.new(self._seed, msg, hashlib.sha256).digest()

    def u32(self) -> int:
        if len(self._buffer) < 4:
            self._buffer += next(self._blocks())
        value = int.from_bytes(self._buffer[:4], "big")
        self._buffer = self._buffer[4:]
        return value

    def below(self, n: int) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            value = self.u32()
            if value < limit:
                return value % n


class Shuffler:
    """Shuffles and draws as a pure function of (seed, entropy, counter)."""

    def __init__(self, seed: bytes, entropy: Sequence[str] = ()) -> None:
        self.seed = seed
        self.mix = entropy_mix(entropy)

    def shuffle(self, items: Sequence[T], counter: int) -> list[T]:
        out = list(items)
        stream = _Stream(self.seed, self.mix, counter)
        for i in range(len(out) - 1, 0, -1):
            j = stream.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def pick(self, n: int, counter: int) -> int:
        """A uniform index in [0, n), e.g. to settle a tie by lot."""
        return _Stream(self.seed, self.mix, counter).below(n)
