"""A timer is never lost: an attempt that outlasts the job's time is tried again, no job
keeps a result that would refuse its id, and the sweep queues a dropped timer again."""

import asyncio
import time
import uuid
from datetime import datetime

import pytest
from arq import Worker
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from events.store import EventStore
from service.assembly.runtime import command_path
from service.infra.config import Lifecycle
from service.jobs.worker import JobQueue, build_worker, job_id, sweep
from tests.conftest import make_app
from tests.players import events_of, first_to_act, new_table
from tests.stores import queue_of, queue_pool, store_client

JOB_SECONDS = 0.5  # the test worker's bound on one attempt
SLOW_SECONDS = 2.0  # the first append of a ring takes this long: four times the bound
# A ring that must be tried again: the first attempt's bound, the first retry's delay (0.5 s),
# a few polls and one append. The clock must ring within this after its deadline.
RING_BOUND_SECONDS = 4.0


class SlowFirstAppend(EventStore):
    """The real store, whose first append made by the server (a timer's ring) is slow:
    `before`, the store is slow to take it (the attempt that gives up never wrote it);
    `after`, the append is written at once and its answer is slow (it landed, though the
    attempt that gave up cannot know it)."""

    def __init__(self, redis: Redis, when: str) -> None:
        super().__init__(redis)
        self.when = when
        self.slowed = 0

    async def append(self, game_id, expected_seq, envelopes, *args, **kwargs):
        slow = self.slowed == 0 and envelopes[0].actor == "server"
        if slow:
            self.slowed += 1
        if slow and self.when == "before":
            await asyncio.sleep(SLOW_SECONDS)
        result = await super().append(game_id, expected_seq, envelopes, *args, **kwargs)
        if slow and self.when == "after":
            await asyncio.sleep(SLOW_SECONDS)
        return result


async def stop(worker: Worker, running: asyncio.Task) -> None:
    """Stop a worker started with `main()`: its jobs cancelled and awaited before arq's
    close(), which re-raises the cancellation of a job it finds still running (the next
    clock's ring may be under way when a test ends)."""
    tasks = [running, *worker.tasks.values()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    worker.tasks.clear()
    await worker.close()


async def rings_of(client, game_id: str, timer: str) -> list[dict]:
    """The commands a timer caused: the first event of each carries its `fire_timer`."""
    events = await events_of(client, game_id)
    return [e for e in events if e.get("cause") == {"type": "fire_timer", "timer": timer}]


async def next_rings(client, game_id: str, first: str) -> list[dict]:
    events = await events_of(client, game_id)
    causes = [e.get("cause") or {} for e in events]
    return [c for c in causes if c.get("type") == "fire_timer" and c.get("timer") != first]


@pytest.mark.parametrize("when", ["before", "after"])
async def test_a_ring_slower_than_the_job_timeout_is_tried_again_and_rings_once(valkey, when):
    queue = f"dg:timers:test-slow-{uuid.uuid4().hex[:8]}"  # served by this test's worker only
    async with AsyncTestClient(app=make_app(valkey, background=False, queue=queue)) as client:
        table = await new_table(client, seats=2, turn_seconds=1)
        (clock,) = (await table.state())["clocks"]
        timer = clock["timer"]
        deadline = datetime.fromisoformat(clock["deadline"].replace("Z", "+00:00")).timestamp()

        redis = await store_client(valkey.url)
        pool = queue_pool(valkey, queue)
        store = SlowFirstAppend(redis, when)
        _, jobs = command_path(store, JobQueue(pool), lifecycle=Lifecycle())
        worker = build_worker(queue_of(valkey), jobs, queue, job_seconds=JOB_SECONDS)
        running = asyncio.create_task(worker.main())
        try:
            while not await rings_of(client, table.id, timer):
                assert not running.done(), running
                late = time.time() - deadline
                assert late < RING_BOUND_SECONDS, f"the clock has not rung {late:.1f} s late"
                await asyncio.sleep(0.05)
            rang = time.time()
            # Every attempt is over by now, the slow one's answer included.
            await asyncio.sleep(SLOW_SECONDS + 1)
            assert store.slowed == 1, "the first ring was not slowed"
            assert len(await rings_of(client, table.id, timer)) == 1, "the clock rang twice"
            # No result is kept: the same timer id could be queued again.
            assert not await pool.exists(f"arq:result:{job_id(table.id, timer)}")
            # The clock its ring began (the next seat's, 1 s) was queued, by the attempt
            # that rang or else by the retry, and rings in its turn.
            while not await next_rings(client, table.id, timer):
                late = time.time() - (rang + 1)
                assert late < RING_BOUND_SECONDS, f"the next clock has not rung {late:.1f} s late"
                await asyncio.sleep(0.05)
        finally:
            await stop(worker, running)
            await redis.aclose()


async def test_a_dropped_timer_job_is_queued_again_by_the_sweep_and_rings(own_server):
    # A store of its own: the sweep reads every game's due set, and the suite's games must not
    # be swept into this test's queue.
    queue = "dg:timers:test-dropped"
    app = make_app(own_server, background=False, queue=queue)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, turn_seconds=1)
        (clock,) = (await table.state())["clocks"]
        timer = clock["timer"]
        redis = await store_client(own_server.url)
        pool = queue_pool(own_server, queue)
        # Dropped, as arq drops a job after its last try: gone from the queue, no result.
        key = job_id(table.id, timer)
        assert await pool.zscore(queue, key), "the start queued the clock"
        await pool.zrem(queue, key)
        await pool.delete(f"arq:job:{key}")

        service, jobs = command_path(EventStore(redis), JobQueue(pool), lifecycle=Lifecycle())
        worker = build_worker(queue_of(own_server), jobs, queue, job_seconds=JOB_SECONDS)
        running = asyncio.create_task(worker.main())
        try:
            await asyncio.sleep(2)  # past the deadline: nothing rings, nothing is queued
            assert not await rings_of(client, table.id, timer)
            # The game's moment comes (its deadline plus the sweep's slack): one sweep.
            await service.store.set_due(table.id, int(time.time() * 1000))
            await sweep(jobs)
            assert await pool.exists(f"arq:job:{key}"), "the sweep did not queue the clock"
            limit = time.monotonic() + 5
            while not await rings_of(client, table.id, timer):
                assert time.monotonic() < limit, "the clock queued by the sweep did not ring"
                await asyncio.sleep(0.05)
            assert len(await rings_of(client, table.id, timer)) == 1
        finally:
            await stop(worker, running)
            await redis.aclose()


