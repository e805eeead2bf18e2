"""The background heals itself: the store (a real valkey-server on a fixed port, its data
kept in its append-only file) is stopped under load and started again; bots, clocks and
projections come back by themselves, `/health` says what happened, nothing answered is lost,
and `danger worker` gives up only on a store that does not come back."""

import asyncio
import os
import signal
import time
from functools import partial
from pathlib import Path

import httpx
import pytest

from events.store import EventStore
from service.infra.embedded import EmbeddedValkey
from tests.conftest import make_app, on_socket
from tests.integration.test_restart import free_port
from tests.players import bot_table, new_table
from tests.processes import worker
from tests.stores import store_client

DOWN_SECONDS = 2.0  # how long the store stays away
HEAL_SECONDS = 10.0  # within this of its return, everything works again


def stop_store(server: EmbeddedValkey, how: signal.Signals) -> None:
    """The server's process ends by `how`; its data directory (and lock) are let go."""
    os.kill(server.pid, how)
    assert server._process is not None
    server._process.wait(timeout=10)
    server.stop()


async def wait_until(what: str, check, limit: float) -> None:
    while not await check():
        assert time.monotonic() < limit, what
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
async def test_after_the_store_comes_back_bots_move_clocks_ring_projections_catch_up(
    tmp_path: Path, how: signal.Signals
):
    server = EmbeddedValkey(tmp_path, port=free_port())  # it comes back on the same port
    server.start()
    answered: list[tuple[str, dict]] = []  # the last event of every command answered 200
    try:
        async with (
            on_socket(make_app(server)) as base,
            httpx.AsyncClient(base_url=base, timeout=15) as http,
        ):
            await wait_until(
                "not healthy at the start",
                lambda: _status(http, 200),
                time.monotonic() + 15,
            )
            bots = [await bot_table(http, think_ms=150) for _ in range(2)]
            clocks = [(await new_table(http, seats=2, turn_seconds=1)).id for _ in range(2)]
            tables = [await new_table(http, seats=2)]  # played by the load, one after another
            stop_load = asyncio.Event()

            async def load() -> None:
                """A client playing as fast as it can, through the outage; a new game when
                one ends."""
                while not stop_load.is_set():
                    try:
                        played = tables[-1]
                        state = await played.state()
                        if state["status"] != "active":
                            tables.append(await new_table(http, seats=2))
                            continue
                        seat = state["view"]["state"]["turn"]
                        legal = (await played.state(seat))["legal"]
                        r = await played.send(seat, legal[0])
                        if r.status_code == 200:
                            answered.append((played.id, r.json()["events"][-1]))
                        elif r.status_code < 500:
                            assert r.status_code == 409, r.text  # a turn passed meanwhile
                    except (AssertionError, httpx.HTTPError) as exc:
                        if isinstance(exc, AssertionError) and "409" in str(exc):
                            raise
                        await asyncio.sleep(0.05)  # the store is away: try again

            loading = asyncio.create_task(load())
            await asyncio.sleep(1.5)
            stop_store(server, how)
            # While it is away /health says so, with 503.
            r = await http.get("/health")
            assert r.status_code == 503 and r.json()["status"] == "degraded", r.text
            assert r.json()["redis"] == "unreachable"
            # A read or a command meanwhile is the store's absence, not the server's failure.
            played = tables[-1]
            r = await http.get(f"/v1/games/{played.id}")
            assert r.status_code == 503 and r.json()["code"] == "store_unavailable", r.text
            assert r.headers["Retry-After"] == "1"
            r = await played.send(0, {"type": "draw"})
            assert r.status_code == 503 and r.json()["code"] == "store_unavailable", r.text
            await asyncio.sleep(DOWN_SECONDS)
            server.start()
            back = time.monotonic()
            redis = await store_client(server.url)
            store = EventStore(redis)
            at_return = {g: len(await store.read_raw(g)) for g in [*bots, *clocks]}

            async def moved(game_id: str) -> bool:
                return len(await store.read_raw(game_id)) > at_return[game_id]

            healed = back + HEAL_SECONDS
            for game_id in bots:
                await wait_until(f"bot game {game_id} stuck", partial(moved, game_id), healed)
            for game_id in clocks:
                await wait_until(f"clock of {game_id} silent", partial(moved, game_id), healed)
            await wait_until("not healthy again", lambda: _status(http, 200), healed)
            stop_load.set()
            await loading
            played = tables[-1]
            final = len(await store.read_raw(played.id))

            async def lobby_caught_up() -> bool:
                r = await http.get(f"/v1/games/{played.id}")
                status = r.json()["status"]
                r = await http.get("/v1/games", params={"status": status, "limit": 100})
                entry = [g for g in r.json()["games"] if g["id"] == played.id]
                return bool(entry) and entry[0]["seq"] == final

            await wait_until("the lobby did not catch up", lobby_caught_up, healed)
            health = (await http.get("/health")).json()
            assert {t["state"] for t in health["tasks"].values()} == {"running"}, health
            assert health["tasks"]["worker"]["restarts"] >= 1, health  # it did fail, and heal
            assert health["worker"] is not None

            # Nothing answered is lost: every acknowledged event is stored as answered.
            assert answered, "the load was never answered"
            stored = {}
            for table in tables:
                events = (await http.get(f"/v1/games/{table.id}/events")).json()["events"]
                stored.update({(table.id, e["seq"]): e["hash"] for e in events})
            lost = [(g, e) for g, e in answered if stored.get((g, e["seq"])) != e["hash"]]
            assert lost == [], lost
            await redis.aclose()
    finally:
        server.stop()


async def _status(http: httpx.AsyncClient, code: int) -> bool:
    try:
        return (await http.get("/health")).status_code == code
    except httpx.HTTPError:
        return False


def test_danger_worker_outlives_a_store_restart_and_exits_1_when_the_store_stays_away(tmp_path):
    server = EmbeddedValkey(tmp_path / "valkey", port=free_port())
    server.start()
    give_up = 4.0
    log = tmp_path / "worker.log"
    proc = worker(server, log, DANGER_GIVE_UP_SECONDS=str(give_up))
    try:
        time.sleep(2)
        stop_store(server, signal.SIGKILL)
        time.sleep(give_up / 2)  # away for less than the give-up time
        server.start()
        time.sleep(give_up + 2)  # long enough to have given up, had it kept failing
        assert proc.poll() is None, log.read_text()[-3000:]
        stop_store(server, signal.SIGKILL)  # and now for good
        went = time.monotonic()
        assert proc.wait(timeout=give_up + 10) == 1
        assert time.monotonic() - went >= give_up  # it tried for the whole give-up time
        assert "without a break" in log.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        server.stop()
