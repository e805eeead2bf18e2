"""A `danger worker` SIGKILLed while a delivery is on its way loses nothing: started again,
it sends every delivery (the one cut off again, with the same `webhook-id`), because a
delivery leaves its queue only once its receiver took it."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import msgspec
from litestar.testing import AsyncTestClient

from service.http.guards import app_keys
from service.play import webhooks
from tests.conftest import make_app
from tests.players import bearer
from tests.processes import worker
from tests.stores import Store, store_client
from tests.webhooks.receiver import Receiver


async def test_a_worker_killed_mid_delivery_loses_nothing(tmp_path: Path):
    store = Store(tmp_path / "store", "--appendonly", "yes", "--appendfsync", "always").start()
    receiver = await Receiver(hold=3.0).up()  # each answer comes 3 s late: a kill lands
    redis = await store_client(store.url)
    env = {"DANGER_WEBHOOK_PRIVATE": "1", "DANGER_DATA_DIR": str(tmp_path / "data")}
    first = worker(store, tmp_path / "worker1.log", **env)
    try:
        key, token = await app_keys.create(redis, "killed", {})
        endpoint = await webhooks.add(
            redis, key.id, receiver.url, ["seat.joined", "game.started"], [], 0, 5
        )
        app = make_app(store, background=False)  # type: ignore[arg-type]  # a store like the session's
        async with AsyncTestClient(app=app) as client:
            r = await client.post(
                "/v1/games", json={"game": "danger", "seats": 2}, headers=bearer(token)
            )
            game = r.json()
            for seat in range(2):
                await client.post(f"/v1/games/{game['id']}/players", json={"name": f"p{seat}"})
            await client.post(f"/v1/games/{game['id']}/start", headers=bearer(game["admin_token"]))

        for _ in range(300):  # the first delivery reaches the receiver, its answer held
            if receiver.received:
                break
            await asyncio.sleep(0.05)
        assert receiver.received, "a delivery was on its way"
        first.send_signal(signal.SIGKILL)
        first.wait()
        receiver.hold = 0.0
        again = worker(store, tmp_path / "worker2.log", **env)
        try:
            for _ in range(600):
                ids = {r.headers["webhook-id"] for r in receiver.received}
                if len(ids) == 3:
                    break
                await asyncio.sleep(0.1)
        finally:
            again.send_signal(signal.SIGTERM)
            again.wait(timeout=20)
        types = {
            got.headers["webhook-id"]: msgspec.json.decode(got.body)["type"]
            for got in receiver.received
        }
        assert sorted(types.values()) == ["game.started", "seat.joined", "seat.joined"]
        cut_off = receiver.received[0].headers["webhook-id"]
        assert [r.headers["webhook-id"] for r in receiver.received].count(cut_off) >= 2
        assert endpoint.id
    finally:
        if first.poll() is None:
            first.kill()
        await redis.aclose()
        await receiver.down()
        store.kill()
