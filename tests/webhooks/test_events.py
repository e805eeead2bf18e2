"""What the webhooks hear (service/readmodels/webhook_events.py): every event type of a game
created with an app key reaches that key's endpoint, queued once, in the game's order, saying
only what a spectator may see; a game of no key's is heard by none."""

from __future__ import annotations

import asyncio

import msgspec
from litestar.testing import AsyncTestClient

from events.store import EventStore
from service.http.guards import app_keys
from service.play import webhook_deliveries, webhooks
from tests.conftest import make_app
from tests.players import Table, bearer, new_table, play_to_end
from tests.stores import store_client


async def test_a_keys_endpoint_hears_every_event_of_its_game_in_order(valkey):
    redis = await store_client(valkey.url)
    key, token = await app_keys.create(redis, "webhook events", {})
    every = list(webhooks.EVENT_TYPES)
    endpoint = await webhooks.add(redis, key.id, "http://127.0.0.1:9/in", every, [], 0, 5)
    try:
        async with AsyncTestClient(app=make_app(valkey)) as client:
            r = await client.post(
                "/v1/games", json={"game": "danger", "seats": 2}, headers=bearer(token)
            )
            assert r.status_code == 201, r.text
            table = Table(client, r.json()["id"], r.json()["admin_token"])
            for seat in range(2):
                r = await client.post(f"/v1/games/{table.id}/players", json={"name": f"p{seat}"})
                table.tokens.append(r.json()["token"])
            r = await client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
            assert r.status_code == 200, r.text
            await play_to_end(table)
            stranger = await new_table(client, seats=2)

            queued: list[webhook_deliveries.Delivery] = []
            for _ in range(300):
                queued = await webhook_deliveries.head(redis, endpoint.id, 10_000)
                if queued and queued[-1].type == "game.finished":
                    break
                await asyncio.sleep(0.1)
        types = [d.type for d in queued]
        assert types[:4] == ["game.created", "seat.joined", "seat.joined", "game.started"]
        assert types[-1] == "game.finished"
        assert {"turn.changed", "round.scored"} <= set(types)
        assert {d.game for d in queued} == {table.id} != {stranger.id}
        seqs = [d.seq for d in queued]
        assert seqs == sorted(seqs)  # the game's order
        assert len({d.id for d in queued}) == len(queued)
        bodies = [msgspec.json.decode(d.body) for d in queued]
        turns = [b["data"]["to_act"] for b in bodies if b["type"] == "turn.changed"]
        assert all(isinstance(t, list) and len(t) <= 2 for t in turns)
        assert all(b["data"]["game"] == table.id and b["data"]["kind"] == "danger" for b in bodies)
        # A spectator's view of the game's events shows no hand: nor does a delivery.
        assert not any("hand" in d.body for d in queued)
    finally:
        await webhooks.remove(redis, key.id, endpoint.id)
        await redis.aclose()


async def test_a_key_hears_the_games_its_registered_players_sit_in(valkey):
    """A game no key created is heard by the key that registered a player seated in it:
    seats taken and given up, and the game's end (here abandoned by its admin)."""
    redis = await store_client(valkey.url)
    key, token = await app_keys.create(redis, "registered players", {})
    wanted = ["seat.joined", "seat.left", "game.abandoned"]
    endpoint = await webhooks.add(redis, key.id, "http://127.0.0.1:9/in", wanted, [], 0, 5)
    try:
        async with AsyncTestClient(app=make_app(valkey)) as client:
            player = (
                await client.post("/v1/players", json={"name": "Ann"}, headers=bearer(token))
            ).json()
            r = await client.post("/v1/games", json={"game": "danger-13", "seats": 3})
            game = r.json()
            sat = await client.post(
                f"/v1/games/{game['id']}/players",
                json={"name": "Ann"},
                headers=bearer(player["token"]),
            )
            assert sat.status_code == 201, sat.text
            other = (
                await client.post(f"/v1/games/{game['id']}/players", json={"name": "Bo"})
            ).json()
            r = await client.delete(
                f"/v1/games/{game['id']}/players/{other['seat']}", headers=bearer(other["token"])
            )
            assert r.status_code in (200, 204), r.text
            r = await client.post(
                f"/v1/games/{game['id']}/abandon", headers=bearer(game["admin_token"])
            )
            assert r.status_code == 200, r.text
            queued: list[webhook_deliveries.Delivery] = []
            for _ in range(300):
                queued = await webhook_deliveries.head(redis, endpoint.id, 100)
                if queued and queued[-1].type == "game.abandoned":
                    break
                await asyncio.sleep(0.1)
        assert [d.type for d in queued] == [
            "seat.joined",
            "seat.joined",
            "seat.left",
            "game.abandoned",
        ]
        joined = msgspec.json.decode(queued[0].body)["data"]
        assert joined["player"] == player["id"] and joined["name"] == "Ann"
        assert msgspec.json.decode(queued[-1].body)["data"]["reason"] == "admin"
    finally:
        await webhooks.remove(redis, key.id, endpoint.id)
        await redis.aclose()


async def test_a_rematch_of_a_keys_game_is_the_keys_too(valkey):
    redis = await store_client(valkey.url)
    key, token = await app_keys.create(redis, "rematches", {})
    try:
        async with AsyncTestClient(app=make_app(valkey)) as client:
            r = await client.post(
                "/v1/games", json={"game": "danger", "seats": 2}, headers=bearer(token)
            )
            table = Table(client, r.json()["id"], r.json()["admin_token"])
            for seat in range(2):
                r = await client.post(f"/v1/games/{table.id}/players", json={"name": f"p{seat}"})
                table.tokens.append(r.json()["token"])
            await client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
            await play_to_end(table)
            r = await client.post(f"/v1/games/{table.id}/rematch", headers=table.auth(0))
            assert r.status_code == 200, r.text
            store = EventStore(redis)
            assert (await store.secrets(r.json()["id"])).get("owner") == key.id
    finally:
        await redis.aclose()
