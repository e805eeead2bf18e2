"""What a connection may hold before its request begins (service/http/guards/connection_limits.py),
on uvicorn with the protocols `danger serve` runs (service/http/http_protocols.py), for both
parsers: a head's size, the time it takes to come, the connections open from one address."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from service.http.http_protocols import protocol
from service.infra.config import Settings
from tests.conftest import on_socket
from tests.integration.test_restart import free_port, serve

PARSERS = ["httptools", "h11"]
KIB = 1024


async def echo(scope: Any, receive: Any, send: Any) -> None:
    """An app that reads the whole body and says how long it was."""
    if scope["type"] != "http":
        return
    size, more = 0, True
    while more:
        message = await receive()
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    said = str(size).encode()
    headers = [(b"content-length", str(len(said)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": said})


@contextlib.asynccontextmanager
async def bounded(http: str, **settings: Any) -> AsyncIterator[int]:
    """The port of uvicorn serving `echo` with the service's protocol bound by `settings`."""
    async with on_socket(echo, protocol(http, Settings().replace(**settings))) as url:
        yield int(url.rsplit(":", 1)[1])


def head(size: int = 0, *, target: str = "/", close: bool = True, body: int = 0) -> bytes:
    """A request whose line and headers take about `size` bytes (at least what it needs)."""
    lines = [f"POST {target} HTTP/1.1", "Host: danger.test", f"Content-Length: {body}"]
    if close:
        lines.append("Connection: close")
    text = "\r\n".join(lines) + "\r\n"
    filler, n = size - len(text) - 2, 0
    while filler > 0:
        line = f"X-Filler-{n}: " + "a" * min(1000, max(0, filler - 16)) + "\r\n"
        text, filler, n = text + line, filler - len(line), n + 1
    return (text + "\r\n").encode("ascii")


async def connect(port: int, source: str = "127.0.0.1") -> tuple[Any, Any]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def until_closed(reader: asyncio.StreamReader, seconds: float = 15) -> bytes:
    """All the server sends until it closes the connection (a reset ends it too)."""
    got = b""
    deadline = time.monotonic() + seconds
    with contextlib.suppress(ConnectionResetError):
        while chunk := await asyncio.wait_for(reader.read(65536), deadline - time.monotonic()):
            got += chunk
    return got


async def ask(port: int, request: bytes, source: str = "127.0.0.1") -> bytes:
    reader, writer = await connect(port, source)
    try:
        writer.write(request)
        await writer.drain()
        return await until_closed(reader)
    finally:
        writer.close()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer else 0


def problem_code(answer: bytes) -> str:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/problem+json" in head.lower()
    return str(json.loads(body)["code"])


@pytest.mark.parametrize("http", PARSERS)
async def test_a_head_past_its_bound_is_answered_431_and_the_app_never_sees_it(http):
    async with bounded(http, max_head_kb=16) as port:
        at_once = await ask(port, head(17 * KIB))
        assert status(at_once) == 431, at_once[:200]
        assert problem_code(at_once) == "head_too_large"
        # The same head in pieces, as a slow client or a small window sends it.
        reader, writer = await connect(port)
        request = head(17 * KIB)
        for start in range(0, len(request), KIB):
            if writer.is_closing():
                break
            writer.write(request[start : start + KIB])
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            await asyncio.sleep(0.005)
        assert status(await until_closed(reader)) == 431
        writer.close()

        within = await ask(port, head(15 * KIB))
        assert (status(within), within.rsplit(b"\r\n", 1)[1]) == (200, b"0")
        # A body is not a head: a large one in the same read as its head is read whole.
        body = 300 * KIB
        big = await ask(port, head(body=body) + b"b" * body)
        assert (status(big), big.rsplit(b"\r\n", 1)[1]) == (200, str(body).encode())


