"""The projection runner: one consumer group over every shard feed, applying each batch of
feed entries to its read model (service/readmodels/lobby.py, rounds.py, records.py each
define one).

A read model only moves forward. Every write is conditional, inside the script that makes
it, on the seq of the game it reflects, so any number of consumers may apply a feed, an
entry may be redelivered or claimed, and a write that arrives late changes nothing.

Every `upkeep_seconds` a consumer claims what a dead consumer left pending and trims the
feeds to what every group has acknowledged (events/feeds.py). An entry that still fails on
its own after `attempts` deliveries goes to the dead letters
(service/readmodels/dead_letters.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from events import feeds as feed_upkeep
from events import keys
from events.cluster import Store, in_slices, read_streams, run_scripts
from events.envelope import Folded, read_folded
from events.store import EventStore, Unconfirmed
from service.infra.bell import FALLBACK_SECONDS, Bell, Listener, listening
from service.infra.config import ProjectionSettings
from service.infra.lua import Script
from service.readmodels import dead_letters

log = logging.getLogger("danger.projections")
T = TypeVar("T")
CLAIM_IDLE_MS = 30_000  # an entry pending this long is taken over and applied again
STOP_SECONDS = 5.0  # a consumer told to stop finishes the read and apply under way, so long
FULL_UPKEEP_EVERY = 6  # of the upkeeps, one looks at every feed; the others at those in use
ENTRIES_PER_READ = 500  # feed entries per feed and read
SETTLE_SECONDS = 0.02  # after a batch, wait this long for the next to gather
OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError, Unconfirmed)
"""The store is away, or its replicas do not confirm (a failover): no fault of the entries
being applied, which are read again later."""

Entry = tuple[bytes, dict[bytes, bytes]]


class RebuildFailed(Exception):
    """A game's log could not be folded; the live models were left as they were."""


# KEYS: 1 the feed. ARGV: 1 group, then the entry ids to acknowledge.
ACK = Script("""
for j = 2, #ARGV do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
return 1
""")

Updates = dict[str, tuple[list[bytes], int]]
"""Per game in a batch of feed entries: the entry ids, and the last seq they announce."""


def by_game(entries: list[Entry]) -> Updates:
    """A batch of feed entries as one update per game. Under load a batch holds many games,
    and some games several times: each projection reads and writes once per batch."""
    out: Updates = {}
    for entry_id, fields in entries:
        game = fields[b"game"].decode()
        ids, last = out.get(game, ([], 0))
        ids.append(entry_id)
        out[game] = (ids, max(last, int(fields[b"last"])))
    return out


