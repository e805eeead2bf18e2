"""A feed entry that cannot be applied is set aside after DANGER_PROJECTION_ATTEMPTS
deliveries: the projections move on, /health counts it, the CLI lists it."""

from __future__ import annotations

import asyncio
import json

from litestar.testing import AsyncTestClient

from events import keys
from service.assembly.app import create_app
from service.infra import shards
from service.infra.config import Settings
from service.readmodels.projections import GROUPS
from tests.players import new_table
from tests.processes import run_cli
from tests.projections import caught_up
from tests.stores import store_client, with_queue

# Dead letters per group: both entries in each read model's; the webhooks' group, with no
# endpoint anywhere, reads no game, so only the entry that names none is one of its.
EXPECTED = {group: 1 if group == "hooks" else 2 for group in GROUPS}


async def test_a_poison_entry_goes_to_the_dead_letters_and_the_projections_move_on(own_server):
    redis = await store_client(own_server.url)
    await shards.establish(redis, None)  # a new store's, before anything is written
    # A game whose stream holds something that is no event, and a feed entry that names no
    # game: neither can ever be applied.
    poisoned = keys.GameKeys("poisoned")
    await redis.xadd(poisoned.stream, {"e": b"not an event"}, id="0-1")
    bad = [await redis.xadd(poisoned.feed, {"game": "poisoned", "first": 1, "last": 1})]
    bad.append(await redis.xadd(keys.feed(keys.all_shards()[3]), {"nonsense": "x"}))
    settings = Settings().replace(rate_limits=False, open_games_per_client=0, projection_attempts=3)
    async with AsyncTestClient(
        app=create_app(with_queue(settings, own_server), own_server.url)
    ) as client:
        table = await new_table(client, seats=2)  # after them in the feeds
        deadline = asyncio.get_running_loop().time() + 20  # 3 attempts, a second apart
        while True:
            health = await caught_up(client)
            dead = {name: p["dead_letters"] for name, p in health["projections"].items()}
            if dead == EXPECTED:
                break
            assert asyncio.get_running_loop().time() < deadline, health
            await asyncio.sleep(0.2)
        assert all(health["projections"][g]["errors"] >= 3 for g in EXPECTED), health
        lobby = (await client.get("/v1/games")).json()
        assert [g["id"] for g in lobby["games"]] == [table.id]  # the rest was applied

    listed = run_cli("projections", "dead-letters", REDIS_URL=own_server.url)
    assert listed.returncode == 0, listed.stderr
    letters = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(letters) == sum(EXPECTED.values())
    assert {(d["projection"], d["entry"]) for d in letters} == {
        (group, entry.decode()) for group in GROUPS for entry in bad[2 - EXPECTED[group] :]
    }
    assert all(d["delivered"] == 3 and d["error"] for d in letters)
    assert {d["fields"].get("game") for d in letters} == {"poisoned", None}

    # Nothing of them is pending any more, in any group.
    for feed in {poisoned.feed, keys.feed(keys.all_shards()[3])}:
        for group in await redis.xinfo_groups(feed):
            assert group["pending"] == 0

    cleared = run_cli("projections", "clear-dead-letters", REDIS_URL=own_server.url)
    assert cleared.returncode == 0 and f"dropped {sum(EXPECTED.values())}" in cleared.stdout, (
        cleared
    )
    assert run_cli("projections", "dead-letters", REDIS_URL=own_server.url).stdout == ""
    # A rebuild reads every stream: it says which game it cannot read, and switches nothing.
    rebuilt = run_cli("projections", "rebuild", REDIS_URL=own_server.url)
    assert rebuilt.returncode == 1 and "poisoned" in rebuilt.stderr, rebuilt
    assert await redis.hlen("dg:{lobby}:games") == 1
    await redis.aclose()
