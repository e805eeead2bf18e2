"""Fixtures of the integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.infra.embedded import EmbeddedValkey
from tests.cluster import LoopbackCluster
from tests.stores import ON_CLUSTER


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[EmbeddedValkey | LoopbackCluster]:
    """A store of the test's own, for tests that look at every key or change the store: an
    embedded Valkey, or a loopback cluster of its own when the suite runs on a cluster."""
    server: EmbeddedValkey | LoopbackCluster
    if ON_CLUSTER:
        server = LoopbackCluster(tmp_path).start()
        yield server
        server.stop()
        return
    server = EmbeddedValkey(tmp_path)
    server.start()
    yield server
    server.stop()
