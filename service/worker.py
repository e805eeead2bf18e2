"""The arq worker: fires timers through the same command path as any player.

A timer is a job with a stable id; when it fires it sends `fire_timer` as the server, and the
game's own rules decide whether the timer is still current (a stale one yields no event).
Delivery is at-least-once; the effect is exactly-once because the command path appends with
the expected seq and the domain ignores a timer that has already taken effect.
"""

from __future__ import annotations

import logging
from typing import Any

from arq.connections import RedisSettings
from arq.worker import Worker

from domain.kernel.table import FireTimer

from .games import GameService

log = logging.getLogger("danger.worker")
QUEUE = "dg:timers"


async def fire_timer(ctx: dict[str, Any], game_id: str, timer: str) -> int:
    service: GameService = ctx["service"]
    outcome = await service.system(game_id, FireTimer(timer=timer))
    return len(outcome.envelopes) if outcome else 0


def build_worker(redis_url: str, service: GameService, **options: Any) -> Worker:
    return Worker(
        functions=[fire_timer],
        queue_name=QUEUE,
        redis_settings=RedisSettings.from_dsn(redis_url),
        handle_signals=False,
        ctx={"service": service},
        **options,
    )


async def run_worker(redis_url: str, service: GameService) -> None:
    worker = build_worker(redis_url, service)
    try:
        await worker.main()
    finally:
        await worker.close()
