"""Bot moves are worker jobs: lost ones are queued again by the sweep, and a bot's dice come
from the game's secret seed."""

import random
import time

from arq import create_pool
from arq.connections import RedisSettings
from litestar.testing import AsyncTestClient

from events.keys import GameKeys
from events.store import EventStore
from service.assembly.runtime import command_path
from service.jobs.game_jobs import bot_seed
from service.jobs.worker import JobQueue, build_worker, sweep
from tests.conftest import make_app
from tests.players import bot_table
from tests.stores import queue_of, store_client


async def test_a_lost_bot_move_is_queued_again_by_the_sweep_and_played(valkey):
    queue = "dg:timers:test-sweep"  # nobody serves it but this test's burst worker
    async with AsyncTestClient(app=make_app(valkey, background=False, queue=queue)) as http:
        game_id = await bot_table(http)
        seq = (await http.get(f"/v1/games/{game_id}")).json()["seq"]

        redis = await store_client(valkey.url)
        pool = await create_pool(RedisSettings.from_dsn(queue_of(valkey)), default_queue_name=queue)
        assert await pool.zcard(queue) == 1  # the first bot's move, queued by the start
        # Lost, as if the process died between the append and the queue.
        await pool.delete(queue, *[k async for k in pool.scan_iter(f"arq:job:dg:bot:{game_id}:*")])
        store = EventStore(redis)
        due = GameKeys(game_id).due
        assert await redis.zscore(due, game_id), "the game waits in its shard's due set"
        _, jobs = command_path(store, JobQueue(pool))
        await sweep(jobs)
        assert await pool.zcard(queue) == 0, "the sweep leaves a game whose time has not come"
        await redis.zadd(due, {game_id: 0})  # its time has come, and the move is not there
        await sweep(jobs)
        assert await pool.zcard(queue) >= 1, "the sweep queued the move again"
        assert await redis.zscore(due, game_id) > time.time() * 1000, "and looks again later"

        worker = build_worker(queue_of(valkey), jobs, queue, burst=True, max_jobs=1)
        await worker.run_check(max_burst_jobs=1)
        await worker.close()
        assert (await http.get(f"/v1/games/{game_id}")).json()["seq"] > seq, "the bot moved"
        await pool.aclose()
        await redis.aclose()


def test_a_bots_dice_follow_the_secret_seed_and_the_decision():
    seed, other = bytes(32), bytes([1] * 32)
    first = random.Random(bot_seed(seed, 1, 40)).random()
    assert first == random.Random(bot_seed(seed, 1, 40)).random()  # replayable
    assert first != random.Random(bot_seed(other, 1, 40)).random()  # unknowable without it
    assert first != random.Random(bot_seed(seed, 1, 41)).random()
    assert first != random.Random(bot_seed(seed, 0, 40)).random()
