"""uvicorn's HTTP protocols, with the connection's transport in each request's scope, and the
bounds of service/http/guards/connection_limits.py on what a connection holds before its request
begins.

The stream writer (service/live/stream_writer.py) writes a stream's body on the connection's
socket from a process of its own; the API process finds the socket through the transport
under `scope["extensions"][TRANSPORT]`. A server without these protocols (a test client,
another ASGI server) leaves it out, and its streams are written by the API process."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.http.guards.connection_limits import ConnectionLimits, TooManyConnections

if TYPE_CHECKING:
    from service.infra.config import Settings

TRANSPORT = "danger.transport"


def transport_of(scope: Any) -> asyncio.Transport | None:
    return scope.get("extensions", {}).get(TRANSPORT)


class Gathered:
    """A connection's transport whose writes of one turn of the event loop leave as one:
    uvicorn writes an answer's head and then its body, and each write is a system call (on
    loopback, the reader's wake-up too). What is held counts in the write buffer's size, so
    whoever waits for the buffer to empty (the stream writer's hand-over) waits for it too;
    a close sends it first."""

    __slots__ = ("_held", "_loop", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] | None = None

    def write(self, data: bytes) -> None:
        if self._held is None:
            self._held = [data]
            self._loop.call_soon(self._send)
        else:
            self._held.append(data)

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def _send(self) -> None:
        held, self._held = self._held, None
        if held and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def get_write_buffer_size(self) -> int:
        held = sum(len(chunk) for chunk in self._held) if self._held else 0
        return self._transport.get_write_buffer_size() + held

    def close(self) -> None:
        self._send()
        self._transport.close()

    def abort(self) -> None:
        self._held = None
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HeadTooLarge(Exception):
    """Raised in httptools' callback to stop the parser: no request is begun after it."""


class _Bounded:
    """The limits' part, the same over both protocols. A head's timer runs from the
    connection's start, or from a head that did not come whole in one read: one that does
    (nearly every request) costs no timer. Between requests uvicorn's keep-alive timeout
    governs."""

    limits: ConnectionLimits
    transport: asyncio.Transport
    client: tuple[str, int] | None
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        gathered = Gathered(transport, asyncio.get_running_loop())  # type: ignore[arg-type]  # a stream's transport
        super().connection_made(gathered)  # type: ignore[misc]  # a mixin: the protocol after it has it
        self._admit()

    def connection_lost(self, exc: Exception | None) -> None:
        self._let_go()
        super().connection_lost(exc)  # type: ignore[misc]  # a mixin: the protocol after it has it

    def _bound(self, limits: ConnectionLimits | None) -> None:
        self.limits = limits or ConnectionLimits()
        self.counted: str | None = None
        self.head_timer: asyncio.TimerHandle | None = None

    def _admit(self) -> None:
        try:
            self.counted = self.limits.admit(self.client)
        except TooManyConnections:
            self.transport.write(self.limits.too_many)
            self.transport.close()
            return
        self._await_head()

    def _await_head(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.limits.head_seconds, self._head_late)

    def _head_came(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_late(self) -> None:
        self.head_timer = None
        self.transport.close()

    def _refuse_head(self) -> None:
        if not self.transport.is_closing():
            self.transport.write(self.limits.head_too_large)
            self.transport.close()

    def _let_go(self) -> None:
        self._head_came()
        if self.counted is not None:
            self.limits.release(self.counted)
            self.counted = None


class _H11Connection(h11.Connection):
    """h11 bounds a head that has not come whole (its buffer), not one that came in one read."""

    def __init__(self, head_bytes: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=head_bytes)
        self.head_bytes = head_bytes
        self.head_too_large = False

    def next_event(self) -> Any:
        event = super().next_event()
        if type(event) is h11.Request and _size(event) > self.head_bytes:
            self.head_too_large = True
            raise h11.RemoteProtocolError("Request head too large", error_status_hint=431)
        return event


def _size(request: h11.Request) -> int:
    return len(request.target) + sum(len(name) + len(value) + 4 for name, value in request.headers)


class H11WithTransport(_Bounded, H11Protocol):
    """h11 says 400 past its bounds on a head: 431 here."""

    def __init__(self, *args: Any, limits: ConnectionLimits | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._bound(limits)
        self.conn = _H11Connection(self.limits.head_bytes)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:  # a head begun, not whole yet
            self._await_head()
        else:
            self._head_came()

    def handle_events(self) -> None:
        super().handle_events()
        # The request's task is created, not yet run: its scope still takes the entry.
        if self.scope is not None:
            self.scope.setdefault("extensions", {})[TRANSPORT] = self.transport  # type: ignore[assignment]  # ASGI types an extension as a dict: this one is the transport

    def send_400_response(self, msg: str) -> None:
        # A head that has not come whole stays in h11's buffer: past the bound, too large.
        too_large = len(self.conn.trailing_data[0]) > self.limits.head_bytes
        if too_large or self.conn.head_too_large:  # type: ignore[attr-defined]  # our _H11Connection
            self._refuse_head()
        else:
            super().send_400_response(msg)


class HttpToolsWithTransport(_Bounded, HttpToolsProtocol):
    """httptools has no bound of its own (it joins a header's pieces for as long as they
    come): the reads that end inside a head are counted, and a whole head's size is worked
    out only when the reads it came in could exceed the bound."""

    def __init__(self, *args: Any, limits: ConnectionLimits | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._bound(limits)
        self.in_head = True
        self.head_read = 0  # bytes of the reads that ended inside the current head
        self.last_read = 0
        # The read the head began in may hold the end of the message before it (a pipelined
        # body): how much is not known, so that read is allowed on top of the bound until the
        # head is whole, and then measured exactly.
        self.slack = 0

    def data_received(self, data: bytes) -> None:
        self.last_read = len(data)
        super().data_received(data)
        if self.in_head:
            self.head_read += len(data)
            if self.head_read - self.slack > self.limits.head_bytes:
                self._refuse_head()
            else:
                self._await_head()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.scope["extensions"] = {TRANSPORT: self.transport}  # type: ignore[dict-item]  # ASGI types an extension as a dict: this one is the transport
        self.in_head = True
        self.head_read = 0
        self.slack = self.last_read

    def on_headers_complete(self) -> None:
        self.in_head = False
        self._head_came()
        bound = self.limits.head_bytes
        if self.head_read + self.last_read > bound and self._head_size() > bound:
            self._refuse_head()
            raise HeadTooLarge
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # What comes next begins the next head, even empty lines, which parse as nothing but
        # stop uvicorn's keep-alive timer; a pipelined request already begun keeps its count.
        if self.cycle.response_complete and not self.in_head:
            self.in_head = True
            self.head_read = self.slack = 0

    def _head_size(self) -> int:
        return len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)

    def send_400_response(self, msg: str) -> None:
        if not self.transport.is_closing():  # else a refused head has had its answer
            super().send_400_response(msg)


def protocol(http: str, settings: Settings | None = None) -> Callable[..., asyncio.Protocol]:
    """The protocol for uvicorn's `http` setting ("auto", "h11" or "httptools"), bound by
    the settings' limits (the defaults without them). A partial, not a class of its own, so
    that `danger serve --workers N` can hand it to its processes (they are spawned)."""
    limits = ConnectionLimits.of(settings) if settings is not None else ConnectionLimits()
    return functools.partial(
        H11WithTransport if http == "h11" else HttpToolsWithTransport, limits=limits
    )
