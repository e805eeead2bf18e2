"""The transparency log of game heads (docs/transparency.md): an append-only Merkle tree
hashed as RFC 9162 hashes it, kept in the store under one hash tag (`{tlog}`: one slot of a
cluster, so each change is one script), its tree heads signed.

- `heads`: per game, the newest head the projection of the feeds has seen and not yet
  logged (`seq hash final`), and `pending`: when it began to wait (0 for a final head, which
  goes in the next batch). Written by `mark` (service/readmodels/log_heads.py).
- `leaves`: the leaves in order, each the canonical JSON of a game head; `nodes`: the hash
  of every perfect subtree (`level:index`, events/merkle.py); `games`: per game, its leaves
  (`index:seq`, space-separated).
- `head`: the latest signed tree head, signed only once its leaves are on the replicas the
  store promises, so a failover cannot take back a signed tree.

One writer at a time holds `writer`, a lease (`LogWriter.batch`); the append itself is also
conditional on the tree's size, so a writer whose lease ran out cannot fork the tree.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import Any

import msgspec

from events import merkle
from events.cluster import Store
from events.envelope import canonical
from events.signatures import TREE_HEAD, message
from events.store import EventStore
from service.infra.clock import StoreClock
from service.infra.errors import ApiError
from service.infra.lua import Script
from service.infra.signing import Signer
from service.wire.schemas import (
    ConsistencyProof,
    InclusionProof,
    LogEntries,
    LogEntry,
    LogLeaf,
    TreeHead,
)

log = logging.getLogger("danger.log")
TAG = "dg:{tlog}"
HEADS, PENDING = f"{TAG}:heads", f"{TAG}:pending"
LEAVES, NODES, GAMES = f"{TAG}:leaves", f"{TAG}:nodes", f"{TAG}:games"
HEAD, WRITER = f"{TAG}:head", f"{TAG}:writer"
BATCH = 1000  # game heads logged in one batch at most
ENTRIES_MAX = 1000  # leaves one GET /v1/log/entries answers at most

# KEYS: heads, pending, games. ARGV: 1 now (ms), then per head: game, seq, hash, final (1/0).
# A head not newer than the game's last logged or noted one changes nothing.
MARK = Script("""
for i = 2, #ARGV, 4 do
  local game, seq = ARGV[i], tonumber(ARGV[i + 1])
  local last = 0
  local noted = redis.call('HGET', KEYS[1], game)
  if noted then last = tonumber(string.match(noted, '^(%d+)')) end
  local done = redis.call('HGET', KEYS[3], game)
  if done then last = math.max(last, tonumber(string.match(done, ':(%d+)$'))) end
  if seq > last then
    redis.call('HSET', KEYS[1], game, ARGV[i + 1] .. ' ' .. ARGV[i + 2] .. ' ' .. ARGV[i + 3])
    if ARGV[i + 3] == '1' then
      redis.call('ZADD', KEYS[2], 0, game)
    else
      redis.call('ZADD', KEYS[2], 'NX', ARGV[1], game)
    end
  end
end
return 1
""")

# KEYS: leaves, nodes, games, heads, pending. ARGV: 1 the size the leaves were computed for,
# 2 n, then n leaves, then n (game, seq) pairs, then the new nodes as field, value pairs.
# A game whose noted head is still the logged one leaves `heads` and `pending`.
APPEND = Script("""
local size = redis.call('LLEN', KEYS[1])
if size ~= tonumber(ARGV[1]) then return size end
local n = tonumber(ARGV[2])
for k = 1, n do
  local game, seq = ARGV[2 + n + 2 * k - 1], ARGV[2 + n + 2 * k]
  redis.call('RPUSH', KEYS[1], ARGV[2 + k])
  local done = redis.call('HGET', KEYS[3], game)
  local entry = (size + k - 1) .. ':' .. seq
  redis.call('HSET', KEYS[3], game, done and (done .. ' ' .. entry) or entry)
  local noted = redis.call('HGET', KEYS[4], game)
  if noted and string.match(noted, '^(%d+)') == seq then
    redis.call('HDEL', KEYS[4], game)
    redis.call('ZREM', KEYS[5], game)
  end
