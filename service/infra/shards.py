"""The number of shards is the store's: a game's keys are named by its shard, so a process
that counted shards differently would look for every game in the wrong place.

The first process to start on an empty store records its number (`DANGER_SHARDS`, else
1,024) under `dg:shards`; every process after reads it and uses it, and one configured with
another number refuses to start. A store written before the number was recorded used 16
shards: it is recorded as such."""

from __future__ import annotations

from events import keys
from service.infra import config
from service.infra.connections import Store

(SETTING,) = config.variable(config.Store, "shards")
LEGACY = 16  # the number before it was recorded


class ShardsRefused(Exception):
    """The process counts shards differently from the store."""


async def establish(redis: Store, wanted: int | None) -> int:
    """The store's number of shards, recorded now if it has none; this process uses it from
    here on (`keys.use_shards`). Refused if `wanted` is another number."""
    recorded = await redis.get(keys.SHARDS_KEY)
    if recorded is None:
        legacy = [keys.feed(keys.shard_name(i)) for i in range(LEGACY)]
        pipe = redis.pipeline(transaction=False)
        for name in legacy:
            pipe.exists(name)
        written = any(await pipe.execute())
        first = LEGACY if written else (wanted or keys.DEFAULT_SHARDS)
        await redis.set(keys.SHARDS_KEY, first, nx=True)
        recorded = await redis.get(keys.SHARDS_KEY)
    count = int(recorded)
    if wanted is not None and wanted != count:
        raise ShardsRefused(
            f"the store spreads its games over {count} shards ({keys.SHARDS_KEY}); this process "
            f"is configured with {SETTING}={wanted}: unset it or set it to {count}"
        )
    keys.use_shards(count)
    return count
