"""Danger 13 over the REST API: whole games at every seat count, and what each reader sees."""

import random

import pytest

from tests.domain.danger_13.scenario import stack
from tests.players import new_table, play_to_end


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
async def test_games_play_to_the_end_by_clients_choosing_among_legal(client, seats):
    table = await new_table(client, seats=seats, game="danger-13")
    await play_to_end(table, choose=random.Random(seats).choice)
    view = (await table.state())["view"]
    state = view["state"]
    assert view["status"] == "finished" and state["phase"] == "over" and state["final"]
    assert state["winners"] and state["plus_signs"] is not None


async def test_rows_are_public_won_cards_are_their_owners_and_the_packet_is_hidden(client):
    table = await new_table(
        client, seats=2, game="danger-13", stack=stack("++", "4", "+2", "3", "1", "2")
    )
    assert (await table.state(0))["legal"] == [
        {"type": "give", "seat": 0},
        {"type": "give", "seat": 1},
    ]
    r = await table.send(0, {"type": "give", "seat": 1})  # seat 1 wins ++ at once; 4 to seat 0
    assert r.status_code == 200
    for reader in (None, 0, 1):
        state = (await table.state(reader))["view"]["state"]
        assert state["rows"] == [["4"], []]
        assert state["won_counts"] == [0, 1]
        assert state["won"] == (["++"] if reader == 1 else [] if reader == 0 else None)
        assert state["packet"] is None and state["pile"] is None
        assert state["revealed"] == "+2"  # the next packet's top card, face up
        headers = table.auth(reader) if reader is not None else {}
        events = (await client.get(f"/v1/games/{table.id}/events", headers=headers)).json()
        drawn = [e for e in events["events"] if e["type"] == "packet_drawn"]
        assert drawn and all(e["data"]["cards"] is None for e in drawn)


async def test_only_the_dealer_gives_and_only_to_a_seat_without_a_card(client):
    table = await new_table(client, seats=3, game="danger-13", stack=stack("1", "2", "3"))
    r = await table.send(1, {"type": "give", "seat": 2})
    assert r.status_code == 409 and r.json()["code"] == "not_the_dealer"
    assert (await table.send(0, {"type": "give", "seat": 2})).status_code == 200
    r = await table.send(0, {"type": "give", "seat": 2})
    assert r.status_code == 409 and r.json()["code"] == "already_received"
    assert (await table.state(0))["legal"] == [
        {"type": "give", "seat": 0},
        {"type": "give", "seat": 1},
    ]
