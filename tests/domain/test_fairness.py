"""The fairness test vector of docs/fairness.md, and an independent implementation of the
algorithm as the document writes it."""

import hashlib
import hmac

from domain.danger.cards import FULL_DECK
from domain.kernel.fairness import ALGORITHM, Shuffler, commitment

SEED = bytes(range(32))
ENTROPY = ["alice", "bob"]


def by_the_document(seed: bytes, entropy: list[str], items: list, counter: int) -> list:
    mix = hashlib.sha256(
        b"".join(len(e.encode()).to_bytes(4, "big") + e.encode() for e in entropy)
    ).digest()
    stream = b""
    block = 0
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        while True:
            while len(stream) < 4:
                message = mix + counter.to_bytes(8, "big") + block.to_bytes(8, "big")
                stream += hmac.new(seed, message, hashlib.sha256).digest()
                block += 1
            v, stream = int.from_bytes(stream[:4], "big"), stream[4:]
            if v < 2**32 - (2**32 % n):
                break
        j = v % n
        out[i], out[j] = out[j], out[i]
    return out


def test_the_vector():
    assert ALGORITHM == "hmac-sha256-fy-v1"
    assert commitment(SEED) == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    shuffler = Shuffler(SEED, ENTROPY)
    assert shuffler.shuffle(list(range(10)), 0) == [6, 7, 1, 3, 0, 9, 2, 4, 8, 5]
    assert shuffler.pick(6, 1) == 5
    assert shuffler.shuffle(FULL_DECK, 0)[:10] == [
        "G5",
        "B9",
        "G8",
        "G7",
        "B5",
        "G6",
        "G9",
        "G2",
        "R4",
        "R6",
    ]


def test_the_code_follows_the_document():
    shuffler = Shuffler(SEED, ENTROPY)
    for counter in range(5):
        assert shuffler.shuffle(FULL_DECK, counter) == by_the_document(
            SEED, ENTROPY, list(FULL_DECK), counter
        )


def test_entropy_changes_every_order():
    assert Shuffler(SEED, ["alice"]).shuffle(FULL_DECK, 0) != Shuffler(SEED, ["alicf"]).shuffle(
        FULL_DECK, 0
    )
