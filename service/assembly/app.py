"""The Litestar application: API, and beside it the projections and the arq worker."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components
from litestar.types import Middleware, Receive, Scope, Send

from service.assembly import background
from service.assembly.runtime import open_core
from service.http import (
    audit_api,
    docs_ui,
    games_api,
    health,
    history_api,
    leaderboards_api,
    metrics_page,
    params,
    play_api,
    players_api,
    quick_play_api,
    rematch_api,
    seats_api,
    transparency_api,
    web_ui,
    webhooks_api,
)
from service.http.command_route import CommandRoute
from service.http.guards import app_keys, ratelimit
from service.http.guards.clients import Clients
from service.http.guards.open_games import OpenGames
from service.http.guards.rate_ledger import Ledger
from service.http.observe import observe
from service.http.own_games import OwnGames
from service.http.problems import HANDLERS
from service.infra import logs, metrics, signing
from service.infra.bell import Bell
from service.infra.config import Settings
from service.infra.embedded import die_with_parent
from service.infra.supervisor import Supervisor
from service.jobs.worker import sweep
from service.live.foreground import Foreground
from service.live.stream_slots import StreamSlots
from service.live.stream_writer import StreamWriter
from service.live.streams import KEEP_ALIVE_SECONDS, StreamHub
from service.play.games import GameService
from service.play.idempotency import Creates
from service.play.offload import Offload
from service.play.receipts import Receipts
from service.play.transparency_log import TransparencyLog
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
        self._routed = super().__call__ if commands is None else commands.beside(self._litestar)

    async def _litestar(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:  # type: ignore[override]  # lifespan's too
        if scope["type"] != ScopeType.HTTP:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = scope["litestar_app"] = self  # as Litestar's own entry sets them
        await self.foreground.serve(scope, receive, send, self._observed)

    async def _observed(self, scope: Scope, receive: Receive, send: Send) -> None:
        await observe(scope, receive, send, self._routed, self.clients.of)


def _service(state: State) -> GameService:
    return state.service


def create_app(
    settings: Settings, redis_url: str, local_clock: Callable[[], float] = time.time
) -> Litestar:
    """The app. `local_clock` is this process's clock (tests skew it: events and deadlines
    follow the store's clock whatever it says)."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        core = await open_core(settings, redis_url, local_clock)
        redis, store, service, clock = core.redis, core.store, core.service, core.service.clock
        app.state.durability = core.in_force
        app.state.queues = core.queues
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
        app.state.player_stream_games = settings.streams.player_stream_games
        app.state.webhooks = settings.webhooks
        app.state.quick_play = settings.quick_play
        receipts = app.state.receipts = Receipts(
            signing.load(settings.store.data_dir, settings.transparency.signing_key), clock
        )
        await receipts.publish(redis)
        app.state.log = TransparencyLog(
            redis, receipts.signer, clock, settings.transparency.log_origin
        )
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
                supervisor, core.queues, redis, store, core.jobs, settings, bell
            )
        else:
            first_sweep = asyncio.create_task(sweep(core.jobs))
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
            app.state.offload.close()
            await core.close()
            metrics.process_exits()

    clients = Clients(settings.http.trusted_proxies)
    foreground = Foreground()  # the requests in flight, which the streams' fan-out lets go first
    limiter = ratelimit.Limiter(settings.rates, clients)
    # Around every route, the commands' beside Litestar's included. The app key first: a
    # request is limited under its key when it sent a good one.
    middleware: list[Middleware] = [
        app_keys.AppKeyMiddleware,
        *([ratelimit.middleware(limiter)] if settings.limits.rate_limits else []),
    ]
    app = Hall(
        clients=clients,
        foreground=foreground,
        commands=CommandRoute(settings.http.max_body_bytes, middleware)
        if settings.server.direct_commands
        else None,
        route_handlers=[
            games_api.GamesController,
            play_api.PlayController,
            history_api.HistoryController,
            health.health,
            *([metrics_page.metrics] if settings.observe.metrics in ("open", "token") else []),
            players_api.PlayersController,
            seats_api.SeatsController,
            rematch_api.RematchController,
            webhooks_api.WebhooksController,
            leaderboards_api.LeaderboardsController,
            quick_play_api.QuickPlayController,
            transparency_api.TransparencyController,
            docs_ui.assets(),
            audit_api.upload_handler(settings.http.audit_upload_bytes),
            web_ui.page,
            web_ui.assets(),
        ],
        # The app key first: a request is limited under its key when it sent a good one.
        middleware=middleware,
        state=State(
            {
                "open_games": OpenGames(settings.limits.open_games_per_client, clients),
                "own_games": OwnGames(settings.limits.created_kept, clients),
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
            "token": Provide(params.bearer_token, sync_to_thread=False),
        },
        lifespan=[lifespan],
        exception_handlers=HANDLERS,
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
            openapi_router=docs_ui.router(settings),  # it serves the committed spec
            components=Components(security_schemes=params.SECURITY_SCHEMES),
        ),
        debug=False,
    )
    return app


def from_env() -> Litestar:
    """The app as `danger serve --workers N` starts it in each API process (uvicorn imports
    it by name): settings and REDIS_URL from the environment. It ends with `danger serve`, by
    whatever signal that ends (SIGKILL included): left behind, it would hold the port. It
    leaves the terminal's process group: a Ctrl-C reaches `danger serve`, which stops it
    with one signal (two, the terminal's and its parent's, would cut its shutdown short)."""
    die_with_parent()
    os.setpgrp()
    settings = Settings.from_env()
    logs.configure(settings.observe.log_format, access_log=settings.observe.access_log)
    if settings.store.redis_url is None:
        raise RuntimeError("REDIS_URL must name the server the API processes share")
    return create_app(settings, settings.store.redis_url)
