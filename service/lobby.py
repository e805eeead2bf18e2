"""The lobby's read model: a summary per game, and sorted sets that index them by status and
kind of game, newest first (service/projections.py keeps both up to date).

Every lobby key carries the hash tag `{lobby}`, so one script writes a summary and moves its
game between the indexes atomically, in Redis Cluster too; a page costs O(log n + page)
whatever the number of games.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

import msgspec
from redis.asyncio import Redis

from domain.registry import GAMES
from events.keys import PREFIX

from .lua import Script

STATUSES = ("open", "active", "finished", "abandoned")
TAG = f"{PREFIX}:{{lobby}}"
SUMMARIES = f"{TAG}:games"
"""game id -> its summary (JSON)."""
SEQS = f"{TAG}:seq"
"""game id -> the seq its summary reflects: a write for an older seq changes nothing."""


class LobbyGame(msgspec.Struct):
    id: str
    game: str
    status: Literal["open", "active", "finished", "abandoned"]
    seats: int
    players: list[str]
    created_at: str
    seq: int


decode_summary = msgspec.json.Decoder(LobbyGame).decode


def index(status: str | None, game: str | None) -> str:
    """The sorted set of the games of one status (None: any) and kind (None: any), scored
    by creation time in milliseconds."""
    return f"{TAG}:by:{status or 'all'}" + (f":{game}" if game else "")


INDEXES = [index(s, g) for s in (None, *STATUSES) for g in (None, *GAMES)]

# KEYS: 1 summaries, 2 seqs, then every index (INDEXES). ARGV: groups of six per game: id,
# seq, score, status, kind, summary. A game is filed under its status and kind, under its
# kind and under all, and taken out of the other statuses' indexes.
WRITE = Script(f"""
local declared = {{}}
for k = 3, #KEYS do declared[KEYS[k]] = true end
local function key(status, kind)
  local name = '{TAG}:by:' .. status
  if kind then name = name .. ':' .. kind end
  if not declared[name] then error('undeclared lobby index ' .. name) end
  return name
end
local statuses = {{{', '.join(repr(s) for s in STATUSES)}}}
local written = 0
for i = 1, #ARGV, 6 do
  local id, seq, score, status, kind = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4]
  local known = redis.call('HGET', KEYS[2], id)
  if not known or tonumber(known) < tonumber(seq) then
    redis.call('HSET', KEYS[1], id, ARGV[i + 5])
    redis.call('HSET', KEYS[2], id, seq)
    for _, other in ipairs(statuses) do
      if other ~= status then
        redis.call('ZREM', key(other), id)
        redis.call('ZREM', key(other, kind), id)
      end
    end
    for _, name in ipairs({{key('all'), key('all', kind), key(status), key(status, kind)}}) do
      redis.call('ZADD', name, score, id)
    end
    written = written + 1
  end
end
return written
""")

# KEYS: 1 the index, 2 summaries. ARGV: 1 limit, 2 offset, or with a cursor: 3 its score,
# 4 its id. Returns {total, summary...}: a page newest first, after the cursor if given.
PAGE = Script("""
local limit, offset = tonumber(ARGV[1]), tonumber(ARGV[2])
local total = redis.call('ZCARD', KEYS[1])
local ids
if ARGV[3] then
  -- Games created in the same millisecond are ordered by id, descending, as ZREVRANGE does:
  -- skip those at the cursor's score up to and including the cursor.
  local ties = redis.call('ZCOUNT', KEYS[1], ARGV[3], ARGV[3])
  local found = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[3], '-inf', 'WITHSCORES',
    'LIMIT', 0, limit + ties)
  ids = {}
  for i = 1, #found, 2 do
    local skip = tonumber(found[i + 1]) == tonumber(ARGV[3]) and found[i] >= ARGV[4]
    if not skip and #ids < limit then table.insert(ids, found[i]) end
  end
else
  ids = redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1)
end
local out = {total}
if #ids > 0 then
  for _, summary in ipairs(redis.call('HMGET', KEYS[2], unpack(ids))) do
    table.insert(out, summary)
  end
end
return out
""")


def score(created_at: str) -> int:
    """A game's place in the indexes: its creation time in milliseconds (RFC 3339 UTC)."""
    return int(datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp() * 1000)


def cursor_of(game: LobbyGame) -> str:
    """The cursor that continues a listing after this game: stable while games are created
    (they come before it), unlike an offset."""
    return f"{score(game.created_at)}.{game.id}"


CURSOR_PATTERN = r"^[0-9]{1,16}\.[A-Za-z0-9]{1,64}$"


def parse_cursor(cursor: str) -> tuple[int, str] | None:
    if re.fullmatch(CURSOR_PATTERN.strip("^$"), cursor) is None:
        return None
    at, _, game_id = cursor.partition(".")
    return int(at), game_id


async def write(redis: Redis, summaries: list[LobbyGame]) -> None:
    """File each summary under its indexes, unless a newer one is filed already."""
    if not summaries:
        return
    args: list[Any] = []
    for s in summaries:
        args += [s.id, s.seq, score(s.created_at), s.status, s.game, msgspec.json.encode(s)]
    await WRITE(redis, [SUMMARIES, SEQS, *INDEXES], args)


async def summaries(redis: Redis, game_ids: list[str]) -> dict[str, LobbyGame | None]:
    raws = await redis.hmget(SUMMARIES, game_ids) if game_ids else []
    return {g: decode_summary(raw) if raw else None for g, raw in zip(game_ids, raws, strict=True)}


async def list_games(
    redis: Redis,
    status: str | None,
    game: str | None,
    limit: int,
    offset: int = 0,
    cursor: tuple[int, str] | None = None,
) -> tuple[list[LobbyGame], int]:
    """A page of the lobby, newest first, and how many games the filter holds."""
    args: list[Any] = [limit, offset]
    if cursor is not None:
        args += [cursor[0], cursor[1]]
    total, *raws = await PAGE(redis, [index(status, game), SUMMARIES], args)
    return [decode_summary(raw) for raw in raws if raw], int(total)


async def drop(redis: Redis) -> None:
    """Every lobby key (a rebuild files every game again)."""
    await redis.delete(SUMMARIES, SEQS, *INDEXES)
