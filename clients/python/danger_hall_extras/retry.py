"""Retries on 503 and lost connections, for the requests a retry cannot apply twice.

The service answers 503 when its store is briefly away or a write is not yet replicated
(`not_replicated`, `Retry-After: 1`); a write sent again under the same `Idempotency-Key`
gets the first answer back and is never applied twice (README, "Durability"). Without a key a
write is retried only when it never left (the connection could not be opened): whether it
took effect is for its caller to read.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
import uuid
from typing import Any

import httpx

RETRIED_STATUSES = frozenset({503})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
KEY_HEADER = "Idempotency-Key"


def new_key() -> str:
    """A fresh Idempotency-Key: one per write, kept for all of that write's retries."""
    return uuid.uuid4().hex


class Retrying(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """An httpx transport, sync and async, for the generated clients' `httpx_args`:

        Client(base_url=api, httpx_args={"transport": Retrying()})

    A read, or a write that carries an Idempotency-Key (`idempotency_key=new_key()` in the
    generated calls), is sent again on 503 and on a network error or timeout, up to
    `attempts` times in all, after `Retry-After` or a doubling pause from `backoff` seconds.
    `options` go to the httpx transports underneath (`verify`, `http2`, ...), which a custom
    transport otherwise takes the place of."""

    def __init__(
        self, attempts: int = 5, backoff: float = 0.2, max_pause: float = 10.0, **options: Any
    ) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.attempts, self.backoff, self.max_pause = attempts, backoff, max_pause
        self._options = options
        self._sync: httpx.HTTPTransport | None = None
        self._async: httpx.AsyncHTTPTransport | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._sync is None:
            self._sync = httpx.HTTPTransport(**self._options)
        attempt = 1
        while True:
            try:
                response = self._sync.handle_request(request)
            except httpx.TransportError as error:
                if not self._again(request, attempt, error=error):
                    raise
                time.sleep(self._pause(attempt, None))
            else:
                if not self._again(request, attempt, response=response):
                    return response
                response.read()
                response.close()
                time.sleep(self._pause(attempt, response))
            attempt += 1

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._async is None:
            self._async = httpx.AsyncHTTPTransport(**self._options)
        attempt = 1
        while True:
            try:
                response = await self._async.handle_async_request(request)
            except httpx.TransportError as error:
                if not self._again(request, attempt, error=error):
                    raise
                await asyncio.sleep(self._pause(attempt, None))
            else:
                if not self._again(request, attempt, response=response):
                    return response
                await response.aread()
                await response.aclose()
                await asyncio.sleep(self._pause(attempt, response))
            attempt += 1

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()

    def _again(
        self,
        request: httpx.Request,
        attempt: int,
        error: httpx.TransportError | None = None,
        response: httpx.Response | None = None,
    ) -> bool:
        if attempt >= self.attempts:
            return False
        if response is not None and response.status_code not in RETRIED_STATUSES:
            return False
        if request.method in SAFE_METHODS or KEY_HEADER in request.headers:
            return True
        # Refused, unreachable or no connection free: nothing was sent, nothing applied.
        return isinstance(error, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)

    def _pause(self, attempt: int, response: httpx.Response | None) -> float:
        asked = retry_after(response.headers.get("Retry-After")) if response else None
        pause = asked if asked is not None else self.backoff * 2 ** (attempt - 1)
        return min(pause, self.max_pause)


def retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After field: a number of seconds or an HTTP date."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
