"""Fixtures: a real embedded Valkey server for the session, and the app on top of it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from litestar.testing import AsyncTestClient

from service.app import create_app
from service.config import Settings
from service.embedded import EmbeddedValkey


@pytest.fixture(scope="session")
def valkey(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedValkey]:
    server = EmbeddedValkey(Path(tmp_path_factory.mktemp("valkey")))
    server.start()
    yield server
    server.stop()


def make_app(valkey: EmbeddedValkey, **settings: object):
    """The app on the session's server. The suite sends thousands of requests and creates
    hundreds of games from one address ("testclient"): the per-client limits are off unless a
    test sets them (tests/api/test_rate_limits.py)."""
    settings = {"rate_limits": False, "open_games_per_client": 0, **settings}
    return create_app(Settings(**settings), valkey.url)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
async def client(valkey: EmbeddedValkey) -> AsyncIterator[AsyncTestClient]:
    async with AsyncTestClient(app=make_app(valkey, sandbox=True)) as c:
        yield c
