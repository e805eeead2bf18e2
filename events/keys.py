"""Redis key names. Each game's keys share its shard's hash tag, and so one cluster slot
with the shard's feed, so one script can append to both (no CROSSSLOT in Redis Cluster)."""

from __future__ import annotations

import hashlib
import zlib

SHARDS = 16
PREFIX = "dg"


def shard_of(game_id: str) -> str:
    return f"s{zlib.crc32(game_id.encode()) % SHARDS:02d}"


def all_shards() -> list[str]:
    return [f"s{i:02d}" for i in range(SHARDS)]


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
        self.secrets = f"{tag}:secrets:{game_id}"
        self.audit = f"{tag}:audit:{game_id}"  # the report, once the game is over
        self.feed = feed(self.shard)
        self.due = due(self.shard)

    def idempotency(self, field: str) -> str:
        """The record of one keyed request (`field`: its scope and Idempotency-Key), a key of
        its own so that it can expire alone. Named by a hash: the key a client chose is not
        kept, and a key of any characters makes a name of the same length."""
        return self._idempotency + hashlib.sha256(field.encode()).hexdigest()[:32]
