"""Webhook endpoints as kept in the store (service/play/webhooks.py): a key's own, bounded,
changed, removed only by their key; a rotated secret signs beside the new one for a day,
then stops."""

from __future__ import annotations

import pytest

from service.play import webhooks
from tests.stores import store_client

EVENTS = ["game.finished", "turn.changed"]


async def test_a_keys_endpoints_are_its_own_bounded_and_removed_only_by_it(valkey):
    redis = await store_client(valkey.url)
    try:
        made = [
            await webhooks.add(redis, "keyone", f"https://a.example/{n}", EVENTS, [], n, 2)
            for n in range(2)
        ]
        with pytest.raises(webhooks.TooMany):
            await webhooks.add(redis, "keyone", "https://a.example/3", EVENTS, [], 3, 2)
        other = await webhooks.add(redis, "keytwo", "https://b.example/", EVENTS, ["danger"], 4, 2)
        assert [e.id for e in await webhooks.of_key(redis, "keyone")] == [e.id for e in made]
        assert await webhooks.get(redis, other.id) == other
        assert other.hears("game.finished", "danger", 4)
        assert not other.hears("game.finished", "danger-13", 4)
        assert not other.hears("game.finished", "danger", 3)  # before it was made
        assert not other.hears("game.started", "danger", 4)

        assert not await webhooks.remove(redis, "keyone", other.id)  # not its own
        assert await webhooks.get(redis, other.id) == other
        assert await webhooks.remove(redis, "keytwo", other.id)
        assert await webhooks.get(redis, other.id) is None
        assert await webhooks.of_key(redis, "keytwo") == []
    finally:
        await redis.aclose()


async def test_a_rotated_secret_signs_beside_the_new_one_for_a_day(valkey):
    redis = await store_client(valkey.url)
    try:
        endpoint = await webhooks.add(redis, "keyrot", "https://r.example/", EVENTS, [], 0, 5)
        first = endpoint.signing(0)
        assert len(first) == 1 and first[0].startswith("whsec_")
        day = webhooks.ROTATION_HOURS * 3600 * 1000
        rotated = await webhooks.rotate(redis, endpoint, 1000)
        assert rotated.signing(1000)[1:] == first and rotated.signing(1000)[0] != first[0]
        assert rotated.signing(1000 + day) == rotated.signing(1000)[:1]  # the old one stopped
        again = await webhooks.rotate(redis, rotated, 2000)  # the oldest stops at once
        assert again.signing(2000)[1:] == rotated.signing(2000)[:1]
        assert await webhooks.get(redis, endpoint.id) == again
    finally:
        await redis.aclose()
