"""A command's game is filed in its shard's due set at the time its jobs say, sent with the
times of other commands, and never from a fold the stream has moved past."""

import asyncio
import time

from events.keys import GameKeys
from events.store import EventStore
from service.jobs.due_filing import DueFiling
from tests.players import new_table
from tests.stores import store_client


async def filed_at(redis, game_id: str) -> float | None:
    return await redis.zscore(GameKeys(game_id).due, game_id)


async def filed_at_expiry(redis, game_id: str) -> None:
    """Until the game's exact time, its expiry (an hour away or more: nobody's clock runs),
    has followed the append's grace (10 s)."""
    for _ in range(200):
        at = await filed_at(redis, game_id)
        if at is not None and at > (time.time() + 600) * 1000:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"filed at {at}, within the grace, not at its expiry")


async def test_a_started_game_of_people_is_looked_at_when_it_would_expire_not_within_the_grace(
    client, valkey
):
    redis = await store_client(valkey.url)
    try:
        table = await new_table(client, seats=3)
        # The exact time follows the append's grace without holding up the answer.
        await filed_at_expiry(redis, table.id)
    finally:
        await redis.aclose()


async def test_times_are_filed_together_and_only_for_the_seq_they_were_worked_out_from(
    client, valkey
):
    redis = await store_client(valkey.url)
    try:
        tables = [await new_table(client, seats=2, start=False) for _ in range(6)]
        seqs = [(await t.state())["seq"] for t in tables]
        for table in tables:  # the service's own times are in: none lands after these
            await filed_at_expiry(redis, table.id)
        filing = DueFiling(EventStore(redis))
        soon = int(time.time() * 1000) + 5_000
        for n, (table, seq) in enumerate(zip(tables, seqs, strict=True)):
            filing.file(table.id, seq if n % 2 == 0 else seq - 1, soon + n)
        filing.file(tables[4].id, seqs[4], None)  # the latest time of a game is the one sent
        await filing.flushed()
        found = [await filed_at(redis, t.id) for t in tables]
        assert found[0] == soon and found[2] == soon + 2, "filed, each at its own time"
        assert found[4] is None, "a game that needs no look is taken out"
        for n in (1, 3, 5):  # worked out from a fold one event behind: the append's stands
            assert found[n] != soon + n
    finally:
        await redis.aclose()
