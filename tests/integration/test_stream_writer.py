"""Streams written by the API process's stream writer (service/live/stream_writer.py), on the real
server: uvicorn with the protocols `danger serve` runs (service/http/http_protocols.py), the
writer a process of its own, the session's Valkey."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from service.http.http_protocols import protocol
from service.infra.config import Settings
from tests.conftest import make_app, on_socket, wait_for
from tests.integration.test_streams import (
    Listener,
    Server,
    client,
    close_all,
    listen,
    open_stream,
    play,
)
from tests.players import new_table, play_to_end


@contextlib.asynccontextmanager
async def writing(valkey: Any, http: str = "httptools", **settings: Any) -> AsyncIterator[Server]:
    """The app with its stream writer, once the writer is ready."""
    app = make_app(valkey, sandbox=True, background=False, stream_process=True, **settings)
    app.state.keep_alive = 0.2
    async with on_socket(app, protocol(http)) as url:
        await wait_for(lambda: app.state.stream_writer.ready)
        yield Server(app, url)


@contextlib.asynccontextmanager
async def in_process(valkey: Any) -> AsyncIterator[Server]:
    """The same app on the same store, writing its streams itself."""
    app = make_app(valkey, sandbox=True, background=False)
    async with on_socket(app) as url:
        yield Server(app, url)


@pytest.mark.parametrize("http", ["httptools", "h11"])
async def test_the_writer_sends_each_reader_what_the_api_process_would(valkey, http):
    """Seats and spectators, live and from the start: every event once, in order, redacted
    for its reader exactly as a stream the API process writes, then the end; the API
    process's own hub holds none of them."""
    async with (
        writing(valkey, http) as server,
        in_process(valkey) as plain,
        client(server.url) as ours,
        client(plain.url) as theirs,
    ):
        table = await new_table(ours, seats=3, game="high-voltage", start=False)
        viewers: list[int | None] = [0, 1, 2, None]
        written = [(v, *open_stream(ours, table.id, **_auth(table, v))) for v in viewers * 5]
        beside = {v: open_stream(theirs, table.id, **_auth(table, v)) for v in viewers}
        await wait_for(lambda: server.hub.open == len(written) and plain.hub.open == 4)
        assert server.hub.channels == {}  # every stream went to the writer

        r = await ours.post(
            f"/v1/games/{table.id}/start", headers={"Authorization": f"Bearer {table.admin}"}
        )
        assert r.status_code == 200
        await play_to_end(table, choose=random.Random(7).choice)
        tasks = [task for *_, task in written] + [task for _, task in beside.values()]
        await asyncio.wait_for(asyncio.gather(*tasks), 60)  # every stream ended by itself

        for viewer, listener, _ in written:
            expected = beside[viewer][0]
            assert listener.status == 200 and listener.ended
            assert listener.events[-1]["type"] == "seed_revealed"
            assert listener.seqs == list(range(1, listener.seqs[-1] + 1))
            assert _sealed(listener.events) == _sealed(expected.events)
            # Redacted as the API process redacts (the events a batch brings once the game
            # is over are shown whole, to every reader: which those are depends on timing).
            for event, beside_it in zip(listener.events, expected.events, strict=True):
                if event["type"] == "hand_dealt":
                    assert event == beside_it
                    assert (event["data"]["cards"] is not None) == (event["data"]["seat"] == viewer)
        await wait_for(lambda: server.hub.open == 0)


