"""The arq worker fires timers through the command path; a game without that timer ignores it."""

from arq import create_pool
from arq.connections import RedisSettings
from arq.jobs import JobStatus

from events.store import EventStore
from service.assembly.runtime import command_path
from service.jobs.worker import build_worker
from tests.players import new_table
from tests.stores import Unscheduled, queue_of, store_client


async def test_a_fired_timer_goes_through_the_command_path_and_a_game_without_it_ignores_it(
    client, valkey
):
    table = await new_table(client, seats=2)
    before = (await table.state())["seq"]
    queue = f"test:{table.id}"  # a queue of its own: the service's holds deferred timers
    pool = await create_pool(RedisSettings.from_dsn(queue_of(valkey)), default_queue_name=queue)
    job = await pool.enqueue_job("fire_timer", table.id, "turn:1", _job_id=f"timer:{table.id}:1")
    assert job is not None
    redis = await store_client(valkey.url)
    _, jobs = command_path(EventStore(redis), Unscheduled())
    worker = build_worker(queue_of(valkey), jobs, queue, burst=True, poll_delay=0.05)
    await worker.main()
    await worker.close()
    await redis.aclose()
    assert worker.jobs_complete == 1 and worker.jobs_failed == 0
    assert (await table.state())["seq"] == before  # Danger has no timers: nothing appended
    assert await job.status() == JobStatus.not_found  # done, and no result kept
    await pool.aclose()
