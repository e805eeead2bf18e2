"""A whole Danger game over the REST API, and what each reader sees of it."""

import random

from tests.players import new_table, play_to_end


async def test_a_three_player_game_plays_to_the_end_from_legal(client):
    table = await new_table(client, seats=3)
    rng = random.Random(7)
    sent = await play_to_end(table, choose=rng.choice)
    final = await table.state()
    assert final["status"] == "finished"
    state = final["view"]["state"]
    assert state["phase"] == "over" and state["round"] == 5
    assert state["winners"] == [
        s for s, t in enumerate(state["totals"]) if t == max(state["totals"])
    ]
    assert final["view"]["seed"] is not None  # revealed at the end
    assert final["legal"] == []
    r = await client.get(f"/v1/games/{table.id}/events")
    events = r.json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[-1]["type"] == "seed_revealed"
    assert sent > 20


async def test_the_seat_to_act_has_legal_moves_and_others_have_none(client):
    table = await new_table(client, seats=3)
    assert (await table.state(0))["legal"] == [{"type": "draw"}]
    assert (await table.state(1))["legal"] == []
    assert (await table.state())["legal"] == []


async def test_the_stack_order_is_hidden_until_the_game_ends(client):
    table = await new_table(client, seats=2)
    for reader in (None, 0, 1):
        headers = table.auth(reader) if reader is not None else {}
        r = await client.get(f"/v1/games/{table.id}/events", headers=headers)
        shuffled = [e for e in r.json()["events"] if e["type"] == "deck_shuffled"]
        assert shuffled and all(e["data"]["order"] is None for e in shuffled)
        view = (await table.state(reader))["view"]
        assert view["state"]["stack"] is None and view["seed"] is None
    await play_to_end(table)
    r = await client.get(f"/v1/games/{table.id}/events")
    shuffled = [e for e in r.json()["events"] if e["type"] == "deck_shuffled"]
    assert all(len(e["data"]["order"]) == e["data"]["size"] for e in shuffled)
