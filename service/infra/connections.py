"""The Valkey clients of a process: the store's (a single server or a cluster, told apart by
asking it) and the job queue's, each with a bound on its connections. What differs between
the two kinds of store for their users is in events/cluster.py."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import AsyncIterator
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from redis.asyncio import BlockingConnectionPool, ConnectionPool, Redis
from redis.exceptions import ClusterDownError, RedisError, TryAgainError
from redis.exceptions import ConnectionError as StoreConnectionError
from redis.exceptions import TimeoutError as StoreTimeoutError

from events.cluster import Store
from events.steady_cluster import SteadyCluster

# A node that cannot be reached now: down, failing over (a cluster's refusals while it does),
# or no connection free in time. Nothing was done; it may answer again soon.
UNREACHABLE = (StoreConnectionError, StoreTimeoutError, ClusterDownError, TryAgainError)
POOL_WAIT_SECONDS = 10  # a command waits this long for a free connection, then fails
QUEUE_SETTING = "DANGER_QUEUE_URL"
QUEUE_CONNECT_SECONDS = 2.0  # a queue server's connection is made within this, or fails
QUEUE_REPLY_SECONDS = 5.0  # a queue server answers a call within this, or it fails
log = logging.getLogger("danger.queues")


def pool_ran_dry(exc: BaseException) -> bool:
    """Whether `exc` is this process's pool without a free connection in time (redis-py
    raises ConnectionError("No connection available.") from the wait's TimeoutError), not
    a node that cannot be reached."""
    return isinstance(exc, StoreConnectionError) and isinstance(exc.__cause__, TimeoutError)


def _raw(response: Any, **_: Any) -> Any:
    return response


class BoundedPool(BlockingConnectionPool):
    """redis-py's blocking pool, which takes its lock and sets a timeout for every command
    even when a connection is free and nobody waits (a tenth of redis-py's own time a
    command: docs/performance.md, "The connection pool"). Here a free connection is taken
    at once when no command is waiting; otherwise as redis-py does, in turn and bounded."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._waiting = 0  # commands in redis-py's path: they are served first

    async def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        if self._waiting or self._condition.locked() or not self.can_get_connection():
            self._waiting += 1
            try:
                return await super().get_connection()
            finally:
                self._waiting -= 1
        # Nothing is awaited from the check to the taking: no other task runs between.
        connection = self.get_available_connection()
        try:
            await self.ensure_connection(connection)
            return connection
        except BaseException:
            await self.release(connection)
            raise

    async def release(self, connection: Any) -> None:
        if self._waiting or self._condition.locked():
            await super().release(connection)  # under the lock, and a waiter is woken
            return
        # As redis-py's pool releases it; no one waits to be woken.
        await ConnectionPool.release(self, connection)


def bounded_redis(url: str, max_connections: int, **options: Any) -> Redis:
    """A client that opens at most `max_connections` connections; beyond them a command waits
    for one to be free, so a burst of requests queues instead of failing or exhausting the
    server's `maxclients`. Closing the client closes its pool."""
    pool = BoundedPool.from_url(
        url, max_connections=max_connections, timeout=POOL_WAIT_SECONDS, **options
    )
    client = Redis(connection_pool=pool)
    client.auto_close_connection_pool = True
    return client


_HOLDING: contextvars.ContextVar[bool] = contextvars.ContextVar("holding", default=False)


class BoundedCluster(SteadyCluster):
    """redis-py's cluster client with at most `max_connections` connections to each node, where
    a command beyond them waits for one to be free (the plain client's pool does; redis-py's
    cluster nodes raise MaxConnectionsError). At most `max_connections` commands or pipelines
    are in flight at once, and each uses at most one connection per node. A command the
    client sends on behalf of one in flight (a pipeline's retry after MOVED) takes no second
    place."""

    def __init__(self, *args: Any, max_connections: int = 64, **kwargs: Any) -> None:
        super().__init__(*args, max_connections=max_connections, **kwargs)
        self._places = asyncio.Semaphore(max_connections)

    @contextlib.asynccontextmanager
    async def _place(self) -> AsyncIterator[None]:
        if _HOLDING.get():
            yield
            return
        async with asyncio.timeout(POOL_WAIT_SECONDS):
            await self._places.acquire()
        token = _HOLDING.set(True)
        try:
            yield
        finally:
            _HOLDING.reset(token)
            self._places.release()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        async with self._place():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> Any:
        pipe = super().pipeline(transaction, shard_hint)
        execute = pipe.execute

        async def bounded(*args: Any, **kwargs: Any) -> Any:
            async with self._place():
                return await execute(*args, **kwargs)

        pipe.execute = bounded  # type: ignore[method-assign]  # bounded, for this pipeline alone
        return pipe


