"""A seat chosen when joining, and a seat resigned from a game in play, over REST
(docs/rulings.md, "Names at a table" 5 and "Resigning")."""

from __future__ import annotations

from tests.conftest import wait_for
from tests.players import bearer, events_of, new_table


async def test_a_join_takes_the_seat_it_asks_for_and_a_taken_or_missing_seat_is_409(client):
    table = await new_table(client, seats=3, start=False, game="high-voltage")
    url = f"/v1/games/{table.id}/players"
    r = await client.post(url, json={"name": "late", "seat": 1})
    assert r.status_code == 409 and r.json()["code"] == "game_full", r.text
    r = await client.delete(f"{url}/1", headers=table.auth(1))
    assert r.status_code == 200, r.text
    r = await client.post(url, json={"name": "again", "seat": 2})
    assert r.status_code == 409 and r.json()["code"] == "seat_taken", r.text
    r = await client.post(url, json={"name": "again", "seat": 3})
    assert r.status_code == 409 and r.json()["code"] == "seat_out_of_range", r.text
    seats = (await table.state())["view"]["players"]
    assert [(s["seat"], s["name"]) for s in seats] == [(0, "p0"), (2, "p2")]
    r = await client.post(url, json={"name": "again", "seat": 1})
    assert r.status_code == 201 and r.json()["seat"] == 1, r.text
    player_joined = [e for e in await events_of(client, table.id) if e["type"] == "player_joined"]
    assert player_joined[-1]["data"]["seat"] == 1


async def test_a_resigned_seat_is_played_on_by_the_service_and_cannot_win(client):
    table = await new_table(client, seats=3)
    url = f"/v1/games/{table.id}/players"
    r = await client.post(f"{url}/1/resign", headers=bearer(table.admin))
    assert r.status_code == 409 and r.json()["code"] == "not_your_seat", r.text
    r = await client.post(f"{url}/1/resign", headers=table.auth(0))
    assert r.status_code == 409 and r.json()["code"] == "not_your_seat", r.text
    before = (await table.state())["seq"]

    # Seat 0 is to draw: it resigns, and its bot draws for it.
    r = await client.post(f"{url}/0/resign", headers=table.auth(0))
    assert r.status_code == 200, r.text
    assert r.headers["Danger-Receipt"] and r.json()["receipt"]["seq"] == before + 1
    seat = r.json()["view"]["players"][0]
    assert (seat["resigned"], seat["bot"]) == (True, "greedy")
    r = await client.get(f"/v1/games/{table.id}", headers=table.auth(0))
    assert r.status_code == 401 and r.json()["code"] == "token_invalid"

    async def moved() -> bool:
        events = await events_of(client, table.id)
        return any(e["actor"] == "seat:0" and e["seq"] > before + 1 for e in events)

    await wait_for(moved, timeout=30)

    # Seat 1 resigns too: seat 2 is the only one left that can win, and wins at once.
    r = await client.post(f"{url}/1/resign", headers=table.auth(1))
    assert r.status_code == 200, r.text
    state = await table.state()
    assert state["status"] == "finished" and state["view"]["state"]["winners"] == [2]
    assert state["view"]["seed"] is not None
    types = [e["type"] for e in await events_of(client, table.id)]
    assert types.count("seat_resigned") == 2 and types[-2:] == ["game_ended", "seed_revealed"]
    report = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert report["ok"], report
    r = await client.post(f"{url}/2/resign", headers=table.auth(2))
    assert r.status_code == 409 and r.json()["code"] == "game_not_active"


async def test_a_seat_resigns_only_a_game_in_play(client):
    table = await new_table(client, seats=2, start=False)
    r = await client.post(f"/v1/games/{table.id}/players/0/resign", headers=table.auth(0))
    assert r.status_code == 409 and r.json()["code"] == "game_not_active", r.text
    assert (await table.state())["seq"] == 3  # created, and two joins: nothing appended
