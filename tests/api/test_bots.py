"""Bot seats: played by the service's workers through the same command path as players."""

import asyncio
import random

import pytest

from tests.players import Table

GAMES = [
    ("danger", 2, {}),
    ("high-voltage", 3, {}),
    ("danger-13", 2, {}),
    ("danger-danger", 2, {"round_seconds": 30}),
]


async def open_table(client, game: str, seats: int, options: dict) -> Table:
    r = await client.post("/v1/games", json={"game": game, "seats": seats, "options": options})
    assert r.status_code == 201, r.text
    return Table(client, r.json()["id"], r.json()["admin_token"])


async def add_bot(table: Table, name: str, bot: str, think_ms: int = 0) -> dict:
    r = await table.client.post(
        f"/v1/games/{table.id}/players", json={"name": name, "bot": bot, "think_ms": think_ms}
    )
    assert r.status_code == 201, r.text
    return r.json()


async def start(table: Table) -> None:
    r = await table.client.post(
        f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
    )
    assert r.status_code == 200, r.text


async def finished(table: Table, seconds: float = 60) -> dict:
    for _ in range(int(seconds / 0.05)):
        state = await table.state()
        if state["status"] == "finished":
            return state
        await asyncio.sleep(0.05)
    raise AssertionError(f"the game did not finish in {seconds} s: {state}")


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g for g, *_ in GAMES])
async def test_a_table_of_bots_plays_itself_to_the_end_and_passes_the_audit(
    client, game, seats, options
):
    table = await open_table(client, game, seats, options)
    for seat in range(seats):
        joined = await add_bot(table, f"bot{seat}", "greedy" if seat == 0 else "random")
        assert joined["token"] is None, "nobody may play a bot's seat"
    await start(table)
    state = await finished(table)
    assert [p["bot"] for p in state["view"]["players"]] == ["greedy"] + ["random"] * (seats - 1)
    events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
    movers = {e["actor"] for e in events if e.get("cause") and e["actor"].startswith("seat:")}
    assert movers == {f"seat:{s}" for s in range(seats)}, "every bot moved as its own seat"
    audit = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert audit["ok"], audit


async def test_a_player_plays_against_a_bot_which_waits_its_think_delay(client):
    table = await open_table(client, "danger", 2, {})
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "Anton"})
    table.tokens.append(r.json()["token"])
    await add_bot(table, "Robo", "greedy", think_ms=300)
    await start(table)
    dice = random.Random(7)
    answered = 0
    while answered < 3:
        state = await table.state(0)
        assert state["status"] == "active"
        if not state["legal"]:
            await asyncio.sleep(0.05)
            continue
        r = await table.send(0, dice.choice(state["legal"]))
        assert r.status_code == 200, r.text
        after = await table.state(0)
        if after["legal"] or after["status"] != "active":
            continue
        # Our move handed the turn to the bot: it waits its think delay, then plays.
        await asyncio.sleep(0.1)
        assert (await table.state())["seq"] == after["seq"], "the bot waits its think delay"
        for _ in range(100):
            await asyncio.sleep(0.05)
            if (await table.state())["seq"] > after["seq"]:
                break
        else:
            raise AssertionError("the bot did not play")
        answered += 1


async def test_bad_bot_requests_are_refused_and_change_nothing(client):
    table = await open_table(client, "danger", 2, {})
    url = f"/v1/games/{table.id}/players"
    for body, status, code in [
        ({"name": "x", "bot": "genius"}, 400, "invalid_body"),
        ({"name": "x", "bot": "random", "think_ms": "100"}, 400, "invalid_body"),
        ({"name": "x", "bot": "random", "think_ms": -1}, 422, "think_ms_out_of_range"),
        ({"name": "x", "bot": "random", "think_ms": 30_001}, 422, "think_ms_out_of_range"),
        ({"name": "x", "think_ms": 100}, 422, "think_without_bot"),
    ]:
        r = await client.post(url, json=body)
        assert r.status_code == status, (body, r.text)
        if code:
            assert r.json()["code"] == code
    assert (await table.state())["view"]["players"] == []


async def test_a_bot_does_not_move_in_a_game_that_has_not_started(client):
    table = await open_table(client, "danger", 2, {})
    await add_bot(table, "Robo", "random")
    await asyncio.sleep(0.3)
    state = await table.state()
    assert state["status"] == "open" and state["seq"] == 2