async def test_after_a_written_stream_the_connection_serves_the_next_request(valkey):
    """The writer writes the body's chunks and the API process its last one, so the
    answer is well formed HTTP/1.1 and the connection is kept for the client's next
    request."""
    async with writing(valkey) as server, client(server.url) as http:
        table = await new_table(http, seats=2, game="high-voltage")
        await play_to_end(table, choose=random.Random(3).choice)
        last = (await table.state())["seq"]
        parts = urlsplit(server.url)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        try:
            writer.write(
                f"GET /v1/games/{table.id}/stream HTTP/1.1\r\nHost: x\r\n"
                f"Last-Event-ID: {last - 3}\r\n\r\n".encode()
            )
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200") and b"transfer-encoding: chunked" in head
            body = b""
            while True:
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                chunk = await reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
            ids = [int(line[4:]) for line in body.decode().splitlines() if line.startswith("id: ")]
            assert ids == [last - 2, last - 1, last]

            writer.write(f"GET /v1/games/{table.id} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert (await reader.readuntil(b"\r\n")).startswith(b"HTTP/1.1 200")
        finally:
            writer.close()


async def test_written_streams_count_against_the_caps_and_free_their_place(valkey):
    async with writing(valkey, streams_per_client=2) as server, client(server.url) as http:
        table = await new_table(http, seats=2)
        first = [open_stream(http, table.id) for _ in range(2)]
        await wait_for(lambda: server.hub.open == 2)
        refused = await listen(http, table.id, Listener())
        assert refused.status == 429 and b"too_many_streams" in refused.body

        await close_all([task for _, task in first])  # the clients leave
        await wait_for(lambda: server.hub.open == 0)
        again, task = open_stream(http, table.id)
        await wait_for(lambda: again.comments >= 2)  # the writer's keep-alives
        await close_all([task])
        await wait_for(lambda: server.hub.open == 0)


async def test_streams_of_a_writer_that_died_end_and_resume_from_the_new_one(valkey):
    """Killed, the writer's streams end (not cleanly: the client sees a cut stream) and
    their places are freed; the writer starts again, and a reader that resumes with
    Last-Event-ID misses nothing."""
    async with writing(valkey) as server, client(server.url) as http:
        writer = server.app.state.stream_writer
        table = await new_table(http, seats=2)
        live, task = open_stream(http, table.id)
        rng = random.Random(11)
        seq = await play(table, 3, rng)
        await wait_for(lambda: live.seqs and live.seqs[-1] == seq)

        first = writer.process.pid
        os.kill(first, signal.SIGKILL)
        with pytest.raises(httpx.HTTPError):  # the chunked body was cut off
            await asyncio.wait_for(task, 30)
        assert not live.ended
        await wait_for(lambda: server.hub.open == 0)
        await wait_for(lambda: writer.ready and writer.process.pid != first)

        seq = await play(table, 3, rng)
        resumed, task = open_stream(http, table.id, **{"Last-Event-ID": str(live.seqs[-1])})
        await wait_for(lambda: resumed.seqs and resumed.seqs[-1] == seq)
        assert live.seqs + resumed.seqs == list(range(1, seq + 1))
        assert server.hub.channels == {}
        await close_all([task])


def _sealed(events: list[dict]) -> list[tuple[int, str, str]]:
    return [(e["seq"], e["type"], e["hash"]) for e in events]


def _auth(table: Any, viewer: int | None) -> dict[str, str]:
    return table.auth(viewer) if viewer is not None else {}


async def test_the_writer_runs_at_its_niceness_and_ends_with_its_api_process(valkey):
    async with writing(valkey, stream_nice=15) as server:
        process = server.app.state.stream_writer.process
        stat = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        assert int(stat[16]) == 15  # the field after the priority: its nice value
    assert process.returncode is not None  # the lifespan's end waited for it


def test_the_stream_writer_settings(monkeypatch):
    for name in ("DANGER_STREAM_PROCESS", "DANGER_STREAM_NICE"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings.from_env()
    assert settings.streams.stream_process and settings.streams.stream_nice == 19
    monkeypatch.setenv("DANGER_STREAM_PROCESS", "off")
    monkeypatch.setenv("DANGER_STREAM_NICE", "5")
    settings = Settings.from_env()
    assert not settings.streams.stream_process and settings.streams.stream_nice == 5
    for wrong in ("20", "-1", "x"):
        monkeypatch.setenv("DANGER_STREAM_NICE", wrong)
        with pytest.raises(ValueError, match="DANGER_STREAM_NICE"):
            Settings.from_env()
