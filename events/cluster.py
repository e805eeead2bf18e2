"""What differs between a single Valkey server and a cluster, for the store's users: a few
helpers that do one thing the same way on both (a read of several streams, commands on one
connection, a batch of scripts, a subscription), so that the callers have one code path."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from typing import Any, TypeVar

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import AskError, MovedError, ResponseError, TryAgainError

Store = Redis | RedisCluster
"""The store's client: one server, or a cluster."""

T = TypeVar("T")


def route(redis: Store, key: str) -> dict[str, Any]:
    """Where a command on `key` goes, given to redis-py so that it need not work it out: for a
    command whose keys move (XREAD, XREADGROUP) the cluster client asks the server
    (`COMMAND GETKEYS`) on every call otherwise. Nothing on a single server."""
    if isinstance(redis, RedisCluster):
        return {"target_nodes": redis.get_node_from_key(key)}
    return {}


def anywhere(redis: Store) -> dict[str, Any]:
    """Where a command that names no key goes: on a cluster, a node picked at random, not
    the client's default node, which may be the one a failover is taking away."""
    if isinstance(redis, RedisCluster):
        return {"target_nodes": RedisCluster.RANDOM}
    return {}


def by_slot(redis: Store, keys: Iterable[str]) -> list[list[str]]:
    """The keys in groups one multi-key command may take: all of them on a single server, one
    group per cluster slot on a cluster."""
    keys = list(keys)
    if not isinstance(redis, RedisCluster):
        return [keys] if keys else []
    groups: dict[int, list[str]] = {}
    for key in keys:
        groups.setdefault(redis.keyslot(key), []).append(key)
    return list(groups.values())


async def read_streams(
    redis: Store,
    cursors: dict[str, str],
    count: int,
    group: tuple[str, str] | None = None,
) -> list[tuple[Any, list[Any]]]:
    """XREAD (or XREADGROUP as `group` = (group, consumer)) of every stream in `cursors` from
    its cursor, without blocking: one command per slot group, all in one round trip (per
    node). The replies as redis-py gives them: [stream name, entries] per stream with any."""
    groups = by_slot(redis, cursors)
    if not groups:
        return []
    head = ["XREADGROUP", "GROUP", *group] if group else ["XREAD"]

    def add(pipe: Any, names: list[str]) -> None:
        args = [*head, "COUNT", count, "STREAMS", *names, *(cursors[n] for n in names)]
        pipe.execute_command(*args, **route(redis, names[0]))

    out: list[tuple[Any, list[Any]]] = []
    for reply in await in_slices(redis, groups, add):
        out += reply or []
    return out


PER_TRIP = 64
"""Commands per round trip of `in_slices`: a pipeline's commands are built and its replies
parsed without a pause of the event loop, at about 20 to 70 µs a command; 64 keep each pause to a
few milliseconds, where one pipeline over 1,024 shard feeds held the loop for 70 to 150 ms."""


async def in_slices(
    redis: Store,
    items: list[T],
    add: Callable[[Any, T], object],
    raise_on_error: bool = True,
) -> list[Any]:
    """`add(pipe, item)` for every item, sent `PER_TRIP` at a time; the replies in order. The
    event loop serves other requests between round trips."""
    replies: list[Any] = []
    for start in range(0, len(items), PER_TRIP):
        pipe = redis.pipeline(transaction=False)
        for item in items[start : start + PER_TRIP]:
            add(pipe, item)
        replies += await pipe.execute(raise_on_error=raise_on_error)
    return replies


async def gather_bounded(
    calls: Sequence[Callable[[], Awaitable[T]]], at_once: int = 32
) -> list[T]:
    """Run `calls` concurrently, at most `at_once` at a time; their results in order."""
    limit = asyncio.Semaphore(at_once)

    async def one(call: Callable[[], Awaitable[T]]) -> T:
        async with limit:
            return await call()

    return await asyncio.gather(*(one(c) for c in calls))


def address(redis: Store) -> str:
    """host:port of the store (a node of it, for a cluster), never the URL: it may carry a
    password."""
    if isinstance(redis, RedisCluster):
        node = redis.get_default_node()
        return f"{node.host}:{node.port}" if node is not None else "?"
    kwargs = redis.connection_pool.connection_kwargs
    if "path" in kwargs:
        return str(kwargs["path"])
    return f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}"


