"""Danger Danger over the REST API: whole games with a short round timer, teams joining,
and two clients hammering one game from both teams at once."""

import asyncio
import itertools
import random
import time

import pytest

from tests.players import new_table


async def play_until_over(table, seed: int, budget: float = 60.0) -> int:
    """Every seat keeps sending one of its legal commands (skipping go_out most of the
    time, so rounds also end by the timer) until the game is over."""
    rng = random.Random(seed)
    sent = 0
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        if (await table.state())["status"] == "finished":
            return sent
        for seat in range(len(table.tokens)):
            legal = (await table.state(seat))["legal"]
            moves = [m for m in legal if m["type"] != "go_out" or rng.random() < 0.2]
            if moves:
                r = await table.send(seat, rng.choice(moves))
                assert r.status_code in (200, 409), r.text  # 409: the other team moved first
                sent += 1
        await asyncio.sleep(0.01)
    raise AssertionError("the game did not end in time")


@pytest.mark.parametrize("seats", [2, 4])
async def test_games_run_to_the_end_with_a_short_round_timer(client, seats):
    table = await new_table(client, seats=seats, game="danger-danger", round_seconds=0.7)
    await play_until_over(table, seats)
    view = (await table.state())["view"]
    state = view["state"]
    assert view["status"] == "finished" and state["winner"] in ("pink", "yellow")
    assert max(state["tokens"].values()) == 3
    if seats == 4:
        assert state["teams"]["pink"]["seats"] == [0, 2] and state["teams"]["yellow"]["seats"] == [
            1,
            3,
        ]


async def test_a_seat_joins_the_team_it_asks_for(client):
    r = await client.post("/v1/games", json={"game": "danger-danger", "seats": 3})
    game = r.json()
    url = f"/v1/games/{game['id']}/players"
    assert (await client.post(url, json={"name": "a", "team": "yellow"})).json()["seat"] == 0
    r = await client.post(url, json={"name": "b", "team": "green"})
    assert r.status_code == 409 and r.json()["code"] == "no_such_team"
    await client.post(url, json={"name": "b", "team": "yellow"})
    await client.post(url, json={"name": "c", "team": "pink"})
    r = await client.get(f"/v1/games/{game['id']}")
    assert [p["team"] for p in r.json()["view"]["players"]] == ["yellow", "yellow", "pink"]
    r = await client.post("/v1/games", json={"game": "danger", "seats": 2})
    other = f"/v1/games/{r.json()['id']}/players"
    r = await client.post(other, json={"name": "x", "team": "pink"})
    assert r.status_code == 409 and r.json()["code"] == "no_teams"


async def test_two_clients_hammering_one_game_lose_and_duplicate_nothing(client):
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=600)
    accepted: list[dict] = []

    async def hammer(seat: int, seed: int) -> None:
        rng = random.Random(seed)
        stop = time.monotonic() + 3.0
        while time.monotonic() < stop:
            legal = (await table.state(seat))["legal"]
            moves = [m for m in legal if m["type"] != "go_out"]
            if not moves:
                await asyncio.sleep(0.005)
                continue
            r = await table.send(seat, rng.choice(moves))
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200:
                accepted.extend(r.json()["events"])
            else:
                assert r.json()["code"] in ("stack_changed", "does_not_fit", "pile_empty")

    await asyncio.gather(hammer(0, 1), hammer(1, 2))
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    for before, after in itertools.pairwise(events):
        assert after["prev"] == before["hash"]
    by_seq = {e["seq"]: e for e in events}
    assert all(by_seq[e["seq"]]["hash"] == e["hash"] for e in accepted)  # none lost
    plays = [e for e in events if e["type"] in ("card_played", "stack_started", "card_trashed")]
    assert len(plays) > 20
    assert len({e["seq"] for e in accepted}) == len(accepted)  # none twice
    # every card played went on a stack whose top it fitted at that moment
    state = (await table.state())["view"]["state"]
    on_stacks = sum(len(s) for s in state["stacks"])
    trashed = sum(len(t["trashed"]) for t in state["teams"].values())
    assert on_stacks + trashed == 6 + len(plays)
