"""The arq worker: fires timers through the same command path as any player.

A timer is a job with a stable id; when it fires it sends `fire_timer` as the server, and the
game's own rules decide whether the timer is still current (a stale one yields no event).
Delivery is at-least-once; the effect is exactly-once because the command path appends with
the expected seq and the domain ignores a timer that has already taken effect.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from arq.connections import ArqRedis, RedisSettings
from arq.worker import Retry, Worker

from domain.kernel.table import FireTimer

from .games import GameService

log = logging.getLogger("danger.worker")
QUEUE = "dg:timers"


async def fire_timer(ctx: dict[str, Any], game_id: str, timer: str) -> int:
    service: GameService = ctx["service"]
    try:
        outcome = await service.system(game_id, FireTimer(timer=timer))
    except Exception as exc:
        # arq does not retry a plain failure, and keeps its result, so the same job id could
        # never be queued again: retry instead (a timer that took effect meanwhile is stale).
        log.warning("timer %s of %s failed (%s); retrying", timer, game_id, exc)
        raise Retry(defer=1) from exc
    return len(outcome.envelopes) if outcome else 0


def job_id(game_id: str, timer_id: str) -> str:
    return f"dg:timer:{game_id}:{timer_id}"


class TimerQueue:
    """Schedules `fire_timer` jobs. A job id is the game and the timer's unique id, so arq
    refuses a second copy of a timer while the first is queued or its result is kept."""

    def __init__(self, pool: ArqRedis) -> None:
        self.pool = pool

    async def __call__(self, game_id: str, timer_id: str, deadline: datetime) -> None:
        await self.pool.enqueue_job(
            "fire_timer",
            game_id,
            timer_id,
            _job_id=job_id(game_id, timer_id),
            _defer_until=deadline,
        )


def build_worker(
    redis_url: str, service: GameService, queue: str = QUEUE, **options: Any
) -> Worker:
    return Worker(
        functions=[fire_timer],
        queue_name=queue,
        redis_settings=RedisSettings.from_dsn(redis_url),
        handle_signals=False,
        ctx={"service": service},
        # A job of a killed worker is run again once its in-progress mark expires (arq:
        # job_timeout + 10 s): fire_timer takes milliseconds, so keep that short.
        job_timeout=options.pop("job_timeout", 5),
        **options,
    )


async def run_worker(redis_url: str, service: GameService) -> None:
    worker = build_worker(redis_url, service)
    try:
        await worker.main()
    finally:
        await worker.close()


async def resume_timers(redis: Any, service: GameService) -> None:
    """After a start, queue the timers of every active game again (from the log): a timer
    whose process died before queueing it is not lost, and one already queued is refused."""
    from .lobby import list_games

    games, _ = await list_games(redis, "active", None, limit=1_000_000, offset=0)
    for entry in games:
        try:
            await service.schedule_timers(await service.get(entry.id))
        except Exception:
            log.exception("could not resume the timers of %s", entry.id)
