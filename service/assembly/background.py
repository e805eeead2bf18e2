"""What runs beside the API: each projection, an arq worker per queue server and the sweep,
supervised (service/infra/supervisor.py) so that each comes back by itself after the store
does."""

from __future__ import annotations

from arq.constants import health_check_key_suffix

from events.cluster import Store
from events.store import EventStore
from service.infra import signing
from service.infra.bell import Bell
from service.infra.clock import StoreClock
from service.infra.config import Settings
from service.infra.supervisor import Supervisor, TaskHealth
from service.jobs.game_jobs import GameJobs
from service.jobs.queue_servers import QueueServers
from service.jobs.webhook_sender import Sender
from service.jobs.worker import SupervisedWorker, sweep
from service.play import quick_play
from service.play.receipts import publish_key
from service.play.transparency_log import LogWriter
from service.readmodels import ratings
from service.readmodels.projections import consumers
from service.readmodels.runner import Projection


def heartbeat_key(queue: str) -> str:
    """arq's health-check key of the queue: written by a worker at each poll, at most every
    few seconds, and gone when none has polled for a while (service/jobs/worker.py)."""
    return queue + health_check_key_suffix


def worker_task(place: int, servers: int) -> str:
    """The name of the task that runs the arq worker of the queue server at `place`: with
    one server, `worker`."""
    return "worker" if servers == 1 else f"worker:{place}"


def start(
    supervisor: Supervisor,
    queues: QueueServers,
    redis: Store,
    store: EventStore,
    jobs: GameJobs,
    settings: Settings,
    bell: Bell | None = None,
) -> list[Projection]:
    """Start them all; the projections' consumers, whose errors /health shows. `bell`: the
    process's subscription to the feeds' bell (service/infra/bell.py)."""
    projections = consumers(redis, store, settings.projections, bell, settings.webhooks)
    for projection in projections:

        async def project(_: TaskHealth, projection=projection) -> None:
            await projection.run()

        # A projection keeps its own loop alive and logs what fails: it tells no progress.
        supervisor.start(f"projection:{projection.group}", project, beats=False)
    # One arq worker per queue server: a server that is gone stops only its own worker.
    for place, server in enumerate(queues.servers):
        supervisor.start(
            worker_task(place, len(queues)),
            SupervisedWorker(server.url, jobs, settings.store.queue, server),
            group="workers",
        )

    async def sweeping(health: TaskHealth) -> None:
        await sweep(jobs, settings.worker.sweep_seconds, health)

    supervisor.start("sweep", sweeping)
    writer = log_writer(store, jobs.service.clock, settings)

    async def logging_heads(_: TaskHealth) -> None:
        await publish_key(redis, writer.signer, jobs.service.clock)
        await writer.run()

    supervisor.start("log", logging_heads, beats=False)

    async def delivering(_: TaskHealth) -> None:
        await Sender(redis, jobs.service.clock, settings.webhooks).run()

    supervisor.start("webhooks", delivering, beats=False)

    async def rating(_: TaskHealth) -> None:
        await ratings.applying(redis, jobs.service.clock)

    supervisor.start("ratings", rating, beats=False)

    async def seating(_: TaskHealth) -> None:
        clock = jobs.service.clock
        seater = quick_play.Seater(redis, jobs.service, lambda: int(clock.time() * 1000))
        await quick_play.matching(seater)

    supervisor.start("quick-play", seating, beats=False)
    return projections


def log_writer(store: EventStore, clock: StoreClock, settings: Settings) -> LogWriter:
    """The transparency log's writer, signing with this process's key."""
    transparency = settings.transparency
    return LogWriter(
        store,
        signing.load(settings.store.data_dir, transparency.signing_key),
        clock,
        transparency.log_origin,
        transparency.log_seconds,
        transparency.checkpoint_seconds,
    )
