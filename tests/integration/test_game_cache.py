"""The folds a process keeps are bounded by their size in memory, and games that are over
leave first: the store holds every game, so nothing a player sees changes."""

from __future__ import annotations

import random

from litestar.testing import AsyncTestClient

from tests.conftest import make_app
from tests.players import new_table, play_to_end


async def test_the_folded_games_stay_under_their_bound_in_bytes_and_all_still_answer(valkey):
    app = make_app(valkey, background=False, queue="dg:timers:nobody", cache_mb=1)
    async with AsyncTestClient(app=app) as client:
        ids = [(await new_table(client, seats=2)).id for _ in range(150)]
        cache = (await client.get("/health")).json()["cache"]
        assert cache["max_bytes"] == 2**20
        assert 0 < cache["bytes"] <= cache["max_bytes"]
        assert cache["games"] < len(ids)  # some had to leave
        for game_id in ids[:5]:  # the first ones left; they are folded again from the store
            r = await client.get(f"/v1/games/{game_id}")
            assert r.status_code == 200 and r.json()["status"] == "active"


async def test_games_that_are_over_leave_before_running_ones(valkey):
    app = make_app(valkey, background=False, queue="dg:timers:nobody", cache_mb=1)
    async with AsyncTestClient(app=app) as client:
        games = client.app.state.service.repository.cache
        running = await new_table(client, seats=2)
        over = await new_table(client, seats=2)
        await play_to_end(over, choose=random.Random(1).choice)
        await over.state()  # the game that is over was used last
        while running.id in games and over.id in games:
            await new_table(client, seats=2)
        assert running.id in games and over.id not in games
