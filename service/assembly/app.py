"""The Litestar application: API, and beside it the projections and the arq worker."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from arq.connections import ArqRedis
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components
from litestar.types import Receive, Scope, Send

from events.cluster import Store
from events.store import EventStore
from service.assembly import background
from service.http import (
    audit_api,
    docs_ui,
    games_api,
    health,
    history_api,
    play_api,
    players_api,
    seats_api,
    web_ui,
)
from service.http.command_route import CommandRoute
from service.http.guards import app_keys, ratelimit
from service.http.guards.clients import Clients
from service.http.guards.open_games import OpenGames
from service.http.guards.rate_ledger import Ledger
from service.http.observe import observe
from service.http.problems import HANDLERS
from service.infra import durability, logs, metrics, shards
from service.infra.bell import Bell
from service.infra.clock import StoreClock
from service.infra.config import Settings
from service.infra.connections import open_queue, open_store, queue_url
from service.infra.durability import InForce
from service.infra.supervisor import Supervisor
from service.jobs.worker import JobQueue, sweep
from service.live.foreground import Foreground
from service.live.stream_slots import StreamSlots
from service.live.stream_writer import StreamWriter
from service.live.streams import KEEP_ALIVE_SECONDS, StreamHub
from service.play.games import GameService
from service.play.idempotency import Creates
from service.play.offload import Offload
from service.spec import openapi_spec
from service.wire.bodies import StrictRequest

DESCRIPTION = """\
Play the four Danger card games over REST. Every draw, play and score is an immutable event:
read them at /v1/games/{id}/events or live at /v1/games/{id}/stream.

