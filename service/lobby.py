"""The lobby: a projection of every game's table events, fed by the shard feeds.

Each shard's feed is read by the consumer group `lobby`. A game's summary carries the seq it
reflects and is written together with the XACK of the feed entry by one script, which skips
a summary that is not newer: a redelivered or claimed entry changes nothing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Literal

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from domain.registry import GAMES
from events import keys
from events.store import EventStore

log = logging.getLogger("danger.lobby")
GROUP = "lobby"
CLAIM_IDLE_MS = 30_000

APPLY_LUA = """
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if (not cur) or cjson.decode(cur).seq < tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
redis.call('XACK', KEYS[2], ARGV[4], ARGV[5])
return 1
"""


class LobbyGame(msgspec.Struct):
    id: str
    game: str
    status: Literal["open", "active", "finished"]
    seats: int
    players: list[str]
    created_at: str
    seq: int


_decode_summary = msgspec.json.Decoder(LobbyGame).decode


class LobbyProjection:
    def __init__(self, redis: Redis, store: EventStore) -> None:
        self.redis = redis
        self.store = store
        self.consumer = f"{socket.gethostname()}-{os.getpid()}"
        self._apply = redis.register_script(APPLY_LUA)
        self._final = {
            name: rules.final_event.__struct_config__.tag for name, rules in GAMES.items()
        }

    async def run(self) -> None:
        await asyncio.gather(*(self._run_shard(s) for s in keys.all_shards()))

    async def _run_shard(self, shard: str) -> None:
        feed = keys.feed(shard)
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(feed, GROUP, id="0", mkstream=True)
        cursor = "0"  # first what this consumer left pending, then new entries
        idle_rounds = 0
        while True:
            try:
                block = 1000 if cursor == ">" else None
                reply = await self.redis.xreadgroup(
                    GROUP, self.consumer, {feed: cursor}, count=200, block=block
                )
                entries = reply[0][1] if reply else []
                if cursor == "0" and not entries:
                    cursor = ">"
                for entry_id, fields in entries:
                    await self._apply_entry(shard, entry_id, fields)
                idle_rounds = idle_rounds + 1 if not entries else 0
                if idle_rounds % 30 == 29:
                    await self._claim_stale(shard)
            except asyncio.CancelledError:
                raise
            except Exception:  # keep the projection alive; the entry stays pending
                log.exception("lobby projection failed on shard %s", shard)
                await asyncio.sleep(1)

    async def _claim_stale(self, shard: str) -> None:
        """Entries a dead consumer left pending are taken over and applied (idempotently)."""
        feed = keys.feed(shard)
        _, entries, *_ = await self.redis.xautoclaim(
            feed, GROUP, self.consumer, CLAIM_IDLE_MS, start_id="0-0", count=100
        )
        for entry_id, fields in entries:
            await self._apply_entry(shard, entry_id, fields)

    async def _apply_entry(self, shard: str, entry_id: bytes, fields: dict[bytes, bytes]) -> None:
        game_id = fields[b"game"].decode()
        last = int(fields[b"last"])
        raw = await self.redis.hget(keys.lobby(shard), game_id)
        summary = _decode_summary(raw) if raw else None
        if summary is None or summary.seq < last:
            summary = await self._advance(game_id, summary, last)
        await self._apply(
            keys=[keys.lobby(shard), keys.feed(shard)],
            args=[game_id, summary.seq, msgspec.json.encode(summary), GROUP, entry_id],
        )

    async def _advance(self, game_id: str, summary: LobbyGame | None, upto: int) -> LobbyGame:
        after = summary.seq if summary else 0
        for envelope in await self.store.read(game_id, after=after, upto=upto):
            data = envelope.data
            if envelope.type == "game_created":
                summary = LobbyGame(
                    id=game_id,
                    game=data["game"],
                    status="open",
                    seats=data["seats"],
                    players=[],
                    created_at=envelope.at,
                    seq=envelope.seq,
                )
                continue
            assert summary is not None
            if envelope.type == "player_joined":
                summary.players.append(data["name"])
            elif envelope.type == "game_started":
                summary.status = "active"
            elif envelope.type == self._final[summary.game]:
                summary.status = "finished"
            summary.seq = envelope.seq
        assert summary is not None
        return summary


async def list_games(
    redis: Redis, status: str | None, game: str | None, limit: int, offset: int
) -> tuple[list[LobbyGame], int]:
    """The lobby, newest first, filtered and paginated."""
    found: list[LobbyGame] = []
    for shard in keys.all_shards():
        for raw in (await redis.hgetall(keys.lobby(shard))).values():
            entry = _decode_summary(raw)
            if (status is None or entry.status == status) and (game is None or entry.game == game):
                found.append(entry)
    found.sort(key=lambda g: (g.created_at, g.id), reverse=True)
    return found[offset : offset + limit], len(found)
