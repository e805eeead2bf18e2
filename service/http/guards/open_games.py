"""A cap on the open games (created, not yet started) each client holds, kept in Valkey so it
holds across API processes. A game leaves the count once it is no longer open (started,
finished, abandoned): checked lazily, only when a client reaches the cap, so the cost is at
most one game read per held place, and the cap is small."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from service.http.guards.clients import Clients
from service.infra.errors import ApiError
from service.infra.lua import Script
from service.play.games import GameService

CLAIM = Script.named("service.http.guards", "open_games.lua")
# KEYS: 1 the client's set. ARGV: 1 the claim, 2 the game that takes its place, 3 its score.
# The claim becomes the game at once (one key: a script, which a cluster takes as well).
KEEP = Script("""
redis.call('ZREM', KEYS[1], ARGV[1])
return redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
""")
PENDING = "pending:"
# A claim outlives its request only when the process died in between; past this it is void.
PENDING_MS = 60_000
# The set of a client who creates nothing more vanishes; its games have long ended by then.
TTL_MS = 7 * 24 * 3600 * 1000


def key(client: str) -> str:
    return f"dg:open:{client}"


async def held(redis: Any, client: str) -> list[tuple[str, int]]:
    """The games the client's places are held by (claims aside), as (id, claimed at in ms):
    the games it created that were open when last looked at."""
    found = await redis.zrange(key(client), 0, -1, withscores=True)
    games = [(m.decode() if isinstance(m, bytes) else str(m), int(at)) for m, at in found]
    return [(game_id, at) for game_id, at in games if not game_id.startswith(PENDING)]


class Place:
    """A place claimed for a game being created; `keep(game_id)` once it exists."""

    def __init__(self) -> None:
        self.claim = PENDING + secrets.token_hex(8)
        self.game_id: str | None = None
        self.at = 0  # the server's time of the claim, in ms

    def keep(self, game_id: str) -> None:
        self.game_id = game_id


class OpenGames:
    def __init__(self, cap: int, clients: Clients) -> None:
        self.cap = cap
        self.clients = clients

    @asynccontextmanager
    async def place(self, redis: Any, scope: Any, service: GameService) -> AsyncIterator[Place]:
        """Claims a place for one more open game of the request's client, or refuses with 409
        `too_many_open_games`; the place is the game's if `keep` was called, else given back."""
        place = Place()
        if self.cap <= 0:
            yield place
            return
        client_key = key(self.clients.of(scope))
        await self._claim(redis, client_key, place, service)
        try:
            yield place
        finally:
            if place.game_id is None:
                await redis.zrem(client_key, place.claim)
            else:
                await KEEP(redis, [client_key], [place.claim, place.game_id, place.at])

    async def _claim(self, redis: Any, client_key: str, place: Place, service: GameService) -> None:
        for attempt in range(2):
            claimed, now, *held = await CLAIM(redis, [client_key], [self.cap, place.claim, TTL_MS])
            if claimed:
                place.at = int(now)
                return
            if attempt or not await self._release_ended(redis, client_key, int(now), held, service):
                break
        raise ApiError(
            409,
            "too_many_open_games",
            f"This client already holds {self.cap} open games (created, not started); "
            "start one, or wait until one ends, before creating another.",
        )

    async def _release_ended(
        self, redis: Any, client_key: str, now: int, held: list[Any], service: GameService
    ) -> bool:
        """Drops from the count what no longer holds a place: games that are not open any
        more, void claims. True if anything was dropped."""
        gone = []
        for member, score in zip(held[::2], held[1::2], strict=True):
            name = member.decode() if isinstance(member, bytes) else str(member)
            if name.startswith(PENDING):
                if now - float(score) > PENDING_MS:
                    gone.append(name)
                continue
            try:
                game = await service.get(name)
            except ApiError:  # an unknown game (its keys were deleted) holds nothing
                gone.append(name)
                continue
            if game.table.status != "open":
                gone.append(name)
        if gone:
            await redis.zrem(client_key, *gone)
        return bool(gone)
