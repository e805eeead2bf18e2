"""A game's live events, from `GET /v1/games/{id}/stream` (Server-Sent Events).

The generated `stream_events` reads the whole response before it returns, which for a live
game is when the game is over. `follow` and `afollow` yield each event as it arrives instead,
and when the connection drops (or the server is out of streams: 503) they reconnect with
`Last-Event-ID`, so nothing is missed or seen twice. The stream ends after the game's last
event; so do they. A seat's stream also ends after the event that withdraws the seat's token
(`seat_left`, `seat_token_reissued`): they end there too, and following again with that
token raises StreamError (401 `token_invalid`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx

from danger_hall_client.api.games import stream_events
from danger_hall_client.client import AuthenticatedClient, Client
from danger_hall_client.models.event_out import EventOut
from danger_hall_client.models.problem import Problem
from danger_hall_client.types import UNSET

from .retry import retry_after

LAST_EVENT = "seed_revealed"  # every game's log ends with it
RECONNECTED_STATUSES = frozenset({503})


class StreamError(Exception):
    """The stream was refused: its status and, where the server sent one, its problem."""

    def __init__(self, status: int, problem: Problem | None) -> None:
        detail = f"{problem.code}: {problem.detail}" if problem else "no problem details"
        super().__init__(f"stream refused with {status} ({detail})")
        self.status, self.problem = status, problem


class _Messages:
    """Server-Sent Events (WHATWG HTML, "event stream interpretation"), one line at a time."""

    def __init__(self) -> None:
        self.data: list[str] = []

    def feed(self, line: str) -> str | None:
        """The data of the message this line completes, if it completes one."""
        if not line:
            data, self.data = self.data, []
            return "\n".join(data) if data else None
        if line.startswith(":"):
            return None  # a comment: the server's keep-alive
        name, _, value = line.partition(":")
        if name == "data":
            self.data.append(value.removeprefix(" "))
        return None  # `id` is the event's seq and `event` its type, both in the data too


def _request(game_id: str, after: int, last: int | None) -> dict[str, Any]:
    # The generated request (path, query, headers), so that it follows the spec.
    resume = str(last) if last is not None else UNSET
    return stream_events._get_kwargs(game_id, after=after, last_event_id=resume)


def _refusal(response: httpx.Response) -> StreamError:
    try:
        problem = Problem.from_dict(json.loads(response.content))
    except (ValueError, TypeError, KeyError):
        problem = None
    return StreamError(response.status_code, problem)


class _Follower:
    """What one following of a stream knows: where it stands, and how long to wait next."""

    def __init__(self, after: int, reconnects: int, backoff: float, read_timeout: float) -> None:
        self.last: int | None = after or None  # the seq to resume after, once there is one
        self.reconnects, self.backoff = reconnects, backoff
        self.timeout = httpx.Timeout(10.0, read=read_timeout)
        self.failures = 0
        self.over = False

    def event(self, data: str) -> EventOut:
        event = EventOut.from_dict(json.loads(data))
        self.last, self.failures = event.seq, 0
        self.over = event.type_ == LAST_EVENT
        return event

    def failed(self, error: Exception, response: httpx.Response | None = None) -> float:
        """The pause before the next try, or the error raised when no try is left."""
        self.failures += 1
        if self.failures > self.reconnects:
            raise error
        asked = retry_after(response.headers.get("Retry-After")) if response else None
        return asked if asked is not None else min(self.backoff * 2 ** (self.failures - 1), 10.0)


def follow(
    client: AuthenticatedClient | Client,
    game_id: str,
    *,
    after: int = 0,
    reconnects: int = 10,
    backoff: float = 0.2,
    read_timeout: float = 60.0,
) -> Iterator[EventOut]:
    """Each event after seq `after`, as it is appended, until the game's last (a seat's
    client: or until the one that withdraws its token). A seat's client sees what the seat
    may see; any other client, what a spectator sees.
    `read_timeout` bounds the silence between the server's keep-alives (15 s apart)."""
    state = _Follower(after, reconnects, backoff, read_timeout)
    http = client.get_httpx_client()
    while not state.over:
        try:
            with http.stream(**_request(game_id, after, state.last), timeout=state.timeout) as r:
                if r.status_code in RECONNECTED_STATUSES:
                    r.read()
                    time.sleep(state.failed(_refusal(r), r))
                    continue
                if r.status_code != 200:
                    r.read()
                    raise _refusal(r)
                messages = _Messages()
                for line in r.iter_lines():
                    data = messages.feed(line)
                    if data is not None:
                        yield state.event(data)
                        if state.over:
                            return
                return  # the server ended the stream: the log is complete, or the token withdrawn
        except httpx.TransportError as error:
            time.sleep(state.failed(error))


async def afollow(
    client: AuthenticatedClient | Client,
    game_id: str,
    *,
    after: int = 0,
    reconnects: int = 10,
    backoff: float = 0.2,
    read_timeout: float = 60.0,
) -> AsyncIterator[EventOut]:
    """`follow` for asyncio, on the client's httpx.AsyncClient."""
    state = _Follower(after, reconnects, backoff, read_timeout)
    http = client.get_async_httpx_client()
    while not state.over:
        try:
            request = _request(game_id, after, state.last)
            async with http.stream(**request, timeout=state.timeout) as r:
                if r.status_code in RECONNECTED_STATUSES:
                    await r.aread()
                    await asyncio.sleep(state.failed(_refusal(r), r))
                    continue
                if r.status_code != 200:
                    await r.aread()
                    raise _refusal(r)
                messages = _Messages()
                async for line in r.aiter_lines():
                    data = messages.feed(line)
                    if data is not None:
                        yield state.event(data)
                        if state.over:
                            return
                return
        except httpx.TransportError as error:
            await asyncio.sleep(state.failed(error))
