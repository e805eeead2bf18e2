"""Seats, managed over REST: leaving and removing before the start, changing teams, and a
new token for a lost one, each an event the audit decides again; a replaced token stops
working at once, in every process."""

from __future__ import annotations

import asyncio
import random

from tests.conftest import make_app, peer, running
from tests.players import Table, bearer, new_table, play_to_end
from tests.projections import caught_up


async def seat_names(client, table: Table) -> list[tuple[int, str]]:
    seats = (await client.get(f"/v1/games/{table.id}")).json()["view"]["players"]
    return [(s["seat"], s["name"]) for s in seats]


async def test_a_seat_left_is_free_again_and_its_token_stops_working(client):
    table = await new_table(client, seats=3, start=False)
    r = await client.delete(f"/v1/games/{table.id}/players/1", headers=table.auth(1))
    assert r.status_code == 200, r.text
    assert await seat_names(client, table) == [(0, "p0"), (2, "p2")]
    r = await client.get(f"/v1/games/{table.id}", headers=table.auth(1))
    assert r.status_code == 401 and r.json()["code"] == "token_invalid"
    # A seat may not send another seat away; the admin may.
    r = await client.delete(f"/v1/games/{table.id}/players/2", headers=table.auth(0))
    assert r.status_code == 409 and r.json()["code"] == "not_your_seat"
    admin = bearer(table.admin)
    r = await client.delete(f"/v1/games/{table.id}/players/2", headers=admin)
    assert r.status_code == 200
    r = await client.delete(f"/v1/games/{table.id}/players/2", headers=admin)
    assert r.status_code == 409 and r.json()["code"] == "no_such_seat"
    # The lobby lists who sits there now.
    await caught_up(client)
    lobby = (await client.get("/v1/games?status=open&limit=100")).json()["games"]
    assert next(g for g in lobby if g["id"] == table.id)["players"] == ["p0"]

    # The next joins take the lowest free seats; the game starts and plays as any other.
    for name, seat in (("Cy", 1), ("Di", 2)):
        r = await client.post(f"/v1/games/{table.id}/players", json={"name": name})
        assert r.status_code == 201 and r.json()["seat"] == seat
        table.tokens[seat] = r.json()["token"]
    assert (await client.post(f"/v1/games/{table.id}/start", headers=admin)).status_code == 200
    r = await client.delete(f"/v1/games/{table.id}/players/0", headers=table.auth(0))
    assert r.status_code == 409 and r.json()["code"] == "game_not_open"
    await play_to_end(table, choose=random.Random(5).choice)
    report = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert report["ok"], report
    types = [e["type"] for e in (await client.get(f"/v1/games/{table.id}/events")).json()["events"]]
    assert types.count("seat_left") == 2


async def test_teams_change_before_the_start_by_the_seat_or_the_admin(client):
    table = await new_table(client, seats=4, start=False, game="danger-danger")
    teams = [s["team"] for s in (await table.state())["view"]["players"]]
    assert teams == ["pink", "yellow", "pink", "yellow"]
    r = await client.patch(
        f"/v1/games/{table.id}/players/0", json={"team": "yellow"}, headers=table.auth(0)
    )
    assert r.status_code == 200, r.text
    r = await client.patch(
        f"/v1/games/{table.id}/players/1", json={"team": "pink"}, headers=bearer(table.admin)
    )
    assert r.status_code == 200
    teams = [s["team"] for s in (await table.state())["view"]["players"]]
    assert teams == ["yellow", "pink", "pink", "yellow"]
    r = await client.patch(
        f"/v1/games/{table.id}/players/2", json={"team": "green"}, headers=table.auth(2)
    )
    assert r.status_code == 409 and r.json()["code"] == "no_such_team"
    other = await new_table(client, seats=2, start=False)
    r = await client.patch(
        f"/v1/games/{other.id}/players/0", json={"team": "pink"}, headers=other.auth(0)
    )
    assert r.status_code == 409 and r.json()["code"] == "no_teams"
    admin = bearer(table.admin)
    assert (await client.post(f"/v1/games/{table.id}/start", headers=admin)).status_code == 200
    assert (await client.get(f"/v1/games/{table.id}/audit")).json()["checks"]


async def test_a_new_token_replaces_the_old_at_once_in_every_process(valkey):
    first, second = make_app(valkey), make_app(valkey)
    async with (
        running(first),
        running(second),
        peer(first, "10.9.2.1") as one,
        peer(second, "10.9.2.1") as other,
    ):
        table = await new_table(one, seats=2)
        old = table.auth(0)
        legal = (await table.state(0))["legal"]
        # The other process holds the game, and the old token as valid.
        assert (await other.get(f"/v1/games/{table.id}", headers=old)).status_code == 200

        r = await one.post(f"/v1/games/{table.id}/players/0/token", headers=table.auth(1))
        assert r.status_code == 409 and r.json()["code"] == "not_your_seat"
        r = await one.post(f"/v1/games/{table.id}/players/0/token", headers=old)
        assert r.status_code == 201 and r.json()["seat"] == 0
        new = bearer(r.json()["token"])

        for client in (one, other):
            r = await client.post(f"/v1/games/{table.id}/commands", json=legal[0], headers=old)
            assert r.status_code == 401 and r.json()["code"] == "token_invalid"
            r = await client.get(f"/v1/games/{table.id}", headers=old)
            assert r.status_code == 401
        r = await other.post(f"/v1/games/{table.id}/commands", json=legal[0], headers=new)
        assert r.status_code == 200, r.text
        events = (await one.get(f"/v1/games/{table.id}/events")).json()["events"]
        assert "seat_token_reissued" in [e["type"] for e in events]
        assert all("token" not in str(e["data"]) for e in events)


