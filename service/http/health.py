"""`/health`: the store, each queue server's state and its workers' heartbeat, this
process's background tasks, each projection's lag, and the durability in force.

Finding the projections' lag reads every shard's feed (1,024 by default), tens of ms of
Valkey's time: answered afresh for every request, a few clients polling it slowed every
other client's commands. So each process answers from a snapshot it takes at most once a
second (`FRESH_SECONDS`); requests that come while one is being taken wait for it, and none
takes another. `?fresh=true` is found for its request alone: the operators' check, open only
to whoever may read the metrics.
"""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

from litestar import Request, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter
from litestar.response import Response
from redis.exceptions import RedisError

from service.http.problems import responses
from service.readmodels.projections import health as projection_health
from service.wire.schemas import (
    CacheUse,
    DurabilityInForce,
    Health,
    Lag,
    QueueServerStatus,
    TaskStatus,
)

FRESH_SECONDS = 1.0


class Snapshot:
    """The last health found, and when; one finding at a time."""

    def __init__(self) -> None:
        self.body: Health | None = None
        self.taken = 0.0  # time.monotonic() when `body` was found
        self.taking: asyncio.Task[Health] | None = None
        self.findings = 0  # how many times the health was found (not answered from here)

    async def current(self, state: Any) -> Health:
        if self.body is not None and time.monotonic() - self.taken < FRESH_SECONDS:
            return self.body
        return await self.anew(state)

    async def anew(self, state: Any) -> Health:
        """Found again, unless a finding is under way already."""
        if self.taking is None:
            self.taking = asyncio.ensure_future(self._take(state))
        # Shielded: a client that hangs up does not cancel what the others wait for.
        return await asyncio.shield(self.taking)

    async def _take(self, state: Any) -> Health:
        try:
            self.findings += 1
            body = await find(state)
            self.body, self.taken = body, time.monotonic()
            return body
        finally:
            self.taking = None


async def queue_server(server: Any, heartbeat_key: str) -> QueueServerStatus:
    """A queue server's state, by its heartbeat (service/jobs/queue_servers.py)."""
    try:
        beat = await server.client.get(heartbeat_key)
    except RedisError:
        return QueueServerStatus(server=server.name, state="unreachable", worker=None)
    if beat is None:
        return QueueServerStatus(server=server.name, state="idle", worker=None)
    return QueueServerStatus(server=server.name, state="ok", worker=beat.decode())


async def find(state: Any) -> Health:
    redis = state.redis
    queues = await asyncio.gather(
        *(queue_server(server, state.heartbeat_key) for server in state.queues.servers)
    )
    beat = next((queue.worker for queue in queues if queue.worker is not None), None)
    try:
        await redis.ping()
        found = await projection_health(redis, state.get("projections"))
        reachable = True
    except RedisError:
        found, reachable = {}, False
    tasks = {
        name: TaskStatus(
            state=task_state,
            restarts=task.restarts,
            errors=task.errors,
            last_error=task.last_error,
            failing_seconds=None if failing is None else round(failing, 1),
        )
        for name, (task_state, task, failing) in state.supervisor.report().items()
    }
    well = (
        reachable
        and all(queue.state == "ok" for queue in queues)
        and all(t.state == "running" for t in tasks.values())
    )
    cache = state.service.repository.cache
    in_force = state.durability
    return Health(
        status="ok" if well else "degraded",
        redis="ok" if reachable else "unreachable",
        projections={name: Lag(**values) for name, values in found.items()},
        tasks=tasks,
        worker=beat,
        queues=queues,
        cache=CacheUse(games=len(cache), bytes=cache.bytes, max_bytes=cache.max_bytes),
        history_breaks=state.service.repository.breaks.count,
        durability=DurabilityInForce(
            mode=in_force.durability.mode,
            replicas=in_force.durability.replicas,
            checked=in_force.checked,
            store=in_force.store,
            alone=state.service.store.replicas.alone() if state.service.store.replicas else [],
        ),
    )


@get(
    "/health",
    tags=["service"],
    operation_id="health",
    security=[{}, {"operatorToken": []}],
    summary="Liveness: the store, each queue server and its workers' heartbeat, this "
    "process's background tasks, each projection's lag, errors and dead letters, and the "
    "durability in force",
    description="200 when all is well; 503, with the same body, when degraded. Each process "
    "answers from what it found at most a second before.",
    responses={
        **responses(400, 401, 429, s401="`fresh` without the operators' token."),
        503: ResponseSpec(
            Health, description="Degraded: see `status`'s description.", generate_examples=False
        ),
    },
)
async def health(
    request: Request,
    fresh: Annotated[
        bool,
        QueryParameter(
            description="Found now, not from the snapshot: the operators' check (open where "
            "the metrics are, DANGER_METRICS=open; else `Authorization: Bearer "
            "<DANGER_METRICS_TOKEN>`). Its own finding begins after the request does.",
        ),
    ] = False,
) -> Response[Health]:
    state = request.app.state
    if fresh:
        state.operators.check(request, "Fresh health checks")
        body = await find(state)
    else:
        body = await state.health.current(state)
    return Response(body, status_code=200 if body.status == "ok" else 503)
