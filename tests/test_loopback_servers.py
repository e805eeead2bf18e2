"""The suite's own Valkey servers (tests/stores.py, tests/cluster.py) start even when the port
chosen for them is taken before they bind it: a CI run once lost a cluster that way."""

from __future__ import annotations

import socket
from pathlib import Path

from tests.cluster import BUS_OFFSET, Node
from tests.stores import Store, lowest_outgoing_port


def _hold(port: int) -> socket.socket:
    """The port bound as an outgoing connection binds it: nobody listens, nobody else binds."""
    holder = socket.socket()
    holder.bind(("127.0.0.1", port))
    return holder


def test_a_store_whose_port_is_taken_starts_on_another(tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    taken = store.port
    with _hold(taken):
        store.start()
        try:
            assert store.port != taken
            with store.client() as r:
                assert r.ping()
        finally:
            store.stop()


def test_a_cluster_node_whose_bus_port_is_taken_starts_on_another(tmp_path: Path) -> None:
    node = Node(tmp_path / "node")
    taken = node.port
    with _hold(taken + BUS_OFFSET):
        node.start()
        try:
            assert node.port != taken
            assert node.node_id()
        finally:
            node.stop()


def test_ports_and_bus_ports_stay_below_the_outgoing_range(tmp_path: Path) -> None:
    low = lowest_outgoing_port()
    assert all(Store(tmp_path).port < low for _ in range(50))
    assert all(Node(tmp_path).port + BUS_OFFSET < low for _ in range(50))
