"""Hostile input: clear 4xx answers with stable codes, never a 500, never a state change."""

import pytest

from tests.players import new_table


async def seq_of(client, game_id: str) -> int:
    return (await client.get(f"/v1/games/{game_id}")).json()["seq"]


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 5000 + b"]" * 5000,  # deep
        b'{"type": "draw", "x": ' + b"[" * 3000 + b"]" * 3000 + b"}",
        b'{"type": "protect", "colour": ' + b'"' + b"r" * 60_000 + b'"}',  # huge, under 64 KiB
        b'{"type": 7}',
        b'{"type": "draw", "type": "end_turn"}',
        b"\xff\xfe\x00",
        b"null",
        b'{"type": "protect", "colour": null}',
    ],
)
async def test_hostile_bodies_get_a_4xx_and_change_nothing(client, body):
    table = await new_table(client, seats=2)
    before = await seq_of(client, table.id)
    r = await client.post(
        f"/v1/games/{table.id}/commands",
        content=body,
        headers={**table.auth(0), "content-type": "application/json"},
    )
    assert 400 <= r.status_code < 500, r.text
    assert r.headers["content-type"].startswith("application/problem+json") and r.json()["code"]
    assert await seq_of(client, table.id) == before


async def test_unicode_names_are_kept_as_sent_and_returned_as_json(client):
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    url = f"/v1/games/{r.json()['id']}/players"
    names = ["Zoë <script>", "名前😀"]
    for name in names:
        assert (await client.post(url, json={"name": name})).status_code == 201
    view = (await client.get(url.removesuffix("/players"))).json()["view"]
    assert [p["name"] for p in view["players"]] == names


async def test_a_seat_cannot_act_for_another_and_a_finished_game_takes_no_command(client):
    table = await new_table(client, seats=2)
    r = await table.send(1, {"type": "draw"})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    from tests.players import play_to_end

    await play_to_end(table)
    r = await table.send(0, {"type": "draw"})
    assert r.status_code == 409 and r.json()["code"] == "game_not_active"
