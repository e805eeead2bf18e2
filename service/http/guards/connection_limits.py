"""What a connection may hold of an API process before the app sees a request: its head's
bytes and the time they take, and the connections open from one address.

uvicorn's httptools protocol keeps a head in memory however long it grows (a header without
an end grew a process by 32 MiB a connection), h11's serves any head that comes in one read
and answers 400 to a longer one that does not, and neither closes a connection that never
finishes its head. service/http/http_protocols.py holds both to these bounds; each process counts
its own connections (as the stream slots do)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING

import msgspec

from service.http.guards.clients import Network, label, parse_address
from service.http.problems import MEDIA, body
from service.infra.tally import Tally

if TYPE_CHECKING:
    from service.infra.config import Settings


class TooManyConnections(Exception):
    pass


def answer(status: int, code: str, detail: str) -> bytes:
    """A whole problem answer that closes its connection, written before any app runs."""
    content = msgspec.json.encode(body(status, code, detail))
    head = (
        f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n"
        f"content-type: {MEDIA}\r\ncontent-length: {len(content)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + content


@dataclass
class ConnectionLimits:
    head_bytes: int = 16 * 1024
    """The request line and headers of one request, at most."""
    head_seconds: float = 10.0
    """From a connection's start, or a head's first bytes, until the head has come."""
    per_address: int = 64
    """Connections open at once from one address (an IPv6 one by its /64); 0: no cap."""
    trusted: tuple[str, ...] = ()
    """DANGER_TRUSTED_PROXY: a proxy's connections carry many clients, and count against none."""
    open: Tally = field(default_factory=Tally, init=False, repr=False)

    def __post_init__(self) -> None:
        self.any_proxy = "*" in self.trusted
        self.proxies: tuple[Network, ...] = tuple(
            ipaddress.ip_network(t, strict=False) for t in self.trusted if t != "*"
        )
        kib = f"{self.head_bytes / 1024:g} KiB"
        self.head_too_large = answer(
            431, "head_too_large", f"A request's line and headers may hold {kib} at most."
        )
        self.too_many = answer(
            429,
            "too_many_connections",
            f"At most {self.per_address} connections may be open from one address; "
            "close one or send more requests on those that are open.",
        )

    @classmethod
    def of(cls, settings: Settings) -> ConnectionLimits:
        return cls(
            head_bytes=settings.http.max_head_kb * 1024,
            head_seconds=settings.http.head_timeout_seconds,
            per_address=settings.http.connections_per_client,
            trusted=settings.http.trusted_proxies,
        )

    def admit(self, peer: tuple[str, int] | None) -> str | None:
        """The address a new connection from `peer` counts against (None: none, as a trusted
        proxy's or a Unix socket's), or TooManyConnections."""
        if not self.per_address or peer is None or self.any_proxy:
            return None
        address = parse_address(peer[0])
        if address is None or any(address in proxy for proxy in self.proxies):
            return None
        key = label(address)
        if self.open[key] >= self.per_address:
            raise TooManyConnections(key)
        self.open.add(key)
        return key

    def release(self, key: str) -> None:
        self.open.remove(key)
