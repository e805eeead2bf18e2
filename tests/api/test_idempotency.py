"""Every write is retry-safe: a retry with the same Idempotency-Key and body gets the first
answer and changes nothing, on the real server and its Valkey."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest

from events.keys import GameKeys
from service.infra.errors import ApiError
from service.play import idempotency
from service.wire.schemas import Created
from tests.api.problem_codes import problem
from tests.conftest import make_app, on_socket, peer
from tests.players import new_table
from tests.stores import games_stored, store_client

DANGER = {"game": "danger", "seats": 2}


def key() -> str:
    """A fresh key: the session's Valkey keeps every record of the suite."""
    return str(uuid.uuid4())


async def idempotency_records(valkey) -> set[bytes]:
    async with await store_client(valkey.url) as redis:
        return {k async for k in redis.scan_iter(match="dg:*idem:*", count=10_000)}


async def players(client: Any, game_id: str) -> list[str]:
    r = await client.get(f"/v1/games/{game_id}")
    return [p["name"] for p in r.json()["view"]["players"]]


async def test_a_retried_create_answers_the_same_game_and_admin_token_and_creates_one(
    client, valkey
):
    k, before = key(), await games_stored(valkey)
    first = await client.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
    assert first.status_code == 201, first.text
    again = await client.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
    assert again.status_code == 201 and again.json() == first.json()
    # The same body written otherwise (a default spelled out) is the same request.
    spelled = {**DANGER, "options": {}}
    third = await client.post("/v1/games", json=spelled, headers={"Idempotency-Key": k})
    assert third.status_code == 201 and third.json() == first.json()
    assert await games_stored(valkey) == before + 1
    # The admin token given again is the game's: it starts the game.
    game = first.json()["id"]
    for name in ("ann", "bob"):
        assert (await client.post(f"/v1/games/{game}/players", json={"name": name})).is_success
    admin = {"Authorization": f"Bearer {again.json()['admin_token']}"}
    assert (await client.post(f"/v1/games/{game}/start", headers=admin)).status_code == 200


async def test_a_create_key_used_with_another_body_is_refused_and_creates_nothing(client, valkey):
    k = key()
    first = await client.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
    assert first.status_code == 201
    before = await games_stored(valkey)
    other = {"game": "danger", "seats": 3}
    problem(
        await client.post("/v1/games", json=other, headers={"Idempotency-Key": k}),
        422,
        "idempotency_key_reused",
    )
    assert await games_stored(valkey) == before


async def test_a_retried_join_answers_the_same_seat_and_token_not_name_taken(client):
    game = (await client.post("/v1/games", json=DANGER)).json()["id"]
    url, k, body = f"/v1/games/{game}/players", key(), {"name": "Anton", "entropy": "x"}
    first = await client.post(url, json=body, headers={"Idempotency-Key": k})
    assert first.status_code == 201, first.text
    again = await client.post(url, json=body, headers={"Idempotency-Key": k})
    assert again.status_code == 201, again.text
    assert again.json() == first.json() and again.json()["token"]
    assert await players(client, game) == ["Anton"]
    # The token given again is the seat's: it reads the game as that seat.
    seat = await client.get(
        f"/v1/games/{game}", headers={"Authorization": f"Bearer {again.json()['token']}"}
    )
    assert seat.status_code == 200 and seat.json()["view"]["you"] == first.json()["seat"]
    # The same name without the key is a new request, refused as the rules say.
    problem(await client.post(url, json=body), 409, "name_taken")
    # Another body with the key is refused, and takes no seat.
    problem(
        await client.post(url, json={"name": "Berta"}, headers={"Idempotency-Key": k}),
        422,
        "idempotency_key_reused",
    )
    assert await players(client, game) == ["Anton"]
    # A key is the game's: the same key in another game is another request.
    elsewhere = (await client.post("/v1/games", json=DANGER)).json()["id"]
    other = await client.post(
        f"/v1/games/{elsewhere}/players", json=body, headers={"Idempotency-Key": k}
    )
    assert other.status_code == 201 and other.json()["token"] != first.json()["token"]


