"""The event loop a process of the service runs on besides uvicorn's (the worker, the stream
writer): uvloop, as the API's, unless `DANGER_SERVER_STACK=asyncio` asks for the standard
library's. The worker's loop turns over once for every batch of feed entries and every
queued job, and uvloop's turn costs a fraction of asyncio's (docs/performance.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from service.infra.config import Settings

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T], settings: Settings) -> T:
    if settings.server.loop_and_http[0] == "asyncio":
        return asyncio.run(main)
    import uvloop

    return uvloop.run(main)
