"""The bounded pool of a process's Valkey connections (service/infra/connections.py): never more
connections than its bound, and every command that waits for one gets one."""

from __future__ import annotations

import asyncio
import contextlib
import socket

from redis.asyncio import Redis

from service.infra.connections import UNREACHABLE, bounded_redis, pool_ran_dry

NAME = "pool-under-test"


async def _connections(watcher: Redis) -> int:
    return sum(1 for c in await watcher.client_list() if c.get("name") == NAME)


async def test_the_pool_holds_its_bound_and_every_waiting_command_is_served(valkey):
    client = bounded_redis(f"{valkey.url}?client_name={NAME}", 2)
    watcher = Redis.from_url(valkey.url)
    most = 0

    async def watch() -> None:
        nonlocal most
        while True:
            most = max(most, await _connections(watcher))
            await asyncio.sleep(0.002)

    async def one(n: int) -> int:
        await client.blpop([f"pool:nothing:{n}"], timeout=0.02)  # holds its connection a while
        return int(await client.incr("pool:served"))

    watching = asyncio.create_task(watch())
    try:
        await client.delete("pool:served")
        for burst in range(3):  # waiters, then none, then waiters again
            served = await asyncio.wait_for(
                asyncio.gather(*(one(n) for n in range(12 * burst + 1))), 20
            )
            assert len(set(served)) == len(served)
            await asyncio.sleep(0.01)
        assert int(await client.get("pool:served")) == 1 + 13 + 25
        assert 1 <= most <= 2
        assert await _connections(watcher) <= 2
    finally:
        watching.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watching
        await client.aclose()
        await watcher.aclose()


async def test_a_command_waits_for_a_connection_then_fails_with_a_clear_error(valkey):
    """A connection held longer than the pool's wait: the next command gives up, and the
    pool serves again once the connection is back."""
    client = bounded_redis(valkey.url, 1)
    client.connection_pool.timeout = 0.1
    try:
        held = asyncio.create_task(client.blpop(["pool:nothing"], timeout=0.5))
        await asyncio.sleep(0.05)
        try:
            await client.ping()
        except Exception as exc:  # redis-py's ConnectionError: "No connection available."
            assert "No connection available" in str(exc)
            # The rate limits tell it from a node away: they are not let go for a flood.
            assert pool_ran_dry(exc)
        else:
            raise AssertionError("a second connection was made")
        await held
        assert await client.ping()
    finally:
        await client.aclose()


async def test_a_node_that_cannot_be_reached_is_not_a_pool_run_dry():
    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, never listening: connecting is refused
        client = bounded_redis(f"redis://127.0.0.1:{port}/0", 1)
        try:
            await client.ping()
        except UNREACHABLE as exc:
            assert not pool_ran_dry(exc)
        else:
            raise AssertionError("a server answered on a port nobody listens on")
        finally:
            await client.aclose()
