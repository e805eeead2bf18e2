"""redis-py's asyncio cluster client (5.3, as arq 0.28 pins redis<6), made steady through a
failover.

As shipped, a connection error to one node makes the client close every connection to every
node (`aclose` in `_execute_command`), and each refresh of the topology replaces every node
with a new one, closing the old one's connections: commands in flight on healthy masters fail
because another master died. Here an error met while a command runs only asks for a refresh
(at the next command), and a refresh keeps each node that is still there, with its
connections and whatever is in flight on them; only the nodes that are gone, or that changed
role, are closed. A refresh walks the startup nodes while it waits on each of them, and a
command that finds a node gone takes it out of them meanwhile: the walk is over a copy, where
5.3's raised "dictionary changed size during iteration" (a 500 during a failover). And a
node gives its connection back when sending fails too (5.3 keeps it as in use for good:
after `max_connections` such errors the node refuses every command, redis-py #4110). The
failover test (tests/integration/test_failover.py) holds it.
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from redis.asyncio.cluster import ClusterNode, NodesManager, RedisCluster

_CLIENT = RedisCluster.__module__  # redis-py's own calls to aclose come from there


class _Node(ClusterNode):
    """A node that gives its connection back whatever fails (redis-py #4110, fixed in 6.x)."""

    __slots__ = ()

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        connection = self.acquire_connection()
        try:
            await connection.send_packed_command(connection.pack_command(*args), False)
            return await self.parse_response(connection, args[0], **kwargs)
        finally:
            self._free.append(connection)

    async def execute_pipeline(self, commands: list[Any]) -> bool:
        connection = self.acquire_connection()
        failed = False
        try:
            await connection.send_packed_command(
                connection.pack_commands(cmd.args for cmd in commands), False
            )
            for cmd in commands:
                try:
                    cmd.result = await self.parse_response(connection, cmd.args[0], **cmd.kwargs)
                except Exception as exc:
                    cmd.result, failed = exc, True
        finally:
            self._free.append(connection)
        return failed


class _KeepingNodes(NodesManager):
    __slots__ = ()

    def set_nodes(
        self,
        old: dict[str, ClusterNode],
        new: dict[str, ClusterNode],
        remove_old: bool = False,
    ) -> None:
        for node in new.values():
            if type(node) is ClusterNode:
                node.__class__ = _Node
        if old is self.nodes_cache:
            kept = {
                name: old[name]
                for name, node in new.items()
                if name in old and old[name] is not node and _same_role(old[name], node)
            }
            if kept:
                new = {**new, **kept}
                self.slots_cache = {
                    slot: [kept.get(node.name, node) for node in nodes]
                    for slot, nodes in self.slots_cache.items()
                }
        super().set_nodes(old, new, remove_old)


def _same_role(one: ClusterNode, other: ClusterNode) -> bool:
    return bool(one.server_type == other.server_type)


class _Walked(dict[str, ClusterNode]):
    """The startup nodes, whose values are walked as they were when the walk began."""

    def values(self) -> list[ClusterNode]:  # type: ignore[override]  # a copy, not a view
        return list(super().values())


class SteadyCluster(RedisCluster):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.nodes_manager.__class__ = _KeepingNodes
        self.nodes_manager.startup_nodes = _Walked(self.nodes_manager.startup_nodes)
        for nodes in (self.nodes_manager.startup_nodes, self.nodes_manager.nodes_cache):
            for node in nodes.values():
                if type(node) is ClusterNode:
                    node.__class__ = _Node

    async def initialize(self) -> SteadyCluster:
        """A refresh of the topology only: the command table, read once from the default node
        at the first start (which may be the node that just died), is kept, and a refresh that
        fails closes nothing (the next command tries again)."""
        if not (self._initialize and self.commands_parser.commands):
            await super().initialize()
            return self
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._initialize:
                await self.nodes_manager.initialize()
                self._initialize = False
        return self

    async def aclose(self) -> None:
        """Close every connection; but called by the client itself while it handles an error
        of a command (its way to force a refresh of the topology), only ask for the refresh."""
        handling_an_error = sys.exc_info()[1] is not None
        if handling_an_error and sys._getframe(1).f_globals.get("__name__") == _CLIENT:
            self._initialize = True
            return
        await super().aclose()
