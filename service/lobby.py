"""The lobby's read model: one summary per game in its shard's hash (service/projections.py
keeps it up to date)."""

from __future__ import annotations

from typing import Literal

import msgspec
from redis.asyncio import Redis

from events import keys


class LobbyGame(msgspec.Struct):
    id: str
    game: str
    status: Literal["open", "active", "finished", "abandoned"]
    seats: int
    players: list[str]
    created_at: str
    seq: int


decode_summary = msgspec.json.Decoder(LobbyGame).decode


async def list_games(
    redis: Redis, status: str | None, game: str | None, limit: int, offset: int
) -> tuple[list[LobbyGame], int]:
    """The lobby, newest first, filtered and paginated."""
    found: list[LobbyGame] = []
    for shard in keys.all_shards():
        for raw in (await redis.hgetall(keys.lobby(shard))).values():
            entry = decode_summary(raw)
            if (status is None or entry.status == status) and (game is None or entry.game == game):
                found.append(entry)
    found.sort(key=lambda g: (g.created_at, g.id), reverse=True)
    return found[offset : offset + limit], len(found)
