"""Webhook deliveries sent: each worker takes the endpoints whose next delivery is due
(`dg:{hooks}:due`), one worker per endpoint at a time (a lease), and sends that endpoint's
queue in order, one delivery at a time, at most `in_flight` at once in the process.

A delivery follows Standard Webhooks: `webhook-id` (the delivery's id, the same on every
attempt: a receiver drops one it has taken), `webhook-timestamp`, and `webhook-signature`
with one `v1,` signature per secret in use (two while a secret is rotated). Any 2xx is
taken; anything else, no answer, or an address the URL may not reach is a failed attempt,
tried again after RETRY_AFTER_SECONDS (then hourly), each with a fifth of jitter, never
sooner than the receiver's `Retry-After`, until `retry_hours` after its first failure; then
it is given up (`failed`). An endpoint that failed every attempt for `retry_hours` is
paused, with the reason, until its owner resumes it. A failed delivery holds back the
endpoint's later ones: an endpoint hears its events in order or not at all.

Redirects are not followed, the connection is pinned to the address checked
(service/jobs/webhook_targets.py), and at most ANSWER_BYTES of an answer are read.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
import time
from typing import Any

import httpx
import msgspec

from service.infra import metrics
from service.infra.clock import StoreClock
from service.infra.config import Webhooks
from service.jobs import webhook_targets
from service.play import webhook_deliveries as deliveries
from service.play import webhooks
from service.play.webhook_deliveries import Attempt, Delivery

log = logging.getLogger("danger.webhooks")
RETRY_AFTER_SECONDS = (5, 30, 120, 600)  # the first retries; then every RETRY_LATER_SECONDS
RETRY_LATER_SECONDS = 3600
JITTER = 0.2
ANSWER_BYTES = 4096
# A dead worker holds its endpoints this long; each delivery (at most ~9 s) renews it.
LEASE_MS = 15_000
POLL_SECONDS = 0.2
TIMEOUT = httpx.Timeout(5.0, connect=3.0)
USER_AGENT = "DangerHall-Webhooks/1"


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def next_try(attempts: int, retry_after: float | None, rng: random.Random) -> float:
    """Seconds until the next attempt after `attempts` failed ones."""
    base = (
        RETRY_AFTER_SECONDS[attempts - 1]
        if attempts <= len(RETRY_AFTER_SECONDS)
        else RETRY_LATER_SECONDS
    )
    wait = base * rng.uniform(1 - JITTER, 1 + JITTER)
    return max(wait, min(retry_after or 0.0, RETRY_LATER_SECONDS))


def _retry_after(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None  # an HTTP date: the schedule decides


class Sender:
    """The deliveries one worker sends."""

    def __init__(self, redis: Any, clock: StoreClock, settings: Webhooks) -> None:
        self.redis = redis
        self.clock = clock
        self.settings = settings
        self.slots = asyncio.Semaphore(settings.in_flight)
        self.http = httpx.AsyncClient(follow_redirects=False, timeout=TIMEOUT, trust_env=False)
        self.rng = random.Random()
        self.serving: dict[str, asyncio.Task[None]] = {}
        self.token = secrets.token_hex(8)

    def now_ms(self) -> int:
        return int(self.clock.time() * 1000)

    async def run(self) -> None:
        try:
            while True:
                await self.round()
                await asyncio.sleep(POLL_SECONDS)
        finally:
            for task in self.serving.values():
                task.cancel()
            await self.http.aclose()

    async def round(self) -> None:
        """Take up every endpoint that is due and not served here already."""
        await self.clock.refresh()
        due = await self.redis.zrangebyscore(
            deliveries.DUE, "-inf", self.now_ms(), start=0, num=100
        )
        for raw in due:
            endpoint_id = raw.decode() if isinstance(raw, bytes) else raw
            if endpoint_id in self.serving:
                continue
            lease = f"{deliveries.tag(endpoint_id)}:lease"
            if not await self.redis.set(lease, self.token, nx=True, px=LEASE_MS):
                continue  # another worker serves it
            task = asyncio.create_task(self._serve(endpoint_id, lease))
            self.serving[endpoint_id] = task
            task.add_done_callback(self._served)

    def _served(self, task: asyncio.Task[None]) -> None:
        for endpoint_id, serving in list(self.serving.items()):
            if serving is task:
                del self.serving[endpoint_id]

    async def _serve(self, endpoint_id: str, lease: str) -> None:
        try:
            await self._send_queue(endpoint_id)
        except Exception:
            log.exception("webhook endpoint %s: its queue failed; tried again later", endpoint_id)
        finally:
            with contextlib.suppress(Exception):
                if await self.redis.get(lease) == self.token.encode():
                    await self.redis.delete(lease)

    async def _send_queue(self, endpoint_id: str) -> None:
        while True:
            endpoint = await webhooks.get(self.redis, endpoint_id)
            head = await deliveries.head(self.redis, endpoint_id, 1)
            if endpoint is None or endpoint.paused is not None or not head:
                # Nothing to send (a paused endpoint's are sent once it is resumed).
                await self.redis.zrem(deliveries.DUE, endpoint_id)
                if head and endpoint is not None and endpoint.paused is None:
                    await self.redis.zadd(deliveries.DUE, {endpoint_id: self.now_ms()})
                return
            delivery = head[0]
            if delivery.next_ms > self.now_ms():
                await self.redis.zadd(deliveries.DUE, {endpoint_id: delivery.next_ms})
                return
            await self.redis.pexpire(f"{deliveries.tag(endpoint_id)}:lease", LEASE_MS)
            async with self.slots:
                attempt, retry_after = await self.send(endpoint, delivery)
            if not await self._after(endpoint, delivery, attempt, retry_after):
                return  # failed: the endpoint waits for the retry

    async def send(
        self, endpoint: webhooks.Endpoint, delivery: Delivery
    ) -> tuple[Attempt, float | None]:
        """One attempt of a delivery, and the receiver's Retry-After (seconds) if it said."""
        began = time.monotonic()
        at_ms = self.now_ms()
        try:
            target = await webhook_targets.resolve(endpoint.url, self.settings.private)
        except webhook_targets.Refused as exc:
            return Attempt(at_ms, 0, None, error=str(exc)), None
        body = delivery.body.encode()
        timestamp = at_ms // 1000
        signatures = " ".join(
            sign(s, delivery.id, timestamp, body) for s in endpoint.signing(at_ms)
        )
        headers = {
            "Host": target.host_header,
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "webhook-id": delivery.id,
            "webhook-timestamp": str(timestamp),
            "webhook-signature": signatures,
        }
        extensions = {"sni_hostname": target.server_name} if target.server_name else {}
        try:
            request = self.http.build_request(
                "POST", target.url, content=body, headers=headers, extensions=extensions
            )
            response = await self.http.send(request, stream=True)
            try:
                answer = b""
                async for chunk in response.aiter_raw():
                    answer += chunk
                    if len(answer) >= ANSWER_BYTES:
                        break
            finally:
                await response.aclose()
        except httpx.HTTPError as exc:
            ms = round((time.monotonic() - began) * 1000)
            return Attempt(at_ms, ms, None, error=f"{type(exc).__name__}: {exc}"[:300]), None
        ms = round((time.monotonic() - began) * 1000)
        text = answer[:ANSWER_BYTES].decode("utf-8", "replace")
        attempt = Attempt(at_ms, ms, response.status_code, answer=text[:1024] or None)
        return attempt, _retry_after(response.headers.get("Retry-After"))

    async def _after(
        self,
        endpoint: webhooks.Endpoint,
        delivery: Delivery,
        attempt: Attempt,
        retry_after: float | None,
    ) -> bool:
        """The attempt recorded, the delivery and the endpoint as it leaves them; whether it
        was taken."""
        now = self.now_ms()
        taken = attempt.status is not None and 200 <= attempt.status < 300
        seconds = attempt.ms / 1000
        if taken:
            metrics.WEBHOOK_ATTEMPTS.labels("delivered").observe(seconds)
            await deliveries.record_attempt(self.redis, delivery, attempt, "delivered", 0, now)
            if endpoint.failing_since_ms is not None:
                await webhooks.save(self.redis, _with(endpoint, failing_since_ms=None))
            return True
        first_failed = delivery.first_failed_ms or now
        window_ms = self.settings.retry_hours * 3600 * 1000
        given_up = now - first_failed >= window_ms
        metrics.WEBHOOK_ATTEMPTS.labels("given_up" if given_up else "retried").observe(seconds)
        wait = next_try(delivery.attempts + 1, retry_after, self.rng)
        next_ms = 0 if given_up else now + int(wait * 1000)
        await deliveries.record_attempt(
            self.redis, delivery, attempt, "failed" if given_up else "queued", next_ms, now
        )
        failing_since = endpoint.failing_since_ms or first_failed
        if now - failing_since >= window_ms:
            why = attempt.error or f"HTTP {attempt.status}"
            reason = f"every delivery failed for {self.settings.retry_hours:g} h; the last: {why}"
            await webhooks.save(
                self.redis, _with(endpoint, paused=reason, failing_since_ms=failing_since)
            )
            log.warning("webhook endpoint %s paused: %s", endpoint.id, reason)
            metrics.WEBHOOKS_PAUSED.labels("failing").inc()
            return False
        if endpoint.failing_since_ms is None:
            await webhooks.save(self.redis, _with(endpoint, failing_since_ms=failing_since))
        if not given_up:
            await self.redis.zadd(deliveries.DUE, {endpoint.id: next_ms})
        return given_up  # given up: the next delivery goes; else the endpoint waits


def _with(endpoint: webhooks.Endpoint, **changes: Any) -> webhooks.Endpoint:
    return msgspec.structs.replace(endpoint, **changes)
