"""A projection's consumer stopped while it applies what it read (a process shutting down)
finishes first: nothing stays pending under a consumer that is gone."""

from __future__ import annotations

import asyncio

import pytest
from litestar.testing import AsyncTestClient

from events.store import EventStore
from service.assembly.app import create_app
from service.infra.config import Settings
from service.readmodels import lobby
from service.readmodels.lobby import LobbyProjection
from service.readmodels.projections import lag
from tests.stores import store_client


class Held(LobbyProjection):
    """The lobby's consumer, held inside its apply until the test lets it go on."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)  # type: ignore[arg-type]  # LobbyProjection's own
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def apply(self, batches):
        self.entered.set()
        await self.release.wait()
        await super().apply(batches)


async def test_a_consumer_stopped_while_it_applies_finishes_and_leaves_nothing_pending(
    own_server,
):
    redis = await store_client(own_server.url)
    settings = Settings().replace(background=False, rate_limits=False, open_games_per_client=0)
    try:
        held = Held(redis, EventStore(redis))
        async with AsyncTestClient(app=create_app(settings, own_server.url)) as client:
            running = asyncio.create_task(held.run())
            r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
            assert r.status_code == 201
            game_id = r.json()["id"]
            await asyncio.wait_for(held.entered.wait(), 15)
            running.cancel()  # as the supervisor stops its tasks
            await asyncio.sleep(0.2)
            assert not running.done(), "it stopped with what it read not applied"
            held.release.set()
            with pytest.raises(asyncio.CancelledError):
                await running
        assert (await lag(redis))["lobby"]["entries"] == 0
        assert (await lobby.summaries(redis, [game_id]))[game_id] is not None
    finally:
        await redis.aclose()
