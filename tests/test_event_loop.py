"""The loop the service's own processes (the worker, the stream writers) run on follows
DANGER_SERVER_STACK, as the API's does."""

from __future__ import annotations

import asyncio

from service.infra import event_loop
from service.infra.config import Settings


async def _loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


def test_the_worker_runs_on_uvloop_unless_the_standard_loop_is_asked_for():
    assert event_loop.run(_loop_module(), Settings()).startswith("uvloop")
    uvloop, standard = (Settings().replace(server_stack=s) for s in ("uvloop", "asyncio"))
    assert event_loop.run(_loop_module(), uvloop).startswith("uvloop")
    assert event_loop.run(_loop_module(), standard).startswith("asyncio")
