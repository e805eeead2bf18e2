"""uvicorn's HTTP protocols, with the connection's transport in each request's scope.

The stream writer (service/stream_writer.py) writes a stream's body on the connection's
socket from a process of its own; the API process finds the socket through the transport
under `scope["extensions"][TRANSPORT]`. A server without these protocols (a test client,
another ASGI server) leaves it out, and its streams are written by the API process."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

TRANSPORT = "danger.transport"


def transport_of(scope: Any) -> asyncio.Transport | None:
    return scope.get("extensions", {}).get(TRANSPORT)


class H11WithTransport(H11Protocol):
    def handle_events(self) -> None:
        super().handle_events()
        # The request's task is created, not yet run: its scope still takes the entry.
        if self.scope is not None:
            self.scope.setdefault("extensions", {})[TRANSPORT] = self.transport  # type: ignore[typeddict-unknown-key]


class HttpToolsWithTransport(HttpToolsProtocol):
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.scope["extensions"] = {TRANSPORT: self.transport}  # type: ignore[typeddict-unknown-key]


def protocol(http: str) -> type[asyncio.Protocol]:
    """The protocol class for uvicorn's `http` setting ("auto", "h11" or "httptools")."""
    return H11WithTransport if http == "h11" else HttpToolsWithTransport