@pytest.mark.parametrize("carol_sends_a_key", [True, False])
async def test_a_retried_join_whose_seat_changed_hands_is_refused_with_a_clear_code(
    client, carol_sends_a_key
):
    """A joins seat 0 with a key and leaves; Carol takes seat 0; A's retry with its key gets
    no seat and no token: neither Carol's (sealed under her key) nor its own dead one."""
    made = (await client.post("/v1/games", json=DANGER)).json()
    game, url, k = made["id"], f"/v1/games/{made['id']}/players", key()
    body = {"name": "Anton", "entropy": "x"}
    first = await client.post(url, json=body, headers={"Idempotency-Key": k})
    assert first.status_code == 201 and first.json()["seat"] == 0
    bearer = {"Authorization": f"Bearer {first.json()['token']}"}
    assert (await client.delete(f"{url}/0", headers=bearer)).status_code == 200
    carol_key = {"Idempotency-Key": key()} if carol_sends_a_key else {}
    carol = await client.post(url, json={"name": "Carol", "entropy": "y"}, headers=carol_key)
    assert carol.status_code == 201 and carol.json()["seat"] == 0
    again = await client.post(url, json=body, headers={"Idempotency-Key": k})
    problem(again, 409, "seat_changed_hands")
    assert await players(client, game) == ["Carol"]
    # A seat whose token the admin replaced is no longer the first join's either.
    k2 = key()
    bert = await client.post(url, json={"name": "Bert"}, headers={"Idempotency-Key": k2})
    admin = {"Authorization": f"Bearer {made['admin_token']}"}
    seat = bert.json()["seat"]
    reissued = await client.post(f"{url}/{seat}/token", headers=admin)
    assert reissued.status_code in (200, 201), reissued.text
    retry = await client.post(url, json={"name": "Bert"}, headers={"Idempotency-Key": k2})
    problem(retry, 409, "seat_changed_hands")


async def test_a_retried_bot_join_and_a_refused_join_answer_as_the_first_did(client):
    game = (await client.post("/v1/games", json=DANGER)).json()["id"]
    url = f"/v1/games/{game}/players"
    k, bot = key(), {"name": "Robo", "bot": "random", "think_ms": 0}
    first = await client.post(url, json=bot, headers={"Idempotency-Key": k})
    assert first.status_code == 201 and first.json()["token"] is None
    assert (await client.post(url, json=bot, headers={"Idempotency-Key": k})).json() == first.json()
    assert (await client.post(url, json={"name": "Ann"})).status_code == 201  # the game is full
    refused_key = key()
    refused = await client.post(url, json={"name": "Cid"}, headers={"Idempotency-Key": refused_key})
    assert refused.status_code == 409, refused.text
    retried = await client.post(url, json={"name": "Cid"}, headers={"Idempotency-Key": refused_key})
    assert retried.status_code == 409 and retried.json() == refused.json()
    assert await players(client, game) == ["Robo", "Ann"]


async def test_a_retried_start_answers_as_the_first_did(client):
    table = await new_table(client, seats=2, start=False)
    url, k = f"/v1/games/{table.id}/start", key()
    admin = {"Authorization": f"Bearer {table.admin}", "Idempotency-Key": k}
    first = await client.post(url, headers=admin)
    assert first.status_code == 200, first.text
    again = await client.post(url, headers=admin)
    assert again.status_code == 200 and again.json() == first.json()
    assert (await table.state())["seq"] == first.json()["seq"]
    # Without the key, a second start is a new request: the game has started already.
    assert (await client.post(url, headers={"Authorization": admin["Authorization"]})).is_error
    # The key names the start: the admin cannot use it for another request.
    problem(
        await client.post(f"/v1/games/{table.id}/abandon", headers=admin),
        422,
        "idempotency_key_reused",
    )


async def test_a_retried_abandon_answers_as_the_first_did(client):
    table = await new_table(client, seats=2, start=False)
    admin = {"Authorization": f"Bearer {table.admin}", "Idempotency-Key": key()}
    first = await client.post(f"/v1/games/{table.id}/abandon", headers=admin)
    assert first.status_code == 200, first.text
    again = await client.post(f"/v1/games/{table.id}/abandon", headers=admin)
    assert again.status_code == 200 and again.json() == first.json()


async def test_if_match_is_part_of_a_commands_fingerprint(client):
    table = await new_table(client, seats=2)
    seq = (await table.state())["seq"]
    k = key()
    first = await table.send(0, {"type": "draw"}, **{"Idempotency-Key": k, "If-Match": str(seq)})
    assert first.status_code == 200, first.text
    again = await table.send(0, {"type": "draw"}, **{"Idempotency-Key": k, "If-Match": str(seq)})
    assert again.status_code == 200 and again.json() == first.json()
    # The same command with the key under another If-Match, or none, is another request.
    for other in ({"If-Match": str(seq + 1)}, {}):
        problem(
            await table.send(0, {"type": "draw"}, **{"Idempotency-Key": k, **other}),
            422,
            "idempotency_key_reused",
        )
    assert (await table.state())["seq"] == first.json()["seq"]
    # A stale If-Match refused under a key is refused again with it, and not confused with
    # the same key and a current If-Match.
    stale = key()
    headers = {"Idempotency-Key": stale, "If-Match": "1"}
    refused = await table.send(0, {"type": "end_turn"}, **headers)
    problem(refused, 412, "stale_seq")
    now = str((await table.state())["seq"])
    problem(
        await table.send(0, {"type": "end_turn"}, **{"Idempotency-Key": stale, "If-Match": now}),
        422,
        "idempotency_key_reused",
    )


