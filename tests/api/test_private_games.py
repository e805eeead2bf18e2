"""Private games: out of the lobby, joined only with the invite, and a join without it is
told nothing the unknown game would not tell."""

from __future__ import annotations

import random

from tests.players import Table, play_to_end
from tests.projections import caught_up


async def test_a_private_game_is_invisible_in_the_lobby_and_unjoinable_without_its_invite(
    client,
):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2, "visibility": "private"})
    assert r.status_code == 201, r.text
    created = r.json()
    invite, game = created["invite"], created["id"]
    assert invite
    public = (await client.post("/v1/games", json={"game": "danger", "seats": 2})).json()
    assert public["invite"] is None

    unknown = await client.post("/v1/games/nosuchgame00/players", json={"name": "Eve"})
    for body in ({"name": "Eve"}, {"name": "Eve", "invite": invite[:-2] + "xx"}):
        r = await client.post(f"/v1/games/{game}/players", json=body)
        assert r.status_code == 404 and r.json()["code"] == unknown.json()["code"]
        assert r.json()["detail"].replace(game, "?") == unknown.json()["detail"].replace(
            "nosuchgame00", "?"
        )

    table = Table(client, game, created["admin_token"])
    for name in ("Ann", "Bob"):
        r = await client.post(f"/v1/games/{game}/players", json={"name": name, "invite": invite})
        assert r.status_code == 201, r.text
        table.tokens.append(r.json()["token"])
    r = await client.post(
        f"/v1/games/{game}/start", headers={"Authorization": f"Bearer {table.admin}"}
    )
    assert r.status_code == 200
    await play_to_end(table, choose=random.Random(1).choice)

    await caught_up(client)
    seen = set()
    for status in ("open", "active", "finished", None):
        query = f"?status={status}&limit=100" if status else "?limit=100"
        seen |= {g["id"] for g in (await client.get(f"/v1/games{query}")).json()["games"]}
    assert public["id"] in seen and game not in seen
    report = (await client.get(f"/v1/games/{game}/audit")).json()
    assert report["ok"], report
