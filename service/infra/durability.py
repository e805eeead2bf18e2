"""Durability is checked, not assumed: before a process serves, it reads how the store keeps
what it acknowledges, and refuses to serve on a store that could lose an answered command.

`DANGER_DURABILITY` says what an acknowledged append must survive:
- `fsync` (the default): a crash of the store. Checked: the store runs `appendonly yes` with
  `appendfsync always`, so every write is on its disk before it is answered. Unset, a
  primary with a replica online also waits for its copy, and one left without serves with
  its own fsync (events/replicas.py).
- `replicas:N`: the loss of the primary. Checked: N replicas are online and confirm a write
  within `DANGER_DURABILITY_WAIT_MS`; every append then waits for N of them (`WAITAOF`, or
  `WAIT` where the server has no `WAITAOF`), and a command they do not confirm in time is
  answered 503 `not_replicated`, for as long as they are missing.
- `declared`: the operator vouches for the store (a managed service that forbids `CONFIG`);
  nothing is read, and the service says so.
- `weak`: the operator accepts a store that can lose acknowledged commands; what it read is
  reported, and the service says so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisError, ResponseError

from events.cluster import Store, address, on_one_connection
from events.keys import PREFIX
from events.replicas import online_replicas
from events.store import Copies
from service.infra import config
from service.infra.config import Durability
from service.infra.connections import open_store

log = logging.getLogger("danger.durability")

SETTING, WAIT_SETTING = config.variable(config.Store, "durability")
PROBE_KEY = f"{PREFIX}:durability:probe"  # written at startup to see the replicas confirm
PROBE_SECONDS = 5.0  # how long the startup check gives the replicas to confirm a probe

_HOW = (
    f"Give the store `appendonly yes` and `appendfsync always` (its config file, or CONFIG SET), "
    f"or replicas that confirm every append ({SETTING}=replicas:N). {SETTING}=declared trusts a "
    f"managed store whose provider guarantees that an acknowledged write survives a crash "
    f"(nothing is checked); {SETTING}=weak accepts a store that can lose acknowledged commands."
)


@dataclass(frozen=True)
class InForce:
    """The durability a process serves with: what /health reports, and what each append
    waits for."""

    durability: Durability
    checked: bool  # the store was read and meets it (fsync, replicas)
    store: str  # what was read from the store, or why nothing was
    copies: Copies | None = None  # the replicas each append waits for

    def __str__(self) -> str:
        how = "checked" if self.checked else "NOT checked"
        return f"durability {self.durability} ({how}): {self.store}"


class Refused(Exception):
    """The store cannot keep what the service would acknowledge: the process must not
    serve. The message names what is wrong and the setting that opts out."""


async def establish(redis: Store, durability: Durability) -> InForce:
    """Read the store and decide what durability is in force, or refuse (`Refused`). A
    cluster is read on every primary: each must meet it."""
    if durability.mode == "declared":
        return InForce(durability, False, f"not read: declared by {SETTING}=declared")
    nodes = primaries(redis)
    found = [await _establish_on(node, durability) for node in nodes]
    first = found[0]
    if len(found) == 1:
        return first
    seen = f"{len(found)} primaries, each: {first.store}"
    if all(f.copies is not None for f in found):  # every primary waits for its replica
        return InForce(first.durability, first.checked, seen, first.copies)
    waiting = next((f for f in found if f.copies is not None), None)
    if waiting is not None:  # automatic: each primary waits for its replica if it has one
        seen = f"{len(found)} primaries: " + "; ".join(f.store for f in found)
        return InForce(waiting.durability, True, seen, waiting.copies)
    return InForce(durability, first.checked, seen)


class _Node:
    """One server to read: the store itself, or one primary of a cluster."""

    def __init__(self, redis: Store, node: Any = None) -> None:
        self.redis, self.node = redis, node
        self.address = f"{node.host}:{node.port}" if node is not None else _address(redis)

    async def run(self, *command: Any) -> Any:
        if self.node is None:
            return await self.redis.execute_command(*command)
        return await self.redis.execute_command(*command, target_nodes=self.node)

    def key(self) -> str:
        """The probe's key, in a slot this node holds."""
        if self.node is None:
            return PROBE_KEY
        for n in range(100_000):
            key = f"{PROBE_KEY}:{{{n}}}"
            if self.redis.get_node_from_key(key) == self.node:  # type: ignore[union-attr]  # a node: a cluster
                return key
        raise Refused(f"no slot of the cluster is held by {self.address}")