async def test_concurrent_requests_with_one_key_have_one_effect(valkey):
    """Two API processes on one Valkey, eight requests at once with one key, half to each:
    one game, one seat, one start, and every request the same answer."""
    apps = [make_app(valkey, background=False) for _ in range(2)]
    async with on_socket(apps[0]) as one, on_socket(apps[1]) as two:
        clients = [httpx.AsyncClient(base_url=url, timeout=30) for url in (one, two)]

        async def at_once(method: str, path: str, **kwargs: Any) -> list[httpx.Response]:
            return await asyncio.gather(
                *(clients[n % 2].request(method, path, **kwargs) for n in range(8))
            )

        try:
            before = await games_stored(valkey)
            once = {"Idempotency-Key": key()}
            made = await at_once("POST", "/v1/games", json=DANGER, headers=once)
            assert {r.status_code for r in made} == {201}, [r.text for r in made]
            assert len({r.text for r in made}) == 1
            assert await games_stored(valkey) == before + 1
            game = made[0].json()
            admin = f"Bearer {game['admin_token']}"

            path = f"/v1/games/{game['id']}/players"
            once = {"Idempotency-Key": key()}
            joins = await at_once("POST", path, json={"name": "Ann"}, headers=once)
            assert {r.status_code for r in joins} == {201}, [r.text for r in joins]
            assert len({r.text for r in joins}) == 1
            assert await players(clients[0], game["id"]) == ["Ann"]
            assert (await clients[1].post(path, json={"name": "Bob"})).status_code == 201

            start = {"Authorization": admin, "Idempotency-Key": key()}
            starts = await at_once("POST", f"/v1/games/{game['id']}/start", headers=start)
            assert {r.status_code for r in starts} == {200}, [r.text for r in starts]
            assert len({r.json()["seq"] for r in starts}) == 1
            log = (await clients[0].get(f"/v1/games/{game['id']}/events")).json()["events"]
            assert [e["type"] for e in log].count("game_started") == 1
        finally:
            for c in clients:
                await c.aclose()


async def test_one_clients_key_is_not_another_clients(valkey):
    app = make_app(valkey, background=False)
    async with app.lifespan(), peer(app, "192.0.2.40") as ann, peer(app, "192.0.2.41") as bob:
        k = key()
        mine = await ann.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
        theirs = await bob.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
        assert mine.status_code == theirs.status_code == 201
        assert mine.json()["id"] != theirs.json()["id"]
        assert mine.json()["admin_token"] != theirs.json()["admin_token"]

        path = f"/v1/games/{mine.json()['id']}/players"
        seat = await ann.post(path, json={"name": "Ann"}, headers={"Idempotency-Key": k})
        assert seat.status_code == 201
        # Bob guessing Ann's key and body gets no seat token of hers: his request is his own.
        problem(
            await bob.post(path, json={"name": "Ann"}, headers={"Idempotency-Key": k}),
            409,
            "name_taken",
        )
        # Nor is Ann's key refused to him as one used with another body.
        path = f"/v1/games/{theirs.json()['id']}/players"
        k = key()
        first = await ann.post(path, json={"name": "Ann"}, headers={"Idempotency-Key": k})
        assert first.status_code == 201
        other = await bob.post(path, json={"name": "Bob"}, headers={"Idempotency-Key": k})
        assert other.status_code == 201 and other.json()["seat"] == 1


async def test_a_refused_create_is_decided_again_on_retry(valkey):
    """Nothing was created, so nothing is remembered: a retry after the client made room
    creates the game."""
    app = make_app(valkey, background=False, open_games_per_client=1)
    async with app.lifespan(), peer(app, "192.0.2.42") as c:
        held = await c.post("/v1/games", json=DANGER)
        assert held.status_code == 201
        k = key()
        problem(
            await c.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k}),
            409,
            "too_many_open_games",
        )
        admin = {"Authorization": f"Bearer {held.json()['admin_token']}"}
        assert (await c.post(f"/v1/games/{held.json()['id']}/abandon", headers=admin)).is_success
        made = await c.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
        assert made.status_code == 201, made.text
        again = await c.post("/v1/games", json=DANGER, headers={"Idempotency-Key": k})
        assert again.json() == made.json()


