"""Retries on 429, 503 and lost connections, for the requests a retry cannot apply twice.

The service answers 429 (`rate_limited`, with `Retry-After`) before it does anything with a
request, so any request is sent again after the pause it names. It answers 503 when its store
is briefly away or a write is not yet replicated (`not_replicated`, `Retry-After: 1`); a write
sent again under the same `Idempotency-Key` gets the first answer back and is never applied
twice (README, "Durability"). Without a key a write is retried on 503 or a network error only
when it never left (the connection could not be opened): whether it took effect is for its
caller to read. Retries are bounded twice: in attempts, and in the time spent waiting.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx

RETRIED_STATUSES = frozenset({429, 503})
# Refused before the service read it: nothing was applied, whatever the method.
UNTOUCHED_STATUSES = frozenset({429})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
KEY_HEADER = "Idempotency-Key"


def new_key() -> str:
    """A fresh Idempotency-Key: one per write, kept for all of that write's retries."""
    return uuid.uuid4().hex


class Retrying(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """An httpx transport, sync and async, for the generated clients' `httpx_args`:

        Client(base_url=api, httpx_args={"transport": Retrying()})

    Any request is sent again on 429; a read, or a write that carries an Idempotency-Key
    (`idempotency_key=new_key()` in the generated calls), also on 503 and on a network error
    or timeout. It is sent `attempts` times at most, after `Retry-After` or a doubling pause
    from `backoff` seconds (at most `max_pause` each), and never once the pauses would add up
    to more than `max_wait` seconds: then the last answer (or error) is the caller's.
    `on_retry(status, pause)` hears of each retry (status None: a network error).
    `options` go to the httpx transports underneath (`verify`, `http2`, ...), which a custom
    transport otherwise takes the place of."""

    def __init__(
        self,
        attempts: int = 5,
        backoff: float = 0.2,
        max_pause: float = 10.0,
        max_wait: float = 30.0,
        on_retry: Callable[[int | None, float], None] | None = None,
        **options: Any,
    ) -> None:
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        if max_wait < 0 or max_pause < 0 or backoff < 0:
            raise ValueError("backoff, max_pause and max_wait must not be negative")
        self.attempts, self.backoff, self.max_pause = attempts, backoff, max_pause
        self.max_wait, self.on_retry = max_wait, on_retry
        self._options = options
        self._sync: httpx.HTTPTransport | None = None
        self._async: httpx.AsyncHTTPTransport | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self._sync is None:
            self._sync = httpx.HTTPTransport(**self._options)
        attempt, waited = 1, 0.0
        while True:
            try:
                response = self._sync.handle_request(request)
            except httpx.TransportError as error:
                pause = self._next(request, attempt, waited, error=error)
                if pause is None:
                    raise
            else:
                pause = self._next(request, attempt, waited, response=response)
                if pause is None:
                    return response
                response.read()
                response.close()
            time.sleep(pause)
            attempt, waited = attempt + 1, waited + pause

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self._async is None:
            self._async = httpx.AsyncHTTPTransport(**self._options)
        attempt, waited = 1, 0.0
        while True:
            try:
                response = await self._async.handle_async_request(request)
            except httpx.TransportError as error:
                pause = self._next(request, attempt, waited, error=error)
                if pause is None:
                    raise
            else:
                pause = self._next(request, attempt, waited, response=response)
                if pause is None:
                    return response
                await response.aread()
                await response.aclose()
            await asyncio.sleep(pause)
            attempt, waited = attempt + 1, waited + pause

    def close(self) -> None:
        if self._sync is not None:
            self._sync.close()

    async def aclose(self) -> None:
        if self._async is not None:
            await self._async.aclose()

    def _next(
        self,
        request: httpx.Request,
        attempt: int,
        waited: float,
        error: httpx.TransportError | None = None,
        response: httpx.Response | None = None,
    ) -> float | None:
        """The pause before sending `request` again, or None: no retry."""
        if attempt >= self.attempts or not self._again(request, error, response):
            return None
        pause = self._pause(attempt, response)
        if waited + pause > self.max_wait:
            return None
        if self.on_retry is not None:
            self.on_retry(response.status_code if response is not None else None, pause)
        return pause

    def _again(
        self,
        request: httpx.Request,
        error: httpx.TransportError | None,
        response: httpx.Response | None,
    ) -> bool:
        if response is not None:
            if response.status_code in UNTOUCHED_STATUSES:
                return True
            if response.status_code not in RETRIED_STATUSES:
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