async def test_a_job_whose_settling_failed_runs_again_at_the_next_start_of_the_worker(
    own_server, monkeypatch
):
    """The store goes away just as arq settles a job (its in-progress mark, its place in the
    queue): the run ends, and the next run frees the mark and runs the job again at once,
    not once arq's timeout and 10 s have passed."""
    from arq.constants import in_progress_key_prefix
    from redis.exceptions import ConnectionError as StoreGone

    from service.infra.supervisor import TaskHealth
    from service.jobs import worker as worker_module

    queue = "dg:timers:test-unsettled"
    app = make_app(own_server, background=False, queue=queue)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, turn_seconds=1)
        (clock,) = (await table.state())["clocks"]
        key = job_id(table.id, clock["timer"])
        redis = await store_client(own_server.url)
        pool = queue_pool(own_server, queue)
        _, jobs = command_path(EventStore(redis), JobQueue(pool), lifecycle=Lifecycle())
        supervised = worker_module.SupervisedWorker(
            queue_of(own_server), jobs, queue, job_seconds=JOB_SECONDS
        )
        settle = worker_module.DangerWorker.finish_job
        failed: list[str] = []

        async def settle_once_failing(self, job, *args):
            # Only this test's job: the suite's other apps run workers of this class too.
            if job == key and not failed:
                failed.append(job)
                raise StoreGone("Connection closed by server.")
            return await settle(self, job, *args)

        monkeypatch.setattr(worker_module.DangerWorker, "finish_job", settle_once_failing)
        health = TaskHealth("worker", beats=True)
        try:
            with pytest.raises(StoreGone):
                await asyncio.wait_for(supervised(health), 10)
            assert failed == [key]
            mark = in_progress_key_prefix + key
            assert await pool.exists(mark), "the failed settling left the job marked"
            assert await pool.zscore(queue, key), "and queued"

            again = asyncio.create_task(supervised(health))
            # The clock's deadline is a second after the start; arq's mark alone would hold
            # the job for JOB_SECONDS + 11 s.
            limit = time.monotonic() + 4
            while not await rings_of(client, table.id, clock["timer"]):
                assert time.monotonic() < limit, "the unsettled job waited for its mark"
                await asyncio.sleep(0.05)
            while await pool.zscore(queue, key) is not None:  # settled this time
                assert time.monotonic() < limit, "the job was not settled"
                await asyncio.sleep(0.05)
            assert len(await rings_of(client, table.id, clock["timer"])) == 1
            again.cancel()
            await asyncio.gather(again, return_exceptions=True)
        finally:
            await redis.aclose()
            await pool.aclose()


async def test_a_process_asks_the_queue_for_a_running_timer_once_and_the_sweep_again(own_server):
    """After a command the process does not ask the queue again for a timer it queued for the
    same deadline (each ask is three round trips): a job the queue lost meanwhile is queued
    again by the sweep, when the game falls due."""
    queue = "dg:timers:test-once"
    app = make_app(own_server, background=False, queue=queue)
    async with AsyncTestClient(app=app) as client:
        table = await new_table(client, seats=2, game="danger-danger", round_seconds=3600)
        pool = queue_pool(own_server, queue)
        (key,) = [k for k in await pool.zrange(queue, 0, -1) if table.id.encode() in k]
        assert key.startswith(job_id(table.id, "round:1:").encode()), "the start queued it"
        await pool.zrem(queue, key)  # lost, as a failover may lose it
        await pool.delete(b"arq:job:" + key)
        for _ in range(3):
            seat, legal = await first_to_act(table)
            assert (await table.send(seat, legal[0])).status_code == 200
        assert await pool.zscore(queue, key) is None, "a command asked the queue again"
        redis = await store_client(own_server.url)
        try:
            # What the sweep does for each game that falls due (the suite's other games may
            # fill a sweep's batch before this one).
            service, jobs = command_path(EventStore(redis), JobQueue(pool), lifecycle=Lifecycle())
            await jobs.schedule(await service.get(table.id))
            assert await pool.zscore(queue, key), "the sweep did not queue the round's timer"
        finally:
            await redis.aclose()