async def test_the_admin_cannot_take_over_a_seat_in_play_to_read_its_hand(client):
    """High Voltage deals hands at the start: a token the admin could give a seated player's
    seat then would read that hand. Before the start it may (nothing is dealt yet); after it
    only the seat itself may ask for a new token, and every seat sees that it did."""
    table = await new_table(client, seats=3, game="high-voltage", start=False)
    admin = bearer(table.admin)
    r = await client.post(f"/v1/games/{table.id}/players/2/token", headers=admin)
    assert r.status_code == 201, r.text
    table.tokens[2] = r.json()["token"]
    assert (await client.post(f"/v1/games/{table.id}/start", headers=admin)).status_code == 200
    hand = (await table.state(1))["view"]["state"]
    for seat in (0, 1):
        r = await client.post(f"/v1/games/{table.id}/players/{seat}/token", headers=admin)
        assert r.status_code == 409 and r.json()["code"] == "seat_in_play", r.text
    # The seat itself may: the admin never held a token that reads its hand.
    r = await client.post(f"/v1/games/{table.id}/players/1/token", headers=table.auth(1))
    assert r.status_code == 201, r.text
    renewed = await client.get(f"/v1/games/{table.id}", headers=bearer(r.json()["token"]))
    assert renewed.json()["view"]["state"] == hand
    events = (await client.get(f"/v1/games/{table.id}/events", headers=table.auth(0))).json()
    reissued = [
        (e["data"], e["actor"]) for e in events["events"] if e["type"] == "seat_token_reissued"
    ]
    assert reissued == [({"seat": 2}, "admin"), ({"seat": 1}, "seat:1")]


async def test_a_token_replaced_while_a_check_reads_the_stored_hash_stays_replaced(valkey):
    """A process checks a seat's token against the stored hash (its fold had let go of the
    cached one); the admin replaces the token while that read is on its way back, and the
    process folds the replacement before the read's answer is used: the hash the read found
    is the replaced one, and the process must not keep it for the next check."""
    first, second = make_app(valkey), make_app(valkey)
    async with (
        running(first),
        running(second),
        peer(first, "10.9.2.2") as one,
        peer(second, "10.9.2.2") as other,
    ):
        table = await new_table(other, seats=2, start=False)
        admin = bearer(table.admin)
        r = await other.post(f"/v1/games/{table.id}/players/0/token", headers=admin)
        assert r.status_code == 201
        held = bearer(r.json()["token"])
        assert (await one.get(f"/v1/games/{table.id}")).status_code == 200  # folds the reissue

        store = first.state.service.store
        read, answer = asyncio.Event(), asyncio.Event()
        stored_secrets = store.secrets

        async def held_back(game_id: str) -> dict[str, str]:
            found = await stored_secrets(game_id)
            read.set()
            await answer.wait()
            return found

        store.secrets = held_back
        checking = asyncio.create_task(one.get(f"/v1/games/{table.id}", headers=held))
        await asyncio.wait_for(read.wait(), 30)
        store.secrets = stored_secrets
        r = await other.post(f"/v1/games/{table.id}/players/0/token", headers=admin)
        assert r.status_code == 201
        table.tokens[0] = r.json()["token"]
        assert (await one.get(f"/v1/games/{table.id}")).status_code == 200  # folds it
        answer.set()
        await asyncio.wait_for(checking, 30)  # checked against what the store held then

        r = await one.get(f"/v1/games/{table.id}", headers=held)
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
        r = await one.get(f"/v1/games/{table.id}/stream", headers=held)
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"
        assert (await other.post(f"/v1/games/{table.id}/start", headers=admin)).status_code == 200
        legal = (await table.state(0))["legal"]
        r = await one.post(f"/v1/games/{table.id}/commands", json=legal[0], headers=held)
        assert r.status_code == 401 and r.json()["code"] == "token_invalid"


async def test_a_seat_that_lost_the_answer_to_its_own_new_token_asks_again_with_its_key(client):
    """During play only the seat may ask for its new token, so a lost answer must not lock it
    out: the same request again (its key, its old token) answers the same new token, and the
    old token opens nothing else."""
    table = await new_table(client, seats=2, game="high-voltage")
    url = f"/v1/games/{table.id}/players/1/token"
    old, key = table.auth(1), {"Idempotency-Key": "rotate-1"}
    first = await client.post(url, headers={**old, **key})
    assert first.status_code == 201, first.text
    assert (await client.get(f"/v1/games/{table.id}", headers=old)).status_code == 401
    again = await client.post(url, headers={**old, **key})
    assert again.status_code == 201 and again.json()["token"] == first.json()["token"]
    new = bearer(first.json()["token"])
    assert (await client.get(f"/v1/games/{table.id}", headers=new)).json()["view"]["you"] == 1
    # The old token with another key, or another seat's token with this key: nothing.
    r = await client.post(url, headers={**old, "Idempotency-Key": "rotate-2"})
    assert r.status_code == 401 and r.json()["code"] == "token_invalid"
    r = await client.post(url, headers={**table.auth(0), **key})
    assert r.status_code == 409 and r.json()["code"] == "not_your_seat"
    # Once the seat has another token, the first request's is not given again.
    assert (await client.post(url, headers=new)).is_success
    r = await client.post(url, headers={**old, **key})
    assert r.status_code == 409 and r.json()["code"] == "seat_changed_hands"
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert [e["actor"] for e in events if e["type"] == "seat_token_reissued"] == ["seat:1"] * 2