async def test_every_record_expires_and_holds_no_token_in_clear(valkey):
    """Each keyed write leaves one record, which lives DANGER_IDEMPOTENCY_HOURS at most; the
    tokens they give again are kept sealed, never in clear."""
    hours = 0.5
    app = make_app(valkey, background=False, sandbox=True, idempotency_hours=hours)
    async with app.lifespan(), peer(app, "192.0.2.43") as c:
        before = await idempotency_records(valkey)
        made = await c.post("/v1/games", json=DANGER, headers={"Idempotency-Key": key()})
        game, admin = made.json()["id"], made.json()["admin_token"]
        seats = []
        for name in ("Ann", "Bob"):
            r = await c.post(
                f"/v1/games/{game}/players", json={"name": name}, headers={"Idempotency-Key": key()}
            )
            seats.append(r.json()["token"])
        auth = {"Authorization": f"Bearer {admin}", "Idempotency-Key": key()}
        assert (await c.post(f"/v1/games/{game}/start", headers=auth)).status_code == 200
        refused = {"Authorization": f"Bearer {seats[1]}", "Idempotency-Key": key()}
        r = await c.post(f"/v1/games/{game}/commands", json={"type": "draw"}, headers=refused)
        assert r.status_code == 409  # not its turn: the refusal is a record too
        records = await idempotency_records(valkey) - before
        assert len(records) == 5
        async with await store_client(valkey.url) as redis:
            for name in records:
                assert 0 < await redis.pttl(name) <= hours * 3600 * 1000
            stored = [await redis.get(name) for name in records]
            stored += list((await redis.hgetall(GameKeys(game).secrets)).values())
        for token in (admin, *seats):
            assert not any(token.encode() in value for value in stored)
        # A private game's invite is a secret too: its create's record keeps it sealed.
        k = key()
        private = {**DANGER, "visibility": "private"}
        made = await c.post("/v1/games", json=private, headers={"Idempotency-Key": k})
        invite = made.json()["invite"]
        assert invite and made.status_code == 201
        async with await store_client(valkey.url) as redis:
            stored = [await redis.get(n) for n in await idempotency_records(valkey) - before]
        assert not any(invite.encode() in value for value in stored if value)
        again = await c.post("/v1/games", json=private, headers={"Idempotency-Key": k})
        assert again.json() == made.json()


async def test_a_retry_while_the_first_create_runs_waits_for_its_answer(valkey, monkeypatch):
    """The first request holds its key while it creates; a retry meanwhile waits for that
    answer (a bounded time, then 409 `idempotency_key_in_use`), another body is 422 at once."""
    creates, client = idempotency.Creates(keep_ms=60_000), "192.0.2.44"
    answer = Created("g1", "danger", "open", 2, 1, False, "c" * 64, "g1.admin.secret")
    async with await store_client(valkey.url) as redis:
        k = key()
        assert await creates.claim(redis, client, k, DANGER) is None  # the first request's now
        waiting = asyncio.create_task(creates.claim(redis, client, k, DANGER))
        with pytest.raises(ApiError) as other:
            await creates.claim(redis, client, k, {**DANGER, "seats": 3})
        assert other.value.code == "idempotency_key_reused"
        await creates.keep(redis, client, k, DANGER, answer)
        assert await waiting == answer

        monkeypatch.setattr(idempotency, "PENDING_WAIT_SECONDS", 0.1)
        k = key()
        assert await creates.claim(redis, client, k, DANGER) is None
        with pytest.raises(ApiError) as busy:
            await creates.claim(redis, client, k, DANGER)
        assert busy.value.status == 409 and busy.value.code == "idempotency_key_in_use"
        await creates.drop(redis, client, k)  # the first request failed: the key is free again
        assert await creates.claim(redis, client, k, DANGER) is None


def test_how_long_an_answer_is_kept_is_a_setting(monkeypatch):
    from service.infra.config import Settings

    monkeypatch.setenv("DANGER_IDEMPOTENCY_HOURS", "2")
    assert Settings.from_env().play.idempotency_ms == 2 * 3600 * 1000
    monkeypatch.setenv("DANGER_IDEMPOTENCY_HOURS", "0")
    with pytest.raises(ValueError, match="DANGER_IDEMPOTENCY_HOURS"):
        Settings.from_env()
