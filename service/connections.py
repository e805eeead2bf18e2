"""The Valkey client of a process: one bounded pool of connections for everything it does."""

from __future__ import annotations

from redis.asyncio import BlockingConnectionPool, Redis

POOL_WAIT_SECONDS = 10  # a command waits this long for a free connection, then fails


def bounded_redis(url: str, max_connections: int) -> Redis:
    """A client that opens at most `max_connections` connections; beyond them a command waits
    for one to be free, so a burst of requests queues instead of failing or exhausting the
    server's `maxclients`. Closing the client closes its pool."""
    pool = BlockingConnectionPool.from_url(
        url, max_connections=max_connections, timeout=POOL_WAIT_SECONDS
    )
    client = Redis(connection_pool=pool)
    client.auto_close_connection_pool = True
    return client
