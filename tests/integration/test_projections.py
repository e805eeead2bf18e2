"""Projections: round summaries, player statistics, the lag in /health, and a rebuild from
the streams that yields the same read models as the live ones."""

import random

from litestar.testing import AsyncTestClient

from events import keys
from events.store import EventStore
from service.assembly.app import create_app
from service.infra.config import Settings
from service.readmodels.rebuild import rebuild
from tests.players import new_table, play_to_end
from tests.projections import caught_up, read_models
from tests.stores import store_client, with_queue


async def test_round_summaries_player_statistics_and_a_rebuild(own_server):
    # Played as fast as the client can, from one address: no per-client limits.
    settings = Settings().replace(background=True, rate_limits=False, open_games_per_client=0)
    app = create_app(with_queue(settings, own_server), own_server.url)
    async with AsyncTestClient(app=app) as client:
        health = await caught_up(client)
        groups = {"lobby", "rounds", "players", "player_games", "log", "hooks"}
        assert set(health["projections"]) == groups
        # Seat 0 of both games is one registered player, who joins under other names;
        # the other seats are anonymous, or another player of the same name.
        ann = (await client.post("/v1/players", json={"name": "Ann"})).json()
        twin = (await client.post("/v1/players", json={"name": "Ann"})).json()
        assert ann["id"] != twin["id"] and ann["token"] != twin["token"]
        table = await new_table(client, seats=2, players=[ann["token"]])
        await play_to_end(table, choose=random.Random(2).choice)
        other = await new_table(
            client, seats=3, game="high-voltage", players=[ann["token"], None, twin["token"]]
        )
        await play_to_end(other, choose=random.Random(3).choice)
        await caught_up(client)

        r = await client.get(f"/v1/games/{table.id}/rounds/2")
        summary = r.json()
        assert r.status_code == 200 and summary["complete"]
        types = [e["type"] for e in summary["events"]]
        assert types[0] == "round_started" and "round_scored" in types
        scored = next(e for e in summary["events"] if e["type"] == "round_scored")
        assert all(row["reason"] and row["note"] for row in scored["data"]["rows"])
        assert (await client.get(f"/v1/games/{table.id}/rounds/9")).json()[
            "code"
        ] == "no_such_round"

        stats = (await client.get(f"/v1/players/{ann['id']}")).json()
        assert stats["name"] == "Ann" and stats["id"] == ann["id"]
        assert stats["games"] == 2 and set(stats["by_game"]) == {"danger", "high-voltage"}
        final = (await table.state())["view"]["state"]
        assert stats["by_game"]["danger"]["average_score"] == final["totals"][0]
        assert stats["by_game"]["danger"]["wins"] == (0 in final["winners"])
        seats = (await table.state())["view"]["players"]
        assert [s["player"] for s in seats] == [ann["id"], None]
        twins = (await client.get(f"/v1/players/{twin['id']}")).json()
        assert twins["games"] == 1 and set(twins["by_game"]) == {"high-voltage"}
        r = await client.get("/v1/players/nobody0000000000")
        assert r.status_code == 404 and r.json()["code"] == "unknown_player"
    live = await read_models(own_server.url)

    redis = await store_client(own_server.url)
    await rebuild(redis, EventStore(redis))
    await redis.aclose()
    assert await read_models(own_server.url) == live


async def test_a_rebuild_files_every_game_not_over_in_its_due_set(own_server):
    """A store from before the due sets (or one that lost them): after a rebuild, the sweep
    looks at every open and active game again, and at no game that is over."""
    settings = Settings().replace(background=True, rate_limits=False, open_games_per_client=0)
    async with AsyncTestClient(
        app=create_app(with_queue(settings, own_server), own_server.url)
    ) as client:
        open_one = await new_table(client, seats=2, start=False)
        active = await new_table(client, seats=2)
        over = await new_table(client, seats=2)
        await play_to_end(over)
        await caught_up(client)
    redis = await store_client(own_server.url)
    await redis.delete(*[keys.due(shard) for shard in keys.all_shards()])  # lost
    await rebuild(redis, EventStore(redis))
    dues = [keys.due(shard) for shard in keys.all_shards()]
    filed = {g.decode() for due in dues for g in await redis.zrange(due, 0, -1)}
    assert {open_one.id, active.id} <= filed and over.id not in filed
    await redis.aclose()


async def test_a_rebuild_files_every_players_games_as_the_consumer_did(own_server):
    """Each player's games, after a rebuild, are what the consumer filed: a game finished,
    one abandoned, one left (off the list), one open, one active, a private one; and a store
    that never had the model (an upgrade that adds it) gets the same from a rebuild."""
    settings = Settings().replace(background=True, rate_limits=False, open_games_per_client=0)
    app = create_app(with_queue(settings, own_server), own_server.url)
    async with AsyncTestClient(app=app) as client:
        ann = (await client.post("/v1/players", json={"name": "Ann"})).json()
        bob = (await client.post("/v1/players", json={"name": "Bob"})).json()
        both = [ann["token"], bob["token"]]
        finished = await new_table(client, seats=2, players=both)
        await play_to_end(finished, choose=random.Random(4).choice)
        abandoned = await new_table(client, seats=3, start=False, players=both)
        auth = {"Authorization": f"Bearer {abandoned.admin}"}
        assert (await client.post(f"/v1/games/{abandoned.id}/abandon", headers=auth)).is_success
        left = await new_table(client, seats=3, start=False, players=both)
        bye = {"Authorization": f"Bearer {left.tokens[1]}"}
        assert (await client.delete(f"/v1/games/{left.id}/players/1", headers=bye)).is_success
        await new_table(client, seats=2, players=[None, ann["token"]])  # active
        r = await client.post(
            "/v1/games", json={"game": "danger", "seats": 2, "visibility": "private"}
        )
        private = r.json()
        joined = await client.post(
            f"/v1/games/{private['id']}/players",
            json={"name": "Bob", "invite": private["invite"]},
            headers={"Authorization": f"Bearer {bob['token']}"},
        )
        assert joined.status_code == 201
        await caught_up(client)
        bobs = (await client.get(f"/v1/players/{bob['id']}/games")).json()
        assert [g["id"] for g in bobs["games"]] == [abandoned.id, finished.id]
        anns = (await client.get(f"/v1/players/{ann['id']}/games")).json()
        assert len(anns["games"]) == 4
    live = await read_models(own_server.url)
    assert any(b":games:all:" in k for k in live if isinstance(k, bytes))

    redis = await store_client(own_server.url)
    await rebuild(redis, EventStore(redis))
    assert await read_models(own_server.url) == live
    lists = [k async for k in redis.scan_iter(match="dg:{p:*}:games*")]
    await redis.delete(*lists)  # a store from before the model
    assert await read_models(own_server.url) != live
    await rebuild(redis, EventStore(redis))
    await redis.aclose()
    assert await read_models(own_server.url) == live
