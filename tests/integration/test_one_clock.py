"""One clock per game: processes whose clocks disagree still write one timeline, and ring
each deadline by the store's clock, not by their own."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import datetime

from litestar.testing import AsyncTestClient

from events.audit import audit
from events.store import EventStore
from tests.conftest import make_app
from tests.players import Alternating, new_table, play_to_end
from tests.stores import store_client

LATE = 0.4  # s: how late after its deadline (by the store's clock) a turn clock may ring


def moment(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


async def test_two_processes_a_second_apart_keep_one_timeline_and_ring_on_time(valkey):
    # Both run workers on a queue of their own, so the two of them ring every clock.
    queue = "dg:timers:skewed"
    behind = make_app(valkey, local_clock=lambda: time.time() - 0.5, queue=queue)
    ahead = make_app(valkey, local_clock=lambda: time.time() + 0.5, queue=queue)
    async with AsyncTestClient(app=behind) as a, AsyncTestClient(app=ahead) as b:
        table = await new_table(Alternating(a, b), seats=2, turn_seconds=1)
        events: list[dict] = []
        for _ in range(3):  # nobody plays: three turn clocks run out in a row
            (clock,) = (await table.state())["clocks"]
            deadline = moment(clock["deadline"])
            seen = len(events)
            for _ in range(100):
                await asyncio.sleep(0.1)
                events = (await table.client.get(f"/v1/games/{table.id}/events")).json()["events"]
                rang = [e for e in events[seen:] if (e["cause"] or {}).get("type") == "fire_timer"]
                if rang:
                    break
            assert rang, "the turn clock did not ring"
            late = (moment(rang[0]["at"]) - deadline).total_seconds()
            assert 0 <= late <= LATE, (clock, rang[0]["at"])
        await play_to_end(table, choose=random.Random(7).choice)

    redis = await store_client(valkey.url)
    envelopes = await EventStore(redis).read(table.id)
    await redis.aclose()
    times = [moment(e.at) for e in envelopes]
    assert times == sorted(times)
    report = audit(envelopes)
    assert report.ok, [c for c in report.checks if not c.ok]


async def test_a_wall_clock_stepped_between_two_readings_of_the_store_moves_nothing(valkey):
    """A process's wall clock stepped half a minute (NTP, a resumed virtual machine) right
    after it read the store's time: its events are still stamped by the store's clock, not
    half a minute off until the next reading (the fault suite's `clock-jump` found them
    so, and a timer rung that early)."""
    from service.infra.clock import StoreClock

    step = [0.0]
    redis = await store_client(valkey.url)
    try:
        clock = StoreClock(redis, local=lambda: time.time() + step[0])
        await clock.refresh(force=True)
        for step[0] in (30.0, -30.0, 3600.0):
            seconds, micros = await redis.time()
            assert abs(clock.time() - (seconds + micros / 1e6)) < 0.25, step[0]
            # What the job queue's schedule is moved by follows the step.
            assert abs(clock.offset + step[0]) < 0.25
    finally:
        await redis.aclose()


class SlowAnswers:
    """The store seen as a paused node is: a request waits `delay` seconds before the server
    reads it, then its TIME is answered at once."""

    def __init__(self, redis: object, delay: float) -> None:
        self.redis, self.delay = redis, delay

    async def time(self, **options: object) -> object:
        await asyncio.sleep(self.delay)
        return await self.redis.time(**options)  # type: ignore[attr-defined]  # a client


async def test_a_reading_answered_late_never_runs_the_clock_ahead_of_the_stores(valkey):
    """A reading of the store's time whose answer took long says only that the store's time
    was at least that when the answer came: counted from there, the clock may run behind,
    never ahead (a reading taken as of halfway through a 0.8 s answer ran it 0.4 s ahead,
    and the fault suite found events stamped later than the store took them). A later slow
    answer is not taken at all."""
    from service.infra.clock import StoreClock

    redis = await store_client(valkey.url)
    try:
        slow = SlowAnswers(redis, 0.6)
        clock = StoreClock(slow)
        await clock.refresh(force=True)
        seconds, micros = await redis.time()
        assert clock.time() <= seconds + micros / 1e6 + 0.005
        slow.delay = 0.0
        await clock.refresh(force=True)
        fast = clock.time()
        slow.delay = 0.6
        await clock.refresh(force=True)  # kept the fast reading
        seconds, micros = await redis.time()
        assert abs(clock.time() - (seconds + micros / 1e6)) < 0.05
        assert clock.time() > fast
    finally:
        await redis.aclose()