def subscriber(redis: Store, attempt: int = 0) -> Redis:
    """A plain client of one node of the store, for a subscription: a PUBLISH on a cluster
    reaches every node, so any will do (another one at each attempt)."""
    if isinstance(redis, RedisCluster):
        nodes = redis.get_nodes() or [redis.get_default_node()]
        node = nodes[attempt % len(nodes)]
        kwargs = {
            k: v
            for k, v in redis.get_connection_kwargs().items()
            if k in ("username", "password", "ssl", "socket_timeout", "socket_connect_timeout")
        }
        return Redis(host=node.host, port=node.port, **kwargs)
    pool = redis.connection_pool
    own = ConnectionPool(
        connection_class=pool.connection_class, max_connections=2, **pool.connection_kwargs
    )
    client = Redis(connection_pool=own)
    client.auto_close_connection_pool = True
    return client




async def on_one_connection(
    redis: Store, key: str, commands: list[tuple[Any, ...]], node: Any = None
) -> list[Any]:
    """`commands` in one round trip on one connection, to the server (or the cluster node, or
    `node`) that holds `key`: WAIT and WAITAOF count the copies of the writes of their own
    connection. A script among them is fine here (a cluster pipeline refuses EVALSHA). The
    first error is raised."""
    if isinstance(redis, RedisCluster):
        from redis.asyncio.cluster import PipelineCommand

        target = node or redis.get_node_from_key(key)
        stack = [PipelineCommand(i, *command) for i, command in enumerate(commands)]
        await target.execute_pipeline(stack)
        for command in stack:
            if isinstance(command.result, MovedError | AskError):
                # The slot moved (a failover, a resharding) since the client last looked:
                # the node refused the write, so nothing was done. The client notes the new
                # owner for the next command, and the caller answers 503 to be retried
                # (a 500 before: tests/faults, tests/integration/test_moved_slot.py).
                if isinstance(command.result, MovedError):
                    redis.nodes_manager._moved_exception = command.result
                    redis.nodes_manager.get_node_from_slot(command.result.slot_id)  # noted
                moved = f"the slot moved: {command.result}"
                raise TryAgainError(moved) from command.result  # type: ignore[no-untyped-call]
            if isinstance(command.result, ResponseError) and "replica" in str(command.result):
                # The node is a replica now (a failover demoted it since the client looked):
                # its WAIT or WAITAOF is refused, a write too (READONLY). Whether a write just
                # before was kept is unknown: 503 to be retried, the topology read again.
                if isinstance(redis, RedisCluster):
                    redis._initialize = True
                demoted = f"the node is a replica now: {command.result}"
                raise TryAgainError(demoted) from command.result  # type: ignore[no-untyped-call]
            if isinstance(command.result, Exception):
                raise command.result
        return [command.result for command in stack]
    pipe = redis.pipeline(transaction=False)
    for args in commands:
        pipe.execute_command(*args)
    return list(await pipe.execute())


async def run_scripts(
    redis: Store, script: Any, calls: list[tuple[list[str], list[Any]]]
) -> list[Any]:
    """`script` (service/infra/lua.py's Script) once per call (keys, args), its replies in order:
    one pipeline on a single server (EVALSHA itself: redis-py's script objects ask SCRIPT EXISTS on
    every pipeline); on a cluster, whose pipelines refuse EVALSHA, each call on its own, many
    at once."""
    from redis.exceptions import NoScriptError

    if not calls:
        return []
    if isinstance(redis, RedisCluster):
        return await gather_bounded([partial(script, redis, k, a) for k, a in calls])
    for attempt in range(2):
        pipe = redis.pipeline(transaction=False)
        for names, args in calls:
            pipe.evalsha(script.sha, len(names), *names, *args)
        try:
            return list(await pipe.execute())
        except NoScriptError:  # the server restarted and lost its scripts: load again
            if attempt:
                raise
            await redis.script_load(script.source)
    raise AssertionError("unreachable")
