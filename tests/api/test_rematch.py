"""Play again: a finished game's table is offered one new game of the same kind, seats,
options and visibility, made once whoever asks and through whichever process
(service/play/rematch.py)."""

from __future__ import annotations

import asyncio

from tests.conftest import make_app, peer, running
from tests.players import Table, bearer, new_table


async def finished_by_resignation(client, **options) -> Table:
    """A Danger game of two seats that seat 1 resigned: seat 0 won."""
    table = await new_table(client, seats=2, **options)
    r = await client.post(f"/v1/games/{table.id}/players/1/resign", headers=table.auth(1))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    return table


async def test_the_table_of_a_finished_game_gets_one_new_game_whoever_asks_and_wherever(valkey):
    first, second = make_app(valkey), make_app(valkey)
    async with (
        running(first),
        running(second),
        peer(first, "10.9.3.1") as one,
        peer(second, "10.9.3.2") as other,
    ):
        table = await new_table(one, seats=2, turn_seconds=45)
        url = f"/v1/games/{table.id}/rematch"
        r = await one.post(url, headers=table.auth(0))
        assert r.status_code == 409 and r.json()["code"] == "game_not_over", r.text
        r = await one.post(f"/v1/games/{table.id}/players/1/resign", headers=table.auth(1))
        assert r.status_code == 200, r.text
        assert "rematch" not in (await one.get(f"/v1/games/{table.id}")).json()
        assert (await one.post(url)).json()["code"] == "token_missing"
        elsewhere = await new_table(one, seats=2, start=False)
        r = await one.post(url, headers=elsewhere.auth(0))
        assert r.status_code == 403 and r.json()["code"] == "token_for_other_game"

        asks = [
            (client, headers)
            for client in (one, other)
            for headers in (table.auth(0), bearer(table.admin))
            for _ in range(2)
        ]
        answers = await asyncio.gather(*(c.post(url, headers=h) for c, h in asks))
        assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
        made = {r.json()["id"] for r in answers}
        assert len(made) == 1 and table.id not in made
        new_id = made.pop()
        keys = [r.json()["admin_token"] for r in answers if "admin_token" in r.json()]
        assert len(keys) == 1, "the admin token is given once"
        again = (await other.post(url, headers=table.auth(0))).json()
        assert again["id"] == new_id and "admin_token" not in again
        assert (await other.get(f"/v1/games/{table.id}")).json()["rematch"] == new_id

        new = (await one.get(f"/v1/games/{new_id}")).json()
        old = (await one.get(f"/v1/games/{table.id}")).json()
        assert (new["game"], new["status"], new["view"]["seats"]) == ("danger", "open", 2)
        assert new["view"]["options"] == old["view"]["options"]
        assert new["view"]["options"]["turn_seconds"] == 45
        # The former seats take their old seats; the one who made it starts it.
        for seat in (1, 0):
            body = {"name": f"p{seat}", "seat": seat}
            r = await other.post(f"/v1/games/{new_id}/players", json=body)
            assert r.status_code == 201 and r.json()["seat"] == seat, r.text
        r = await one.post(f"/v1/games/{new_id}/start", headers=bearer(keys[0]))
        assert r.status_code == 200 and r.json()["status"] == "active", r.text


async def test_a_private_games_rematch_is_private_and_its_maker_gets_the_invite(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2, "visibility": "private"})
    created = r.json()
    game, invite, admin = created["id"], created["invite"], bearer(created["admin_token"])
    tokens = []
    for seat in range(2):
        body = {"name": f"p{seat}", "invite": invite}
        r = await client.post(f"/v1/games/{game}/players", json=body)
        tokens.append(bearer(r.json()["token"]))
    assert (await client.post(f"/v1/games/{game}/start", headers=admin)).status_code == 200
    r = await client.post(f"/v1/games/{game}/players/0/resign", headers=tokens[0])
    assert r.json()["status"] == "finished"
    r = await client.post(f"/v1/games/{game}/rematch", headers=tokens[1])
    assert r.status_code == 200, r.text
    new_id, new_invite = r.json()["id"], r.json()["invite"]
    r = await client.post(f"/v1/games/{new_id}/players", json={"name": "x"})
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    r = await client.post(f"/v1/games/{new_id}/players", json={"name": "x", "invite": new_invite})
    assert r.status_code == 201, r.text
    r = await client.post(f"/v1/games/{game}/rematch", headers=admin)
    assert r.json()["id"] == new_id and "invite" not in r.json()


async def test_a_rematch_counts_among_the_open_games_of_the_client_that_makes_it(valkey):
    capped = make_app(valkey, open_games_per_client=1)
    async with running(capped), peer(capped, "10.9.3.7") as one, peer(capped, "10.9.3.8") as two:
        table = await finished_by_resignation(one)
        await new_table(one, seats=2, start=False)  # one holds its one open game
        r = await one.post(f"/v1/games/{table.id}/rematch", headers=table.auth(0))
        assert r.status_code == 409 and r.json()["code"] == "too_many_open_games", r.text
        assert "rematch" not in (await one.get(f"/v1/games/{table.id}")).json()
        r = await two.post(f"/v1/games/{table.id}/rematch", headers=bearer(table.admin))
        assert r.status_code == 200 and "admin_token" in r.json(), r.text
