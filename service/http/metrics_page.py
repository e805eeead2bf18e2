"""`/metrics`: the service's samples in the Prometheus text format (service/infra/metrics.py
defines them), with each projection's lag read from the store at the scrape."""

from __future__ import annotations

import asyncio

from litestar import Request, get
from litestar.response import Response

from service.infra.metrics import PROJECTION_BACKLOG, PROJECTION_LAG, TEXT_FORMAT, exposition
from service.readmodels.projections import lag


async def _projection_lag(request: Request) -> None:
    for name, behind in (await lag(request.app.state.redis)).items():
        PROJECTION_LAG.labels(name).set(behind["ms"] / 1000)
        PROJECTION_BACKLOG.labels(name).set(behind["entries"])


@get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response[bytes]:
    """The service's samples, for Prometheus: an operator's endpoint, open, behind a token,
    or not here at all but on a port of its own (DANGER_METRICS; docs/operations.md)."""
    request.app.state.operators.check(request, "The metrics")
    await _projection_lag(request)
    # Reading every process's files takes a few ms with many series: off the event loop.
    return Response(await asyncio.to_thread(exposition), media_type=TEXT_FORMAT)
