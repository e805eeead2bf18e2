"""The requests a process is answering, which the streams' fan-out stands aside for
(service/live/foreground.py): what counts as being answered, and how long background work waits."""

from __future__ import annotations

import asyncio
from typing import Any

from service.live.foreground import Aside, Foreground

BODY = [(b"content-type", b"application/json"), (b"content-length", b"11")]


def scope(path: str = "/v1/games/g1/commands", headers: list | None = None) -> dict:
    return {"type": "http", "method": "POST", "path": path, "headers": headers or []}


async def test_a_request_counts_until_its_answer_is_handed_on_but_not_while_its_body_comes():
    """A client that sends its body slowly, or reads the answer slowly, is not being
    answered meanwhile: it holds no background work back. What runs before the body is
    read (a middleware's round trip to Valkey) counts."""
    foreground = Foreground()
    parts: asyncio.Queue[dict] = asyncio.Queue()
    reading = asyncio.Event()  # the client has not read the answer's last part yet
    seen: list[int] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(foreground.busy)
        await receive()
        seen.append(foreground.busy)
        await receive()
        seen.append(foreground.busy)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        seen.append(foreground.busy)
        await send({"type": "http.response.body", "body": b"{}", "more_body": False})

    async def send(message: Any) -> None:
        if message["type"] == "http.response.body":
            await reading.wait()

    answer = asyncio.create_task(foreground.serve(scope(headers=BODY), parts.get, send, app))
    await asyncio.sleep(0.01)
    assert seen == [1]
    assert foreground.busy == 0  # waiting for the body's first part
    await parts.put({"type": "http.request", "body": b'{"type"', "more_body": True})
    await asyncio.sleep(0.01)
    assert seen == [1, 1]
    assert foreground.busy == 0  # waiting for the rest
    await parts.put({"type": "http.request", "body": b':"pass"}', "more_body": False})
    await asyncio.sleep(0.01)
    assert seen == [1, 1, 1, 1]
    assert foreground.busy == 0  # the last part is handed on; the client reads it slowly
    reading.set()
    await answer
    assert foreground.busy == 0


async def test_a_request_without_a_body_counts_from_its_start_and_a_stream_never():
    foreground = Foreground()
    seen: list[tuple[str, int]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append((scope["path"], foreground.busy))

    async def nothing() -> dict:
        raise AssertionError("not read")

    async def send(message: Any) -> None:
        pass

    await foreground.serve(scope("/v1/games/g1"), nothing, send, app)
    await foreground.serve(scope("/v1/games/g1/stream"), nothing, send, app)
    assert seen == [("/v1/games/g1", 1), ("/v1/games/g1/stream", 0)]
    assert foreground.busy == 0


async def test_standing_aside_ends_when_the_last_request_is_answered():
    foreground = Foreground()
    foreground.enter()
    foreground.enter()
    waiting = asyncio.create_task(foreground.stand_aside(60))
    await asyncio.sleep(0.01)
    foreground.leave()
    await asyncio.sleep(0.01)
    assert not waiting.done()  # one is still being answered
    foreground.leave()
    waited = await asyncio.wait_for(waiting, 5)
    assert 0.01 <= waited < 5


async def test_standing_aside_for_a_request_that_never_ends_lasts_its_limit():
    foreground = Foreground()
    foreground.enter()
    waited = await asyncio.wait_for(foreground.stand_aside(0.05), 5)
    assert waited >= 0.049  # the loop's timers may fire within its clock's resolution
    assert await foreground.stand_aside(0) < 0.05


async def test_background_work_waits_at_most_its_allowance_and_still_finishes():
    """Under a load that always has a request in flight, background work is late by its
    allowance and no more."""
    foreground = Foreground()
    foreground.enter()  # never answered
    aside = Aside(foreground, at_most=0.002, allowance=0.05)
    done = 0
    for _ in range(200):
        await aside.turn()
        done += 1
    assert done == 200
    assert 0.045 <= aside.waited <= 0.05 + 0.005  # its allowance (the last wait may overrun)


async def test_without_requests_in_flight_background_work_never_waits():
    aside = Aside(Foreground(), at_most=0.002, allowance=1)
    for _ in range(50):
        await aside.turn()
    assert aside.waited == 0
    off = Aside(None, at_most=0.002, allowance=1)
    await off.turn()
    assert off.waited == 0