Create a game, join its seats (each join returns a bearer token), start it with the admin
token, then each seat reads `GET /v1/games/{id}` (its `legal` list holds every command it may
send now, as complete bodies) and posts commands to `/v1/games/{id}/commands`.
Errors are RFC 9457 problem details with a stable `code`.
"""


GC_YOUNG = 20_000  # allocations between young collections (CPython's default: 700)


class Hall(Litestar):
    """The app, with every HTTP request observed (service/http/observe.py) before it is routed
    and counted while it is answered (service/live/foreground.py); `clients` names a request's
    client in its log line as the rate limits do."""

    def __init__(
        self,
        *args: Any,
        clients: Clients,
        foreground: Foreground,
        commands: CommandRoute | None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.clients, self.foreground, self.commands = clients, foreground, commands
        # Commands beside Litestar's layers (service/http/command_route.py), all else through them.
        self._routed = (
            super().__call__ if commands is None else commands.beside(self._litestar, self.state)
        )

    async def _litestar(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # type: ignore[override]
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        await self.foreground.serve(scope, receive, send, self._observed)

    async def _observed(self, scope: Scope, receive: Receive, send: Send) -> None:
        await observe(scope, receive, send, self._routed, self.clients.of)


def _service(state: State) -> GameService:
    return state.service  # type: ignore[no-any-return]


async def open_stores(settings: Settings, redis_url: str) -> tuple[Store, str, InForce]:
    """The store's client (a single server or a cluster), once it is fit to serve: the job
    queue has a single server (service/infra/connections.py), the store keeps what is acknowledged
    (service/infra/durability.py), and its number of shards agrees with this process's
    (service/infra/shards.py); and where the job queue lives."""
    redis = await open_store(redis_url, settings.store.redis_connections)
    try:
        queue_at = await queue_url(redis_url, settings.store.queue_url)
        in_force = await durability.establish(redis, settings.store.durability)
        await shards.establish(redis, settings.store.shards)  # the first write, on a fit store
    except BaseException:
        await redis.aclose()
        raise
    durability.announce(in_force)
    return redis, queue_at, in_force


def create_app(
    settings: Settings, redis_url: str, local_clock: Callable[[], float] = time.time
) -> Litestar:
    """The app. `local_clock` is this process's clock (tests skew it: events and deadlines
    follow the store's clock whatever it says)."""
    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        redis, queue_at, in_force = await open_stores(settings, redis_url)
        app.state.durability = in_force
        store = EventStore(redis, in_force.copies, settings.play.idempotency_ms)
        # The job queue's pool is bounded too (arq's own would not be): the store's pool
        # where the queue lives on the store's server.
        queue = open_queue(redis, redis_url, queue_at, settings.store.redis_connections)
        pool = ArqRedis(queue.connection_pool, default_queue_name=settings.store.queue)
        app.state.queue = pool
        clock = StoreClock(redis, local_clock)
        service = GameService(
            store,
            settings.play.sandbox,
            JobQueue(pool),
            settings.lifecycle,
            clock,
            cache_bytes=settings.play.cache_mb * 2**20,
        )
        if settings.limits.rate_limits and settings.limits.rate_settle_ms > 0:
            limiter.ledger = Ledger(
                redis,
                clock.time,
                settings.limits.rate_settle_ms / 1000,
                settings.limits.rate_buckets,
            )
            limiter.ledger.start()
        slots = StreamSlots(settings.streams.streams_per_client, settings.streams.streams_max)
        keep_alive = app.state.get("keep_alive", KEEP_ALIVE_SECONDS)  # tests shorten it
        hub = StreamHub(
            service,
            slots,
            queue_bound=settings.streams.stream_queue,
            writes_per_second=settings.streams.stream_writes,
            keep_alive=keep_alive,
            foreground=foreground,
            stand_aside=settings.streams.stream_stand_aside_ms / 1000,
        )
        writer = app.state.stream_writer = None
        if settings.streams.stream_process:
            writer = app.state.stream_writer = StreamWriter(settings, redis_url, slots, keep_alive)
            writer.start()
        # One subscription to the feeds' bell for every reader of the feeds here.
        bell = app.state.bell = Bell(redis)
        await bell.start()
        await hub.start(bell)
        app.state.redis, app.state.service, app.state.hub = redis, service, hub
        app.state.offload = Offload(
            settings.cpu.cpu_workers, settings.cpu.cpu_queue, settings.cpu.cpu_per_client
        )
        # What exists now lives as long as the process: keep it out of every collection.
        # Young collections run less often; each request makes short-lived objects only.
        gc.freeze()
        gc.set_threshold(GC_YOUNG, 20, 20)
        # With the background, each of its tasks supervised; without, one sweep at the start.
        supervisor = app.state.supervisor = Supervisor(settings.worker.give_up_seconds)
        app.state.heartbeat_key = background.heartbeat_key(settings.store.queue)
        first_sweep = None
        if settings.worker.background:
            # Their errors show in /health.
            app.state.projections = background.start(
                supervisor, queue_at, redis, store, service, settings, bell
            )
        else:
            first_sweep = asyncio.create_task(sweep(service))
        try:
            yield
        finally:
            await supervisor.stop()
            if first_sweep is not None:
                first_sweep.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await first_sweep
            if writer is not None:
                await writer.stop()
            await hub.stop()
            await bell.stop()
            if limiter.ledger is not None:
                await limiter.ledger.stop()
                limiter.ledger = None
            with contextlib.suppress(Exception):  # else within the appends' grace
                await service.play.due_filing.flushed()
            app.state.offload.close()
            await pool.aclose()
            await queue.aclose()
            await redis.aclose()
            metrics.process_exits()

    clients = Clients(settings.http.trusted_proxies)
    foreground = Foreground()  # the requests in flight, which the streams' fan-out lets go first
    limiter = ratelimit.Limiter(settings.rates, clients)
    app = Hall(
        clients=clients,
        foreground=foreground,
        commands=CommandRoute(
            limiter if settings.limits.rate_limits else None, settings.http.max_body_bytes
        )
        if settings.server.direct_commands
        else None,
        route_handlers=[
            games_api.GamesController,
            play_api.PlayController,
            history_api.HistoryController,
            health.health,
            *([metrics.metrics] if settings.observe.metrics in ("open", "token") else []),
            players_api.PlayersController,
            seats_api.SeatsController,
            docs_ui.assets(),
            audit_api.upload_handler(settings.http.audit_upload_bytes),
            web_ui.page,
            web_ui.assets(),
        ],
        # The app key first: a request is limited under its key when it sent a good one.
        middleware=[
            app_keys.AppKeyMiddleware,
            *([ratelimit.middleware(limiter)] if settings.limits.rate_limits else []),
        ],
        state=State(
            {
                "open_games": OpenGames(settings.limits.open_games_per_client, clients),
                "clients": clients,
                "limiter": limiter,
                "creates": Creates(settings.play.idempotency_ms),
                "unseated_players": settings.unseated_players,
                "health": health.Snapshot(),
                "operators": metrics.Operators(
                    settings.observe.metrics, settings.observe.metrics_token
                ),
                "auth": settings.server.auth,
            }
        ),
        dependencies={
            "service": Provide(_service, sync_to_thread=False),
            "token": Provide(games_api.bearer_token, sync_to_thread=False),
        },
        lifespan=[lifespan],
        exception_handlers=HANDLERS,  # type: ignore[arg-type]
        logging_config=None,  # the process's, set by service/infra/logs.py
        request_max_body_size=settings.http.max_body_bytes,
        request_class=StrictRequest,
        cors_config=CORSConfig(
            # A browser client may read the limits, a game's ETag for If-Match, and whether a
            # command's answer is the minimal one it preferred.
            allow_origins=list(settings.server.cors_origins),
            expose_headers=[*ratelimit.HEADERS, "ETag", "X-Request-ID", "Preference-Applied"],
        )
        if settings.server.cors_origins
        else None,
        openapi_config=OpenAPIConfig(
            title="Danger Hall",
            version="1.0.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[docs_ui.swagger()],
            components=Components(security_schemes=games_api.SECURITY_SCHEMES),
        ),
        debug=False,
    )
    openapi_spec.finish(app, settings.server.auth)
    app.openapi_schema.paths["/v1/audit"].post.request_body = audit_api.request_body(  # type: ignore[index,union-attr]
        settings.http.audit_upload_bytes
    )
    return app


def from_env() -> Litestar:
    """The app as `danger serve --workers N` starts it in each API process (uvicorn imports
    it by name): settings and REDIS_URL from the environment."""
    settings = Settings.from_env()
    logs.configure(settings.observe.log_format, access_log=settings.observe.access_log)
    if settings.store.redis_url is None:
        raise RuntimeError("REDIS_URL must name the server the API processes share")
    return create_app(settings, settings.store.redis_url)
