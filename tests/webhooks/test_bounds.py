"""What an endpoint can make the store hold is bounded: its waiting deliveries
(DANGER_WEBHOOK_QUEUED: the endpoint is paused, with the reason, when it has that many, and
its waiting ones are sent once resumed), its finished ones (the latest FINISHED_KEPT, older
ones deleted with their attempts) and, once removed, nothing at all."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import pytest

from service.http.guards import app_keys
from service.play import webhook_deliveries, webhooks
from service.play.webhook_deliveries import Attempt, Delivery
from tests.api.test_observability import scrape, value
from tests.players import bearer
from tests.stores import store_client
from tests.webhooks.receiver import Receiver
from tests.webhooks.test_delivery import keyed_game, serving, until


async def keys_of(redis: Any, endpoint_id: str) -> list[str]:
    return [k async for k in redis.scan_iter(match=f"dg:{{h:{endpoint_id}}}:*", count=1000)]


async def test_an_endpoint_with_a_full_queue_is_paused_and_sends_it_once_resumed(
    tmp_path: Path,
):
    receiver = Receiver()
    await receiver.up()
    port = receiver.port
    await receiver.down()  # away: every delivery waits
    async with serving(tmp_path, webhook_queued=3) as (client, redis):
        before = await scrape(client)
        key, token = await app_keys.create(redis, "full", {})
        url = f"http://127.0.0.1:{port}/hooks"
        endpoint = await webhooks.add(redis, key.id, url, ["seat.joined", "game.started",
                                                           "game.created"], [], 0, 5)  # fmt: skip
        await keyed_game(client, token, play=False)  # four events: one too many

        async def paused() -> str | None:
            found = await webhooks.get(redis, endpoint.id)
            return found.paused if found else None

        for _ in range(100):
            if await paused():
                break
            await asyncio.sleep(0.1)
        assert "DANGER_WEBHOOK_QUEUED" in (await paused() or "")
        assert await redis.zcard(webhook_deliveries.queue_key(endpoint.id)) == 3
        paused_count = "danger_webhook_endpoints_paused_total"
        assert (
            value(await scrape(client), paused_count, why="full")
            == value(before, paused_count, why="full") + 1
        )

        receiver.port = port
        await receiver.up()
        answer = await client.patch(
            f"/v1/webhooks/{endpoint.id}", json={"paused": False}, headers=bearer(token)
        )
        assert answer.status_code == 200 and answer.json().get("paused") is None
        await until(lambda: len(receiver.received) == 3, 30)
        types = [msgspec.json.decode(r.body)["type"] for r in receiver.received]
        assert types == ["game.created", "seat.joined", "seat.joined"]  # the first three

        removed = await client.delete(f"/v1/webhooks/{endpoint.id}", headers=bearer(token))
        assert removed.status_code == 204
        assert await keys_of(redis, endpoint.id) == []  # its deliveries and attempts too
    await receiver.down()


async def test_an_endpoints_old_finished_deliveries_are_deleted_with_their_attempts(
    valkey, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(webhook_deliveries, "FINISHED_KEPT", 5)
    monkeypatch.setattr(webhook_deliveries, "TRIMMED_EVERY", 2)
    redis = await store_client(valkey.url)
    try:
        made = [
            Delivery(webhook_deliveries.delivery_id("wh_trimmed", "g", n, "x"), "wh_trimmed",
                     "game.created", "g", n, "{}", 0)
            for n in range(20)
        ]  # fmt: skip
        assert (await webhook_deliveries.queue(redis, made, 0, 100)).new == 20
        for n, delivery in enumerate(made):
            await webhook_deliveries.record_attempt(
                redis, delivery, Attempt(n, 1, 204), "delivered", 0, n
            )
        kept = await webhook_deliveries.recent(redis, "wh_trimmed", 100)
        assert 5 <= len(kept) <= 5 + 2
        assert [d.seq for d in kept] == list(range(19, 19 - len(kept), -1))  # the newest
        assert len(await keys_of(redis, "wh_trimmed")) == 2 * len(kept) + 2  # + finished, n
        assert await webhook_deliveries.get(redis, "wh_trimmed", made[0].id) is None
        assert await webhook_deliveries.attempts(redis, "wh_trimmed", made[0].id) == []
        await webhook_deliveries.forget(redis, "wh_trimmed")
        assert await keys_of(redis, "wh_trimmed") == []
    finally:
        await redis.aclose()
