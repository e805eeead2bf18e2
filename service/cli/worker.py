"""`danger worker`: the projections, the timers and the bots, beside API processes that run none
(`danger serve --api-only`, or --workers N)."""

from __future__ import annotations

import argparse
import sys

from service.infra import event_loop, logs, metrics
from service.infra.config import Settings


def worker(args: argparse.Namespace) -> int:
    """The projections and the arq worker without the API, for deployments that scale them
    apart from the API processes. Each comes back by itself after the store does; exit 1
    when one has failed without a break for DANGER_GIVE_UP_SECONDS (it cannot recover: let
    whatever runs this process start it again, or call someone); the arq workers, one per
    queue server, when every one of them has."""
    import asyncio
    import signal

    from redis.exceptions import RedisError

    from service.assembly import background
    from service.assembly.runtime import open_core
    from service.infra.bell import Bell
    from service.infra.connections import QueueRefused
    from service.infra.durability import Refused
    from service.infra.shards import ShardsRefused
    from service.infra.supervisor import Supervisor

    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"danger worker: {exc}", file=sys.stderr)
        return 2
    redis_url = args.redis_url or settings.store.redis_url
    if redis_url is None:
        print("danger worker: set REDIS_URL (or --redis-url)", file=sys.stderr)
        return 2
    logs.configure(settings.observe.log_format)
    if settings.observe.metrics_port is not None:
        metrics.serve_alone(settings.observe.metrics_port, settings.server.host)

    async def run() -> int:
        try:
            # A timer that ends a round begins the next round's timer: this process queues it.
            core = await open_core(settings, redis_url)
        except (Refused, ShardsRefused, QueueRefused, RedisError, OSError) as exc:
            print(f"danger worker: {exc}", file=sys.stderr)
            return 1
        supervisor = Supervisor(settings.worker.give_up_seconds)
        bell = Bell(core.redis)
        await bell.start()
        background.start(supervisor, core.queues, core.redis, core.store, core.jobs, settings, bell)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        stopped = asyncio.create_task(stop.wait())
        hopeless = asyncio.create_task(supervisor.until_hopeless())
        await asyncio.wait([stopped, hopeless], return_when=asyncio.FIRST_COMPLETED)
        code = 0
        if hopeless.done():
            names = ", ".join(hopeless.result())
            print(
                f"danger worker: {names} failed for {settings.worker.give_up_seconds:g} s "
                "without a break; exiting",
                file=sys.stderr,
                flush=True,
            )
            code = 1
        for task in (stopped, hopeless):
            task.cancel()
        await supervisor.stop()
        await bell.stop()
        await core.close()
        return code

    return event_loop.run(run(), settings)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("worker", help="run the projections and the timer worker only")
    parser.add_argument("--redis-url", help="REDIS_URL")
    parser.set_defaults(run=worker)
