"""The audit: a finished game of each kind passes; any change to one event, or swapping two,
fails at that event."""

import random

import msgspec
import pytest
from redis.asyncio import Redis

from events.audit import audit
from events.store import EventStore
from tests.players import new_table, play_to_end

GAMES = [("danger", 3, {}), ("high-voltage", 3, {}), ("danger-13", 3, {})]


async def finished_log(client, valkey, game: str, seats: int, **options):
    table = await new_table(client, seats=seats, game=game, **options)
    await play_to_end(table, choose=random.Random(seats).choice)
    redis = Redis.from_url(valkey.url)
    envelopes = await EventStore(redis).read(table.id)
    await redis.aclose()
    return envelopes


@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
async def test_a_finished_game_passes_every_check(client, valkey, game, seats, options):
    report = audit(await finished_log(client, valkey, game, seats, **options))
    assert report.ok, [c for c in report.checks if not c.ok]
    assert [c.name for c in report.checks] == [
        "hash_chain",
        "seed_commitment",
        "shuffles",
        "rules",
        "scores",
    ]


async def test_any_changed_event_or_swapped_pair_fails_at_that_event(client, valkey):
    log = await finished_log(client, valkey, "danger", 2)
    rng = random.Random(3)
    for _ in range(5):
        n = rng.randrange(2, len(log))
        changed = list(log)
        data = dict(changed[n - 1].data) | {"tampered": 1}
        changed[n - 1] = msgspec.structs.replace(changed[n - 1], data=data)
        report = audit(changed)
        assert not report.ok
        chain = report.checks[0]
        assert chain.name == "hash_chain" and not chain.ok and chain.seq == n
    swapped = list(log)
    swapped[9], swapped[10] = swapped[10], swapped[9]
    chain = audit(swapped).checks[0]
    assert not chain.ok and chain.seq == 10


async def test_a_rehashed_forgery_is_caught_by_the_rules(client, valkey):
    """A forger who rewrites an event and re-seals the whole chain after it passes the hash
    check, but not the replay: the rules give another event."""
    from events.envelope import digest, unsealed

    log = await finished_log(client, valkey, "danger", 2)
    n = next(e.seq for e in log if e.type == "card_drawn" and e.seq > 20)
    forged = list(log[: n - 1])
    fake = dict(log[n - 1].data) | {"card": "Y9" if log[n - 1].data["card"] != "Y9" else "Y8"}
    prev = forged[-1].hash
    for envelope in log[n - 1 :]:
        envelope = msgspec.structs.replace(
            envelope, data=fake if envelope.seq == n else envelope.data, prev=prev
        )
        envelope = msgspec.structs.replace(envelope, hash=digest(unsealed(envelope)))
        forged.append(envelope)
        prev = envelope.hash
    report = audit(forged)
    assert report.checks[0].ok  # the chain itself is intact
    assert not report.ok
    failed = next(c for c in report.checks if not c.ok)
    assert failed.seq == n and failed.expected["data"]["card"] == log[n - 1].data["card"]
