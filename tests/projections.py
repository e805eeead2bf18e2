"""Helpers for tests of the read models: wait for the projections, read every model."""

from __future__ import annotations

import asyncio
from typing import Any

from domain.registry import GAMES
from events import keys
from service.readmodels import lobby, ratings
from tests.stores import store_client


async def caught_up(client: Any, timeout: float = 15) -> dict:
    """/health once every projection has applied every feed entry (found afresh: the
    snapshot may be older than the writes waited for)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        health = (await client.get("/health", params={"fresh": "true"})).json()
        if all(p["entries"] == 0 for p in health["projections"].values()):
            return health
        assert asyncio.get_running_loop().time() < deadline, health
        await asyncio.sleep(0.1)


async def read_models(url: str) -> dict:
    """Every read model's keys and contents: the lobby, the rounds, the players' results
    and their lists of games (not the consumer's notes of the games, `listed`), the
    ratings."""
    redis = await store_client(url)
    models: dict[str, Any] = {}
    models[lobby.SUMMARIES] = await redis.hgetall(lobby.SUMMARIES)
    for key in lobby.INDEXES:
        models[key] = await redis.zrange(key, 0, -1, withscores=True)
    async for key in redis.scan_iter(match="dg:{p:*}:results"):
        models[key] = await redis.hgetall(key)
    async for key in redis.scan_iter(match="dg:{p:*}:games*"):
        kind = await redis.type(key)
        if kind == b"hash":
            models[key] = await redis.hgetall(key)
        else:
            models[key] = await redis.zrange(key, 0, -1, withscores=True)
    async for key in redis.scan_iter(match=f"{keys.PREFIX}:{{*}}:rounds:*"):
        models[key] = await redis.hgetall(key)
    for kind in GAMES:  # the ratings: each kind's players, board, history and games applied
        models[ratings.key(kind, "players")] = await redis.hgetall(ratings.key(kind, "players"))
        models[ratings.key(kind, "history")] = await redis.hgetall(ratings.key(kind, "history"))
        models[ratings.key(kind, "applied")] = await redis.smembers(ratings.key(kind, "applied"))
        board = ratings.key(kind, "board")
        models[board] = await redis.zrange(board, 0, -1, withscores=True)
    await redis.aclose()
    return models
