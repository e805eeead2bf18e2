"""The lobby's read model: a summary per game, and sorted sets that index them by status and
kind of game, newest first, kept up to date by its consumer (`LobbyProjection`, below).

Every lobby key carries the hash tag `{lobby}`, so one script writes a summary and moves its
game between the indexes atomically, in Redis Cluster too; a page costs O(log n + page)
whatever the number of games. A summary only moves forward: the script files it only over
an older one. A rebuild builds a whole lobby beside this one and renames it over it in one
script (service/readmodels/rebuild.py), so a reader sees the one or the other, never a part.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Literal

import msgspec

from domain.registry import GAMES
from events import keys
from events.cluster import Store
from events.envelope import Folded
from events.keys import PREFIX
from service.infra.lua import Script
from service.readmodels.runner import ACK, Projection, RebuildFailed, Updates, entry_ids, last_seqs

STATUSES = ("open", "active", "finished", "abandoned")
TAG = f"{PREFIX}:{{lobby}}"
SUMMARIES = f"{TAG}:games"
"""game id -> its summary (JSON)."""
SEQS = f"{TAG}:seq"
"""game id -> the seq its summary reflects: a write for an older seq changes nothing."""
NEXT = f"{TAG}:next"
"""Where a rebuild builds the lobby beside the live one (service/readmodels/rebuild.py), under the
same names after this prefix, until one script renames it onto the live keys."""
REBUILDING = f"{TAG}:rebuilding"
"""Set while a rebuild builds `NEXT`: every live write is made there too."""


class LobbyGame(msgspec.Struct):
    id: str
    game: str
    status: Literal["open", "active", "finished", "abandoned"]
    seats: int
    players: list[str]
    created_at: str
    seq: int
    private: bool = False  # kept, but in no index: the lobby does not show it
    seated: list[int] = msgspec.field(default_factory=list)
    """The seat of each of `players` (empty in a summary written before seats could be
    given up: then the players sit in order)."""


decode_summary = msgspec.json.Decoder(LobbyGame).decode


def index(status: str | None, game: str | None, prefix: str = TAG) -> str:
    """The sorted set of the games of one status (None: any) and kind (None: any), scored
    by creation time in milliseconds."""
    return f"{prefix}:by:{status or 'all'}" + (f":{game}" if game else "")


def model_keys(prefix: str = TAG) -> list[str]:
    """Every key of one lobby: the summaries, their seqs and the indexes."""
    indexes = [index(s, g, prefix) for s in (None, *STATUSES) for g in (None, *GAMES)]
    return [f"{prefix}:games", f"{prefix}:seq", *indexes]


INDEXES = model_keys()[2:]
LIVE_KEYS, NEXT_KEYS = model_keys(), model_keys(NEXT)

# KEYS: 1 the rebuild's marker (REBUILDING), then every key of the live lobby and of the one
# a rebuild builds. ARGV: 1 'live' or 'next' (the rebuild's own writes), then groups of seven
# per game: id, seq, score, status, kind, summary, listed ('1'; '0' for a private game, kept in
# no index). A game is filed under its status and kind, under its kind and under all, and taken
# out of the other statuses' indexes; unless the lobby holds it at the same seq or a newer one.
# A live write goes to the lobby a rebuild builds too, so the one it switches to holds
# whatever was written while it built.
WRITE = Script(f"""
local declared = {{}}
for k = 2, #KEYS do declared[KEYS[k]] = true end
local function key(name)
  if not declared[name] then error('undeclared lobby key ' .. name) end
  return name
end
local statuses = {{{", ".join(repr(s) for s in STATUSES)}}}
local function file(prefix, id, seq, score, status, kind, summary, listed)
  local seqs = key(prefix .. ':seq')
  local known = redis.call('HGET', seqs, id)
  if known and tonumber(known) >= tonumber(seq) then return 0 end
  redis.call('HSET', key(prefix .. ':games'), id, summary)
  redis.call('HSET', seqs, id, seq)
  local by = prefix .. ':by:'
  for _, other in ipairs(statuses) do
    if other ~= status or listed ~= '1' then
      redis.call('ZREM', key(by .. other), id)
      redis.call('ZREM', key(by .. other .. ':' .. kind), id)
    end
  end
  local filed = {{by .. 'all', by .. 'all:' .. kind, by .. status, by .. status .. ':' .. kind}}
  if listed ~= '1' then return 1 end  -- a private game: kept, in no index
  for _, name in ipairs(filed) do redis.call('ZADD', key(name), score, id) end
  return 1
end
local prefixes = {{'{NEXT}'}}
if ARGV[1] == 'live' then
  prefixes = {{'{TAG}'}}
  if redis.call('EXISTS', KEYS[1]) == 1 then prefixes[2] = '{NEXT}' end
