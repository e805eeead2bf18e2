"""Dead letters: feed entries a projection could not apply, set aside so it can move on.

An entry that still fails on its own after `DANGER_PROJECTION_ATTEMPTS` deliveries is
acknowledged and copied, with the error, to `dg:{sNN}:dead:<projection>` (a stream in its
feed's slot, so one script does both). `/health` counts them per projection and
`danger projections dead-letters` lists them; the read models they concern can be built
again from the game streams (`danger projections rebuild`) once the cause is fixed.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import msgspec

from events import keys
from events.cluster import Store, in_slices
from service.infra.lua import Script

KEEP = 10_000
"""Dead letters kept per shard and projection, the newest (the rest is in the log)."""

# KEYS: 1 the feed, 2 its dead letters. ARGV: 1 group, 2 entry id, 3 how many to keep, then
# the dead letter's field/value pairs. Returns 0 if the entry was acknowledged meanwhile (a
# consumer that claimed it applied it): then it is no dead letter.
ADD = Script("""
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local fields = {}
for i = 4, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', unpack(fields))
return 1
""")


def key(shard: str, group: str) -> str:
    return f"{keys.PREFIX}:{{{shard}}}:dead:{group}"


def _letters(group: str, pipe: Any, shard: str) -> Any:
    """Queue the read of one shard's dead letters of `group` on `pipe`."""
    return pipe.xrange(key(shard, group))


class DeadLetter(msgspec.Struct, frozen=True):
    projection: str
    shard: str
    id: str
    """The dead letter's own id (`danger projections dead-letters` lists them by it)."""
    entry: str
    """The feed entry's id."""
    fields: dict[str, str]
    """The feed entry as it was (`game`, `first`, `last`)."""
    error: str
    delivered: int


async def add(
    redis: Store,
    shard: str,
    group: str,
    entry_id: bytes | str,
    fields: dict[bytes, bytes] | None,
    error: str,
    delivered: int,
) -> bool:
    """Set a feed entry aside with its error, acknowledging it in the same script; False if it
    had been acknowledged meanwhile."""
    entry = _text(entry_id)
    copied = {_text(k): _text(v) for k, v in (fields or {}).items()}
    pairs: list[Any] = ["entry", entry, "fields", msgspec.json.encode(copied)]
    pairs += ["error", error[:2000], "delivered", delivered]
    return bool(
        await ADD(redis, [keys.feed(shard), key(shard, group)], [group, entry, KEEP, *pairs])
    )


async def counts(redis: Store, groups: list[str]) -> dict[str, int]:
    """Per projection: the dead letters kept, over every shard. Usually there are none: one
    EXISTS over every shard's keys says so (a cluster client splits it per slot)."""
    names = [key(shard, group) for group in groups for shard in keys.all_shards()]
    if not await redis.exists(*names):
        return dict.fromkeys(groups, 0)
    found = [key(shard, group) for group in groups for shard in keys.all_shards()]
    lengths = iter(await in_slices(redis, found, lambda pipe, name: pipe.xlen(name)))
    return {group: sum(next(lengths) for _ in keys.all_shards()) for group in groups}


async def listing(redis: Store, groups: list[str]) -> list[DeadLetter]:
    out = []
    for group in groups:
        shards = list(keys.all_shards())
        kept = await in_slices(redis, shards, partial(_letters, group))
        for shard, letters in zip(shards, kept, strict=True):
            for letter_id, raw in letters:
                fields = {_text(k): _text(v) for k, v in _pairs(raw)}
                out.append(
                    DeadLetter(
                        projection=group,
                        shard=shard,
                        id=_text(letter_id),
                        entry=fields.get("entry", ""),
                        fields=msgspec.json.decode(fields.get("fields", "{}")),
                        error=fields.get("error", ""),
                        delivered=int(fields.get("delivered", 0)),
                    )
                )
    return out


async def clear(redis: Store, groups: list[str]) -> int:
    """Drop every dead letter (after the cause is fixed and the models rebuilt); how many."""
    dropped = 0
    for group in groups:
        doomed = [key(shard, group) for shard in keys.all_shards()]
        pipe = redis.pipeline(transaction=False)
        for name in doomed:
            pipe.xlen(name)
        dropped += sum(await pipe.execute())
        for name in doomed:  # one by one: the shards' keys lie in different cluster slots
            await redis.delete(name)
    return dropped


def _pairs(raw: Any) -> Any:
    """An entry's fields, as redis-py parses them (a dict) or as the server sent them."""
    return raw.items() if isinstance(raw, dict) else zip(raw[::2], raw[1::2], strict=True)


def _text(value: bytes | str) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value
