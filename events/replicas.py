"""Whether an append waits for a replica, primary by primary, in the automatic mode (no
`DANGER_DURABILITY`, a replica online at startup).

A primary with a replica online waits for its copy, as `replicas:1` does. A primary with none
(its replica died or was cut off, or it is a replica promoted after its primary died, which
nothing has replaced yet) serves with its own fsync, as a single server does, and says so:
demanding a copy no replica can give would stop its games until an operator acts. An explicit
`replicas:N` never comes here: it keeps refusing (503 `not_replicated`), as the operator asked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError

log = logging.getLogger("danger.durability")

LAG_SECONDS = 3
"""A replica acknowledges its primary every second: one silent for longer is cut off, though
the primary lists it as online until its replication timeout (60 s by default)."""
RECHECK_SECONDS = 1.0
"""How often a primary serving alone is asked whether a replica is back (one `INFO`)."""


@dataclass
class _Primary:
    alone: bool = False
    # Alone, with a replica online again: appends wait for it, and it counts once it has
    # confirmed one (a replica that has just loaded its copy confirms nothing on disk for a
    # second or two).
    joining: bool = False
    checked: float = 0.0  # time.monotonic() of the last look; 0: never looked
    # No replica online, and a disk that could lose what it answers: its appends keep being
    # refused; looked at again once a RECHECK_SECONDS, and said once, not at every append.
    unsafe: bool = False


def online_replicas(info: dict[str, Any], lag_seconds: float | None = None) -> int:
    """Replicas online in a primary's `INFO replication` (a replica still loading its first
    copy is connected, not online); with `lag_seconds`, only those heard from that recently."""
    return sum(
        1
        for key, value in info.items()
        if key.startswith("slave")
        and isinstance(value, dict)
        and value.get("state") == "online"
        and (lag_seconds is None or int(value.get("lag", 0)) <= lag_seconds)
    )


class Replicas:
    """Which primaries have a replica to wait for, looked at as the appends need."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self.primaries: dict[str, _Primary] = {}
        self.on_change: Callable[[int], None] | None = None  # primaries alone, when it changes

    def alone(self) -> list[str]:
        """The primaries serving with their own fsync only, as host:port."""
        return sorted(name for name, p in self.primaries.items() if p.alone)

    async def waits(self, node: Any) -> bool:
        """Whether an append on `node` (a cluster node, or None for the one server) is to wait
        for a replica: a primary never looked at (a replica just promoted) is looked at first,
        and one serving alone again every `RECHECK_SECONDS`."""
        primary = self.primaries.get(self._name(node))
        if primary is None or (
            primary.alone and not primary.joining and _since(primary.checked) >= RECHECK_SECONDS
        ):
            primary = await self._look(node)
        return not primary.alone or primary.joining

    async def stands(self, node: Any, confirmed: bool) -> bool:
        """After an append on `node` that waited: whether it stands. Confirmed, it does (and a
        primary alone has its replica back); else only on a primary with no replica to wait
        for, whose own fsync keeps it."""
        primary = self.primaries.setdefault(self._name(node), _Primary())
        if confirmed:
            if primary.alone:
                self._become(node, primary, alone=False)
            return True
        if primary.alone:  # the replica back has not confirmed yet: look again later
            primary.joining = False
            return True
        return (await self._look(node)).alone

    async def _look(self, node: Any) -> _Primary:
        """Whether `node` is alone now: no replica online and heard from lately, and its own
        append-only file fsynced on every write (else its writes wait, and are refused, as
        they would be for a lagging replica)."""
        primary = self.primaries.setdefault(self._name(node), _Primary())
        if primary.unsafe and _since(primary.checked) < RECHECK_SECONDS:
            return primary
        info = await self._run(node, "INFO", "replication")
        primary.checked = time.monotonic()
        if online_replicas(info, LAG_SECONDS):
            primary.joining, primary.unsafe = primary.alone, False
        elif not primary.alone:
            if await self._fsyncs(node, say=not primary.unsafe):
                primary.unsafe = False
                self._become(node, primary, alone=True)
            else:
                primary.unsafe = True
        return primary

    def _become(self, node: Any, primary: _Primary, alone: bool) -> None:
        primary.alone, primary.joining = alone, False
        name = self._name(node)
        if alone:
            log.warning(
                "the primary %s has no replica online: its appends are answered once on its "
                "own disk (appendfsync always), as a single server's, until a replica is back "
                "(DANGER_DURABILITY=replicas:1 would refuse them instead)",
                name,
            )
        else:
            log.info("the primary %s has a replica confirming again: appends wait for it", name)
        if self.on_change is not None:
            self.on_change(len(self.alone()))

    async def _fsyncs(self, node: Any, say: bool = True) -> bool:
        try:
            appendonly = (await self._run(node, "CONFIG GET", "appendonly")).get("appendonly")
            appendfsync = (await self._run(node, "CONFIG GET", "appendfsync")).get("appendfsync")
        except ResponseError as exc:  # CONFIG denied: nothing vouches for its disk
            appendonly = appendfsync = f"unread ({exc})"
        appendonly, appendfsync = _text(appendonly), _text(appendfsync)
        if appendonly == "yes" and appendfsync == "always":
            return True
        if not say:
            return False
        log.warning(
            "the primary %s has no replica online and runs appendonly %s, appendfsync %s: it "
            "could lose what it answers, so its appends keep waiting for a replica (503)",
            self._name(node),
            appendonly,
            appendfsync,
        )
        return False

    async def _run(self, node: Any, *command: Any) -> Any:
        if node is None:
            return await self.redis.execute_command(*command)
        return await self.redis.execute_command(*command, target_nodes=node)

    def node_of(self, key: str) -> Any:
        """The node an append on `key` goes to (None: the one server)."""
        if isinstance(self.redis, RedisCluster):
            return self.redis.get_node_from_key(key)
        return None

    def _name(self, node: Any) -> str:
        if node is not None:
            return str(node.name)  # host:port
        kwargs = self.redis.connection_pool.connection_kwargs
        return str(kwargs.get("path") or f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}")


def _since(moment: float) -> float:
    return time.monotonic() - moment


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
