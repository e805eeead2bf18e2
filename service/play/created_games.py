"""Which games each client created: its newest, so that a client that lost a game's admin
token (a crashed client, a test run) can list its games (`GET /v1/games?mine=true`) and
abandon those that have not started.

A client is named as the rate limits and the open-games cap name it: its app key, else its
address (service/http/guards/clients.py). The record is kept beside the games, not in their
logs: who created a game is no reader's business, and an address is not the log's to keep.
One sorted set per client, scored by creation time in milliseconds, trimmed to its newest
`kept` games and dropped a week after the client's last create.
"""

from __future__ import annotations

from typing import Any

from service.infra.lua import Script

TTL_MS = 7 * 24 * 3600 * 1000

# KEYS: 1 the client's set. ARGV: 1 the game's score, 2 its id, 3 how many are kept, 4 the TTL.
RECORD = Script("""
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if over > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
""")


def key(client: str) -> str:
    return f"dg:created:{client}"


async def record(redis: Any, client: str, game_id: str, at_ms: int, kept: int) -> None:
    """`client` created `game_id` at `at_ms`; only its newest `kept` games stay."""
    await RECORD(redis, [key(client)], [at_ms, game_id, kept, TTL_MS])


async def listing(redis: Any, client: str) -> list[tuple[str, int]]:
    """The games `client` created, as (id, creation time in ms), newest first."""
    found = await redis.zrevrange(key(client), 0, -1, withscores=True)
    return [(_text(member), int(score)) for member, score in found]


async def created(redis: Any, client: str, game_id: str) -> bool:
    return await redis.zscore(key(client), game_id) is not None


def _text(member: bytes | str) -> str:
    return member.decode() if isinstance(member, bytes) else member
