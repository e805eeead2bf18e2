"""Redis key names. Each game's keys share its shard's hash tag, and so one cluster slot
with the shard's feed, so one script can append to both (no CROSSSLOT in Redis Cluster).

A game's shard is fixed by its id and the number of shards, so that number is the store's:
recorded at the first start (`SHARDS_KEY`) and never changed after (service/infra/shards.py). Many
more shards than cluster masters spread the games evenly over them: the 1,024 hash tags land
in every 16th slot (`spread_tags`)."""

from __future__ import annotations

import hashlib
import zlib
from importlib.resources import files

DEFAULT_SHARDS = 1024
PREFIX = "dg"
SHARDS_KEY = f"{PREFIX}:shards"
"""The number of shards the store's games are spread over, written once."""

_count = DEFAULT_SHARDS
_names: list[str] = []


def use_shards(count: int) -> None:
    """The number of shards this process spreads games over (the store's, once checked)."""
    global _count, _names
    if count < 1:
        raise ValueError(f"the number of shards must be at least 1, not {count}")
    _count, _names = count, []


SLOTS = 16384  # a cluster's hash slots


def spread_tags() -> list[str]:
    """The 1,024 shards' hash tags: tag i lands in slot 16 * i (CRC16 mod 16384, as a cluster
    hashes a key's tag), so a cluster whose masters hold even ranges of slots holds the
    same number of shards on each, to one, whatever the number of masters. Found once by
    `python -m events.keys` (a search of about 16,000 names per tag) and kept in a file."""
    return files("events").joinpath("shard_tags.txt").read_text().split()


def find_spread_tags(count: int = DEFAULT_SHARDS) -> list[str]:
    """The search behind `shard_tags.txt`: for each shard, the first `s<i>.<n>` whose slot is
    the i-th of `count` evenly spaced ones."""
    from binascii import crc_hqx

    tags = []
    for i in range(count):
        n = 0
        while crc_hqx(f"s{i:04d}.{n}".encode(), 0) % SLOTS != i * (SLOTS // count):
            n += 1
        tags.append(f"s{i:04d}.{n}")
    return tags


def shard_name(index: int) -> str:
    """The shard's hash tag when there are not 1,024 shards (16: a store from before)."""
    return f"s{index:02d}"


def shard_number(game_id: str) -> int:
    """The game's shard as its place in `all_shards()`: 0 to the number of shards - 1."""
    return zlib.crc32(game_id.encode()) % _count


def shard_of(game_id: str) -> str:
    return all_shards()[shard_number(game_id)]


def all_shards() -> list[str]:
    global _names
    if len(_names) != _count:
        if _count == DEFAULT_SHARDS:
            _names = spread_tags()
        else:
            _names = [shard_name(i) for i in range(_count)]
    return _names


def feed(shard: str) -> str:
    return f"{PREFIX}:{{{shard}}}:feed"


def due(shard: str) -> str:
    """The shard's games by the time (ms) the worker's sweep should look at them next."""
    return f"{PREFIX}:{{{shard}}}:due"


class GameKeys:
    def __init__(self, game_id: str) -> None:
        self.shard = shard_of(game_id)
        tag = f"{PREFIX}:{{{self.shard}}}"
        self.stream = f"{tag}:game:{game_id}"
        self._idempotency = f"{tag}:idem:{game_id}:"
        self._retry = f"{tag}:retry:{game_id}:"
        self.secrets = f"{tag}:secrets:{game_id}"
        self.audit = f"{tag}:audit:{game_id}"  # the report, once the game is over
        self.rematch = f"{tag}:rematch:{game_id}"  # the id of the game made to play again
        self.feed = feed(self.shard)
        self.due = due(self.shard)

    def retry(self, seat: int) -> str:
        """What a seat's last command left written but unanswered (a 503 after its append):
        a retry of its body, while it is still the game's last, is answered from it."""
        return f"{self._retry}{seat}"

    def idempotency(self, field: str) -> str:
        """The record of one keyed request (`field`: its scope and Idempotency-Key), a key of
        its own so that it can expire alone. Named by a hash: the key a client chose is not
        kept, and a key of any characters makes a name of the same length."""
        return self._idempotency + hashlib.sha256(field.encode()).hexdigest()[:32]


if __name__ == "__main__":
    print("\n".join(find_spread_tags()))
