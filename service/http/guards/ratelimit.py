"""Per-client rate limits, kept in Valkey so that every API process counts against the same
buckets: one bucket per client and kind of request (create, join, register, command, read,
stream, audit, and site: everything outside /v1).

Answers carry the header fields of draft-ietf-httpapi-ratelimit-headers-11 (May 2026), whose
values are Structured Field lists of a quoted policy name with parameters:
`RateLimit-Policy: "create";q=20;w=60` (the quota q per window w seconds) and
`RateLimit: "create";r=3;t=3` (r requests left now; t seconds within which the client can use
no more than r, here: until the bucket holds one more). A refusal is 429 with `Retry-After`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from service.http.guards.clients import SCOPE_KEY, Clients, kind_of
from service.http.guards.rate_ledger import Ledger
from service.infra import metrics
from service.infra.config import Rate, Rates
from service.infra.connections import UNREACHABLE, pool_ran_dry
from service.infra.errors import ApiError
from service.infra.lua import Script

if TYPE_CHECKING:
    from service.http.guards.app_keys import AppKey

log = logging.getLogger("danger.ratelimit")

BUCKET = Script.named("service.http.guards", "rate_bucket.lua")
# The kinds a client sends many of: decided in the process, settled in batches (rate_ledger.py).
SETTLED_KINDS = frozenset({"command", "read", "site"})
# Answer fields a browser client may read (CORS exposes only a few by default).
HEADERS = ["RateLimit", "RateLimit-Policy", "Retry-After"]


@dataclass(frozen=True)
class Verdict:
    kind: str
    rate: Rate
    admitted: bool
    left: int
    reset: int  # seconds until the bucket holds one more request
    wait: int  # seconds until a refused request would be admitted
    checked: bool = True  # False: let through unchecked, its bucket's node away

    def headers(self) -> dict[str, str]:
        if not self.checked:
            return {}  # nothing known of the bucket: no fields that would say otherwise
        out = {
            "RateLimit-Policy": f'"{self.kind}";q={self.rate.requests};w={self.rate.seconds}',
            "RateLimit": f'"{self.kind}";r={self.left};t={self.reset}',
        }
        if not self.admitted:
            out["Retry-After"] = str(self.wait)
        return out


class Limiter:
    def __init__(self, rates: Rates, clients: Clients) -> None:
        self.rates = rates
        self.clients = clients
        self.ledger: Ledger | None = None  # set while the app runs, unless settling is off

    async def take(self, redis: Any, client: str, kind: str, rate: Rate) -> Verdict:
        key = f"dg:rate:{kind}:{client}"
        ledger = self.ledger
        try:
            if ledger is not None and kind in SETTLED_KINDS and ledger.holds(key):
                admitted, left, reset, wait = await ledger.take(key, rate)
            else:
                admitted, left, reset, wait = await BUCKET(
                    redis, [key], [rate.requests, rate.seconds]
                )
        except UNREACHABLE as exc:
            if pool_ran_dry(exc):
                raise  # a flood's doing, when the limits matter most: not a node away
            # On a cluster the bucket's node may be failing over while the game's is well: the
            # request is let through rather than refused for a node it does not need.
            _unlimited(key, exc)
            return Verdict(kind, rate, True, 0, 0, 0, checked=False)
        return Verdict(kind, rate, bool(admitted), int(left), int(reset), int(wait))

    async def admit(
        self, redis: Any, scope: Any, kind: str, rate: Rate
    ) -> list[tuple[bytes, bytes]]:
        """One request of `kind` taken from its client's bucket: the RateLimit fields of its
        answer, or a 429 raised with them."""
        client = self.clients.of(scope)
        verdict = await self.take(redis, client, kind, rate)
        headers = verdict.headers()
        if not verdict.admitted:
            metrics.RATE_LIMITED.labels(kind).inc()
            raise ApiError(
                429,
                "rate_limited",
                f"Too many {kind} requests from {client}: at most {rate.requests} per "
                f"{rate.seconds} s. Retry after {verdict.wait} s.",
                headers=headers,
            )
        return [(k.lower().encode(), v.encode()) for k, v in headers.items()]


_said_at = 0.0


def _unlimited(key: str, exc: Exception) -> None:
    """Said at most once a minute: a node that is away is said by every request."""
    global _said_at
    metrics.RATE_UNCHECKED.inc()
    now = time.monotonic()
    if now - _said_at >= 60:
        _said_at = now
        log.warning("rate limits not checked while their store is away (%s): %s", key, exc)


class RateLimitMiddleware:
    """Takes one request from the client's bucket before the handler runs (a command or a read
    from this process's copy, anything else with one EVALSHA); refuses with 429 when the
    bucket is empty, and adds the RateLimit fields to every answer."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = kind_of(scope.get("method", ""), scope.get("path_template", ""))  # type: ignore[arg-type]  # a websocket scope has no method: ""
        rate = getattr(self.limiter.rates, kind) if kind else None
        key = cast("AppKey | None", scope.get(SCOPE_KEY))  # set by the app keys' middleware
        if kind and key is not None:
            rate = key.rate(kind, rate)
        if scope["type"] != ScopeType.HTTP or kind is None or rate is None:
            await self.app(scope, receive, send)
            return
        raw = await self.limiter.admit(scope["app"].state.redis, scope, kind, rate)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *raw]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def middleware(limiter: Limiter) -> Any:
    """The middleware for Litestar's `middleware=[...]`: every route handler gets one."""

    def build(app: ASGIApp) -> ASGIApp:
        return RateLimitMiddleware(app, limiter)

    return build
