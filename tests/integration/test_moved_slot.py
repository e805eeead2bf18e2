"""A write sent straight to the node that held its slot, after the slot moved (a failover, a
resharding): the node refuses it with MOVED, nothing is done, the caller is told to retry
(503 `store_unavailable`, not a 500 as the fault suite first found), and the retry goes to
the new owner. Three masters on loopback (tests/cluster.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from redis.crc import key_slot
from redis.exceptions import TryAgainError

from events.cluster import on_one_connection
from service.http.problems import HANDLERS
from tests.cluster import LoopbackCluster, master_holding
from tests.stores import store_client

KEY = "dg:{s07}:mark"


async def test_a_write_to_a_slot_that_moved_is_refused_for_a_retry_that_lands(tmp_path: Path):
    cluster = LoopbackCluster(tmp_path, masters=3).start()
    try:
        redis = await store_client(cluster.url)
        try:
            await redis.set(KEY, b"0")  # the client learns the slots as they are
            await redis.delete(KEY)
            slot = key_slot(KEY.encode())
            owner = cluster.masters[master_holding(KEY.encode(), 3)]
            heir = next(m for m in cluster.masters if m is not owner)
            heir_id = heir.node_id()
            for node in (heir, owner, *(m for m in cluster.masters if m not in (heir, owner))):
                with node.client() as r:
                    r.execute_command("CLUSTER", "SETSLOT", slot, "NODE", heir_id)

            with pytest.raises(TryAgainError, match="the slot moved"):
                await on_one_connection(redis, KEY, [("SET", KEY, b"1")])
            with owner.client() as r:
                assert r.execute_command("CLUSTER", "COUNTKEYSINSLOT", slot) == 0  # not written
            assert await on_one_connection(redis, KEY, [("SET", KEY, b"1")]) == [True]
            with heir.client() as r:
                assert r.get(KEY) == b"1"
        finally:
            await redis.aclose()
    finally:
        cluster.stop()
    # What a client is answered for it: 503 store_unavailable, with Retry-After.
    handler: Any = next(h for kind, h in HANDLERS.items() if issubclass(TryAgainError, kind))
    answer = handler(None, TryAgainError("the slot moved"))
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"


async def test_a_wait_sent_to_a_master_demoted_to_a_replica_is_refused_for_a_retry(tmp_path: Path):
    """A failover demoted the node the client still takes for the slot's master: its WAITAOF
    (and WAIT) is refused as a replica's. That is a 503 to retry, the topology read again,
    never a 500 (the fault suite found a create answered 500 so)."""
    cluster = LoopbackCluster(tmp_path, masters=3, replicas=1).start()
    try:
        redis = await store_client(cluster.url)
        try:
            await redis.set(KEY, b"0")
            replica_of_owner = cluster.replicas[master_holding(KEY.encode(), 3)]
            for _ in range(50):  # until the client's view of the topology lists the replica
                node = redis.get_node(host=replica_of_owner.host, port=replica_of_owner.port)
                if node is not None:
                    break
                await asyncio.sleep(0.1)
                await redis.nodes_manager.initialize()
            assert node is not None
            for wait in (("WAITAOF", 0, 1, 100), ("WAIT", 1, 100)):
                with pytest.raises(TryAgainError, match="a replica now"):
                    await on_one_connection(redis, KEY, [wait], node)
            assert await on_one_connection(redis, KEY, [("SET", KEY, b"1")]) == [True]
        finally:
            await redis.aclose()
    finally:
        cluster.stop()
