"""Where a webhook may be delivered: an http(s) URL whose every address is on the public
internet, unless the operator allows loopback and private networks
(`DANGER_WEBHOOK_PRIVATE`, for development and tests).

The check is made on the addresses the name resolves to, at each delivery, and the
connection goes to the address checked (the URL's host kept for the `Host` header and for
TLS's server name): a name that resolves to a public address when checked and to
127.0.0.1 when connected (DNS rebinding) reaches nothing it should not. Redirects are not
followed, so no answer can send a delivery elsewhere.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

SCHEMES = {"http": 80, "https": 443}
MAX_URL = 2048


class Refused(Exception):
    """The URL may not receive deliveries; the message says why, for its owner."""


@dataclass(frozen=True)
class Target:
    """A delivery's destination: the URL to request (its host replaced by the address
    checked), the `Host` header, and the name TLS must verify."""

    url: str
    host_header: str
    server_name: str | None


def parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path and query) of a URL a webhook may have; `Refused` if it
    may not."""
    if len(url) > MAX_URL:
        raise Refused(f"the URL is longer than {MAX_URL} characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused(f"not a URL: {exc}") from None
    if parts.scheme not in SCHEMES:
        raise Refused("only http and https URLs receive webhooks")
    if not parts.hostname:
        raise Refused("the URL names no host")
    if parts.username or parts.password:
        raise Refused("the URL may not carry a user or password: sign with the secret instead")
    if parts.fragment:
        raise Refused("the URL may not have a fragment")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or SCHEMES[parts.scheme], path


def allowed(address: str, private: bool) -> bool:
    """Whether a delivery may go to `address`: a public one; with `private`, loopback and
    private networks too. Link-local (the cloud metadata service at 169.254.169.254),
    multicast, reserved and unspecified addresses never."""
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        return private
    if ip.is_link_local or ip.is_multicast or ip.is_reserved or ip.is_unspecified:
        return False
    return ip.is_global or (private and ip.is_private)


async def resolve(url: str, private: bool) -> Target:
    """The target of a delivery to `url` now: every address its host resolves to is
    allowed, and the first is the one connected to; `Refused` otherwise."""
    scheme, host, port, path = parse(url)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
        )
    except OSError as exc:
        raise Refused(f"{host} does not resolve: {exc}") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in found))
    if not addresses:
        raise Refused(f"{host} resolves to no address")
    barred = [a for a in addresses if not allowed(a, private)]
    if barred:
        where = "a loopback, private, link-local or reserved address"
        raise Refused(f"{host} resolves to {barred[0]}, {where}: webhooks go to the internet")
    address = addresses[0]
    shown = f"[{address}]" if ":" in address else address
    default = port == SCHEMES[scheme]
    host_header = host if default else f"{host}:{port}"
    return Target(
        f"{scheme}://{shown}:{port}{path}", host_header, host if scheme == "https" else None
    )
