"""A create whose replicas did not confirm it (503 `not_replicated`) and that is sent again
with its Idempotency-Key makes one game, never two: the retry answers the game the first
request wrote once the replica confirms it, or, if a failover took that game back, creates
one afresh. (The fault suite found an open game nobody held beside the one a retry made.)"""

from __future__ import annotations

from litestar.testing import AsyncTestClient

from events.keys import GameKeys
from service.infra.durability import Durability
from tests.conftest import make_app
from tests.integration.test_durability_check import replicated, stores  # noqa: F401  # a fixture
from tests.players import bearer
from tests.stores import games_stored

BODY = {"game": "danger", "seats": 2}
KEY = {"Idempotency-Key": "create-once"}


async def test_a_create_answered_503_is_the_same_game_when_sent_again(stores):  # noqa: F811
    primary, replica = replicated(stores)
    app = make_app(primary, durability=Durability("replicas", 1, wait_ms=200), background=False)
    async with AsyncTestClient(app=app) as client:
        with replica.paused():  # it hears nothing, confirms nothing
            for _ in range(2):  # written once; not confirmed, so neither answered nor redone
                r = await client.post("/v1/games", json=BODY, headers=KEY)
                assert r.status_code == 503 and r.json()["code"] == "not_replicated", r.text
            assert await games_stored(primary) == 1
        r = await client.post("/v1/games", json=BODY, headers=KEY)
        assert r.status_code == 201, r.text
        created = r.json()
        assert await games_stored(primary) == 1
        assert (await client.post("/v1/games", json=BODY, headers=KEY)).json() == created
        # The token answered is the game's: its admin abandons it.
        r = await client.post(
            f"/v1/games/{created['id']}/abandon", headers=bearer(created["admin_token"])
        )
        assert r.status_code == 200, r.text


async def test_a_create_a_failover_took_back_is_made_afresh(stores):  # noqa: F811
    primary, replica = replicated(stores)
    app = make_app(primary, durability=Durability("replicas", 1, wait_ms=200), background=False)
    async with AsyncTestClient(app=app) as client:
        with replica.paused():  # it hears nothing, confirms nothing
            r = await client.post("/v1/games", json=BODY, headers=KEY)
            assert r.status_code == 503 and r.json()["code"] == "not_replicated", r.text
            # What a failover to a replica that never had it does: the game is gone.
            with primary.client() as redis:
                lost = [k for k in redis.scan_iter(match="dg:*:game:*")]
                assert len(lost) == 1
                game_id = lost[0].decode().rsplit(":", 1)[1]
                redis.delete(*redis.scan_iter(match=f"*{GameKeys(game_id).shard}*{game_id}*"))
        r = await client.post("/v1/games", json=BODY, headers=KEY)
        assert r.status_code == 201, r.text
        assert r.json()["id"] != game_id
        assert await games_stored(primary) == 1