@pytest.mark.parametrize("http", PARSERS)
async def test_a_large_body_and_the_next_head_in_one_read_are_no_large_head(http):
    """Pipelined: the end of a large body and the next request's head come in one write (and
    so, on loopback, mostly in one read): the body's bytes are not the next head's."""
    async with bounded(http, max_head_kb=16) as port:
        body = 60 * KIB
        for _ in range(3):
            following = head(close=True)
            reader, writer = await connect(port)
            # The next head begun in the body's read, and finished in a read of its own.
            writer.write(head(body=body, close=False) + b"b" * body + following[:20])
            await writer.drain()
            await asyncio.sleep(0.1)
            writer.write(following[20:])
            await writer.drain()
            answers = await until_closed(reader)
            writer.close()
            assert answers.count(b"HTTP/1.1 200") == 2, answers[:300]
        # A head past the bound begun in such a read is still measured whole when it ends.
        large = head(17 * KIB, close=True)
        reader, writer = await connect(port)
        writer.write(head(body=body, close=False) + b"b" * body + large[: 15 * KIB])
        await writer.drain()
        await asyncio.sleep(0.1)
        writer.write(large[15 * KIB :])
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        answers = await until_closed(reader)
        writer.close()
        assert answers.count(b"HTTP/1.1 200") == 1 and b"HTTP/1.1 431" in answers, answers[:300]


@pytest.mark.parametrize("http", PARSERS)
async def test_a_head_that_does_not_come_in_time_closes_its_connection(http):
    async with bounded(http, head_timeout_seconds=0.5) as port:
        reader, writer = await connect(port)
        writer.write(head(400)[:100])  # the request line and a part of the headers
        assert await until_closed(reader) == b""
        writer.close()
        reader, writer = await connect(port)  # a connection that says nothing
        assert await until_closed(reader) == b""
        writer.close()

        # Once the head has come, the body may take longer; and between requests, uvicorn's
        # keep-alive timeout (5 s) governs, not the head's.
        reader, writer = await connect(port)
        writer.write(head(close=False, body=5))
        await asyncio.sleep(1.2)
        writer.write(b"12345")
        first = await reader.readuntil(b"\r\n\r\n")
        assert status(first) == 200
        assert await reader.readexactly(1) == b"5"
        await asyncio.sleep(1.2)
        writer.write(head(body=0))
        assert status(await until_closed(reader)) == 200
        writer.close()

        # Empty lines before a request are allowed, and stop uvicorn's keep-alive timer: they
        # begin a head that must come in time too.
        reader, writer = await connect(port)
        writer.write(head(close=False))
        assert status(await reader.readuntil(b"\r\n\r\n")) == 200
        assert await reader.readexactly(1) == b"0"
        writer.write(b"\r\n")
        assert b"200 OK" not in await until_closed(reader)  # closed (h11 says 400 first)
        writer.close()


@pytest.mark.parametrize("http", PARSERS)
async def test_connections_from_one_address_are_capped_per_process(http):
    """The N+1-th connection from an address is refused (429, then closed) while another
    address connects; a closed connection frees its place; a trusted proxy's connections
    carry many clients and are not capped."""
    async with bounded(
        http,
        connections_per_client=4,
        streams_per_client=2,
        head_timeout_seconds=60,
        trusted_proxy=("127.0.0.3",),
    ) as port:
        held = [await connect(port) for _ in range(4)]
        refused = await ask(port, head())
        assert status(refused) in (429, 0), refused[:200]  # a reset may beat the answer
        if refused:
            assert problem_code(refused) == "too_many_connections"
        assert status(await ask(port, head(), source="127.0.0.2")) == 200

        held.pop()[1].close()
        deadline = time.monotonic() + 10
        while status(answer := await ask(port, head())) != 200:
            assert time.monotonic() < deadline, answer[:200]
            await asyncio.sleep(0.05)

        proxied = [await connect(port, "127.0.0.3") for _ in range(6)]
        assert status(await ask(port, head(), source="127.0.0.3")) == 200
        for _, writer in held + proxied:
            writer.close()


