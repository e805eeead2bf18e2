"""Deliveries to a real receiver on loopback (tests/webhooks/receiver.py), sent by the
worker's sender (service/jobs/webhook_sender.py): every event type arrives, signed as
Standard Webhooks asks, in the game's order; a receiver away for a while gets every delivery
once it is back; one that answers 500 forever ends paused, its attempts kept; a loopback URL
is refused unless DANGER_WEBHOOK_PRIVATE allows it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import msgspec
from danger_hall.webhooks import verify
from litestar.testing import AsyncTestClient

from service.http.guards import app_keys
from service.infra.clock import StoreClock
from service.infra.config import Webhooks
from service.jobs.webhook_sender import Sender
from service.play import webhook_deliveries, webhooks
from tests.api.test_observability import scrape, value
from tests.conftest import make_app
from tests.players import Table, bearer, play_to_end
from tests.stores import Store, store_client
from tests.webhooks.receiver import Receiver


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, **settings: Any) -> AsyncIterator[tuple[Any, Any]]:
    """The app with its background, whose worker sends the deliveries, on a store of its
    own (no other worker of the suite's takes its endpoints), and a client of the store."""
    store = Store(tmp_path / "store", "--appendonly", "yes", "--appendfsync", "always").start()
    redis = await store_client(store.url)
    app = make_app(store, **{"webhook_private": True, **settings})  # type: ignore[arg-type]
    try:
        async with AsyncTestClient(app=app) as client:
            yield client, redis
    finally:
        await redis.aclose()
        store.kill()


async def keyed_game(client: Any, token: str, play: bool = True) -> Table:
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2}, headers=bearer(token))
    table = Table(client, r.json()["id"], r.json()["admin_token"])
    for seat in range(2):
        r = await client.post(f"/v1/games/{table.id}/players", json={"name": f"p{seat}"})
        table.tokens.append(r.json()["token"])
    await client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
    if play:
        await play_to_end(table)
    return table


async def until(predicate: Any, seconds: float) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.1)


async def test_every_event_arrives_signed_in_the_games_order(tmp_path: Path):
    receiver = await Receiver().up()
    async with serving(tmp_path) as (client, redis):
        key, token = await app_keys.create(redis, "deliveries", {})
        every = list(webhooks.EVENT_TYPES)
        endpoint = await webhooks.add(redis, key.id, receiver.url, every, [], 0, 5)
        table = await keyed_game(client, token)
        await until(lambda: any(b"game.finished" in r.body for r in receiver.received), 60)
        events = [verify(endpoint.signing(0), r.headers, r.body) for r in receiver.received]
        assert [e["data"]["seq"] for e in events] == sorted(e["data"]["seq"] for e in events)
        assert {e["data"]["game"] for e in events} == {table.id}
        assert events[0]["type"] == "game.created" and events[-1]["type"] == "game.finished"
        ids = [r.headers["webhook-id"] for r in receiver.received]
        assert len(set(ids)) == len(ids)
        queued = await webhook_deliveries.recent(redis, endpoint.id, 1000)
        assert {d.status for d in queued} == {"delivered"}
        await webhooks.remove(redis, key.id, endpoint.id)
    await receiver.down()


async def test_a_receiver_away_then_back_gets_every_delivery(tmp_path: Path):
    receiver = Receiver()
    await receiver.up()
    port = receiver.port
    await receiver.down()  # away: connections refused
    async with serving(tmp_path) as (client, redis):
        key, token = await app_keys.create(redis, "away", {})
        endpoint = await webhooks.add(
            redis,
            key.id,
            f"http://127.0.0.1:{port}/hooks",
            ["game.started", "seat.joined"],
            [],
            0,
            5,
        )
        table = await keyed_game(client, token, play=False)
        await asyncio.sleep(2)
        tried = await webhook_deliveries.head(redis, endpoint.id, 10)
        assert tried and tried[0].attempts >= 1 and tried[0].status == "queued"
        receiver.port = port
        await receiver.up()  # back
        await until(lambda: len(receiver.received) == 3, 30)
        types = [msgspec.json.decode(r.body)["type"] for r in receiver.received]
        assert types == ["seat.joined", "seat.joined", "game.started"]
        assert {msgspec.json.decode(r.body)["data"]["game"] for r in receiver.received} == {
            table.id
        }
        await webhooks.remove(redis, key.id, endpoint.id)
    await receiver.down()


async def test_a_receiver_failing_for_the_whole_window_ends_paused_with_its_attempts(
    tmp_path: Path,
):
    receiver = await Receiver(status=500).up()
    async with serving(tmp_path, webhook_retry_hours=3 / 3600) as (client, redis):  # 3 s
        before = await scrape(client)
        key, token = await app_keys.create(redis, "failing", {})
        endpoint = await webhooks.add(redis, key.id, receiver.url, ["game.created"], [], 0, 5)
        await keyed_game(client, token, play=False)

        async def paused() -> webhooks.Endpoint | None:
            found = await webhooks.get(redis, endpoint.id)
            return found if found and found.paused else None

        for _ in range(200):
            if found := await paused():
                break
            await asyncio.sleep(0.1)
        assert found is not None and "HTTP 500" in (found.paused or "")
        delivery = (await webhook_deliveries.recent(redis, endpoint.id, 10))[0]
        tried = await webhook_deliveries.attempts(redis, endpoint.id, delivery.id)
        assert len(tried) >= 2 and {a.status for a in tried} == {500}
        assert all(a.answer == "ok" for a in tried)
        after = await scrape(client)  # what an operator sees
        paused_count = "danger_webhook_endpoints_paused_total"
        assert (
            value(after, paused_count, why="failing")
            == value(before, paused_count, why="failing") + 1
        )
        retried = "danger_webhook_attempt_duration_seconds_count"
        assert (
            value(after, retried, outcome="retried")
            >= value(before, retried, outcome="retried") + len(tried) - 1
        )
        await webhooks.remove(redis, key.id, endpoint.id)
    await receiver.down()


async def test_a_loopback_url_is_refused_unless_the_setting_allows_it(valkey):
    receiver = await Receiver().up()
    redis = await store_client(valkey.url)
    try:
        clock = StoreClock(redis)
        await clock.refresh(force=True)
        endpoint = webhooks.Endpoint(
            "wh_loopback", "key", receiver.url, ["game.created"], [],
            [webhooks.Secret(webhooks.new_secret())], 0,
        )  # fmt: skip
        body = msgspec.json.encode({"type": "game.created", "timestamp": "", "data": {}}).decode()
        delivery = webhook_deliveries.Delivery(
            "msg_x", endpoint.id, "game.created", "g", 1, body, 0
        )
        refused, _ = await Sender(redis, clock, Webhooks(private=False)).send(endpoint, delivery)
        assert refused.status is None and "127.0.0.1" in (refused.error or "")
        assert receiver.received == []
        taken, _ = await Sender(redis, clock, Webhooks(private=True)).send(endpoint, delivery)
        assert taken.status == 200 and len(receiver.received) == 1
    finally:
        await redis.aclose()
        await receiver.down()
