"""The shard feeds are trimmed to what every consumer group has read and acknowledged, so
they stop growing; a rebuild reads the game streams, so it builds every game after that."""

from __future__ import annotations

import asyncio
import random

from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from events import keys
from events.feeds import trim
from events.store import EventStore
from service.assembly.app import create_app
from service.infra.config import Settings
from service.readmodels import lobby
from service.readmodels.projections import consumers
from service.readmodels.rebuild import rebuild
from service.readmodels.rounds import rounds_key
from service.readmodels.runner import FULL_UPKEEP_EVERY
from tests.players import new_table, play_to_end
from tests.projections import caught_up, read_models
from tests.stores import store_client, with_queue

FEEDS = [keys.feed(shard) for shard in keys.all_shards()]


async def test_trim_keeps_what_some_group_has_not_acknowledged(valkey):
    redis = await store_client(valkey.url)
    feed = "dg:{trim-test}:feed"
    await redis.delete(feed)
    ids = [await redis.xadd(feed, {"n": n}) for n in range(10)]
    far_future = 2**62

    await redis.xgroup_create(feed, "all-read", id="0")
    assert await trim(redis, feed, ["all-read", "behind"], far_future) == 0  # a group missing
    await redis.xgroup_create(feed, "behind", id="0")
    for entry_id, _ in (await redis.xreadgroup("all-read", "c", {feed: ">"}))[0][1]:
        await redis.xack(feed, "all-read", entry_id)
    delivered = (await redis.xreadgroup("behind", "c", {feed: ">"}, count=4))[0][1]
    await redis.xack(feed, "behind", delivered[0][0], delivered[1][0])  # the 3rd, 4th pending

    # Nothing younger than the keep bound goes, whatever the groups have read.
    assert await trim(redis, feed, ["all-read", "behind"], 0) == 0
    assert await trim(redis, feed, ["all-read", "behind"], far_future) == 2
    assert [e for e, _ in await redis.xrange(feed)] == ids[2:]
    # "behind" acknowledges what it was given: up to its last delivered goes.
    await redis.xack(feed, "behind", delivered[2][0], delivered[3][0])
    assert await trim(redis, feed, ["all-read", "behind"], far_future) == 2
    assert [e for e, _ in await redis.xrange(feed)] == ids[4:]
    await redis.delete(feed)
    await redis.aclose()


async def feed_lengths(redis: Redis) -> tuple[int, int]:
    """(entries the feeds hold now, entries ever added to them)."""
    pipe = redis.pipeline(transaction=False)
    for feed in FEEDS:
        pipe.xinfo_stream(feed)
    infos = await pipe.execute()
    return sum(i["length"] for i in infos), sum(i["entries-added"] for i in infos)


async def test_feeds_stop_growing_and_a_rebuild_after_trimming_builds_every_game(own_server):
    settings = Settings().replace(
        rate_limits=False,
        open_games_per_client=0,
        feed_keep_seconds=0,
        projection_upkeep_seconds=0.2,
    )
    redis = await store_client(own_server.url)

    async def trimmed(added_at_least: int) -> tuple[int, int]:
        deadline = asyncio.get_running_loop().time() + 10
        while True:
            held, added = await feed_lengths(redis)
            if held == 0 and added >= added_at_least:
                return held, added
            assert asyncio.get_running_loop().time() < deadline, (held, added)
            await asyncio.sleep(0.1)

    async with AsyncTestClient(
        app=create_app(with_queue(settings, own_server), own_server.url)
    ) as client:
        games = [await new_table(client, seats=2)]
        await play_to_end(games[0], choose=random.Random(1).choice)
        await caught_up(client)
        _, first = await trimmed(100)
        for n in range(2):
            games.append(await new_table(client, seats=3, game="high-voltage"))
            await play_to_end(games[-1], choose=random.Random(n).choice)
        games.append(await new_table(client, seats=2, start=False))
        await caught_up(client)
        _, second = await trimmed(first + 100)  # many more added, none held
        assert second > first
    live = await read_models(own_server.url)

    # The read models are lost; the feeds hold nothing of these games any more.
    await redis.delete(*lobby.LIVE_KEYS, *(rounds_key(t.id) for t in games))
    for key in [key async for key in redis.scan_iter(match="dg:{p:*}:results")]:
        await redis.delete(key)
    done = await rebuild(redis, EventStore(redis))
    assert done.games == len(games) and done.finished == 3
    assert await read_models(own_server.url) == live
    summaries = await lobby.summaries(redis, [t.id for t in games])
    assert [s.status for s in summaries.values() if s] == ["finished"] * 3 + ["open"]
    await redis.aclose()


async def test_the_upkeep_looks_at_the_feeds_in_use_and_now_and_then_at_every_one(own_server):
    """The feeds' upkeep (claim what dead consumers left, trim) costs what the feeds in use
    cost, not what 1,024 shards would: it looks at every feed only once in
    FULL_UPKEEP_EVERY."""
    redis = await store_client(own_server.url)
    projection = consumers(redis, EventStore(redis))[0]
    every = list(keys.all_shards())
    await projection._ensure_groups(FEEDS)
    in_use = sorted(random.sample(every, 3))
    for shard in in_use:
        await redis.xadd(keys.feed(shard), {"game": "g", "first": 1, "last": 1})

    assert projection._to_keep_up(every) == every  # nothing known yet
    await projection._upkeep(every)
    for _ in range(FULL_UPKEEP_EVERY - 2):
        assert projection._to_keep_up(every) == in_use
        await projection._upkeep(in_use)
    assert projection._to_keep_up(every) == every  # now and then, every feed again
    await redis.aclose()
