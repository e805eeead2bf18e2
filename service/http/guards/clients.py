"""Who a client is, for its limits: the app key it sent (service/http/guards/app_keys.py), else
the peer address, or what a trusted proxy says it is; and what kind of request it sends
(`kind_of`), which names the bucket it draws on."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

SCOPE_KEY = "danger.app_key"  # where a request's verified app key is kept in its ASGI scope
NAMES_KEPT = 4096  # peers (and proxies' headers) whose client is remembered
_NAMED = "danger.client"  # the client a request's peer and proxies name, once worked out

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# An IPv6 host is given a /64 and may use any address in it: one client, one /64.
IPV6_PREFIX = 64


def parse_address(text: str) -> Address | None:
    """An address as proxies write it: "192.0.2.1", "192.0.2.1:4711", "[2001:db8::1]:4711"."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def label(address: Address) -> str:
    """The client an address stands for: itself, an IPv6 one its /64."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


class Clients:
    """Names the client of a request. Without trusted proxies, the peer; behind them, the
    nearest address in X-Forwarded-For that is not one of the proxies. Read from the right:
    each proxy appends the address it saw, and whatever a client wrote itself stands to the
    left of them, so the leftmost hop would be the client's own choice."""

    def __init__(self, trusted: Iterable[str]) -> None:
        trusted = tuple(trusted)
        self.any_peer = "*" in trusted
        self.networks: tuple[Network, ...] = tuple(
            ipaddress.ip_network(t, strict=False) for t in trusted if t != "*"
        )
        self._named: dict[tuple[str, bytes], str] = {}

    def _trusted(self, address: Address | None) -> bool:
        return address is not None and any(address in n for n in self.networks)

    def of(self, scope: Any) -> str:
        key = scope.get(SCOPE_KEY)
        if key is not None:
            return key.client
        named = scope.get(_NAMED)
        if named is None:  # the rate limit, the log line and a stream each ask
            named = scope[_NAMED] = self._of_peer(scope)
        return named

    def _of_peer(self, scope: Any) -> str:
        """The client the peer and, behind trusted proxies, X-Forwarded-For name: worked out
        once per peer and header (parsing addresses costs more than the rest of a request's
        limit), remembered for at most NAMES_KEPT of them."""
        peer_text = (scope.get("client") or ("local",))[0] or "local"
        hops = b""
        if self.any_peer or self.networks:
            hops = b",".join(v for k, v in scope["headers"] if k == b"x-forwarded-for")
        named = self._named.get((peer_text, hops))
        if named is None:
            if len(self._named) >= NAMES_KEPT:
                self._named.clear()
            named = self._named[(peer_text, hops)] = self._work_out(peer_text, hops)
        return named

    def _work_out(self, peer_text: str, hops: bytes) -> str:
        peer = parse_address(peer_text)
        if not (self.any_peer or self._trusted(peer)):
            return label(peer) if peer is not None else peer_text
        client = peer
        for hop in reversed(hops.decode("latin-1").split(",")):
            address = parse_address(hop)
            if address is None:
                break  # not an address: the proxy that wrote it is the last one we know
            client = address
            if self.any_peer or not self._trusted(address):
                break  # "*" trusts the peer alone: the hop it appended is the client
        return label(client) if client is not None else peer_text


def kind_of(method: str, path_template: str) -> str | None:
    """The kind of request a route is, by its method and path template; None: not limited
    (no route matched). Outside /v1 (the web client's pages and files, the API docs,
    /health, /metrics) every route is one kind, `site`: none of them is free to serve."""
    if not path_template.startswith("/v1/"):
        return "site" if path_template else None
    last = path_template.rstrip("/").rsplit("/", 1)[-1]
    if method in ("GET", "HEAD"):
        return "stream" if last == "stream" else "read"
    if method == "POST":
        if path_template.rstrip("/") == "/v1/audit":
            return "audit"  # an export of megabytes to read and audit: no read costs as much
        if path_template.rstrip("/") == "/v1/games" or last == "rematch":
            return "create"
        if path_template.rstrip("/") == "/v1/players":
            return "register"
        return "join" if last == "players" else "command"
    return "command" if method in ("DELETE", "PATCH", "PUT") else "read"
