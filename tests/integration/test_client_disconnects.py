"""A client that hangs up before its answer: logged and counted as the client's doing (status
499, code `client_closed`), never as the server's failure (5xx) or a failed command.

The service runs on uvicorn on a loopback socket with the protocols `danger serve` runs
(service/http/http_protocols.py); the client is a raw socket. A store of the test's own is
paused for writes (`CLIENT PAUSE ... WRITE`) to hold a request at its first write for as long
as the test needs: the client hangs up once the store shows the request waiting, which makes
"while it was being worked on" certain, not a matter of timing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from service.http.http_protocols import protocol
from service.infra.embedded import EmbeddedValkey
from tests.api.test_observability import samples, value
from tests.conftest import make_app, on_socket, wait_for
from tests.players import first_to_act, new_table, seq_of

COMMANDS = "/v1/games/{game_id}/commands"
REQUESTS = "danger_http_request_duration_seconds_count"
COMMAND_COUNT = "danger_command_duration_seconds_count"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EmbeddedValkey]:
    """A store no other test's background work writes to: its paused writes are ours."""
    server = EmbeddedValkey(tmp_path / "store")
    server.start()
    yield server
    server.stop()


@contextlib.asynccontextmanager
async def paused(store: EmbeddedValkey) -> AsyncIterator[aioredis.Redis]:
    """The store taking no writes until the block ends (a minute at most)."""
    admin = aioredis.from_url(store.url)
    await admin.execute_command("CLIENT", "PAUSE", "60000", "WRITE")
    try:
        yield admin
    finally:
        await admin.execute_command("CLIENT", "UNPAUSE")
        await admin.aclose()


async def hang_up_while_waiting(url: str, admin: aioredis.Redis, request: bytes) -> None:
    """Send `request` whole, wait until the store holds a write of it back, and hang up."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(request)
    await writer.drain()
    # The request is at its first write, which waits for the pause.
    await wait_for(lambda: _blocked(admin), timeout=10)
    writer.close()
    await writer.wait_closed()
    assert await reader.read() == b""  # nothing came back before the client left


async def _blocked(admin: aioredis.Redis) -> bool:
    return (await admin.info("clients"))["blocked_clients"] >= 1


def post(path: str, body: bytes, **headers: str) -> bytes:
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += "".join(f"{name}: {v}\r\n" for name, v in headers.items())
    return f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body


def lines_of(caplog: pytest.LogCaptureFixture, path: str) -> list[dict[str, Any]]:
    found = (getattr(r, "request", None) for r in caplog.records if r.name == "danger.request")
    return [line for line in found if line is not None and line["path"] == path]


async def logged(caplog: pytest.LogCaptureFixture, path: str) -> dict[str, Any]:
    """The one log line of the request to `path`, once written."""
    found = await wait_for(lambda: lines_of(caplog, path), timeout=30)
    assert len(found) == 1, found
    return found[0]


async def test_a_command_whose_client_hangs_up_while_it_is_applied_is_499_and_applied(
    store, caplog
):
    caplog.set_level(logging.INFO, logger="danger.request")
    app = make_app(store, background=False)
    async with on_socket(app, protocol("auto")) as url, httpx.AsyncClient(base_url=url) as http:
        table = await new_table(http, seats=2)
        seat, legal = await first_to_act(table)
        seq = await seq_of(http, table.id)
        before = samples((await http.get("/metrics")).text)
        path = f"/v1/games/{table.id}/commands"
        async with paused(store) as admin:
            sent = post(path, json.dumps(legal[0]).encode(), **table.auth(seat))
            await hang_up_while_waiting(url, admin, sent)
        line = await logged(caplog, path)
        assert line["status"] == 499 and line["code"] == "client_closed"
        # The command was applied all the same: counted as applied, not failed.
        assert await seq_of(http, table.id) > seq
        after = samples((await http.get("/metrics")).text)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew(REQUESTS, route=COMMANDS, method="POST", status="499") == 1
    assert grew(COMMAND_COUNT, game="danger", outcome="applied") == 1
    assert grew(COMMAND_COUNT, game="danger", outcome="failed") == 0


async def test_a_command_cut_off_in_its_body_is_499_and_client_closed_not_failed(store, caplog):
    caplog.set_level(logging.INFO, logger="danger.request")
    app = make_app(store, background=False)
    async with on_socket(app, protocol("auto")) as url, httpx.AsyncClient(base_url=url) as http:
        table = await new_table(http, seats=2)
        seat, legal = await first_to_act(table)
        seq = await seq_of(http, table.id)
        before = samples((await http.get("/metrics")).text)
        path = f"/v1/games/{table.id}/commands"
        sent = post(path, json.dumps(legal[0]).encode(), **table.auth(seat))
        host, port = url.removeprefix("http://").split(":")
        _, writer = await asyncio.open_connection(host, int(port))
        writer.write(sent[:-5])  # the head and all but the body's last bytes
        await writer.drain()
        writer.close()
        await writer.wait_closed()
        line = await logged(caplog, path)
        assert line["status"] == 499 and line["code"] == "client_closed"
        assert await seq_of(http, table.id) == seq
        after = samples((await http.get("/metrics")).text)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew(REQUESTS, route=COMMANDS, method="POST", status="499") == 1
    assert grew(REQUESTS, route=COMMANDS, method="POST", status="500") == 0
    assert grew(COMMAND_COUNT, game="unknown", outcome="client_closed") == 1
    assert grew(COMMAND_COUNT, game="unknown", outcome="failed") == 0


async def test_a_create_whose_client_hangs_up_before_its_body_is_read_is_499(store, caplog):
    """The create's rate limit takes its bucket in the store before the body is read: the
    client leaves meanwhile, and the body is gone when the route asks for it."""
    caplog.set_level(logging.INFO, logger="danger.request")
    app = make_app(store, background=False, rate_limits=True)
    async with on_socket(app, protocol("auto")) as url, httpx.AsyncClient(base_url=url) as http:
        before = samples((await http.get("/metrics")).text)
        async with paused(store) as admin:
            body = json.dumps({"game": "danger", "seats": 2}).encode()
            await hang_up_while_waiting(url, admin, post("/v1/games", body))
        line = await logged(caplog, "/v1/games")
        assert line["status"] == 499 and line["code"] == "client_closed"
        after = samples((await http.get("/metrics")).text)
        assert (await http.get("/v1/games")).json()["games"] == []  # nothing was created

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew(REQUESTS, route="/v1/games", method="POST", status="499") == 1
    assert grew(REQUESTS, route="/v1/games", method="POST", status="500") == 0