end
for j = 3 + 3 * n, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[j], ARGV[j + 1]) end
return -1
""")

# KEYS: the lease. ARGV: 1 its token.
RELEASE = Script("""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
""")


def _field(node: merkle.Node) -> str:
    return f"{node[0]}:{node[1]}"


async def mark(redis: Store, heads: list[tuple[str, int, str, bool]], now_ms: int) -> None:
    """Note game heads to be logged: (game, seq, hash, final)."""
    args: list[Any] = [now_ms]
    for game, seq, digest, final in heads:
        args += [game, seq, digest, int(final)]
    if heads:
        await MARK(redis, [HEADS, PENDING, GAMES], args)


def leaf_of(game: str, seq: int, digest: str, final: bool) -> bytes:
    return canonical({"final": final, "game": game, "hash": digest, "seq": seq})


def signed_head(signer: Signer, origin: str, size: int, root: str, at: str) -> TreeHead:
    fields = {"at": at, "key": signer.key_id, "origin": origin, "root": root, "size": size}
    signature = signer.sign(message(TREE_HEAD, fields))
    return TreeHead(
        origin=origin, size=size, root=root, at=at, key=signer.key_id, signature=signature
    )


class TransparencyLog:
    """The log as the API reads it."""

    def __init__(self, redis: Store, signer: Signer, clock: StoreClock, origin: str) -> None:
        self.redis = redis
        self.signer = signer
        self.clock = clock
        self.origin = origin

    async def size(self) -> int:
        return int(await self.redis.llen(LEAVES))  # type: ignore[misc]  # redis-py: Awaitable[T] | T

    async def head(self) -> TreeHead:
        raw = await self.redis.get(HEAD)
        if raw is not None:
            return msgspec.json.decode(raw, type=TreeHead)
        if await self.size() == 0:  # before the first batch: the empty tree, safe to sign
            root = merkle.EMPTY_ROOT.hex()
            return signed_head(self.signer, self.origin, 0, root, self.clock.stamp())
        raise ApiError(503, "no_tree_head", "The log has signed no tree head yet: ask again.")

    async def entries(self, start: int, end: int) -> LogEntries:
        if not 0 <= start < end or end - start > ENTRIES_MAX:
            raise ApiError(422, "invalid_range", f"Ask for 1 to {ENTRIES_MAX} leaves: start < end.")
        size = await self.size()
        if start >= size:
            raise ApiError(409, "beyond_log", f"The log holds {size} leaves.", size=size)
        raws = await self.redis.lrange(LEAVES, start, min(end, size) - 1)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        return LogEntries(
            entries=[
                LogEntry(index=start + i, leaf=msgspec.json.decode(raw, type=LogLeaf))
                for i, raw in enumerate(raws)
            ],
            size=size,
        )

    async def inclusion(self, game: str, size: int | None) -> InclusionProof:
        head = None
        if size is None:
            head = await self.head()
            size = head.size
        elif size > await self.size():
            raise ApiError(409, "beyond_log", "The log is not that large yet.")
        logged = await self.redis.hget(GAMES, game)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        indices = [int(e.split(b":")[0]) for e in (logged or b"").split()]
        within = [i for i in indices if i < size]
        if not within:
            raise ApiError(
                404, "not_logged", f"No head of game {game!r} is in the tree of {size} leaves."
            )
        index = within[-1]
        ranges = merkle.inclusion_ranges(index, size)
        hashes = [h.hex() for h in await range_hashes(self.redis, ranges)]
        raw = await self.redis.lindex(LEAVES, index)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        return InclusionProof(
            index=index,
            size=size,
            leaf=msgspec.json.decode(raw, type=LogLeaf),
            path=hashes,
            head=head,
        )

    async def consistency(self, first: int, second: int) -> ConsistencyProof:
        if first > second:
            raise ApiError(422, "invalid_range", "Ask with first <= second.")
        if second > await self.size():
            raise ApiError(409, "beyond_log", "The log is not that large yet.")
        hashes = await range_hashes(self.redis, merkle.consistency_ranges(first, second))
        return ConsistencyProof(first=first, second=second, path=[h.hex() for h in hashes])


async def range_hashes(redis: Store, ranges: list[tuple[int, int]]) -> list[bytes]:
    """The hashes of ranges of leaves, from the stored perfect subtrees (one read)."""
    nodes = merkle.needed(ranges)
    found = await redis.hmget(NODES, [_field(n) for n in nodes]) if nodes else []  # type: ignore[misc]  # redis-py: Awaitable[T] | T
    known = dict(zip(nodes, found, strict=True))
    return [merkle.range_hash(a, b, known.__getitem__) for a, b in ranges]


class LogWriter:
    """Appends the batches of game heads and signs the tree heads (in `danger worker`)."""

    def __init__(
        self,
        store: EventStore,
        signer: Signer,
        clock: StoreClock,
        origin: str,
        every_seconds: float,
        checkpoint_seconds: float,
    ) -> None:
        self.store = store
        self.redis = store.redis
        self.signer = signer
        self.clock = clock
        self.origin = origin
        self.every_seconds = every_seconds
        self.checkpoint_ms = int(checkpoint_seconds * 1000)

    async def batch(self) -> TreeHead | None:
        """One batch, if no other writer holds the lease: the heads due, appended, and the
        tree head signed again if the tree grew (or none was signed). The new head, or None."""
        token = secrets.token_hex(8)
        lease_ms = int(self.every_seconds * 3000)
        if not await self.redis.set(WRITER, token, nx=True, px=lease_ms):
            return None
        try:
            return await self._batch(token, lease_ms)
        finally:
            await RELEASE(self.redis, [WRITER], [token])

    async def _batch(self, token: str, lease_ms: int) -> TreeHead | None:
        await self.clock.refresh()
        now_ms = int(self.clock.time() * 1000)
        due = await self.redis.zrangebyscore(
            PENDING, "-inf", now_ms - self.checkpoint_ms, start=0, num=BATCH
        )
        size = int(await self.redis.llen(LEAVES))  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        if due and not await self._append(size, [g.decode() for g in due]):
            return None  # another writer's tree: it signs its own
        size = int(await self.redis.llen(LEAVES))  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        raw = await self.redis.get(HEAD)
        if raw is not None and msgspec.json.decode(raw, type=TreeHead).size == size:
            return None
        # The lease renewed as the replicas confirm it: the replication stream is ordered, so
        # every leaf before it (a batch that failed before it signed left some) is on them.
        await self.store.write_kept(WRITER, "SET", WRITER, token, "PX", lease_ms)
        return await self._sign(size)

    async def _append(self, size: int, games: list[str]) -> bool:
        """The heads of `games` appended to the tree of `size` leaves; False if the tree was
        no longer of that size."""
        noted = await self.redis.hmget(HEADS, games)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        leaves: list[bytes] = []
        logged: list[Any] = []
        for game, raw in zip(games, noted, strict=True):
            if raw is None:  # logged meanwhile
                await self.redis.zrem(PENDING, game)
                continue
            seq, digest, final = raw.decode().split()
            leaves.append(leaf_of(game, int(seq), digest, final == "1"))
            logged += [game, seq]
        if not leaves:
            return True
        frontier = merkle.parts(0, size) if size else []
        found = await self.redis.hmget(NODES, [_field(n) for n in frontier]) if frontier else []  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        known = dict(zip(frontier, found, strict=True))
        made = merkle.appended(size, [merkle.leaf_hash(leaf) for leaf in leaves], known.__getitem__)
        pairs = [x for node, digest in made.items() for x in (_field(node), digest)]
        args = [size, len(leaves), *leaves, *logged, *pairs]
        keys = [LEAVES, NODES, GAMES, HEADS, PENDING]
        reply = await self.store.write_kept(LEAVES, "EVAL", APPEND.source, len(keys), *keys, *args)
        if int(reply) != -1:  # another writer appended: the next batch begins again
            log.warning("the log grew to %s leaves under this batch; not appended", reply)
            return False
        return True

    async def _sign(self, size: int) -> TreeHead:
        root = (await range_hashes(self.redis, [(0, size)]))[0].hex()
        head = signed_head(self.signer, self.origin, size, root, self.clock.stamp())
        await self.store.write_kept(HEAD, "SET", HEAD, msgspec.json.encode(head))
        return head

    async def run(self) -> None:
        """A batch every `every_seconds`, for as long as the process runs."""
        while True:
            started = time.monotonic()
            await self.batch()
            await asyncio.sleep(max(0.0, self.every_seconds - (time.monotonic() - started)))
