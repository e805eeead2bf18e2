"""One clock for every process: the store's.

Each event's `at`, each deadline and each expiry is read from this clock, so processes on
machines whose clocks disagree still write one timeline per game (an audit refuses a game
whose event time goes backwards, and one whose timer rang before its deadline). Asking the
store for `TIME` on every command would cost a round trip; instead each process reads the
store's time now and then (`TIME`, taken as of the answer's arrival, so never ahead) and
counts on from it with its monotonic clock. Not with its wall clock: a wall clock can be stepped
(NTP, a paused virtual machine resumed), and a process that counted on from it wrote a
step of half a minute into every event until its next measurement, and could ring a timer
that early (tests/faults, `clock-jump`; tests/integration/test_one_clock.py). What is left
(at most a round trip, behind) is taken up where it matters: an event's `at` is never
earlier than the game's previous event's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from redis.exceptions import RedisError

from events.cluster import Store, anywhere

REFRESH_SECONDS = 10.0  # how old a measured offset may grow before it is measured again
RETRY_SECONDS = 1.0  # after a failed measurement, the last offset is kept this long
SLOW_SECONDS = 0.05  # a reading whose round trip took longer is not taken (one before it is)


def stamp(moment: datetime) -> str:
    """RFC 3339 UTC with milliseconds: the form of every event's `at` (a string, so no float
    is hashed; fixed width, so later is greater)."""
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class StoreClock:
    """The store's time: its last reading, counted on by this process's monotonic clock.

    `local` is this process's wall clock (epoch seconds), which the job queue runs its
    schedule by (`offset`); tests give a skewed or stepped one to play processes whose
    clocks disagree. `steady` is the monotonic clock."""

    def __init__(
        self,
        redis: Store,
        local: Callable[[], float] = time.time,
        steady: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.local = local
        self.steady = steady
        self._read: tuple[float, float] | None = None  # (store's time, steady() then)
        self._measured_at: float | None = None  # steady() of the last measurement

    async def refresh(self, force: bool = False) -> None:
        """Measure the offset again if it is older than REFRESH_SECONDS (or never was). A
        store that cannot be asked keeps the last offset: the command that needs the store
        fails on its own."""
        now = self.steady()
        fresh = self._measured_at is not None and now - self._measured_at < REFRESH_SECONDS
        if fresh and not force:
            return
        before = self.steady()
        try:
            # Any node's clock will do: on a cluster, not always the one a failover took.
            seconds, micros = await self.redis.time(**anywhere(self.redis))
        except RedisError:
            if self._measured_at is None:
                raise
            self._measured_at = now - REFRESH_SECONDS + RETRY_SECONDS  # keep it a while
            return
        after = self.steady()
        if self._read is not None and after - before > SLOW_SECONDS:
            # A slow answer (a node paused, a loaded machine) says little of when the time
            # was read: count on from the last reading, and ask again soon.
            self._measured_at = now - REFRESH_SECONDS + RETRY_SECONDS
            return
        # As of the answer's arrival, not halfway: the store's time then is at least what it
        # said, so the count never runs ahead of the store's (an event stamped later than
        # the store took it, a timer rung early), behind by a round trip at most. Halfway,
        # an answer that took 0.8 s ran the count 0.4 s ahead (tests/faults, `stamp`).
        self._read = (seconds + micros / 1e6, after)
        self._measured_at = now

    def time(self) -> float:
        """Epoch seconds by the store's clock (this process's, before the first reading)."""
        if self._read is None:
            return self.local()
        store_time, then = self._read
        return store_time + (self.steady() - then)

    @property
    def offset(self) -> float:
        """The store's clock minus this process's wall clock, now: what a time for the job
        queue, which runs jobs by the wall clocks of the processes, is moved by."""
        return self.time() - self.local()

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.time(), UTC)

    def stamp(self, after: str = "") -> str:
        """Now as an event's `at`, never earlier than `after` (the game's last event's)."""
        return max(stamp(self.now()), after)
