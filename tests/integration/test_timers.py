"""Timers fired by arq workers: Danger Danger's hidden round timer, exactly once."""

import asyncio

from arq import create_pool
from arq.connections import RedisSettings

from events.store import EventStore
from service.assembly.runtime import command_path
from service.jobs.worker import build_worker
from tests.players import events_of, new_table
from tests.stores import Unscheduled, queue_of, store_client


async def wait_for_type(client, game_id: str, kind: str, count: int = 1, timeout: float = 15):
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        found = [e for e in await events_of(client, game_id) if e["type"] == kind]
        if len(found) >= count:
            return found
        assert asyncio.get_running_loop().time() < deadline, f"no {kind} in time"
        await asyncio.sleep(0.1)


async def test_the_round_timer_rings_through_the_worker_and_costs_the_teams_still_in(client):
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=0.6)
    r = await table.send(0, {"type": "go_out"})  # pink is out; yellow plays on
    assert r.status_code == 200
    rang = await wait_for_type(client, table.id, "timer_rang")
    scored = await wait_for_type(client, table.id, "round_scored")
    assert rang[0]["actor"] == "server"
    assert scored[0]["data"]["reason"] == "timer" and scored[0]["data"]["winner"] == "pink"
    state = (await table.state())["view"]["state"]
    assert state["round"] == 2 and state["tokens"] == {"pink": 1, "yellow": 0}


async def test_no_view_or_event_shows_the_round_timer(client):
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=30)
    for reader in (None, 0, 1):
        game = await table.state(reader)
        assert game["clocks"] == []
        text = str(game)
        assert "deadline" not in text and "round:1:1" not in text
    for event in await events_of(client, table.id):
        assert "deadline" not in str(event["data"])


async def test_a_timer_fired_twice_or_by_two_workers_takes_effect_once(client, valkey):
    table = await new_table(client, seats=2, game="danger-danger", round_seconds=1)
    game_id = table.id
    timer_id = next(iter(client.app.state.service.repository.cache[game_id].table.timer_ids()))
    await asyncio.sleep(1.2)  # past the deadline: a copy that came early would wait for it
    queue = f"test:{game_id}"  # a queue of its own: the service's holds deferred timers
    pool = await create_pool(RedisSettings.from_dsn(queue_of(valkey)), default_queue_name=queue)
    for copy in range(4):  # four deliveries of the same timer, as retries would make
        await pool.enqueue_job("fire_timer", game_id, timer_id, _job_id=f"copy:{game_id}:{copy}")
    redis_a, redis_b = await store_client(valkey.url), await store_client(valkey.url)
    workers = [
        build_worker(
            queue_of(valkey),
            command_path(EventStore(r), Unscheduled())[1],
            queue,
            burst=True,
            poll_delay=0.05,
        )
        for r in (redis_a, redis_b)
    ]
    await asyncio.gather(*(w.main() for w in workers))
    for w in workers:
        await w.close()
    rang = [e for e in await events_of(client, game_id) if e["type"] == "timer_rang"]
    assert len(rang) == 1
    events = await events_of(client, game_id)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    await pool.aclose()
    await redis_a.aclose()
    await redis_b.aclose()


async def test_a_turn_clock_is_public_and_plays_the_default_when_it_runs_out(client):
    table = await new_table(client, seats=2, turn_seconds=1)
    game = await table.state(1)
    (clock,) = game["clocks"]
    assert clock["timer"].startswith("turn:1:0@") and clock["deadline"]
    await wait_for_type(client, table.id, "turn_ended")
    state = (await table.state())["view"]["state"]
    assert state["turn"] == 1 and state["boards"][0]["cards_in_front"] == 1
    (clock,) = (await table.state())["clocks"]
    assert clock["timer"].startswith("turn:1:1@")


async def test_a_command_after_the_deadline_is_too_late_even_if_the_worker_is(valkey):
    """No worker runs here: the round timer's deadline passes, then a team tries to go out."""
    from litestar.testing import AsyncTestClient

    from tests.conftest import make_app

    # Its own queue: the suite's other apps run workers on the shared one.
    app = make_app(valkey, background=False, queue="dg:timers:nobody")
    async with AsyncTestClient(app=app) as quiet:
        table = await new_table(quiet, seats=2, game="danger-danger", round_seconds=0.5)
        await asyncio.sleep(0.8)
        r = await table.send(0, {"type": "go_out"})
        assert r.status_code == 409 and r.json()["code"] == "too_late"
        events = (await quiet.get(f"/v1/games/{table.id}/events")).json()["events"]
        rang = [e for e in events if e["type"] == "timer_rang"]
        assert len(rang) == 1 and rang[0]["actor"] == "server"
        assert not any(e["type"] == "out_declared" for e in events)
