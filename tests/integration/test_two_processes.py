"""A game played through two API processes at once is the game one process would deal:
each decides from its own cached fold of the shared log, and the audit re-derives every
shuffle from the seed and the seats' entropy."""

from __future__ import annotations

import random

import pytest
from litestar.testing import AsyncTestClient

from events.audit import audit
from events.store import EventStore
from tests.conftest import make_app
from tests.players import Alternating, new_table, play_to_end
from tests.stores import store_client


@pytest.mark.parametrize(("game", "seats"), [("danger", 2), ("danger-13", 3)])
async def test_seats_joined_through_two_processes_get_the_shuffles_the_audit_derives(
    valkey, game, seats
):
    # Each request goes to the other process: the seats join through both, and each process
    # decides deals and reshuffles with the entropy of every seat, not of those it saw join.
    apps = [make_app(valkey, background=False, queue="dg:timers:nobody") for _ in range(2)]
    async with AsyncTestClient(app=apps[0]) as a, AsyncTestClient(app=apps[1]) as b:
        table = await new_table(Alternating(a, b), seats=seats, game=game)
        await play_to_end(table, choose=random.Random(seats).choice)
    redis = await store_client(valkey.url)
    envelopes = await EventStore(redis).read(table.id)
    await redis.aclose()
    report = audit(envelopes)
    assert report.finished and report.ok, [c for c in report.checks if not c.ok]
