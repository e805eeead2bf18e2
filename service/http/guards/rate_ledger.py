"""The buckets of the frequent kinds of request (commands and reads), kept in the process and
settled with Valkey in batches.

Asking Valkey for every request costs a round trip: about a tenth of a command's CPU in the
API process and a fifth of Valkey's (docs/performance.md, "What a command costs, counted"). A
process decides on its own copy of a client's bucket, the GCRA of
service/http/guards/rate_bucket.lua worked out on the store's clock (service/infra/clock.py), and
every `settle_seconds` sends what it admitted on each bucket since, all buckets in one round trip
(service/http/guards/rate_settle.lua); the answer is the bucket as every process has left it, which
replaces its copy.

A bucket this process does not hold yet (a client new to it, or gone quiet for
`IDLE_SECONDS`) is read from Valkey before the first request is decided, so a client cannot
start over by reaching another process. A client whose requests all reach one process is
limited exactly; one that spreads them over several gets, on top of its rate, at most what
the other processes admitted on its bucket since this one last settled it: about one
settlement interval's worth. Creates, joins and streams, whose buckets are small and whose
requests are rare, are asked of Valkey every time (service/http/guards/ratelimit.py).
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from events.cluster import run_scripts
from service.infra.config import Rate
from service.infra.lua import Script

log = logging.getLogger("danger.ratelimit")

SETTLE = Script.named("service.http.guards", "rate_settle.lua")
IDLE_SECONDS = 60.0  # a bucket untouched this long is dropped here, and read again when used
MICROS = 1_000_000


class Copy:
    """This process's copy of one bucket: its TAT (µs of the store's clock) and the requests
    admitted here that Valkey has not heard of."""

    __slots__ = ("admitted", "rate", "tat", "touched")

    def __init__(self, tat: float, rate: Rate, touched: float) -> None:
        self.tat, self.rate, self.touched, self.admitted = tat, rate, touched, 0


def gcra(tat: float, now: float, rate: Rate) -> tuple[float | None, int, int, int]:
    """One request against a bucket at `tat` (µs) at `now` (µs), as rate_bucket.lua decides it:
    (the bucket's TAT after it, or None if refused; requests left; seconds until one more;
    seconds to wait for a refused one)."""
    window = rate.seconds * MICROS
    interval = max(1, window // rate.requests)
    after = max(tat, now) + interval
    if after - now > window:
        wait = math.ceil((after - window - now) / MICROS)
        return None, 0, wait, wait
    room = (window - (after - now)) / interval
    left = math.floor(room)
    return after, left, math.ceil((left + 1 - room) * interval / MICROS), 0


class Ledger:
    """The copies this process holds, at most `max_buckets` (beyond them a request is asked of
    Valkey, as a create is), and the task that settles them."""

    def __init__(
        self, redis: Any, now: Callable[[], float], settle_seconds: float, max_buckets: int
    ) -> None:
        self.redis, self.now = redis, now  # now: epoch seconds by the store's clock
        self.settle_seconds, self.max_buckets = settle_seconds, max_buckets
        self.copies: OrderedDict[str, Copy] = OrderedDict()  # least recently used first
        self._reading: dict[str, asyncio.Future[None]] = {}
        # The buckets with requests admitted since they were last settled: a settlement looks
        # at these only, not at every copy held.
        self._unsettled: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="rate-ledger")

    async def stop(self) -> None:
        """Stop settling; what was admitted since the last settlement is settled once more."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        try:
            await self.settle()
        except Exception:  # the store is away: those requests are forgotten, as on a crash
            log.warning("could not settle the rate limits' last requests", exc_info=True)

    def holds(self, key: str) -> bool:
        """Whether a request of `key` is decided here: its copy is held, or there is room for
        one (counting the copies being read)."""
        return key in self.copies or len(self.copies) + len(self._reading) < self.max_buckets

    async def take(self, key: str, rate: Rate) -> tuple[bool, int, int, int]:
        """One request from the bucket `key`: (admitted, left, seconds until one more,
        seconds to wait)."""
        copy = self.copies.get(key)
        if copy is None or copy.rate != rate:
            await self._read(key, rate)
            copy = self.copies[key]
        now = self.now() * MICROS
        after, left, reset, wait = gcra(copy.tat, now, rate)
        copy.touched = now
        self.copies.move_to_end(key)
        if after is None:
            return False, left, reset, wait
        copy.tat = after
        copy.admitted += 1
        self._unsettled.add(key)
        return True, left, reset, wait

    async def _read(self, key: str, rate: Rate) -> None:
        """The bucket as Valkey holds it, into a copy here. Concurrent first requests of one
        bucket wait for one read; if it failed, the next of them reads."""
        while (reading := self._reading.get(key)) is not None:
            await asyncio.wait({reading})  # its outcome is its reader's: the copy is what counts
            copy = self.copies.get(key)
            if copy is not None and copy.rate == rate:
                return
        reading = self._reading[key] = asyncio.get_running_loop().create_future()
        try:
            tat, server_now = await SETTLE(self.redis, [key], [rate.requests, rate.seconds, 0])
            now = self.now() * MICROS
            # The store's clock as this process estimates it may differ from TIME by a fraction
            # of a round trip: the copy keeps the bucket's room, not its raw time.
            fresh = Copy(now + (tat - server_now), rate, now)
            old = self.copies.get(key)
            fresh.admitted = old.admitted if old is not None else 0  # not yet settled: kept
            self.copies[key] = fresh
        finally:
            del self._reading[key]
            reading.set_result(None)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.settle_seconds)
            try:
                await self.settle()
            except Exception:  # kept for the next round: nothing admitted is lost
                log.warning(
                    "could not settle the rate limits; again in %.2f s",
                    self.settle_seconds,
                    exc_info=True,
                )

    async def settle(self) -> None:
        """Send every copy's admitted requests in one round trip (per node of a cluster), and
        take the buckets as they now stand; drop the copies idle for IDLE_SECONDS."""
        now = self.now() * MICROS
        while self.copies:
            oldest = next(iter(self.copies.values()))
            if now - oldest.touched < IDLE_SECONDS * MICROS or oldest.admitted:
                break
            self.copies.popitem(last=False)
        keys, self._unsettled = self._unsettled, set()
        due = [
            (key, copy, copy.admitted)
            for key in keys
            if (copy := self.copies.get(key)) is not None and copy.admitted
        ]
        if not due:
            return
        for _, copy, sent in due:
            copy.admitted -= sent
        try:
            replies = await run_scripts(
                self.redis,
                SETTLE,
                [([key], [copy.rate.requests, copy.rate.seconds, sent]) for key, copy, sent in due],
            )
        except BaseException:
            for key, copy, sent in due:
                copy.admitted += sent
                self._unsettled.add(key)
            raise
        now = self.now() * MICROS
        for (_, copy, _), (tat, server_now) in zip(due, replies, strict=True):
            interval = max(1, copy.rate.seconds * MICROS // copy.rate.requests)
            # Valkey's bucket, and what this process admitted while the settlement travelled.
            settled = now + (tat - server_now) + copy.admitted * interval
            copy.tat = max(copy.tat, settled)
