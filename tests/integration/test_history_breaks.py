"""A store that lost acknowledged events: a process that had folded them serves the store's
history from then on, never its own stale fold, never a fork of the chain, never a 500, and
says so in /health."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

from events.envelope import first_break
from events.keys import GameKeys
from events.store import EventStore
from tests.conftest import make_app, on_socket
from tests.players import Table, new_table
from tests.stores import fields_of, store_client


@contextlib.asynccontextmanager
async def two_processes(valkey) -> AsyncIterator[tuple[AsyncTestClient, AsyncTestClient]]:
    apps = [make_app(valkey, background=False, queue="dg:timers:nobody") for _ in range(2)]
    async with AsyncTestClient(app=apps[0]) as a, AsyncTestClient(app=apps[1]) as b:
        yield a, b


async def lose_last(valkey, game_id: str, count: int) -> None:
    """What a store restarted without its last writes on disk holds: the log without its
    last `count` events."""
    redis = await store_client(valkey.url)
    stream = GameKeys(game_id).stream
    kept = (await redis.xrange(stream))[:-count]
    # Written again rather than trimmed: a stream remembers its last id past a deletion.
    pipe = redis.pipeline(transaction=True)
    pipe.delete(stream)
    for entry_id, fields in kept:
        pipe.xadd(stream, fields_of(fields), id=entry_id)
    await pipe.execute()
    await redis.aclose()


async def next_move(table: Table) -> tuple[int, dict[str, Any]]:
    """A seat that may act now, and its first legal command (as this table's client sees)."""
    for seat in range(len(table.tokens)):
        legal = (await table.state(seat))["legal"]
        if legal:
            return seat, legal[0]
    raise AssertionError("nobody may act")


async def stored(valkey, game_id: str) -> list:
    redis = await store_client(valkey.url)
    envelopes = await EventStore(redis).read(game_id)
    await redis.aclose()
    return envelopes


async def history_breaks(client: AsyncTestClient) -> int:
    return (await client.get("/health")).json()["history_breaks"]


async def test_a_fold_ahead_of_the_store_is_dropped_for_the_stores_history(valkey):
    async with two_processes(valkey) as (a, b):
        table = await new_table(a, seats=2)
        seat, move = await next_move(table)
        r = await table.send(seat, move)
        assert r.status_code == 200
        acknowledged, lost = r.json()["seq"], len(r.json()["events"])
        await lose_last(valkey, table.id, lost)

        # The process that folded the lost events shows what the store holds, as any other.
        for client in (a, b):
            game = await Table(client, table.id, table.admin, table.tokens).state()
            assert game["seq"] == acknowledged - lost
        assert await history_breaks(a) == 1 and await history_breaks(b) == 0
        # ... and plays on from it.
        seat, move = await next_move(table)
        assert (await table.send(seat, move)).status_code == 200
    assert first_break(await stored(valkey, table.id)) is None


async def test_an_append_on_a_history_the_store_no_longer_holds_is_refused_and_redone(valkey):
    async with two_processes(valkey) as (a, b):
        table = await new_table(a, seats=2)
        seat, move = await next_move(table)
        r = await table.send(seat, move)
        acknowledged, lost = r.json()["seq"], len(r.json()["events"])
        await lose_last(valkey, table.id, lost)
        # Another process plays the same move again: the log is as long as before, with
        # other events (other times, other hashes) at its end.
        other = Table(b, table.id, table.admin, table.tokens)
        r = await other.send(seat, move)
        assert r.status_code == 200 and r.json()["seq"] == acknowledged

        # The first process decides its next command on its own fold, whose head the store
        # no longer holds: the append is refused, the game folded again, the command decided
        # again on the store's history.
        seat, move = await next_move(other)
        r = await table.send(seat, move)
        assert r.status_code == 200, r.text
        assert await history_breaks(a) == 1
    envelopes = await stored(valkey, table.id)
    assert first_break(envelopes) is None
    assert envelopes[-1].seq == r.json()["seq"]


async def test_a_game_the_store_lost_whole_is_a_503_not_a_stale_answer(valkey):
    async with two_processes(valkey) as (a, _):
        table = await new_table(a, seats=2)
        redis = await store_client(valkey.url)
        await redis.delete(GameKeys(table.id).stream)
        await redis.aclose()
        r = await a.get(f"/v1/games/{table.id}")
        assert r.status_code == 503 and r.json()["code"] == "history_lost"
        assert await history_breaks(a) == 1


async def test_reads_racing_commands_in_one_process_see_no_break(valkey):
    """A read catches up while a command of the same process folds its own events: the
    store's history continues the fold as it was when the read began."""
    app = make_app(valkey, background=False, queue="dg:timers:nobody")
    async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as http:
        table = await new_table(http, seats=2)
        done = asyncio.Event()

        async def reader() -> None:
            while not done.is_set():
                assert (await http.get(f"/v1/games/{table.id}")).status_code == 200

        readers = [asyncio.create_task(reader()) for _ in range(4)]
        for _ in range(60):
            seat, move = await next_move(table)
            assert (await table.send(seat, move)).status_code == 200
        done.set()
        await asyncio.gather(*readers)
        assert (await http.get("/health")).json()["history_breaks"] == 0
