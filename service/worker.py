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
from collections.abc import Awaitable
from datetime import datetime
from typing import Any

from arq.connections import ArqRedis, RedisSettings
from arq.worker import Retry, Worker, func

from domain.kernel.table import FireTimer

from .config import QUEUE
from .errors import ApiError
from .games import GameService, NotDue, Outcome

log = logging.getLogger("danger.worker")


async def fire_timer(ctx: dict[str, Any], game_id: str, timer: str) -> int:
    service: GameService = ctx["service"]
    return await _retried(
        service.system(game_id, FireTimer(timer=timer)), f"timer {timer} of {game_id}"
    )


async def play_bot(ctx: dict[str, Any], game_id: str, seat: int, since: int) -> int:
    service: GameService = ctx["service"]
    return await _retried(service.play_bot(game_id, seat, since), f"bot seat {seat} of {game_id}")


async def _retried(step: Awaitable[Outcome | None], what: str) -> int:
    """The number of events a job appended. arq does not retry a plain failure, and keeps
    its result, so the same job id could never be queued again: retry instead (a timer
    that took effect meanwhile is stale; a bot that moved meanwhile does nothing)."""
    try:
        outcome = await step
    except NotDue as early:  # a timer queued early on purpose: again at its deadline
        raise Retry(defer=early.seconds) from None
    except Exception as exc:
        log.warning("%s failed (%s); retrying", what, exc)
        raise Retry(defer=1) from exc
    return len(outcome.envelopes) if outcome else 0


def job_id(game_id: str, timer_id: str) -> str:
    return f"dg:timer:{game_id}:{timer_id}"


class JobQueue:
    """Schedules the workers' jobs.

    A timer's job id is the game and the timer's unique id, so arq refuses a second copy of
    a timer while the first is queued or its result is kept. A bot's job id names the seat,
    its last move and the game's seq, so a move lost to a race or a restart can be queued
    again; the first to run after the think delay moves, and the rest find the seat has
    moved and do nothing.
    """

    def __init__(self, pool: ArqRedis) -> None:
        self.pool = pool

    async def timer(self, game_id: str, timer_id: str, deadline: datetime) -> None:
        await self.pool.enqueue_job(
            "fire_timer",
            game_id,
            timer_id,
            _job_id=job_id(game_id, timer_id),
            _defer_until=deadline,
        )

    async def bot(self, game_id: str, seat: int, since: int, seq: int, delay: float) -> None:
        await self.pool.enqueue_job(
            "play_bot",
            game_id,
            seat,
            since,
            _job_id=f"dg:bot:{game_id}:{seat}:{since}:{seq}",
            _defer_by=delay,
        )


def build_worker(
    redis_url: str, service: GameService, queue: str = QUEUE, **options: Any
) -> Worker:
    return Worker(
        # A bot job's result is of no use to anyone: keep none.
        functions=[fire_timer, func(play_bot, keep_result=0)],
        queue_name=queue,
        redis_settings=RedisSettings.from_dsn(redis_url),
        handle_signals=False,
        ctx={"service": service},
        # A job of a killed worker is run again once its in-progress mark expires (arq:
        # job_timeout + 10 s): fire_timer takes milliseconds, so keep that short.
        job_timeout=options.pop("job_timeout", 5),
        # arq looks for due jobs this often: it bounds how late a timer rings and how long
        # a bot with no think delay takes to answer. One cheap query each time.
        poll_delay=options.pop("poll_delay", 0.02),
        **options,
    )


async def run_worker(redis_url: str, service: GameService, queue: str = QUEUE) -> None:
    worker = build_worker(redis_url, service, queue)
    try:
        await worker.main()
    finally:
        await worker.close()


SWEEP_SECONDS = 2.0
RECHECK_SECONDS = 30.0  # a game the sweep looked at is looked at again no sooner than this
SWEEP_BATCH = 500  # games per shard per sweep; the rest wait for the next


async def sweep(service: GameService, every: float | None = None) -> None:
    """Look at the games whose time has come in the shards' due sets: at a start (once), and
    in a worker every `every` seconds. An expired game ends as abandoned; a job whose process
    died before queueing it, or that gave up, is queued again (a timer already queued is
    refused by its id). It reads only the due games, never every game."""
    while True:
        moment = service.clock.time()
        try:
            await service.clock.refresh()
            moment = service.clock.time()
            due = await service.store.due_games(int(moment * 1000), SWEEP_BATCH)
        except Exception:  # the store is unreachable now: look again at the next sweep
            log.exception("could not read the due games")
            due = []
        for game_id in due:
            try:
                await service.expire(game_id)
                await service.schedule_jobs(
                    await service.get(game_id), recheck=moment + RECHECK_SECONDS
                )
            except Exception as exc:
                if isinstance(exc, ApiError) and exc.status == 404:
                    await service.store.set_due(game_id, None)  # gone
                    continue
                log.exception("sweep: could not look at %s; looking again later", game_id)
                # Later, not at once: a game that keeps failing must not hold the sweep.
                with contextlib.suppress(Exception):
                    await service.store.set_due(game_id, int((moment + RECHECK_SECONDS) * 1000))
        if every is None:
            return
        await asyncio.sleep(every)
