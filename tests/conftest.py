"""Fixtures: a real embedded Valkey server for the session, and the app on top of it."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.assembly.app import create_app
from service.infra import compiled
from service.infra.config import Settings
from service.infra.embedded import EmbeddedValkey
from tests.stores import EXTERNAL, External


def pytest_configure(config: pytest.Config) -> None:
    """The suite tests the modules as their sources say: never a build older than them."""
    try:
        compiled.check()
    except SystemExit as refused:
        pytest.exit(str(refused), returncode=4)


@pytest.fixture(scope="session")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey | External]:
    """The session's store: the embedded Valkey, or the store named by DANGER_TEST_REDIS_URL
    (a cluster's node, with DANGER_TEST_QUEUE_URL for the job queue: `make test-cluster`)."""
    if EXTERNAL is not None:
        yield EXTERNAL
        return
    server = EmbeddedValkey(Path(tmp_path_factory.mktemp("valkey")))
    server.start()
    yield server
    server.stop()


def make_app(
    valkey: EmbeddedValkey, local_clock: Callable[[], float] = time.time, **settings: object
):
    """The app on the session's server; `local_clock` is its process's own clock. The suite
    sends thousands of requests and creates hundreds of games from one address
    ("testclient"): the per-client limits are off unless a test sets them
    (tests/api/test_rate_limits.py)."""
    settings = {
        "rate_limits": False,
        "stream_process": False,  # tests/integration/test_stream_writer.py turns it on
        "open_games_per_client": 0,
        "queue_url": getattr(valkey, "queue_url", None),
        **settings,
    }
    return create_app(Settings().replace(**settings), valkey.url, local_clock)


@pytest.fixture(scope="session")
async def client(valkey: EmbeddedValkey) -> AsyncIterator[AsyncTestClient]:
    async with AsyncTestClient(app=make_app(valkey, sandbox=True)) as c:
        yield c


async def wait_for(predicate: Any, timeout: float = 60.0) -> Any:
    """Poll until `predicate()` (a function, or a coroutine function) is true, and return
    what it returned; the timeout only guards against a hang."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        value = predicate()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def on_socket(app, http: Any = "auto") -> AsyncIterator[str]:
    """The app served by uvicorn on a loopback port, and its URL: what streams over SSE, and
    where concurrent requests really overlap (AsyncTestClient runs one request at a time).
    `http`: uvicorn's protocol (`danger serve` gives service/http/http_protocols.py's)."""
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="error", http=http, proxy_headers=False
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        assert not serving.done(), "uvicorn did not start"
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await serving


@contextlib.asynccontextmanager
async def running(app: Litestar) -> AsyncIterator[Litestar]:
    """The app with its lifespan run (store, queue) in this event loop, as a server process
    holds it; its clients (`peer`) call it in this loop too."""
    async with app.lifespan():
        yield app


@contextlib.asynccontextmanager
async def peer(app: Litestar, address: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client of a running app whose connection comes from `address`."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))  # type: ignore[arg-type]  # httpx: a mapping scope
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver.local") as c:
        yield c