end
local written = 0
for i = 2, #ARGV, 7 do
  for p, prefix in ipairs(prefixes) do
    local n = file(prefix, ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4],
      ARGV[i + 5], ARGV[i + 6])
    if p == 1 then written = written + n end
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


async def write(redis: Store, summaries: list[LobbyGame], rebuilding: bool = False) -> int:
    """File each summary under its indexes, unless one as new is filed already (and in the
    lobby a rebuild is building, while one runs); with `rebuilding`, there alone. How many
    were filed."""
    if not summaries:
        return 0
    args: list[Any] = ["next" if rebuilding else "live"]
    for s in summaries:
        summary = msgspec.json.encode(s)
        args += [s.id, s.seq, score(s.created_at), s.status, s.game, summary, int(not s.private)]
    return int(await WRITE(redis, [REBUILDING, *LIVE_KEYS, *NEXT_KEYS], args))


async def summaries(redis: Store, game_ids: list[str]) -> dict[str, LobbyGame | None]:
    raws = await redis.hmget(SUMMARIES, game_ids) if game_ids else []  # type: ignore[misc]  # redis-py: Awaitable[T] | T
    return {g: decode_summary(raw) if raw else None for g, raw in zip(game_ids, raws, strict=True)}


async def list_games(
    redis: Store,
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


# Its fold, shared by the consumer (from the model's last seq) and the rebuild (from zero) --

FINAL = {name: rules.final_event.__struct_config__.tag for name, rules in GAMES.items()}


def fold_summary(
    game_id: str, summary: LobbyGame | None, envelopes: list[Folded]
) -> LobbyGame | None:
    """A game's lobby summary, `summary` (None: none yet) moved on by the events."""
    for envelope in envelopes:
        if envelope.type == "game_created":
            data = msgspec.json.decode(envelope.data)
            summary = LobbyGame(
                id=game_id,
                game=data["game"],
                status="open",
                seats=data["seats"],
                players=[],
                created_at=envelope.at,
                seq=envelope.seq,
                private=bool(data.get("private")),
            )
            continue
        if summary is None:
            raise ValueError(f"game {game_id}: event {envelope.seq} comes before its creation")
        if envelope.type in ("player_joined", "seat_left"):
            _seat(summary, msgspec.json.decode(envelope.data))
        elif envelope.type == "game_started":
            summary.status = "active"
        elif envelope.type == FINAL[summary.game]:
            summary.status = "finished"
        elif envelope.type == "game_abandoned":
            summary.status = "abandoned"
        summary.seq = envelope.seq
    return summary


def _seat(summary: LobbyGame, data: dict[str, Any]) -> None:
    """A seat taken (a name given) or given up: the players listed by seat."""
    seated = summary.seated or list(range(len(summary.players)))
    pairs = [(s, n) for s, n in zip(seated, summary.players, strict=True) if s != data["seat"]]
    if "name" in data:
        pairs = sorted([*pairs, (data["seat"], data["name"])])
    summary.seated, summary.players = [s for s, _ in pairs], [n for _, n in pairs]


class LobbyProjection(Projection):
    group = "lobby"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = last_seqs(batches)
        known = await summaries(self.redis, list(last))
        behind = {
            g: (summary.seq if summary else 0, last[g])
            for g, summary in known.items()
            if summary is None or summary.seq < last[g]
        }
        changed = []
        for game_id, envelopes in (await self.read_many(behind)).items():
            summary = fold_summary(game_id, known[game_id], envelopes)
            if summary is not None:
                changed.append(summary)
        await self.commit(batches, changed)

    async def commit(self, batches: dict[str, Updates], changed: list[LobbyGame]) -> None:
        # The summaries first, then the acknowledgements: an entry redelivered after a crash
        # between the two finds its summary written and changes nothing.
        await write(self.redis, changed)
        await self.kept()
        await self.eval_all(
            ACK, [([keys.feed(shard)], [self.group, *entry_ids(u)]) for shard, u in batches.items()]
        )


async def rebuild(redis: Store, logs: dict[str, list[Folded]]) -> None:
    """A batch of whole logs folded from zero into the lobby a rebuild builds beside the
    live one (service/readmodels/rebuild.py switches to it)."""
    built = []
    for game_id, envelopes in logs.items():
        try:
            summary = fold_summary(game_id, None, envelopes)
        except Exception as exc:
            raise RebuildFailed(f"game {game_id}: {type(exc).__name__}: {exc}") from exc
        if summary is not None:
            built.append(summary)
    await write(redis, built, rebuilding=True)