class Projection:
    """One consumer group over every shard feed."""

    group = ""

    def __init__(
        self,
        redis: Store,
        store: EventStore,
        settings: ProjectionSettings | None = None,
        bell: Bell | None = None,
        groups: Sequence[str] = (),
    ) -> None:
        self.redis = redis
        # Every consumer group of the feeds (service/readmodels/projections.py): an entry is
        # trimmed only once all of them have it. None known, none is trimmed.
        self.groups = list(groups)
        self.store = store
        self.settings = settings or ProjectionSettings()
        self.bell = bell  # the process's (service/infra/bell.py); None: one of its own
        self.consumer = f"{socket.gethostname()}-{os.getpid()}"
        self.errors = 0
        """Failed attempts to apply a batch or an entry, since this consumer started."""
        self.last_error: str | None = None
        self._holding: set[str] | None = None  # shards whose feeds may hold entries (None: any)
        self._upkeeps = 0

    async def run(self) -> None:
        await self._run()

    async def catch_up(self) -> None:
        """Apply everything the feeds hold now, then return."""
        await self._run(once=True)

    async def _ensure_groups(self, feeds: list[str]) -> None:
        """Each feed's consumer group, made where missing (BUSYGROUP: it exists already)."""

        def add(pipe: Any, feed: str) -> None:
            pipe.xgroup_create(feed, self.group, id="0", mkstream=True)

        for reply in await in_slices(self.redis, feeds, add, raise_on_error=False):
            if isinstance(reply, Exception) and "BUSYGROUP" not in str(reply):
                raise reply

    async def _run(self, once: bool = False) -> None:
        """Read the feeds that rang (service/infra/bell.py; every feed at the start, after a
        failure and now and then), apply what came per shard, and let the next batch gather
        for a moment: under load a batch holds many commands, so the reads and writes per
        command fall as the load rises. A feed is read with its own XREADGROUP in a cluster,
        with the others of its group on a single server (events/cluster.py)."""
        feeds = {keys.feed(shard): shard for shard in keys.all_shards()}
        await self._ensure_groups(list(feeds))
        async with listening(self.bell, self.redis, quiet=once) as bell:
            await self._loop(feeds, bell, once)

    async def _loop(self, feeds: dict[str, str], bell: Listener, once: bool) -> None:
        cursor = "0"  # first what this consumer left pending, then new entries
        wanted: set[str] | None = None  # the feeds to read next (None: every feed)
        loop = asyncio.get_running_loop()
        upkeep_at = loop.time()
        retry_at: float | None = None  # when to read again what failed
        while True:
            try:
                if retry_at is not None and loop.time() >= retry_at:
                    cursor, retry_at = "0", None
                names = list(feeds) if wanted is None or cursor == "0" else sorted(wanted)
                step = asyncio.ensure_future(self._step(feeds, names, cursor, once))
                reply, batches, applied = await _finishing(step)
                if cursor == "0" and not batches:
                    cursor, wanted = ">", None
                    continue
                if once and cursor == ">" and not batches:
                    return
                if not applied:
                    # What failed stays pending: read the new entries, and it again later.
                    cursor = ">"
                    retry_at = loop.time() + self.settings.retry_seconds
                if not once and loop.time() - upkeep_at > self.settings.upkeep_seconds:
                    upkeep_at = loop.time()  # under any load: a busy feed must not hide these
                    await self._upkeep(self._to_keep_up(list(feeds.values())))
                if once or cursor == "0":
                    wanted = None
                    continue
                if batches:
                    await asyncio.sleep(SETTLE_SECONDS)
                full = {text(n) for n, entries in reply if len(entries) >= ENTRIES_PER_READ}
                rung = bell.take()
                if full or rung is None or rung:
                    wanted = None if rung is None else (full | rung) & feeds.keys()
                    continue
                timeout = upkeep_at + self.settings.upkeep_seconds - loop.time()
                if retry_at is not None:
                    timeout = min(timeout, retry_at - loop.time())
                rung = await bell.wait(max(0.0, min(FALLBACK_SECONDS, timeout)))
                wanted = None if rung is None else rung & feeds.keys()
            except asyncio.CancelledError:
                raise
            except ResponseError as exc:
                if "NOGROUP" in str(exc):  # the feed was lost: start again from 0
                    await self._ensure_groups(list(feeds))
                    cursor, wanted = "0", None
                    continue
                if once:
                    raise
                self._failed(exc)
                cursor, wanted = "0", None
                await asyncio.sleep(self.settings.retry_seconds)
            except Exception as exc:  # keep the projection alive; the entries stay pending
                if once:
                    raise  # a catch-up that cannot apply everything must say so
                self._failed(exc)
                cursor, wanted = "0", None
                await asyncio.sleep(self.settings.retry_seconds)

    async def _step(
        self, feeds: dict[str, str], names: list[str], cursor: str, once: bool
    ) -> tuple[Any, dict[str, list[Entry]], bool]:
        """Read the feeds `names` from `cursor` and apply what came: the reply, the batches
        by shard, and False if some entry failed and stays pending."""
        reply = await read_streams(
            self.redis, dict.fromkeys(names, cursor), ENTRIES_PER_READ, (self.group, self.consumer)
        )
        batches = {feeds[text(name)]: entries for name, entries in reply if entries}
        if self._holding is not None:
            self._holding.update(batches)
        applied = await self._apply_each(batches, once) if batches else True
        return reply, batches, applied

    def _failed(self, exc: BaseException) -> None:
        self.errors += 1
        self.last_error = f"{type(exc).__name__}: {exc}"[:500]
        log.error("%s projection failed: %s", self.group, self.last_error, exc_info=exc)

    async def _apply_each(self, batches: dict[str, list[Entry]], once: bool = False) -> bool:
        """Apply a batch; if it fails, each of its entries on its own, so one that cannot be
        applied holds back no other. False if some entry failed and stays pending."""
        try:
            await self.apply({shard: by_game(entries) for shard, entries in batches.items()})
            return True
        except OUTAGE:
            raise
        except ResponseError as exc:
            if once or "NOGROUP" in str(exc):
                raise
            self._failed(exc)
        except Exception as exc:
            if once:
                raise
            self._failed(exc)
        applied = True
        for shard, entries in batches.items():
            for entry in entries:
                try:
                    await self.apply({shard: by_game([entry])})
                except OUTAGE:
                    raise
                except Exception as exc:
                    if isinstance(exc, ResponseError) and "NOGROUP" in str(exc):
                        raise
                    applied = await self._set_aside_if_spent(shard, entry, exc) and applied
        return applied

    async def _set_aside_if_spent(self, shard: str, entry: Entry, exc: Exception) -> bool:
        """An entry that failed on its own: a dead letter once it has been delivered
        `attempts` times (deliveries are counted by the server, across consumers and
        restarts). True if it is out of the way."""
        entry_id, fields = entry
        feed = keys.feed(shard)
        pending = await self.redis.xpending_range(
            feed, self.group, min=entry_id, max=entry_id, count=1
        )
        if not pending:
            return True  # acknowledged meanwhile, by a consumer that claimed it
        delivered = int(pending[0]["times_delivered"])
        error = f"{type(exc).__name__}: {exc}"
        if delivered < self.settings.attempts:
            log.warning(
                "%s: feed entry %s of %s failed (delivery %d of %d): %s",
                self.group,
                text(entry_id),
                shard,
                delivered,
                self.settings.attempts,
                error,
            )
            return False
        if await dead_letters.add(
            self.redis, shard, self.group, entry_id, fields, error, delivered
        ):
            log.error(
                "%s: feed entry %s of %s set aside as a dead letter after %d deliveries: %s",
                self.group,
                text(entry_id),
                shard,
                delivered,
                error,
            )
        return True

    def _to_keep_up(self, every: list[str]) -> list[str]:
        """The shards the next upkeep looks at: those whose feeds this consumer has read
        entries from or found holding some, and now and then every one (what another consumer
        read and left, or a dead one left pending). Its cost follows the feeds in use, not
        the number of shards (1,024)."""
        self._upkeeps += 1
        if self._holding is None or self._upkeeps % FULL_UPKEEP_EVERY == 0:
            return every
        return sorted(self._holding)

    async def _upkeep(self, shards: list[str]) -> None:
        """Claim what dead consumers left pending, and trim the feeds: of the feeds that hold
        anything (an entry is never trimmed while pending), found with one XLEN each."""
        lengths = await in_slices(self.redis, shards, lambda pipe, s: pipe.xlen(keys.feed(s)))
        looked_at = set(shards)
        shards = [shard for shard, length in zip(shards, lengths, strict=True) if length]
        self._holding = (self._holding or set()) - looked_at | set(shards)
        if not shards:
            return
        await self._claim_stale(shards)
        seconds, micros = await self.redis.time()
        keep_since = seconds * 1000 + micros // 1000 - int(self.settings.feed_keep_seconds * 1000)
        if self.groups:
            feeds = [keys.feed(s) for s in shards]
            await feed_upkeep.trim_all(self.redis, feeds, self.groups, keep_since)

    async def _claim_stale(self, shards: list[str]) -> None:
        """Entries a dead consumer left pending are taken over and applied (idempotently)."""

        def add(pipe: Any, shard: str) -> None:
            feed = keys.feed(shard)
            pipe.xautoclaim(feed, self.group, self.consumer, CLAIM_IDLE_MS, "0-0", count=100)

        claimed = await in_slices(self.redis, shards, add)
        for shard, (_, entries, *_) in zip(shards, claimed, strict=True):
            entries = [entry for entry in entries if entry[1]]
            if entries:
                await self._apply_each({shard: entries})

    async def read_many(self, ranges: dict[str, tuple[int, int]]) -> dict[str, list[Folded]]:
        """Several games' events in one round trip (game -> (after, upto)), each decoded only
        as far as folding needs; a projection decodes the fields it reads."""
        logs = await self.store.read_many_raw(ranges)
        shards = {keys.shard_of(game_id) for game_id in ranges}
        if await self.store.held(shards) != shards:
            # Events a failover may take back: no model may reflect them (a model only
            # moves forward), so the entries wait until their replicas confirm them.
            raise Unconfirmed(0, self.store.copies)  # type: ignore[arg-type]  # held() says copies
        return {game_id: [read_folded(raw) for raw in log] for game_id, log in logs.items()}

    async def kept(self) -> None:
        """The models written so far are kept as the events are (EventStore.kept_everywhere):
        called after a batch's writes, before its entries are acknowledged."""
        await self.store.kept_everywhere()

    async def eval_all(self, script: Script, calls: list[tuple[list[str], list[Any]]]) -> None:
        """One script per call, in as few round trips as the store allows."""
        await run_scripts(self.redis, script, calls)

    async def apply(self, batches: dict[str, Updates]) -> None:
        """Apply a batch of feed entries: per shard, one update per game."""
        raise NotImplementedError


def entry_ids(updates: Updates) -> list[bytes]:
    return [entry_id for entry_ids, _ in updates.values() for entry_id in entry_ids]


def last_seqs(batches: dict[str, Updates]) -> dict[str, int]:
    return {g: last for updates in batches.values() for g, (_, last) in updates.items()}


async def _finishing(step: asyncio.Future[T]) -> T:
    """The step's result. A consumer stopped while it reads and applies (a process shutting
    down) first finishes the step, for at most STOP_SECONDS: what the feeds gave it would
    otherwise stay pending under a consumer that is gone, for CLAIM_IDLE_MS, before another
    takes it over (a lobby half a minute behind after every restart of a process)."""
    try:
        return await asyncio.shield(step)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(step, STOP_SECONDS)
        raise


def at_ms(at: str) -> int:
    """An event's `at` (ISO 8601, UTC) in epoch milliseconds."""
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
