"""`danger projections rebuild`: every read model built again from the game streams, while
the service runs and answers from the live models.

The feeds are trimmed, so the rebuild reads what never is: each shard's game streams
(found with SCAN), and each model rebuilds itself from them with its own fold (its module's
`rebuild`). Readers never see a partial model:

- the lobby is built beside the live one (`dg:{lobby}:next:*`), and one script renames it
  onto the live keys. While it is built, a marker (`dg:{lobby}:rebuilding`) makes every
  live write go there too, with the same seq condition, so what the live consumers applied
  meanwhile is in what the rebuild switches to: a summary never goes back.
- the players' results are filed again, each once (a result never changes): what is filed
  already stays.
- each player's games are filed again, each entry at its version (the seq of the last event
  of its game that changed it), over the same version or an older one: a live consumer's
  later one stays (service/readmodels/player_games.py).
- a game's rounds hash is one key, read one at a time: the rebuild replaces each in one
  script, unless the live consumer has moved it past the seq the rebuild read (then the
  game is read again).
- the ratings are built beside the live ones (`dg:{r:<kind>}:next:*`) from every rated game
  found, applied in the order the games finished once every log is read, and renamed onto
  the live keys like the lobby; while the marker stands, no rated game is applied live (they
  wait in `pending`, and are applied after the switch unless the rebuild applied them).
- the transparency log is not rebuilt: each game's head is noted for it, and taken only if
  it is newer than what the log holds (a game that ended before the log existed).

The marker holds a token and lives `HOLD_MS` unless renewed: a second rebuild is refused
while one runs, and a rebuild that died leaves nothing behind for long. The consumer groups
are left alone: the live consumers go on as before.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from events import keys
from events.cluster import Store, gather_bounded
from events.envelope import Folded, read_folded
from events.store import EventStore
from service.infra.lua import Script
from service.readmodels import lobby, log_heads, player_games, ratings, records, rounds
from service.readmodels.runner import RebuildFailed, text

log = logging.getLogger("danger.rebuild")
HOLD_MS = 60_000  # a marker not renewed for this long is a rebuild that died
GAMES_PER_READ = 100  # whole logs read in one round trip

# KEYS: 1 the marker, then the keys to build. ARGV: 1 token, 2 ms the marker lives.
BEGIN = Script("""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for k = 2, #KEYS do redis.call('DEL', KEYS[k]) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
""")

# KEYS: 1 the marker. ARGV: 1 token, 2 ms the marker lives.
HOLD = Script("""
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
""")

# KEYS: 1 the marker, then the live keys, then the built ones in the same order. ARGV: 1 token.
# The built keys replace the live ones at once (a key built empty: the live one goes).
SWITCH = Script("""
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local half = (#KEYS - 1) / 2
for k = 2, 1 + half do
  if redis.call('EXISTS', KEYS[k + half]) == 1 then
    redis.call('RENAME', KEYS[k + half], KEYS[k])
  else
    redis.call('DEL', KEYS[k])
  end
end
redis.call('DEL', KEYS[1])
return 1
""")

# KEYS: 1 the marker, then the keys being built. ARGV: 1 token. Unless another rebuild holds
# the marker now, the keys built so far go.
ABANDON = Script("""
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
for k = 1, #KEYS do redis.call('DEL', KEYS[k]) end
return 1
""")


# KEYS: one game's rounds hash each. ARGV, per key: the seq it reflects, 1 to replace it
# whatever stands there, its number of pairs, the pairs. A hash is replaced whole, unless it
# reflects a later seq already. Returns per key 1 if replaced, else 0.
class RebuildRunning(Exception):
    """Another rebuild holds the markers (or one died less than HOLD_MS ago)."""


@dataclass(frozen=True)
class Built:
    """One hash tag's models: its marker, the live keys and the keys built beside them."""

    marker: str
    live: list[str]
    beside: list[str]


@dataclass
class Rebuilt:
    games: int = 0
    finished: int = 0
    per_shard: dict[str, int] = field(default_factory=dict)


def _models() -> list[Built]:
    return [
        Built(lobby.REBUILDING, lobby.LIVE_KEYS, lobby.NEXT_KEYS),
        *(Built(marker, live, beside) for marker, live, beside in ratings.rebuilt_models()),
    ]


class Rebuild:
    def __init__(self, redis: Store, store: EventStore, games_per_read: int = GAMES_PER_READ):
        self.redis = redis
        self.store = store
        self.games_per_read = games_per_read
        self.token = secrets.token_hex(16)
        self.models = _models()
        self.result = Rebuilt()
        self.ratings = ratings.Rebuilding()
        self._held_at = 0.0

    async def run(self) -> Rebuilt:
        begun: list[Built] = []
        try:
            began = await self._each(
                BEGIN, lambda m: ([m.marker, *m.beside], [self.token, HOLD_MS])
            )
            begun = [model for model, ok in zip(self.models, began, strict=True) if ok]
            if len(begun) < len(self.models):
                held = next(m for m, ok in zip(self.models, began, strict=True) if not ok)
                raise RebuildRunning(
                    "another rebuild is running (or one stopped less than "
                    f"{HOLD_MS // 1000} s ago): {held.marker} is set"
                )
            await self._games_of_every_shard()
            await self._hold()
            await self.ratings.build(self.redis)  # in the order the games finished
            switched = await self._each(
                SWITCH, lambda m: ([m.marker, *m.live, *m.beside], [self.token])
            )
            begun = [model for model, ok in zip(self.models, switched, strict=True) if not ok]
            if begun:
                raise RebuildFailed(f"{begun[0].marker} was lost before the switch")
        finally:
            if begun:  # what is left built beside goes; the live models stay
                await gather_bounded(
                    [
                        partial(ABANDON, self.redis, [m.marker, *m.beside], [self.token])
                        for m in begun
                    ]
                )
        await file_due(self.redis)
        return self.result

    async def _each(self, script: Script, call: Callable[[Built], tuple[list, list]]) -> list:
        """`script` on every model (one hash tag each), many at once: their replies in order."""
        return await gather_bounded([partial(script, self.redis, *call(m)) for m in self.models])

    async def _hold(self) -> None:
        """Renew the markers now and then, so a live rebuild is never taken for a dead one."""
        seconds, _ = await self.redis.time()
        if seconds - self._held_at < HOLD_MS / 4000:
            return
        self._held_at = seconds
        held = await self._each(HOLD, lambda m: ([m.marker], [self.token, HOLD_MS]))
        for model, ok in zip(self.models, held, strict=True):
            if not ok:
                raise RebuildFailed(f"{model.marker} expired while building (held too long?)")

    async def _games_of_every_shard(self) -> None:
        """Every game stream, found with one SCAN (over every node of a cluster), folded in
        batches of `games_per_read` games of any shards: each batch is read in one pipeline,
        and its writes go out per hash tag (the lobby's, each shard's) in as few round trips
        as the store allows."""
        seen: set[str] = set()  # SCAN may return a key twice
        batch: list[str] = []
        pattern = f"{keys.PREFIX}:{{*}}:game:*"
        async for name in self.redis.scan_iter(match=pattern, count=1000, _type="stream"):
            tagged, _, game_id = text(name).partition(":game:")
            shard = tagged[len(keys.PREFIX) + 2 : -1]
            if game_id in seen or keys.shard_of(game_id) != shard:
                continue
            seen.add(game_id)
            self.result.per_shard[shard] = self.result.per_shard.get(shard, 0) + 1
            batch.append(game_id)
            if len(batch) >= self.games_per_read:
                await self._games(batch)
                batch = []
        if batch:
            await self._games(batch)

    async def _read(self, game_ids: list[str]) -> dict[str, list[Folded]]:
        logs = await self.store.read_many_raw(dict.fromkeys(game_ids, (0, 2**62)))
        out = {}
        for game_id, raw in logs.items():
            try:
                out[game_id] = [read_folded(r) for r in raw]
            except Exception as exc:
                raise RebuildFailed(f"game {game_id}: its log cannot be read: {exc}") from exc
        return out

    async def _games(self, game_ids: list[str]) -> None:
        """One batch of games, each model's part of the rebuild in turn."""
        await self._hold()
        logs = {g: log for g, log in (await self._read(game_ids)).items() if log}
        await lobby.rebuild(self.redis, logs)
        self.result.finished += await records.rebuild(self.redis, logs)
        await self.ratings.collect(self.redis, logs)
        await player_games.rebuild(self.redis, logs)
        await rounds.rebuild(self.redis, logs, self._read)
        await log_heads.rebuild(self.redis, logs)
        self.result.games += len(logs)


async def rebuild(redis: Store, store: EventStore, games_per_read: int = GAMES_PER_READ) -> Rebuilt:
    """Build every read model again from the game streams and switch to them (see above)."""
    return await Rebuild(redis, store, games_per_read).run()


async def file_due(redis: Store) -> None:
    """Every game that is not over, filed in its shard's due set for the sweep to look at
    now (unless it is due sooner): a store written before the due sets existed, or one whose
    due sets were lost, gets its timers, bot moves and expiries back."""
    seconds, micros = await redis.time()
    at = seconds * 1000 + micros // 1000
    for status in ("open", "active"):
        game_ids = [text(g) for g in await redis.zrange(lobby.index(status, None), 0, -1)]
        for first in range(0, len(game_ids), 1000):
            pipe = redis.pipeline(transaction=False)
            for game_id in game_ids[first : first + 1000]:
                pipe.zadd(keys.GameKeys(game_id).due, {game_id: at}, lt=True)
            await pipe.execute()
