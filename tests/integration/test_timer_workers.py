"""Timers with real worker processes: two at once, and one killed and started again."""

import asyncio
import random
import signal

from litestar.testing import AsyncTestClient

from service.assembly.app import create_app
from service.infra.config import Settings
from tests.players import events_of, new_table
from tests.processes import worker
from tests.stores import with_queue


async def rang(client, game_id: str) -> list[tuple[int, int]]:
    events = await events_of(client, game_id)
    return [(e["data"]["round"], e["data"]["attempt"]) for e in events if e["type"] == "timer_rang"]


async def test_each_round_timer_rings_once_with_two_workers_and_one_killed(own_server):
    # Played as fast as the client can, from one address: no per-client limits.
    settings = Settings().replace(background=False, rate_limits=False, open_games_per_client=0)
    app = create_app(with_queue(settings, own_server), own_server.url)
    rng = random.Random(5)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, game="danger-danger", round_seconds=1.0)
        workers = [worker(own_server), worker(own_server)]
        try:
            for _ in range(3):
                # somewhere around a deadline, one worker dies; a new one takes its place
                await asyncio.sleep(rng.uniform(0.6, 1.4))
                victim = workers.pop(0)
                victim.send_signal(signal.SIGKILL)
                victim.wait()
                workers.append(worker(own_server))
            # nobody plays: the third timer-only replay ends the game (RULINGS, no_play)
            deadline = asyncio.get_running_loop().time() + 40
            while len(await rang(client, table.id)) < 3:
                assert asyncio.get_running_loop().time() < deadline, await rang(client, table.id)
                await asyncio.sleep(0.2)
        finally:
            for w in workers:
                w.send_signal(signal.SIGTERM)
            for w in workers:
                w.wait(timeout=20)
        rings = await rang(client, table.id)
        assert rings == [(1, 1), (1, 2), (1, 3)], rings  # each round timer rang once
        events = (await client.get(f"/v1/games/{table.id}/events")).json()["events"]
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert [e["type"] for e in events[-2:]] == ["game_abandoned", "seed_revealed"]
        assert events[-2]["data"] == {"reason": "no_play", "limit": None}
        assert (await client.get(f"/v1/games/{table.id}")).json()["status"] == "abandoned"


async def test_a_worker_alone_shows_its_timers_on_a_metrics_port_of_its_own(own_server):
    import httpx
    from prometheus_client.parser import text_string_to_metric_families

    from tests.integration.test_restart import free_port

    settings = Settings().replace(background=False, rate_limits=False, open_games_per_client=0)
    port = free_port()
    alone = worker(own_server, DANGER_METRICS_PORT=str(port))
    try:
        app = create_app(with_queue(settings, own_server), own_server.url)
        async with AsyncTestClient(app=app) as client:
            table = await new_table(client, seats=2, game="danger-danger", round_seconds=1.0)
            loop = asyncio.get_running_loop()
            deadline, rung = loop.time() + 30, 0.0
            async with httpx.AsyncClient(timeout=5) as http:
                while rung < 1:
                    assert loop.time() < deadline, "the worker's metrics showed no timer"
                    await asyncio.sleep(0.3)
                    try:
                        text = (await http.get(f"http://127.0.0.1:{port}/metrics")).text
                    except httpx.TransportError:
                        continue  # not listening yet
                    rung = sum(
                        s.value
                        for family in text_string_to_metric_families(text)
                        for s in family.samples
                        if s.name == "danger_timers_rung_total"
                        and s.labels == {"game": "danger-danger", "by": "worker"}
                    )
            assert await rang(client, table.id)
    finally:
        alone.send_signal(signal.SIGTERM)
        alone.wait(timeout=20)
