"""The requests this process is answering, so that its background work can stand aside for them.

The streams' fan-out (service/live/streams.py) is the background work that can keep a process
busy for tens of milliseconds: a batch of a game with hundreds of readers is hundreds of
socket writes. Done one write per turn of the event loop it never blocks the loop, but it
keeps the process runnable throughout, and a command waiting for Valkey's reply then waits
for Valkey to be given the core this process holds (they share one on a small machine): with
2,000 streams open, a command's round trips took three to four times as long at p90
(docs/performance.md, "Thousands of live streams"). Standing aside while a request is
answered lets the process block in the loop's poll, so the kernel runs Valkey at once.

Streams themselves are not counted: an open stream is background work from the start.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

STREAM_SUFFIX = "/stream"  # GET /v1/games/{id}/stream, open for as long as its game runs
ASGI = Callable[[Any, Any, Any], Awaitable[None]]


class Foreground:
    """A count of the requests being answered, and a way for background work to wait until
    none is (or for a while at most).

    A request counts from its start until its answer's last part is handed to the server,
    except while it waits for its body from the client: a client that sends slowly, or
    reads its answer slowly, is not being answered meanwhile, and does not hold the streams
    back. What runs before the body is read (the rate limit's round trip to Valkey, in a
    middleware) counts: it is answering as much as the handler is."""

    def __init__(self) -> None:
        self.busy = 0
        self._quiet: asyncio.Event | None = None

    async def serve(self, scope: Any, receive: Any, send: Any, app: ASGI) -> None:
        """Answer one HTTP request through `app`, counted while it is being answered."""
        if scope["path"].endswith(STREAM_SUFFIX):
            await app(scope, receive, send)
            return
        counted = False

        def begin() -> None:
            nonlocal counted
            if not counted:
                counted = True
                self.enter()

        def end() -> None:
            nonlocal counted
            if counted:
                counted = False
                self.leave()

        async def receive_counted() -> Any:
            end()  # waiting for the client, not for this process
            message = await receive()
            if message["type"] == "http.request":
                begin()
            return message

        async def send_counted(message: Any) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                end()
            await send(message)

        begin()
        try:
            await app(scope, receive_counted if _has_body(scope) else receive, send_counted)
        finally:
            end()

    def enter(self) -> None:
        self.busy += 1

    def leave(self) -> None:
        self.busy -= 1
        if not self.busy and self._quiet is not None:
            self._quiet.set()

    async def stand_aside(self, at_most: float) -> float:
        """Until no request is being answered, or `at_most` seconds; always at least one
        turn of the event loop. The seconds it waited."""
        if not self.busy:
            await asyncio.sleep(0)
            return 0.0
        began = time.perf_counter()
        quiet = self._quiet = asyncio.Event()  # made in the loop that waits on it
        try:
            async with asyncio.timeout(at_most):
                await quiet.wait()
        except TimeoutError:
            pass
        return time.perf_counter() - began


def _has_body(scope: Any) -> bool:
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return True
    return False


class Aside:
    """One run of background work that stands aside for requests: at most `at_most` seconds
    a wait and `allowance` seconds in all, so that under a load that always has a request in
    flight the work is late by its allowance and no more."""

    __slots__ = ("allowance", "at_most", "foreground", "waited")

    def __init__(self, foreground: Foreground | None, at_most: float, allowance: float) -> None:
        self.foreground, self.at_most, self.allowance = foreground, at_most, allowance
        self.waited = 0.0

    async def turn(self) -> None:
        """Between two pieces of the work."""
        foreground = self.foreground
        left = min(self.at_most, self.allowance - self.waited)
        if foreground is None or not foreground.busy or left <= 0:
            await asyncio.sleep(0)
            return
        self.waited += await foreground.stand_aside(left)
