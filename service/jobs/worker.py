"""The arq worker: fires timers and plays bot seats, through the same command path as any
player.

A timer is a job with a stable id; when it fires it sends `fire_timer` as the server, and the
game's own rules decide whether the timer is still current (a stale one yields no event).
Delivery is at-least-once; the effect is exactly-once because the command path appends with
the expected seq and the domain ignores a timer that has already taken effect.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from arq.connections import ArqRedis, RedisSettings
from arq.constants import in_progress_key_prefix
from arq.worker import Retry, Worker, func

from domain.kernel.table import FireTimer
from service.infra.config import QUEUE
from service.infra.errors import ApiError
from service.infra.supervisor import TaskHealth
from service.jobs.game_jobs import GameJobs, NotDue
from service.jobs.queue_servers import QueueServer, QueueServers
from service.play.game_model import Outcome

log = logging.getLogger("danger.worker")


JOB_SECONDS = 5.0  # a job's attempt that takes longer is abandoned and tried again
JOB_GRACE_SECONDS = 1.0  # arq's own timeout, a backstop: this much beyond ours
HEARTBEAT_SECONDS = 5.0  # how often the worker writes arq's health-check key
RETRY_FIRST_SECONDS = 0.5  # the first retry of a failed attempt; doubled each time
RETRY_MAX_SECONDS = 4.0
MAX_TRIES = 8  # then the job is dropped, and the sweep queues it again


async def fire_timer(ctx: dict[str, Any], game_id: str, timer: str) -> int:
    jobs: GameJobs = ctx["jobs"]
    return await _retried(
        ctx, game_id, jobs.system(game_id, FireTimer(timer=timer)), f"timer {timer}"
    )


async def play_bot(ctx: dict[str, Any], game_id: str, seat: int, since: int) -> int:
    jobs: GameJobs = ctx["jobs"]
    return await _retried(ctx, game_id, jobs.play_bot(game_id, seat, since), f"bot {seat}")


async def _retried(
    ctx: dict[str, Any], game_id: str, step: Awaitable[Outcome | None], what: str
) -> int:
    """The number of events a job appended. An attempt that fails or outlasts the job's time
    is tried again with backoff: arq itself drops a job that fails or times out, and on a
    timeout it cancels the job from outside, where nothing of ours could ask for a retry.
    A retry is safe: a timer that took effect meanwhile is stale, and a bot that moved
    meanwhile does nothing (an append that landed after its attempt gave up included). A
    retry also queues the game's jobs again: an attempt cut off after its append landed
    never queued what its events began (the next turn's clock, a bot's next move)."""
    jobs: GameJobs = ctx["jobs"]
    try:
        async with asyncio.timeout(ctx["job_seconds"]):
            outcome = await step
            if int(ctx.get("job_try", 1)) > 1:
                await jobs.schedule(await jobs.service.get(game_id))
    except NotDue as early:  # a timer queued early on purpose: again at its deadline
        raise Retry(defer=early.seconds) from None
    except Exception as exc:  # TimeoutError included
        tried = int(ctx.get("job_try", 1))
        delay = min(RETRY_FIRST_SECONDS * 2 ** (tried - 1), RETRY_MAX_SECONDS)
        log.warning(
            "%s of %s failed on try %d (%r); again in %.1f s", what, game_id, tried, exc, delay
        )
        raise Retry(defer=delay) from exc
    return len(outcome.envelopes) if outcome else 0


def job_id(game_id: str, timer_id: str) -> str:
    return f"dg:timer:{game_id}:{timer_id}"


class JobQueue:
    """Schedules the workers' jobs.

    A timer's job id is the game and the timer's unique id, so arq refuses a second copy of
    a timer while the first is queued, deferred for a retry or running; no job keeps a
    result, so once it is done or dropped the same id may be queued again. A bot's job id
    names the seat, its last move and the game's seq, so a move lost to a race or a restart
    can be queued again; the first to run after the think delay moves, and the rest find
    the seat has moved and do nothing.

    A game's jobs go to its own queue server, or to another while that one is gone
    (service/jobs/queue_servers.py).
    """

    def __init__(self, servers: QueueServers | ArqRedis) -> None:
        if not isinstance(servers, QueueServers):  # one server's pool (a test's queue)
            servers = QueueServers.single(servers)
        self.servers = servers

    async def timer(self, game_id: str, timer_id: str, deadline: datetime) -> None:
        await self.servers.call(
            game_id,
            lambda pool: pool.enqueue_job(
                "fire_timer",
                game_id,
                timer_id,
                _job_id=job_id(game_id, timer_id),
                _defer_until=deadline,
            ),
        )

    async def bot(self, game_id: str, seat: int, since: int, seq: int, delay: float) -> None:
        await self.servers.call(
            game_id,
            lambda pool: pool.enqueue_job(
                "play_bot",
                game_id,
                seat,
                since,
                _job_id=f"dg:bot:{game_id}:{seat}:{since}:{seq}",
                _defer_by=delay,
            ),
        )


class DangerWorker(Worker):
    """arq's worker, telling its supervisor each time it has polled the queue, and keeping
    the jobs it began whose bookkeeping has not finished."""

    def __init__(self, *args: Any, on_beat: Callable[[], None] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.on_beat = on_beat
        # A job leaves this set only once arq has settled it, in-progress mark included: a
        # job whose settling failed (the store went away) is done as a task but still
        # marked, and arq forgets such a task before the error ends the run.
        self.unsettled: set[str] = set()

    async def run_job(self, job_id: str, score: int) -> None:
        self.unsettled.add(job_id)
        await super().run_job(job_id, score)
        self.unsettled.discard(job_id)

    async def heart_beat(self) -> None:
        await super().heart_beat()
        if self.on_beat is not None:
            self.on_beat()


def build_worker(
    redis_url: str,
    jobs: GameJobs,
    queue: str = QUEUE,
    job_seconds: float = JOB_SECONDS,
    on_beat: Callable[[], None] | None = None,
    **options: Any,
) -> DangerWorker:
    settings = RedisSettings.from_dsn(redis_url)
    settings.conn_retries = 0  # the supervisor retries, with backoff (service/infra/supervisor.py)
    return DangerWorker(
        # No result is kept, by any job (keep_result=0 here and on the worker, which is what
        # a job dropped after its last try obeys): a kept result makes arq refuse the same
        # job id, and a timer's id is stable.
        functions=[func(fire_timer, keep_result=0), func(play_bot, keep_result=0)],
        keep_result=0,
        max_tries=MAX_TRIES,
        queue_name=queue,
        redis_settings=settings,
        handle_signals=False,
        ctx={"jobs": jobs, "job_seconds": job_seconds},
        # Our own bound (job_seconds) turns a slow attempt into a retry; arq's, a little
        # longer, is a backstop. A job of a killed worker runs again once its in-progress
        # mark expires (arq: its timeout + 10 s): a job takes milliseconds, keep it short.
        job_timeout=job_seconds + JOB_GRACE_SECONDS,
        # arq looks for due jobs this often: it bounds how late a timer rings and how long
        # a bot with no think delay takes to answer. One cheap query each time.
        poll_delay=options.pop("poll_delay", 0.02),
        # arq's health-check key (`<queue>:health-check`), read by /health, lives this long
        # plus 1 s: its absence means no worker has polled the queue lately.
        health_check_interval=options.pop("health_check_interval", HEARTBEAT_SECONDS),
        on_beat=on_beat,
        **options,
    )


class SupervisedWorker:
    """An arq worker run by a supervisor (service/infra/supervisor.py): each run is a new arq
    Worker, since one whose loop failed cannot be started again. arq reconnects nothing: a
    Redis error in its poll loop, or in the bookkeeping of a job, ends `Worker.main()`.
    `server`: the queue server it takes jobs from, checked to be a single server before the
    first run that reaches it (one that could not be reached at start was not)."""

    def __init__(
        self,
        redis_url: str,
        jobs: GameJobs,
        queue: str = QUEUE,
        server: QueueServer | None = None,
        **options: Any,
    ):
        self.redis_url, self.jobs, self.queue, self.options = redis_url, jobs, queue, options
        self.server = server
        # Jobs a failed run began and did not settle: their in-progress marks would keep them
        # off every worker for arq's timeout + 10 s; they are ours and ended, so free them.
        self.orphans: set[str] = set()

    async def __call__(self, health: TaskHealth) -> None:
        if self.server is not None:
            await self.server.check()
        worker = build_worker(
            self.redis_url,
            self.jobs,
            self.queue,
            on_beat=health.ok,
            on_startup=self._free_orphans,
            **self.options,
        )
        try:
            await worker.main()
        finally:
            await _abandon(worker)
            self.orphans |= worker.unsettled

    async def _free_orphans(self, ctx: dict[str, Any]) -> None:
        if self.orphans:
            pool: ArqRedis = ctx["redis"]
            await pool.delete(*(in_progress_key_prefix + job for job in self.orphans))
            self.orphans.clear()


async def _abandon(worker: Worker) -> None:
    """Stop a worker without needing the store: its jobs are cancelled (arq leaves a
    cancelled job queued, to run again) and its connections closed. The health-check key is
    left to expire: every worker on the queue writes the same one."""
    for task in worker.tasks.values():
        task.cancel()
    await asyncio.gather(*worker.tasks.values(), return_exceptions=True)
    # Its pool by hand: arq's close() first deletes the health-check key, in the store.
    if worker._pool is not None:
        with contextlib.suppress(Exception):
            await worker._pool.aclose(close_connection_pool=True)
        worker._pool = None


RECHECK_SECONDS = 30.0  # a game the sweep looked at is looked at again no sooner than this
SWEEP_BATCH = 500  # games per shard per sweep; the rest wait for the next


async def sweep(
    jobs: GameJobs, every: float | None = None, health: TaskHealth | None = None
) -> None:
    """Look at the games whose time has come in the shards' due sets: at a start (once), and
    in a worker every `every` seconds. An expired game ends as abandoned; every running
    timer and every bot move due is queued again by its stable id (the queue refuses those
    it holds, and takes back those it lost: a job dropped after its last try, or whose
    process died before queueing it). It reads only the due games, never every game. Run
    every `every` seconds, a store it cannot read ends it, for its supervisor to start it
    again with backoff."""
    service = jobs.service
    while True:
        moment = service.clock.time()
        try:
            await service.clock.refresh()
            moment = service.clock.time()
            due = await service.store.due_games(int(moment * 1000), SWEEP_BATCH)
        except Exception:
            if every is not None:
                raise
            log.exception("could not read the due games")  # at a start: the sweeps to come
            return
        for game_id in due:
            try:
                await jobs.expire(game_id)
                await jobs.schedule(await service.get(game_id), recheck=moment + RECHECK_SECONDS)
            except Exception as exc:
                if isinstance(exc, ApiError) and exc.status == 404:
                    await service.store.set_due(game_id, None)  # gone
                    continue
                log.warning("sweep: could not look at %s; later", game_id, exc_info=exc)
                # Later, not at once: a game that keeps failing must not hold the sweep.
                with contextlib.suppress(Exception):
                    await service.store.set_due(game_id, int((moment + RECHECK_SECONDS) * 1000))
        if health is not None:
            health.ok()
        if every is None:
            return
        await asyncio.sleep(every)