def primaries(redis: Store) -> list[_Node]:
    if isinstance(redis, RedisCluster):
        return [_Node(redis, node) for node in redis.get_primaries()]
    return [_Node(redis)]


async def _establish_on(node: _Node, durability: Durability) -> InForce:
    where = node.address
    try:
        role, online = await _replication(node)
    except RedisError as exc:
        if durability.mode == "weak":
            return InForce(durability, False, f"not read ({exc})")
        raise Refused(
            f"could not read the replication of the store at {where} (INFO replication "
            f"answered: {exc}). {_HOW}"
        ) from None
    if role != "master" and durability.mode != "weak":
        raise Refused(
            f"the store at {where} is a replica ({role}): it takes no writes and keeps only "
            f"what its primary sends. Point REDIS_URL at the primary."
        )
    config = await _config(node)
    seen = f"{config}; {online} replica{'' if online == 1 else 's'} online"
    if durability.mode == "weak":
        return InForce(durability, False, seen)
    if durability.mode == "fsync":
        if isinstance(config, _Unreadable):
            raise Refused(
                f"could not read appendonly and appendfsync of the store at {where} "
                f"(CONFIG GET answered: {config.error}); managed services often forbid CONFIG. "
                f"{_HOW}"
            )
        if config.appendonly != "yes":
            raise Refused(
                f"the store at {where} can lose commands the service has acknowledged: it "
                f"runs with appendonly {config.appendonly}, so a crash of the store loses "
                f"every write since its last snapshot. {_HOW}"
            )
        if config.appendfsync != "always":
            raise Refused(
                f"the store at {where} can lose commands the service has acknowledged: it "
                f"runs with appendfsync {config.appendfsync}, so a crash of its machine loses "
                f"what was written since its last fsync (up to a second with everysec). {_HOW}"
            )
        if not durability.chosen and online:
            return await _with_a_replica(node, durability, seen)
        return InForce(durability, True, seen)
    if online < durability.replicas:
        raise Refused(
            f"{SETTING}={durability} needs {durability.replicas} replicas of the store at "
            f"{where} online; it has {online}. Start them (REPLICAOF), or choose another "
            f"{SETTING}. {_HOW}"
        )
    copies, confirmed, waited_ms = await _probe(node, durability)
    if confirmed < durability.replicas:
        raise Refused(
            f"{SETTING}={durability}: only {confirmed} of the {durability.replicas} replicas "
            f"of the store at {where} confirmed a write within {durability.wait_ms} ms "
            f"({copies.name}, for {PROBE_SECONDS:g} s). WAITAOF counts a replica once the "
            f"write is in its append-only file on disk: give the replicas appendonly yes and "
            f"appendfsync always (with everysec a confirmation takes up to a second), or "
            f"raise {WAIT_SETTING}."
        )
    return InForce(
        durability,
        True,
        f"{seen}; {copies.name} confirmed a write on {confirmed} in {waited_ms} ms",
        copies,
    )


