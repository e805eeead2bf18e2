"""Registered players: a token that seats its player, once per game; a record that follows
the id, never the display name; and an audit that re-derives every seat."""

from __future__ import annotations

import asyncio
import random

from service.infra.config import Rate
from service.play import players
from tests.api.test_rate_limits import tight
from tests.conftest import make_app, peer, running
from tests.players import bearer, new_table, play_to_end
from tests.stores import store_client


async def register(client, name: str = "Ann") -> dict:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


async def test_a_player_token_seats_its_player_and_only_its_hash_is_kept(client, valkey):
    ann = await register(client)
    assert ann["name"] == "Ann" and ann["token"].startswith("dhp_")
    redis = await store_client(valkey.url)
    try:  # only the token's hash is kept
        stored = await redis.hgetall(players.record_key(ann["id"]))
        assert ann["token"].encode() not in b"".join(stored.values())
    finally:
        await redis.aclose()

    table = await new_table(client, seats=3, start=False, players=[ann["token"]])
    seats = (await table.state())["view"]["players"]
    assert [s["player"] for s in seats] == [ann["id"], None, None]
    assert [s["name"] for s in seats] == ["p0", "p1", "p2"]  # the name given at the join


async def test_one_player_cannot_take_two_seats_nor_a_bots(client):
    ann = await register(client)
    r = await client.post("/v1/games", json={"game": "danger", "seats": 3})
    game = r.json()["id"]
    first = await client.post(
        f"/v1/games/{game}/players", json={"name": "Ann"}, headers=bearer(ann["token"])
    )
    assert first.status_code == 201
    second = await client.post(
        f"/v1/games/{game}/players", json={"name": "Anna"}, headers=bearer(ann["token"])
    )
    assert second.status_code == 409 and second.json()["code"] == "already_seated"
    bot = await client.post(
        f"/v1/games/{game}/players",
        json={"name": "Bot", "bot": "greedy"},
        headers=bearer((await register(client, "B"))["token"]),
    )
    assert bot.status_code == 409 and bot.json()["code"] == "bot_seat"
    forged = ann["token"][:-3] + "xyz"
    r = await client.post(f"/v1/games/{game}/players", json={"name": "F"}, headers=bearer(forged))
    assert r.status_code == 401 and r.json()["code"] == "player_token_invalid"
    # Nothing was seated by the refused joins.
    assert len((await client.get(f"/v1/games/{game}")).json()["view"]["players"]) == 1


async def test_a_game_with_registered_players_passes_its_audit(client):
    ann, bob = await register(client, "Ann"), await register(client, "Bob")
    table = await new_table(client, seats=2, players=[ann["token"], bob["token"]])
    await play_to_end(table, choose=random.Random(7).choice)
    report = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert report["ok"] and report["finished"], report
    joined = [
        e["data"]
        for e in (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
        if e["type"] == "player_joined"
    ]
    assert [j["player"] for j in joined] == [ann["id"], bob["id"]]


async def test_registering_needs_an_app_key_in_keys_mode(valkey):
    app = make_app(valkey, auth="keys")
    async with running(app), peer(app, "10.9.1.1") as client:
        r = await client.post("/v1/players", json={"name": "Ann"})
        assert r.status_code == 401 and r.json()["code"] == "key_missing"
        r = await client.post("/v1/players", json={"name": "\u202eevil"})
        assert r.status_code in (400, 401)
        r = await client.get("/v1/players/0000000000000000")
        assert r.status_code == 404 and r.json()["code"] == "unknown_player"


async def test_registering_has_its_own_bucket_and_a_cap_on_players_who_never_sat(valkey):
    """A flood of registrations stops at its own bucket (joins still pass), and a client may
    hold only so many registered players who have not taken a seat: one who sits frees its
    place and is kept; one who never sits is forgotten."""
    app = make_app(
        valkey,
        rate_limits=True,
        rates=tight(register=Rate(6, 60)),
        unseated_players_per_client=3,
        unseated_player_hours=1 / 1800,  # two seconds
    )
    async with running(app), peer(app, "10.9.7.1") as client:
        made = [await client.post("/v1/players", json={"name": f"p{n}"}) for n in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[3].json()["code"] == "too_many_players" and made[3].headers["Retry-After"]
        table = await new_table(client, seats=2, start=False, players=[made[0].json()["token"]])
        async with await store_client(valkey.url) as redis:
            sat, unsat = (players.record_key(made[n].json()["id"]) for n in (0, 1))
            assert 0 < await redis.pttl(sat) <= 2000  # a join alone keeps nothing for good
            r = await client.post("/v1/players", json={"name": "p4"})
            assert r.status_code == 429 and r.json()["code"] == "too_many_players"
            started = await client.post(f"/v1/games/{table.id}/start", headers=bearer(table.admin))
            assert started.status_code == 200, started.text
            assert await redis.pttl(sat) == -1  # sat at a table that started: kept for good
            assert await redis.hget(sat, "client") is None  # and its address forgotten
            assert 0 < await redis.pttl(unsat) <= 2000
        r = await client.post("/v1/players", json={"name": "p4"})
        assert r.status_code == 201, r.text  # the seated player's place is free again
        r = await client.post("/v1/players", json={"name": "p5"})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"  # its own bucket
        assert r.headers["RateLimit-Policy"].startswith('"register"')
        join = await client.post(f"/v1/games/{table.id}/players", json={"name": "late"})
        assert join.status_code in (201, 409), join.text  # joins draw on their own bucket
        await asyncio.sleep(2.2)
        r = await client.get(f"/v1/players/{made[1].json()['id']}")
        assert r.status_code == 404 and r.json()["code"] == "unknown_player"
        assert (await client.get(f"/v1/players/{made[0].json()['id']}")).status_code == 200
