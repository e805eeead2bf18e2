"""A client's own games: `GET /v1/games?mine=true` lists what it created (private games too,
with their status), by its app key or else its address, and it may abandon those not yet
started without their admin token, which frees its places under the open-games cap."""

from __future__ import annotations

import httpx

from service.http.guards import app_keys
from service.play import created_games
from service.readmodels import lobby
from tests.api.problem_codes import problem
from tests.conftest import make_app, peer, running, wait_for
from tests.players import bearer
from tests.stores import store_client

DANGER = {"game": "danger", "seats": 2}


async def create(client: httpx.AsyncClient, **body: object) -> str:
    r = await client.post("/v1/games", json={**DANGER, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def mine(client: httpx.AsyncClient, query: str = "", **headers: str) -> dict:
    r = await client.get(f"/v1/games?mine=true{query}", headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_client_that_lost_its_admin_tokens_lists_and_abandons_its_open_games(valkey):
    """A crashed client holds its address's open games until they expire: with none of
    their admin tokens, it finds them and abandons them, and may create again at once."""
    app = make_app(valkey, open_games_per_client=2, background=False)
    async with (
        running(app),
        peer(app, "10.9.4.1") as crashed,
        peer(app, "10.9.4.2") as other,
    ):
        made = [await create(crashed), await create(crashed, visibility="private")]
        r = await crashed.post("/v1/games", json=DANGER)
        problem(r, 409, "too_many_open_games")
        theirs = await create(other)

        listed = await mine(crashed)
        assert [g["id"] for g in listed["games"]] == made[::-1]  # newest first
        assert [g["private"] for g in listed["games"]] == [True, False]
        assert {g["status"] for g in listed["games"]} == {"open"} and listed["total"] == 2
        assert [g["id"] for g in (await mine(other))["games"]] == [theirs]

        # Another client may not abandon them; the creator may, with no token at all.
        problem(await other.post(f"/v1/games/{made[0]}/abandon"), 401, "token_missing")
        for game_id in made:
            r = await crashed.post(f"/v1/games/{game_id}/abandon")
            assert r.status_code == 200, r.text
            assert r.json()["status"] == "abandoned"
        listed = await mine(crashed)
        assert [g["status"] for g in listed["games"]] == ["abandoned", "abandoned"]
        assert (await mine(crashed, "&status=open"))["games"] == []
        # Their places are free: the client creates again.
        assert (await crashed.post("/v1/games", json=DANGER)).status_code == 201
        # An unknown game is 404 to anyone, as to its admin.
        problem(await crashed.post("/v1/games/nosuchgame000/abandon"), 404, "unknown_game")


async def test_a_started_game_is_abandoned_by_nobody(valkey):
    app = make_app(valkey, open_games_per_client=0, background=False)
    async with running(app), peer(app, "10.9.4.3") as client:
        r = await client.post("/v1/games", json=DANGER)
        game_id, admin = r.json()["id"], r.json()["admin_token"]
        for n in range(2):
            assert (
                await client.post(f"/v1/games/{game_id}/players", json={"name": f"p{n}"})
            ).status_code == 201
        r = await client.post(f"/v1/games/{game_id}/start", headers=bearer(admin))
        assert r.status_code == 200
        problem(await client.post(f"/v1/games/{game_id}/abandon"), 409, "game_not_open")
        listed = await mine(client)
        assert [(g["id"], g["status"]) for g in listed["games"]] == [(game_id, "active")]


async def test_an_app_keys_games_are_the_keys_not_the_addresss(valkey):
    app = make_app(valkey, open_games_per_client=0, background=False)
    redis = await store_client(valkey.url)
    try:
        _, key = await app_keys.create(redis, "own games", {})
        revoked, revoked_key = await app_keys.create(redis, "another app", {})
        await app_keys.revoke(redis, revoked.id)
        _, stranger = await app_keys.create(redis, "a stranger", {})
    finally:
        await redis.aclose()
    async with running(app), peer(app, "10.9.4.4") as client:
        by_address = await create(client)
        r = await client.post("/v1/games", json=DANGER, headers=bearer(key))
        assert r.status_code == 201
        keyed = r.json()["id"]
        assert [g["id"] for g in (await mine(client, **bearer(key)))["games"]] == [keyed]
        assert [g["id"] for g in (await mine(client))["games"]] == [by_address]
        # Another key did not create it; a revoked or unknown key is refused as on a create.
        problem(
            await client.post(f"/v1/games/{keyed}/abandon", headers=bearer(stranger)),
            403,
            "not_creator",
        )
        r = await client.get("/v1/games?mine=true", headers=bearer(revoked_key))
        problem(r, 401, "key_revoked")
        r = await client.get("/v1/games?mine=true", headers=bearer("dhk_nosuchkey000_x"))
        problem(r, 401, "key_invalid")
        # Without the key, from the same address, it is not the address's to abandon.
        problem(await client.post(f"/v1/games/{keyed}/abandon"), 401, "token_missing")
        r = await client.post(f"/v1/games/{keyed}/abandon", headers=bearer(key))
        assert r.status_code == 200 and r.json()["status"] == "abandoned"


async def test_the_lobby_summaries_list_them_once_the_projections_have(valkey):
    """With the projections running, the list is the lobby's summaries of the games."""
    app = make_app(valkey, open_games_per_client=0)
    async with running(app), peer(app, "10.9.4.5") as client:
        private = await create(client, visibility="private")
        await wait_for(lambda: _summarised(app, private), timeout=30)
        listed = await mine(client)
        assert [(g["id"], g["private"], g["status"]) for g in listed["games"]] == [
            (private, True, "open")
        ]
        lobby = (await client.get("/v1/games?status=open&limit=100")).json()["games"]
        assert private not in {g["id"] for g in lobby}  # the lobby still does not show it


async def _summarised(app, game_id: str) -> bool:
    """The lobby's projection has filed the game's summary."""
    return (await lobby.summaries(app.state.redis, [game_id]))[game_id] is not None


async def test_each_client_keeps_its_newest_games_for_a_week(valkey):
    """The record a create leaves is bounded: the newest DANGER_CREATED_KEPT games of each
    client, dropped a week after its last create."""
    app = make_app(valkey, open_games_per_client=0, created_kept=3, background=False)
    async with running(app), peer(app, "10.9.4.6") as client:
        made = [await create(client) for _ in range(5)]
        listed = await mine(client, "&limit=2")
        assert [g["id"] for g in listed["games"]] == made[:-3:-1] and listed["total"] == 3
        page = await mine(client, f"&limit=2&cursor={listed['next']}")
        assert [g["id"] for g in page["games"]] == [made[2]] and page["next"] is None
        assert [g["id"] for g in (await mine(client, "&offset=1&limit=1"))["games"]] == [made[3]]
        redis = await store_client(valkey.url)
        try:
            ttl = await redis.pttl(created_games.key("10.9.4.6"))
        finally:
            await redis.aclose()
        assert 0 < ttl <= created_games.TTL_MS
        # The oldest, no longer listed, are no longer the address's to abandon.
        problem(await client.post(f"/v1/games/{made[0]}/abandon"), 401, "token_missing")
