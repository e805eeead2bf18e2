"""The job queue's servers (`DANGER_QUEUE_URL`, several separated by commas), and which one
a game's jobs go to.

A game's jobs go to one server, chosen by the game's shard: of N servers, shard `s` queues
on server `s mod N`, so the choice costs a CRC32 and every process makes the same one. While
that server cannot be reached, the game's jobs go to one of the others, chosen by the shard
again (`s div N` among them, in turn), so the shards of a server that is gone spread evenly
over the rest. Jobs queued there before it went are lost to its workers until it comes back;
the sweep queues a due game's timers and bot moves again by their stable ids, and they fall
to another server too. A job may then run twice (once on each server, when the first comes
back with its jobs): delivery is at least once, and a stale timer or bot move changes
nothing, as every append names the seq it was decided against.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from arq.connections import ArqRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from events.keys import shard_number
from service.infra import metrics
from service.infra.connections import QueueRefused, pool_ran_dry, server_name

log = logging.getLogger("danger.queues")

T = TypeVar("T")

# A server that failed a call is passed over for this long (then tried again first): its
# games' jobs go straight to another meanwhile, without a failed call each.
DOWN_SECONDS = 2.0


@dataclass
class QueueServer:
    """One queue server: its client (which owns the pool) and arq's client on the same pool."""

    url: str
    client: Redis
    arq: ArqRedis
    checked: bool = False  # known to be a single server, not a node of a cluster
    down_until: float = 0.0  # time.monotonic() until which it is passed over
    refused: str | None = None  # why it is never used (a node of a cluster)
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = server_name(self.url)

    async def check(self) -> None:
        """Refuse a node of a cluster, once (arq's transactions span many slots): a server
        that could not be reached at start is checked when first reached."""
        if self.checked:
            return
        info = await self.client.info("cluster")
        if int(info.get("cluster_enabled", 0)):
            self.refused = "a node of a cluster; the job queue needs single servers"
            log.error("queue server %s is %s: it is not used", self.name, self.refused)
            raise QueueRefused(f"queue server {self.name} is {self.refused}")
        self.checked = True


class QueueServers:
    """The queue servers, in the order DANGER_QUEUE_URL names them, and each game's own."""

    def __init__(
        self, servers: Sequence[QueueServer], clock: Callable[[], float] = time.monotonic
    ) -> None:
        assert servers, "at least one queue server"
        self.servers = list(servers)
        self.clock = clock

    @classmethod
    def single(cls, pool: ArqRedis, url: str = "redis://localhost") -> QueueServers:
        """One server, already checked (a test's queue)."""
        return cls([QueueServer(url, pool, pool, checked=True)])

    def __len__(self) -> int:
        return len(self.servers)

    def preference(self, game_id: str) -> list[QueueServer]:
        """The servers a game's jobs go to, in turn: its own, then the others from the one
        its shard picks among them, so a gone server's shards spread over the rest."""
        shard, count = shard_number(game_id), len(self.servers)
        place = shard % count
        own = self.servers[place]
        others = self.servers[place + 1 :] + self.servers[:place]
        if others:
            start = (shard // count) % len(others)
            others = others[start:] + others[:start]
        return [own, *others]

    async def call(self, game_id: str, send: Callable[[ArqRedis], Awaitable[T]]) -> T:
        """`send` to the game's own server, or to the next that answers. Servers passed over
        (down lately) are tried last, in case every other fails too. A pool with no free
        connection in time is this process's load, not the server gone: it is raised."""
        now = self.clock()
        ranked = self.preference(game_id)
        own = ranked[0]
        ranked = [s for s in ranked if s.down_until <= now] + [
            s for s in ranked if s.down_until > now
        ]
        failure: BaseException | None = None
        for server in ranked:
            if server.refused is not None:
                failure = failure or QueueRefused(f"queue server {server.name} is {server.refused}")
                continue
            try:
                await server.check()
                sent = await send(server.arq)
            except QueueRefused as exc:
                failure = exc
                continue
            except RedisError as exc:
                if pool_ran_dry(exc):
                    raise
                failure = exc
                self._down(server, exc)
                continue
            if server.down_until:
                log.info("queue server %s takes jobs again", server.name)
                server.down_until = 0.0
            if server is not own:
                metrics.QUEUED_ELSEWHERE.labels(str(self.servers.index(own))).inc()
            return sent
        assert failure is not None  # every server was tried, or refused
        raise failure

    def _down(self, server: QueueServer, exc: BaseException) -> None:
        if not server.down_until:
            log.warning(
                "queue server %s cannot be reached (%r); its games' jobs go to the others",
                server.name,
                exc,
            )
        server.down_until = self.clock() + DOWN_SECONDS

    async def close(self) -> None:
        for server in self.servers:
            for client in (server.arq, server.client):
                # The server may be what failed: closing goes on.
                with contextlib.suppress(Exception):
                    await client.aclose()
