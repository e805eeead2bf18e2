"""The feeds' doorbell: every append PUBLISHes its feed's name on `dg:bell` (events/append.lua),
and a reader of the feeds (a projection, a process's stream hub) reads the feeds that rang
rather than wait on all of them. A cluster takes one blocking XREAD over the keys of one slot
only, and 1,024 shards would need 1,024 waiting connections per reader; one subscription per
process serves every reader in it, on a single server and on a cluster alike.

The same subscription hears `dg:seats`: a registered player took a seat (`<player> <game>`,
service/play/players.py `announce_seat`), for the players' streams of every process
(service/live/player_streams.py).

A message may be lost (the subscription drops, a node fails over): after each (re)subscribe
every listener is told "look at every feed", and a reader that heard nothing for
`FALLBACK_SECONDS` looks at every feed anyway, so a lost message delays a reader, never
stops it.

A process whose readers all stand idle (a stream hub with no stream open: every API process
of `danger serve --workers N`, every stream writer with nothing to write) unsubscribes at the
next ring, so that it is not woken by every append for nothing; a reader that wants the
feeds again waits for the subscription before it reads them (`Bell.want`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from events.cluster import Store, subscriber

log = logging.getLogger("danger.bell")
CHANNEL = "dg:bell"
SEATS = "dg:seats"  # "<player> <game>": a registered player took a seat (player streams)
FALLBACK_SECONDS = 5.0  # a reader that heard nothing this long looks at every feed
RETRY_SECONDS = 1.0  # after the subscription failed


class Listener:
    """What one reader has heard: the feeds that rang since it last looked."""

    def __init__(self) -> None:
        self.rung: set[str] = set()
        self.everything = True  # look at every feed: at the start and after a resubscribe
        self.wanted = True  # its reader follows the feeds (else the bell may stop for it)
        self._event = asyncio.Event()

    def ring(self, feed: str | None) -> None:
        if feed is None:
            self.everything = True
        else:
            self.rung.add(feed)
        self._event.set()

    def take(self) -> set[str] | None:
        """The feeds that rang since the last take (None: every feed), without waiting."""
        if self.everything:
            self.everything = False
            self.rung.clear()
            return None
        rung, self.rung = self.rung, set()
        return rung

    async def wait(self, timeout: float = FALLBACK_SECONDS) -> set[str] | None:
        """The feeds that rang, once one has; None (every feed) after `timeout` in silence."""
        if not (self.rung or self.everything):
            self._event.clear()
            try:
                async with asyncio.timeout(timeout):
                    await self._event.wait()
            except TimeoutError:
                return None
        return self.take()


class Bell:
    """One subscription to `dg:bell`, heard by every listener of the process."""

    def __init__(self, redis: Store) -> None:
        self.redis = redis
        self._listeners: set[Listener] = set()
        self._seat_hooks: list[Callable[[str], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._interest = asyncio.Event()  # a listener wants the feeds again
        self._subscribed = asyncio.Event()

    @property
    def subscribed(self) -> bool:
        return self._subscribed.is_set()

    async def want(self, heard: Listener, wanted: bool = True) -> None:
        """Whether `heard`'s reader follows the feeds from now. Not wanted by any listener,
        the bell unsubscribes at its next ring; wanted again, it subscribes, and this returns
        once it has (or after `FALLBACK_SECONDS`, when the reader reads every feed anyway):
        whatever is appended after it returns rings."""
        heard.wanted = wanted
        if not wanted:
            return
        self._interest.set()
        if not self._subscribed.is_set() and self._task is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FALLBACK_SECONDS):
                    await self._subscribed.wait()

    def _wanted(self) -> bool:
        return any(heard.wanted for heard in self._listeners)

    def listener(self) -> Listener:
        """A new reader's listener, wanting the feeds: the bell subscribes for it if it had
        let go (or had no listener yet)."""
        heard = Listener()
        self._listeners.add(heard)
        self._interest.set()
        return heard

    def on_seat(self, hook: Callable[[str], None]) -> None:
        """Call `hook` with each `dg:seats` message heard while subscribed."""
        self._seat_hooks.append(hook)

    def forget(self, heard: Listener) -> None:
        self._listeners.discard(heard)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None

    def _ring(self, feed: str | None) -> None:
        for heard in self._listeners:
            heard.ring(feed)

    async def _listen(self) -> None:
        attempt = 0
        while True:
            if not self._wanted():
                self._interest.clear()
                await self._interest.wait()
            client = subscriber(self.redis, attempt)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL, SEATS)
                self._subscribed.set()
                self._ring(None)  # what rang while nobody listened
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        data = message["data"]
                        text = data.decode() if isinstance(data, bytes) else str(data)
                        if _text(message["channel"]) == SEATS:
                            for hook in self._seat_hooks:
                                hook(text)
                        else:
                            self._ring(text)
                    if not self._wanted():
                        break  # every reader here stands idle: no more wake-ups for them
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the feeds' bell was lost (%s); subscribing again", exc)
                attempt += 1
                self._ring(None)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                self._subscribed.clear()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


@contextlib.asynccontextmanager
async def listening(bell: Bell | None, redis: Store, quiet: bool = False):
    """A listener of `bell`, or of a bell of its own (none rings it if `quiet`: a reader that
    reads every feed once and returns)."""
    own = None
    if bell is None and not quiet:
        bell = own = Bell(redis)
        await own.start()
    heard = bell.listener() if bell is not None else Listener()
    try:
        yield heard
    finally:
        if bell is not None:
            bell.forget(heard)
        if own is not None:
            await own.stop()
