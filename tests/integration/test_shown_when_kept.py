"""Nothing a failover could take back is shown: with appends waiting for a replica
(DANGER_DURABILITY=replicas:1), an append the replica has not confirmed (answered 503
`not_replicated`) is in no stream and no read model until the replica confirms it.

- A projection's feed entry whose event, or the read model written for it, the replica has
  not confirmed stays pending, and the lobby goes on showing what was kept; once the
  replica answers again, the entry is applied and acknowledged. (The fault suite found a
  lobby listing finished games as active: a model written on a master that a partition
  then failed over, its entries acknowledged on another.)
- A stream shows such events once the replica confirms them, never before. (The fault suite
  found streams showing events a failover then took back: their readers went on from a
  history the log does not hold.)"""

from __future__ import annotations

import asyncio

import httpx
import msgspec
from litestar.testing import AsyncTestClient

from service.infra.durability import Durability
from service.readmodels import lobby
from tests.conftest import make_app, on_socket, wait_for
from tests.integration.test_durability_check import replicated, stores  # noqa: F401  # a fixture
from tests.players import bearer, events_of, first_to_act, new_table
from tests.stores import store_client


async def pending(redis, group: str) -> int:
    total = 0
    async for feed in redis.scan_iter(match="dg:{*}:feed"):
        total += (await redis.xpending(feed, group))["pending"]
    return total


async def test_an_entry_whose_copy_the_replica_has_not_confirmed_is_not_shown(stores):  # noqa: F811
    primary, replica = replicated(stores)
    durability = Durability("replicas", 1, wait_ms=200)
    app = make_app(primary, durability=durability, retry_seconds=0.2)
    redis = await store_client(primary.url)
    try:
        async with AsyncTestClient(app=app) as client:
            table = await new_table(client, seats=2, start=False)

            async def status() -> str | None:
                summary = (await lobby.summaries(redis, [table.id]))[table.id]
                return summary.status if summary else None

            await wait_for(lambda: status())
            assert await status() == "open"

            with replica.paused():  # it hears nothing, confirms nothing
                r = await client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
                assert r.status_code == 503 and r.json()["code"] == "not_replicated"
                await asyncio.sleep(2.0)  # the projections try, and try again
                assert await status() == "open"
                assert await pending(redis, "lobby") >= 1
            await wait_for(lambda: _active(status), 30)
            await wait_for(lambda: _none_pending(redis), 30)
    finally:
        await redis.aclose()


async def _active(status) -> bool:
    return await status() == "active"


async def _none_pending(redis) -> bool:
    return await pending(redis, "lobby") == 0


async def test_a_stream_shows_an_append_once_the_replica_confirms_it(stores):  # noqa: F811
    primary, replica = replicated(stores)
    durability = Durability("replicas", 1, wait_ms=200)
    app = make_app(primary, durability=durability, background=False)
    async with on_socket(app) as base, httpx.AsyncClient(base_url=base, timeout=30) as client:
        table = await new_table(client, seats=2)
        seq = (await table.state())["seq"]
        ndjson = {"Accept": "application/x-ndjson"}
        async with client.stream("GET", f"/v1/games/{table.id}/stream", headers=ndjson) as r:
            events: asyncio.Queue[dict] = asyncio.Queue()

            async def read() -> None:
                async for line in r.aiter_lines():
                    if line.strip():
                        events.put_nowait(msgspec.json.decode(line))

            reader = asyncio.create_task(read())

            async def shown(timeout: float) -> dict | None:
                """The next event the stream shows, or None if it shows none in time."""
                try:
                    return await asyncio.wait_for(events.get(), timeout)
                except TimeoutError:
                    return None

            while (event := await shown(5)) is not None and event["seq"] < seq:
                pass
            assert event is not None and event["seq"] == seq

            with replica.paused():  # it hears nothing, confirms nothing
                seat, legal = await first_to_act(table)
                sent = await table.send(seat, legal[0], **{"Idempotency-Key": "unkept"})
                assert sent.status_code == 503 and sent.json()["code"] == "not_replicated"
                assert await shown(1.5) is None  # written on the primary, not shown
            event = await shown(10)
            logged = {e["seq"]: e["hash"] for e in await events_of(client, table.id)}
            assert event is not None and event["seq"] == seq + 1
            assert event["hash"] == logged[seq + 1]
            reader.cancel()
