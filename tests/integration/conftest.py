"""Fixtures of the integration tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from service.embedded import EmbeddedValkey


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[EmbeddedValkey]:
    """A Valkey of the test's own, for tests that look at every key or change the store."""
    server = EmbeddedValkey(tmp_path)
    server.start()
    yield server
    server.stop()
