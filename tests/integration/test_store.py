"""The event store on a real Valkey: seq without gaps, conflicts, idempotency, the chain."""

import secrets

from domain.kernel.table import GameStarted, PlayerJoined
from events.envelope import GENESIS, canonical, first_break, seal
from events.store import Appended, Conflict, Duplicate, EventStore
from tests.stores import store_client


def chain(game: str, start_seq: int, prev: str, *events):
    out = []
    for n, event in enumerate(events):
        env = seal(game, start_seq + n, event, "2026-01-01T00:00:00.000Z", "admin", None, prev)
        out.append(env)
        prev = env.hash
    return out


async def test_append_checks_the_expected_seq_and_never_forks(valkey):
    store = EventStore(await store_client(valkey.url))
    game = secrets.token_hex(6)
    one = chain(game, 1, GENESIS, PlayerJoined(seat=0, name="a", entropy=""))
    assert await store.append(game, 0, one) == Appended(1)
    two = chain(game, 2, one[0].hash, GameStarted())
    assert await store.append(game, 0, two) == Conflict(1)
    assert await store.append(game, 2, two) == Conflict(1)
    assert await store.append(game, 1, two) == Appended(2)
    assert await store.append(game, 1, two) == Conflict(2, tuple(map(canonical, one + two)))
    read = await store.read(game)
    assert [e.seq for e in read] == [1, 2]
    assert first_break(read) is None
    await store.redis.aclose()


async def test_a_refused_append_brings_the_events_its_caller_had_not_folded(valkey):
    """A fold a few events behind catches up from the refusal itself, its own head first (so
    that it can tell the store's history is the one it folded); one far behind reads."""
    store = EventStore(await store_client(valkey.url))
    game = secrets.token_hex(6)
    log = chain(
        game, 1, GENESIS, *[PlayerJoined(seat=n, name=f"p{n}", entropy="") for n in range(80)]
    )
    assert await store.append(game, 0, log[:10]) == Appended(10)
    refused = await store.append(game, 7, log[7:])
    assert refused == Conflict(10, tuple(canonical(e) for e in log[6:10]))
    assert await store.append(game, 10, log[10:]) == Appended(80)
    assert await store.append(game, 3, log[3:]) == Conflict(80)  # 77 behind: it reads
    await store.redis.aclose()


async def test_appends_go_on_after_the_server_lost_its_scripts(valkey):
    """A restarted server has no scripts cached: the store loads its script again."""
    store = EventStore(await store_client(valkey.url))
    game = secrets.token_hex(6)
    one = chain(game, 1, GENESIS, PlayerJoined(seat=0, name="a", entropy=""))
    assert await store.append(game, 0, one) == Appended(1)
    await store.redis.script_flush()
    two = chain(game, 2, one[0].hash, GameStarted())
    assert await store.append(game, 1, two) == Appended(2)
    log, _ = await store.load(game)
    assert len(log) == 2
    await store.redis.aclose()


async def test_an_idempotency_key_appends_once(valkey):
    store = EventStore(await store_client(valkey.url))
    game = secrets.token_hex(6)
    one = chain(game, 1, GENESIS, PlayerJoined(seat=0, name="a", entropy=""), GameStarted())
    assert await store.append(game, 0, one, idempotency=("seat:0:k", "fp")) == Appended(2)
    again = await store.append(game, 2, one, idempotency=("seat:0:k", "fp"))
    assert again == Duplicate("fp", 1, 2)
    assert len(await store.read(game)) == 2
    await store.redis.aclose()


async def test_each_append_writes_its_shards_feed(valkey):
    from events.keys import GameKeys

    redis = await store_client(valkey.url)
    store = EventStore(redis)
    game = secrets.token_hex(6)
    one = chain(game, 1, GENESIS, PlayerJoined(seat=0, name="a", entropy=""), GameStarted())
    await store.append(game, 0, one)
    keys = GameKeys(game)
    assert keys.stream.split("}")[0] == keys.feed.split("}")[0]  # one hash tag, one slot
    entries = await redis.xrevrange(keys.feed, count=50)
    mine = [f for _, f in entries if f[b"game"] == game.encode()]
    assert mine and mine[0][b"first"] == b"1" and mine[0][b"last"] == b"2"
    await redis.aclose()


def test_any_changed_byte_breaks_the_chain():
    import msgspec

    game = "g"
    events = chain(
        game, 1, GENESIS, PlayerJoined(seat=0, name="a", entropy=""), GameStarted(), GameStarted()
    )
    assert first_break(events) is None
    tampered = list(events)
    tampered[1] = msgspec.structs.replace(events[1], actor="seat:0")
    assert first_break(tampered)[0] == 2
    swapped = [events[0], events[2], events[1]]
    assert first_break(swapped)[0] == 2  # the second place holds event 3