def vm(pid: int, field: str) -> int:
    """A memory figure of /proc/<pid>/status, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


def flood(port: int, mib: int) -> bytes:
    """A head that never ends, `mib` MiB of one header on a raw socket, as long as the server
    reads it; then what it answered."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60)
    try:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: danger.test\r\nX-Endless: ")
        piece = b"a" * 2**20
        with contextlib.suppress(OSError):  # the server closed or reset the connection
            for _ in range(mib):
                sock.sendall(piece)
        got = b""
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                got += chunk
        return got
    finally:
        sock.close()


@pytest.mark.parametrize("stack", ["uvloop", "asyncio"])
def test_an_endless_header_does_not_grow_danger_serve(tmp_path, monkeypatch, stack):
    """Four connections each sending 32 MiB of one header: the API process's peak memory
    stays where it was (it grew by 32 MiB a connection when the head had no bound), and
    each is answered 431 or closed."""
    monkeypatch.setenv("DANGER_SERVER_STACK", stack)
    port = free_port()
    proc = serve(tmp_path, port)
    try:
        Path(f"/proc/{proc.pid}/clear_refs").write_text("5")  # the peak starts from now
        before = vm(proc.pid, "VmRSS")
        answers = [flood(port, 32) for _ in range(4)]
        grown = vm(proc.pid, "VmHWM") - before
        assert all(status(a) in (431, 0) for a in answers), [a[:100] for a in answers]
        assert grown < 4 * KIB, f"the process grew by {grown} KiB"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_danger_serve_with_several_processes_bounds_heads_as_set(tmp_path, monkeypatch):
    """The settings reach the spawned API processes of `--workers 2`."""
    monkeypatch.setenv("DANGER_MAX_HEAD_KB", "4")
    monkeypatch.setenv("DANGER_HEAD_TIMEOUT_SECONDS", "1")
    port = free_port()
    proc = serve(tmp_path, port, "--workers", "2")
    try:
        for _ in range(4):  # whichever process accepts it
            assert status(asyncio.run(ask(port, head(5 * KIB, target="/health")))) == 431
            assert status(asyncio.run(ask(port, head(3 * KIB, target="/health")))) != 431
        with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            assert sock.recv(100) == b""
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_the_settings_and_their_bounds(monkeypatch):
    defaults = Settings.from_env()
    assert (defaults.http.max_head_kb, defaults.http.head_timeout_seconds) == (16, 10.0)
    assert defaults.http.connections_per_client == 64
    monkeypatch.setenv("DANGER_MAX_HEAD_KB", "32")
    monkeypatch.setenv("DANGER_HEAD_TIMEOUT_SECONDS", "2.5")
    monkeypatch.setenv("DANGER_CONNECTIONS_PER_CLIENT", "off")
    set_ = Settings.from_env().http
    assert (set_.max_head_kb, set_.head_timeout_seconds, set_.connections_per_client) == (
        32,
        2.5,
        0,
    )
    monkeypatch.setenv("DANGER_CONNECTIONS_PER_CLIENT", "20")
    with pytest.raises(ValueError, match="more than DANGER_STREAMS_PER_CLIENT"):
        Settings.from_env()
    monkeypatch.setenv("DANGER_CONNECTIONS_PER_CLIENT", "64")
    monkeypatch.setenv("DANGER_HEAD_TIMEOUT_SECONDS", "0")
    with pytest.raises(ValueError, match="DANGER_HEAD_TIMEOUT_SECONDS"):
        Settings.from_env()
    monkeypatch.setenv("DANGER_HEAD_TIMEOUT_SECONDS", "10")
    monkeypatch.setenv("DANGER_MAX_HEAD_KB", "0")
    with pytest.raises(ValueError, match="DANGER_MAX_HEAD_KB"):
        Settings.from_env()
