"""The composition root: the store fit to serve, the job queue, and the command path with
its reactions, built the same way for an API process (service/assembly/app.py) and for
`danger worker` (service/cli/worker.py).

The reactions to an append are declared here and nowhere else: what must follow every change
to a game, in order. Today one: the game's jobs (its running timers and bot moves queued,
its due time filed, service/jobs/game_jobs.py).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from arq.connections import ArqRedis

from events.cluster import Store
from events.store import EventStore
from service.infra import durability, shards
from service.infra.clock import StoreClock
from service.infra.config import Lifecycle, Settings
from service.infra.connections import QueueAt, open_queue, open_store, queue_urls
from service.infra.durability import InForce
from service.jobs.game_jobs import GameJobs, Scheduler
from service.jobs.queue_servers import QueueServer, QueueServers
from service.jobs.worker import JobQueue
from service.play.games import GameService
from service.play.repository import CACHE_BYTES


async def open_stores(settings: Settings, redis_url: str) -> tuple[Store, QueueAt, InForce]:
    """The store's client (a single server or a cluster), once it is fit to serve: the job
    queue's servers are single servers (service/infra/connections.py), the store keeps what
    is acknowledged (service/infra/durability.py), and its number of shards agrees with this
    process's (service/infra/shards.py); and where the job queue lives."""
    redis = await open_store(redis_url, settings.store.redis_connections)
    try:
        queue_at = await queue_urls(redis_url, settings.store.queue_urls)
        in_force = await durability.establish(redis, settings.store.durability)
        await shards.establish(redis, settings.store.shards)  # the first write, on a fit store
    except BaseException:
        await redis.aclose()
        raise
    durability.announce(in_force)
    return redis, queue_at, in_force


def command_path(
    store: EventStore,
    scheduler: Scheduler,
    sandbox: bool = False,
    lifecycle: Lifecycle | None = None,
    clock: StoreClock | None = None,
    cache_bytes: int = CACHE_BYTES,
) -> tuple[GameService, GameJobs]:
    """The command path and the jobs it leaves, wired: every append that takes effect is
    followed by the reactions below."""
    service = GameService(store, sandbox, lifecycle, clock, cache_bytes)
    jobs = GameJobs(service, scheduler)
    service.writes.reactions = (jobs.after_append,)
    return service, jobs


@dataclass
class Core:
    """What a process that changes games holds: the store, the job queue's servers and the
    command path."""

    redis: Store
    in_force: InForce
    store: EventStore
    queues: QueueServers
    service: GameService
    jobs: GameJobs

    async def close(self) -> None:
        """Let go of it all; the store may be what failed, so nothing here may raise."""
        with contextlib.suppress(Exception):  # else within the appends' grace
            await self.jobs.due_filing.flushed()
        await self.queues.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()


async def open_core(
    settings: Settings, redis_url: str, local_clock: Callable[[], float] = time.time
) -> Core:
    """The core of a process, on a store fit to serve (else `open_stores`' refusals).
    `local_clock` is this process's clock (tests skew it: events and deadlines follow the
    store's clock whatever it says)."""
    redis, queue_at, in_force = await open_stores(settings, redis_url)
    store = EventStore(redis, in_force.copies, settings.play.idempotency_ms)
    # Each queue server's pool is bounded too (arq's own would not be): the store's pool
    # where the queue lives on the store's server.
    servers = []
    for url in queue_at.urls:
        client = open_queue(redis, redis_url, url, settings.store.redis_connections)
        pool = ArqRedis(client.connection_pool, default_queue_name=settings.store.queue)
        servers.append(QueueServer(url, client, pool, checked=url in queue_at.checked))
    queues = QueueServers(servers)
    service, jobs = command_path(
        store,
        JobQueue(queues),
        settings.play.sandbox,
        settings.lifecycle,
        StoreClock(redis, local_clock),
        settings.play.cache_mb * 2**20,
    )
    return Core(redis, in_force, store, queues, service, jobs)
