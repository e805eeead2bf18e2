"""High Voltage over the REST API: whole games at every seat count and in team mode, and
what each reader sees of a hand and a draft pick."""

import random

import pytest

from tests.players import new_table, play_to_end


@pytest.mark.parametrize(
    ("seats", "options"),
    [(2, {}), (3, {}), (4, {}), (5, {}), (4, {"teams": True, "tiebreak_round": True})],
)
async def test_games_play_to_the_end_by_clients_choosing_among_legal(client, seats, options):
    table = await new_table(client, seats=seats, game="high-voltage", **options)
    await play_to_end(table, choose=random.Random(seats).choice)
    final = (await table.state())["view"]
    state = final["state"]
    assert final["status"] == "finished" and state["phase"] == "over"
    assert state["round"] >= 3 and state["winners"]
    if options.get("teams"):
        assert state["team_totals"] == [
            state["totals"][0] + state["totals"][2],
            state["totals"][1] + state["totals"][3],
        ]
    assert state["hands"] is not None  # the auditor's view, open to all once it is over


async def test_a_seat_sees_its_own_hand_and_only_the_count_of_others(client):
    table = await new_table(client, seats=3, game="high-voltage")
    mine = (await table.state(0))["view"]["state"]
    other = (await table.state(1))["view"]["state"]
    spectator = (await table.state())["view"]["state"]
    assert len(mine["choose_from"]) == 9 and mine["choose_from"] != other["choose_from"]
    assert spectator["choose_from"] is None and spectator["hand"] is None
    assert spectator["hands"] is None and spectator["undealt"] is None
    assert len((await table.state(0))["legal"]) == 84


async def test_a_pick_stays_hidden_from_the_others_until_everyone_has_picked(client):
    table = await new_table(client, seats=3, game="high-voltage")
    pick = (await table.state(0))["legal"][0]
    r = await table.send(0, pick)
    assert r.status_code == 200
    assert r.json()["events"][0]["data"]["cards"] == pick["cards"]
    for reader in (1, 2, None):
        headers = table.auth(reader) if reader is not None else {}
        events = (await client.get(f"/v1/games/{table.id}/events", headers=headers)).json()
        picked = [e for e in events["events"] if e["type"] == "cards_picked"]
        assert picked and all(e["data"]["cards"] is None for e in picked)
        dealt = [e for e in events["events"] if e["type"] == "hand_dealt"]
        assert all((e["data"]["cards"] is None) == (e["data"]["seat"] != reader) for e in dealt)
        state = (await table.state(reader))["view"]["state"]
        assert state["picked"] == [True, False, False]
    r = await table.send(0, pick)
    assert r.status_code == 409 and r.json()["code"] == "already_picked"


async def test_a_secret_event_cannot_be_guessed_from_its_hash(client):
    """Two seats, 20 cards: the other hand is one of 55 combinations of the 11 cards a seat
    does not hold. Without the (secret) salt, hashing each would find it."""
    from itertools import combinations

    from events.envelope import digest

    table = await new_table(client, seats=2, game="high-voltage")
    events = (await client.get(f"/v1/games/{table.id}/events", headers=table.auth(0))).json()
    dealt = next(
        e for e in events["events"] if e["type"] == "hand_dealt" and e["data"]["seat"] == 1
    )
    assert dealt["data"]["cards"] is None and dealt["salt"] is None
    mine = next(e for e in events["events"] if e["type"] == "hand_dealt" and e["data"]["seat"] == 0)
    unseen = sorted(
        set(range(10, 15)) | set(range(20, 25)) | set(range(30, 35)) | set(range(40, 45))
    )
    unseen = [c for c in unseen if c not in mine["data"]["cards"]]
    game = table.id
    for guess in combinations(unseen, 9):
        fields = {k: v for k, v in dealt.items() if k != "hash"} | {"game": game}
        fields["data"] = {"seat": 1, "cards": list(guess)}
        assert digest(fields) != dealt["hash"]
