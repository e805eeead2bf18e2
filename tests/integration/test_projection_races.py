"""A read model only moves forward: a write for seq n never replaces a model at a later seq,
whichever consumer makes it and however late it lands."""

from __future__ import annotations

import asyncio
import random

import httpx
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from events import keys
from events.envelope import read_folded
from events.store import EventStore
from service.assembly.app import create_app
from service.infra.config import Settings
from service.readmodels import lobby
from service.readmodels.lobby import LobbyProjection
from service.readmodels.projections import PROJECTIONS, lag
from service.readmodels.rebuild import rebuild
from service.readmodels.rounds import RoundsProjection, fold_rounds, round_fields, rounds_key
from service.readmodels.runner import by_game
from tests.conftest import on_socket
from tests.players import new_table, play_to_end
from tests.projections import read_models
from tests.stores import fields_of, store_client, with_queue

QUIET = Settings().replace(background=False, rate_limits=False, open_games_per_client=0)


def held(cls):
    """The projection, with its write held until the test lets it go: a consumer that read
    the model, folded, and stalls before its script runs."""

    class Held(cls):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.reached, self.go = asyncio.Event(), asyncio.Event()

        async def commit(self, batches, models) -> None:
            self.reached.set()
            await self.go.wait()
            await super().commit(batches, models)

    return Held


async def feed_entries(redis: Redis, game_id: str) -> list:
    entries = await redis.xrange(keys.GameKeys(game_id).feed)
    parsed = [(entry_id, fields_of(fields)) for entry_id, fields in entries]
    return [e for e in parsed if e[1][b"game"].decode() == game_id]


async def test_an_old_write_applied_after_a_newer_one_leaves_the_newer(own_server):
    """Consumer A reads a finished game's first feed entry (seq 1, open) and stalls; B applies
    the whole game; then A's write lands. The lobby still says finished at the last seq, the
    game is filed under finished only, and its round index is the whole game's."""
    async with AsyncTestClient(
        app=create_app(with_queue(QUIET, own_server), own_server.url)
    ) as client:
        table = await new_table(client, seats=2)
        await play_to_end(table, choose=random.Random(5).choice)
    redis = await store_client(own_server.url)
    store = EventStore(redis)
    shard = keys.shard_of(table.id)
    entries = await feed_entries(redis, table.id)
    assert len(entries) > 3
    last = await redis.xlen(keys.GameKeys(table.id).stream)

    for cls in (LobbyProjection, RoundsProjection):
        slow, fast = held(cls)(redis, store), cls(redis, store)
        stalled = asyncio.create_task(slow.apply({shard: by_game(entries[:1])}))
        await slow.reached.wait()  # A has read the model and folded event 1
        await fast.apply({shard: by_game(entries)})
        slow.go.set()
        await stalled  # A's write for seq 1 lands last

    summary = (await lobby.summaries(redis, [table.id]))[table.id]
    assert summary is not None and (summary.status, summary.seq) == ("finished", last)
    for status in lobby.STATUSES:
        filed = await redis.zscore(lobby.index(status, None), table.id)
        assert (filed is not None) == (status == "finished"), status

    log = [read_folded(raw) for raw in await store.read_raw(table.id)]
    changed, current = fold_rounds(None, log)
    whole = round_fields(changed, current, last)
    stored = await redis.hgetall(rounds_key(table.id))
    assert {k.decode(): v for k, v in stored.items()} == whole
    assert len(changed) >= 2  # the game has rounds to lose
    await redis.aclose()


def jittered(cls, rng: random.Random):
    """The projection, each write delayed by up to 20 ms: consumers' writes land in any order."""

    async def commit(self, batches, models) -> None:
        await asyncio.sleep(rng.random() * 0.02)
        await cls.commit(self, batches, models)

    return type(f"Jittered{cls.__name__}", (cls,), {"commit": commit})


async def test_three_consumers_of_each_projection_racing_leave_the_newest_models(own_server):
    """Three consumers of each projection in one group, their writes delayed at random, while
    games are played: once they have applied everything, every model is what a rebuild from
    the streams makes, and every lobby summary is at its game's last seq."""
    redis = await store_client(own_server.url)
    store = EventStore(redis)
    rng = random.Random(13)
    racing = []
    for n in range(3):
        for cls in PROJECTIONS:
            consumer = jittered(cls, rng)(redis, store)
            consumer.consumer = f"racer-{n}"
            racing.append(asyncio.create_task(consumer.run()))
    app = create_app(with_queue(QUIET, own_server), own_server.url)
    async with on_socket(app) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
        tables = [await new_table(client, seats=2, game=g) for g in ("danger", "high-voltage")]
        tables.append(await new_table(client, seats=3, start=False))
        await asyncio.gather(
            *(play_to_end(t, choose=random.Random(i).choice) for i, t in enumerate(tables[:2]))
        )
    deadline = asyncio.get_running_loop().time() + 30
    while any(v["entries"] for v in (await lag(redis)).values()):
        assert asyncio.get_running_loop().time() < deadline, await lag(redis)
        await asyncio.sleep(0.1)
    for task in racing:
        task.cancel()
    await asyncio.gather(*racing, return_exceptions=True)

    summaries = await lobby.summaries(redis, [t.id for t in tables])
    for table in tables:
        summary = summaries[table.id]
        assert summary is not None
        assert summary.seq == await redis.xlen(keys.GameKeys(table.id).stream)
    live = await read_models(own_server.url)
    await rebuild(redis, store)
    assert await read_models(own_server.url) == live
    await redis.aclose()
