"""The feeds' bell (service/infra/bell.py): a reader hears the feed an append names at once, however
the process set its readers up, and a bell whose readers all stand idle lets go of its
subscription and takes it again for a reader that wants the feeds."""

from __future__ import annotations

import asyncio

from service.infra.bell import CHANNEL, Bell
from tests.stores import store_client

QUICK = 2.0  # well below the 5 s after which a reader looks at every feed unrung


async def _rung(redis, heard, feed: str) -> set[str] | None:
    heard.take()  # "every feed", as after any subscription
    await redis.execute_command("PUBLISH", CHANNEL, feed)  # as the append script does
    return await heard.wait(QUICK)


async def test_a_reader_that_comes_after_the_bell_started_hears_the_next_append(valkey):
    """As `danger worker` starts: the bell first, its projections' listeners a moment later."""
    redis = await store_client(valkey.url)
    bell = Bell(redis)
    await bell.start()
    try:
        await asyncio.sleep(0.1)
        heard = bell.listener()
        for _ in range(50):
            if bell.subscribed:
                break
            await asyncio.sleep(0.02)
        assert await _rung(redis, heard, "dg:{s0001}:feed") == {"dg:{s0001}:feed"}
    finally:
        await bell.stop()
        await redis.aclose()


async def test_an_idle_bell_lets_go_and_subscribes_again_for_a_reader_that_wants_it(valkey):
    redis = await store_client(valkey.url)
    bell = Bell(redis)
    await bell.start()
    heard = bell.listener()
    try:
        await bell.want(heard)
        assert bell.subscribed
        await bell.want(heard, False)
        await redis.execute_command("PUBLISH", CHANNEL, "dg:{s0002}:feed")  # the last heard
        for _ in range(50):
            if not bell.subscribed:
                break
            await asyncio.sleep(0.02)
        assert not bell.subscribed
        await bell.want(heard)  # returns once subscribed: the next append rings
        assert bell.subscribed
        assert await _rung(redis, heard, "dg:{s0003}:feed") == {"dg:{s0003}:feed"}
    finally:
        await bell.stop()
        await redis.aclose()