async def cluster_enabled(url: str, **options: Any) -> bool:
    """Whether the server at `url` is a node of a cluster (`INFO cluster`); `options` for
    the probe's connection (its timeouts)."""
    probe = Redis.from_url(url, **options)
    try:
        info = await probe.info("cluster")
    finally:
        await probe.aclose()
    return bool(int(info.get("cluster_enabled", 0)))


async def open_store(url: str, max_connections: int) -> Store:
    """The store's client for `url`: a cluster client if the server is a node of a cluster
    (any node will do: it tells the client of the others), else the bounded plain client.
    Either way XRANGE answers as the server sent it (see `events/store.py`)."""
    if await cluster_enabled(url):
        client: Store = BoundedCluster.from_url(url, max_connections=max_connections)
        await client.initialize()
    else:
        client = bounded_redis(url, max_connections)
    client.set_response_callback("XRANGE", _raw)
    client.raw_xrange = True  # type: ignore[union-attr]  # a mark of ours, read by EventStore
    return client


class QueueRefused(Exception):
    """The job queue cannot run where the settings point it."""


class QueueAt(NamedTuple):
    """The job queue's servers, and those of them found to be single servers."""

    urls: tuple[str, ...]
    checked: frozenset[str]


async def queue_urls(store_url: str, queues: tuple[str, ...] | None) -> QueueAt:
    """Where arq's queue lives: the servers of `DANGER_QUEUE_URL`, or the store's server when
    that is a single server; and those of them found to be single servers. arq runs on
    single servers only (its transactions span keys of many slots): a node of a cluster is
    refused. Of several servers, one that cannot be reached now is left to be checked when
    it is first reached (service/jobs/queue_servers.py), as long as another can be: the
    games of the others go on meanwhile."""
    store_is_cluster = await cluster_enabled(store_url)
    if queues is None:
        if store_is_cluster:
            raise QueueRefused(
                f"REDIS_URL names a cluster; the job queue needs a single Valkey/Redis server "
                f"of its own: set {QUEUE_SETTING}"
            )
        return QueueAt((store_url,), frozenset((store_url,)))
    checked: set[str] = set()
    unreachable: list[BaseException] = []
    for queue in queues:
        try:
            cluster = (
                store_is_cluster
                if queue == store_url
                else await cluster_enabled(
                    queue,
                    socket_connect_timeout=QUEUE_CONNECT_SECONDS,
                    socket_timeout=QUEUE_REPLY_SECONDS,
                )
            )
        except (RedisError, OSError) as exc:
            if len(queues) == 1:
                raise
            unreachable.append(exc)
            log.warning("queue server %s cannot be reached at start (%r)", server_name(queue), exc)
            continue
        if cluster:
            named = f" ({server_name(queue)})" if len(queues) > 1 else ""
            raise QueueRefused(
                f"{QUEUE_SETTING} names a node of a cluster{named}; the job queue needs a "
                f"single Valkey/Redis server (arq's transactions span many slots)"
            )
        checked.add(queue)
    if not checked:
        raise unreachable[0]
    return QueueAt(queues, frozenset(checked))


def server_name(url: str) -> str:
    """A server as the logs and /health name it: host:port (or a socket's path), never
    its password."""
    parts = urlsplit(url)
    return parts.path if parts.scheme == "unix" else f"{parts.hostname}:{parts.port or 6379}"


def open_queue(store: Store, store_url: str, url: str, max_connections: int) -> Redis:
    """The queue's client: the store's own pool when the queue lives on the store's server,
    else a bounded pool of its own."""
    if url == store_url and isinstance(store, Redis):
        return Redis(connection_pool=store.connection_pool)
    # Bounded in time as well: a queue server that stops answering is one of several, and
    # its games' jobs go to another once a call to it fails (service/jobs/queue_servers.py).
    return bounded_redis(
        url,
        max_connections,
        socket_connect_timeout=QUEUE_CONNECT_SECONDS,
        socket_timeout=QUEUE_REPLY_SECONDS,
    )
