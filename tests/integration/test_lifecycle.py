"""Games end: the admin abandons an open game, an open game not started in time and an idle
game expire, and an over-long log is cut (docs/rulings.md, "Liveness and lifecycle"). Each ends
with `game_abandoned`, its log revealed, and the lobby and the audit know it."""

from __future__ import annotations

import asyncio

import pytest
from litestar.testing import AsyncTestClient

from service.infra.embedded import EmbeddedValkey
from tests.conftest import make_app, peer, running, wait_for
from tests.integration.test_lobby_and_stream import lobby_entry
from tests.players import events_of, new_table


async def ended(client, game_id: str, timeout: float = 20) -> list[dict]:
    async def over():
        state = (await client.get(f"/v1/games/{game_id}")).json()
        return state["status"] == "abandoned"

    await wait_for(over, timeout)
    return await events_of(client, game_id)


async def test_the_admin_abandons_an_open_game(client):
    table = await new_table(client, seats=3, start=False)
    admin = {"Authorization": f"Bearer {table.admin}"}
    r = await client.post(f"/v1/games/{table.id}/abandon", headers=admin)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "abandoned" and r.json()["legal"] == []
    log = await events_of(client, table.id)
    assert [e["type"] for e in log[-2:]] == ["game_abandoned", "seed_revealed"]
    assert log[-2]["data"] == {"reason": "admin", "limit": None}
    # Over: nobody joins or starts it, and it leaves the lobby's open games.
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "late"})
    assert r.status_code == 409 and r.json()["code"] == "game_not_open"
    r = await client.post(f"/v1/games/{table.id}/start", headers=admin)
    assert r.status_code == 409
    await wait_for(await lobby_entry(client, table.id, seq=log[-1]["seq"], status="abandoned"))
    r = await client.get("/v1/games", params={"status": "open", "limit": 100})
    assert table.id not in [g["id"] for g in r.json()["games"]]
    report = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert report["ok"] and report["finished"], report


async def test_only_the_admin_abandons_and_only_before_the_start(valkey):
    """The admin, or without a token the client that created the game
    (tests/api/test_own_games.py): not a seat, not another client."""
    app = make_app(valkey, background=False)
    async with running(app), peer(app, "10.9.6.1") as client, peer(app, "10.9.6.2") as another:
        table = await new_table(client, seats=2, start=False)
        url = f"/v1/games/{table.id}/abandon"
        assert (await another.post(url)).json()["code"] == "token_missing"
        r = await client.post(url, headers=table.auth(0))
        assert r.status_code == 403 and r.json()["code"] == "admin_only"
        await client.post(
            f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
        )
        before = (await table.state())["seq"]
        r = await client.post(url, headers={"Authorization": f"Bearer {table.admin}"})
        assert r.status_code == 409 and r.json()["code"] == "game_not_open"
        assert (await table.state())["seq"] == before


async def test_an_open_game_not_started_in_time_ends_as_abandoned(tmp_path):
    # A server of its own: every process sharing one must share `open_hours` too, and the
    # session's app keeps the default.
    valkey = EmbeddedValkey(tmp_path)
    valkey.start()
    app = make_app(valkey, open_hours=2 / 3600, sweep_seconds=0.1)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, start=False)
        log = await ended(client, table.id)
        assert log[-2]["type"] == "game_abandoned" and log[-2]["actor"] == "server"
        assert log[-2]["data"] == {"reason": "not_started", "limit": pytest.approx(2 / 3600)}
        assert log[-1]["type"] == "seed_revealed"
        report = (await client.get(f"/v1/games/{table.id}/audit")).json()
        assert report["ok"], report
    valkey.stop()


async def test_an_idle_game_ends_as_abandoned_and_a_command_keeps_it_alive(valkey):
    app = make_app(valkey, sweep_seconds=0.1)
    async with AsyncTestClient(app=app) as client:
        idle = 0.05  # minutes: 3 s
        table = await new_table(client, seats=2, idle_minutes=idle)
        await asyncio.sleep(2)
        assert (await table.send(0, {"type": "draw"})).status_code == 200  # activity
        await asyncio.sleep(2)
        assert (await table.state())["status"] == "active", "a command restarts the count"
        log = await ended(client, table.id)
        abandoned = log[-2]
        assert abandoned["type"] == "game_abandoned"
        assert abandoned["data"] == {"reason": "idle", "limit": idle}
        # A finished game's view: everything shown, no winner.
        view = (await table.state())["view"]
        assert view["seed"] is not None
        r = await table.send(1, {"type": "draw"})
        assert r.status_code == 409 and r.json()["code"] == "game_not_active"
        report = (await client.get(f"/v1/games/{table.id}/audit")).json()
        assert report["ok"], report


async def test_a_log_that_reaches_max_events_ends_the_game(valkey):
    async with AsyncTestClient(app=make_app(valkey, max_events=30)) as client:
        table = await new_table(client, seats=2)
        refused = None
        for _ in range(40):
            state = await table.state()
            if state["status"] != "active":
                break
            seat = state["view"]["state"]["turn"]
            legal = (await table.state(seat))["legal"]
            r = await table.send(seat, legal[0])
            if r.status_code != 200:
                refused = r
                break
        log = await events_of(client, table.id)
        assert log[-2]["type"] == "game_abandoned", [e["type"] for e in log[-4:]]
        assert log[-2]["data"] == {"reason": "max_events", "limit": 30}
        assert log[-2]["seq"] >= 29 and log[-1]["seq"] <= 40
        assert refused is None or refused.json()["code"] == "game_not_active"
        report = (await client.get(f"/v1/games/{table.id}/audit")).json()
        assert report["ok"], report


async def test_a_danger_danger_game_nobody_plays_ends_as_abandoned(client):
    """Measured before: attempt 138 of one round after 90 s with round_seconds 0.5."""
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=0.5)
    log = await ended(client, table.id, timeout=30)
    assert [e["type"] for e in log].count("timer_rang") == 3
    assert log[-2]["type"] == "game_abandoned" and log[-2]["data"]["reason"] == "no_play"
    report = (await client.get(f"/v1/games/{table.id}/audit")).json()
    assert report["ok"], report