async def _with_a_replica(node: _Node, durability: Durability, seen: str) -> InForce:
    """The default with a replica online: each append also waits for its copy, once the
    replica has shown it confirms one in time; else the store's own fsync, as without. A
    primary that has no replica online later serves with its own fsync (events/replicas.py)."""
    wanted = Durability("replicas", 1, durability.wait_ms, chosen=False)
    copies, confirmed, waited_ms = await _probe(node, wanted)
    copies = dataclasses.replace(copies, automatic=True)
    if confirmed < 1:
        return InForce(
            durability,
            True,
            f"{seen}; no replica confirmed a write within {durability.wait_ms} ms, so appends "
            f"do not wait for one (set {SETTING}=replicas:1 to require it)",
        )
    return InForce(
        wanted,
        True,
        f"{seen}; with a replica online each append waits for its copy (the default): "
        f"{copies.name} confirmed a write on {confirmed} in {waited_ms} ms",
        copies,
    )


@dataclass(frozen=True)
class _Config:
    appendonly: str
    appendfsync: str

    def __str__(self) -> str:
        return f"appendonly {self.appendonly}, appendfsync {self.appendfsync}"


@dataclass(frozen=True)
class _Unreadable:
    error: str

    def __str__(self) -> str:
        return f"appendonly and appendfsync not read ({self.error})"


async def _config(node: _Node) -> _Config | _Unreadable:
    try:
        appendonly = await node.run("CONFIG GET", "appendonly")
        appendfsync = await node.run("CONFIG GET", "appendfsync")
    except RedisError as exc:  # a managed service: CONFIG renamed away or denied by ACL
        return _Unreadable(str(exc))
    return _Config(
        _text(appendonly.get("appendonly", "?")), _text(appendfsync.get("appendfsync", "?"))
    )


async def _replication(node: _Node) -> tuple[str, int]:
    """The store's role and how many replicas are online."""
    info: dict[str, Any] = await node.run("INFO", "replication")
    return _text(info.get("role", "?")), online_replicas(info)


async def _probe(node: _Node, durability: Durability) -> tuple[Copies, int, int]:
    """Write a probe and wait for the replicas to confirm it, as every append will: WAIT
    then WAITAOF, or WAIT alone on a server without WAITAOF. A replica that has just loaded
    its first copy confirms nothing on disk for a second or two, so the probe is written
    again for up to PROBE_SECONDS; it passes once one is confirmed within the bound.
    (copies, how many confirmed, ms that one waited)."""
    copies = Copies(durability.replicas, durability.wait_ms)
    deadline = time.monotonic() + PROBE_SECONDS
    while True:
        started = time.monotonic()
        key = node.key()
        write = ("SET", key, str(time.time()), "PX", 60_000)
        try:
            _, *reply = await on_one_connection(node.redis, key, [write, *copies.waits], node.node)
        except ResponseError as exc:
            if not copies.on_disk or "unknown command" not in str(exc).lower():
                raise
            copies = Copies(durability.replicas, durability.wait_ms, on_disk=False)
            continue
        confirmed = copies.confirmed(reply)
        waited = round((time.monotonic() - started) * 1000)
        if confirmed >= copies.replicas or time.monotonic() >= deadline:
            return copies, confirmed, waited
        await asyncio.sleep(0.2)


def _address(redis: Store) -> str:
    """host:port of the store, never the URL (it may carry a password)."""
    return address(redis)


def _text(value: bytes | str | Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def refusal(redis_url: str, durability: Durability) -> str | None:
    """For a command line: why this store may not be served with this durability (None: it
    may). An unreachable store is a refusal too."""
    try:
        redis = await open_store(redis_url, 2)
    except (RedisError, OSError) as exc:
        return f"could not reach the store at {address(Redis.from_url(redis_url))}: {exc}"
    try:
        await establish(redis, durability)
    except Refused as exc:
        return str(exc)
    except (RedisError, OSError) as exc:
        return f"could not reach the store at {_address(redis)}: {exc}"
    finally:
        await redis.aclose()
    return None


def announce(in_force: InForce) -> None:
    """Say what durability a process serves with; loudly where nothing guarantees it."""
    (log.info if in_force.checked else log.warning)("%s", in_force)
