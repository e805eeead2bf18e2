"""Webhook deliveries as kept in the store: queued by the projection that hears the games
(service/readmodels/webhook_events.py), sent by the workers (service/jobs/webhook_sender.py),
listed to the endpoint's owner.

Each endpoint has its own hash tag (`{h:<endpoint>}`): its deliveries, its queue (a sorted
set in the order they were queued), the attempts of each, and its recent finished ones. A
delivery's id is a digest of (endpoint, game, seq, type), so a feed entry delivered twice
to the projection queues nothing twice. `dg:{hooks}:due` holds each endpoint with
deliveries waiting, scored by when its next one is due: the workers' to-do list.

What an endpoint holds is bounded: at most `DANGER_WEBHOOK_QUEUED` deliveries waiting (a
delivery past that is not queued, and the projection pauses the endpoint), and its latest
FINISHED_KEPT finished ones, each with its last ATTEMPTS_KEPT attempts; older finished ones
are deleted, and a removed endpoint's all (`forget`).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

import msgspec

from service.infra.lua import Script
from service.play.webhooks import TAG

DUE = f"{TAG}:due"
ATTEMPTS_KEPT = 20  # of each delivery
FINISHED_KEPT = 1_000  # of each endpoint, listed to its owner
TRIMMED_EVERY = 100  # finished ones past FINISHED_KEPT deleted in batches of this many
Status = Literal["queued", "delivered", "failed"]


class Delivery(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    endpoint: str
    type: str
    game: str
    seq: int
    body: str  # the JSON body, exactly as signed and sent
    created_ms: int
    status: Status = "queued"
    attempts: int = 0
    next_ms: int = 0  # when it is due (0: at once)
    first_failed_ms: int | None = None


class Attempt(msgspec.Struct, frozen=True, omit_defaults=True):
    at_ms: int
    ms: int  # how long it took
    status: int | None  # the HTTP status; None when no answer came
    error: str | None = None  # why there was no answer, or why it was refused before sending
    answer: str | None = None  # the first bytes of the answer's body


_decode = msgspec.json.Decoder(Delivery).decode
_attempt = msgspec.json.Decoder(Attempt).decode


def tag(endpoint_id: str) -> str:
    return f"dg:{{h:{endpoint_id}}}"


def record_key(endpoint_id: str, delivery_id: str) -> str:
    return f"{tag(endpoint_id)}:d:{delivery_id}"


def queue_key(endpoint_id: str) -> str:
    return f"{tag(endpoint_id)}:queue"


def attempts_key(endpoint_id: str, delivery_id: str) -> str:
    return f"{tag(endpoint_id)}:tried:{delivery_id}"


def finished_key(endpoint_id: str) -> str:
    return f"{tag(endpoint_id)}:finished"


def delivery_id(endpoint_id: str, game: str, seq: int, event_type: str) -> str:
    digest = hashlib.sha256(f"{endpoint_id}\n{game}\n{seq}\n{event_type}".encode()).hexdigest()
    return "msg_" + digest[:24]


# KEYS: 1 the delivery, 2 the endpoint's queue, 3 its counter. ARGV: 1 the record, 2 its id,
# 3 the most the queue holds. Queued once: a second call with the same id (a redelivered
# feed entry) does nothing (0); a full queue takes nothing (-1).
_QUEUE = Script("""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -1 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[2])
return 1
""")


class Queued(msgspec.Struct, frozen=True):
    new: int  # deliveries queued now
    full: frozenset[str]  # endpoints whose queue had no room for one


async def queue(redis: Any, deliveries: list[Delivery], now_ms: int, most: int) -> Queued:
    """Queue each delivery once, in an endpoint's queue of at most `most`; each endpoint
    given work is due now."""
    new = 0
    endpoints: set[str] = set()
    full: set[str] = set()
    for delivery in deliveries:
        keys = [
            record_key(delivery.endpoint, delivery.id),
            queue_key(delivery.endpoint),
            f"{tag(delivery.endpoint)}:n",
        ]
        done = await _QUEUE(redis, keys, [msgspec.json.encode(delivery), delivery.id, most])
        if done == 1:
            new += 1
            endpoints.add(delivery.endpoint)
        elif done == -1:
            full.add(delivery.endpoint)
    if endpoints:
        await redis.zadd(DUE, dict.fromkeys(endpoints, now_ms), lt=True)
    return Queued(new, frozenset(full))


async def head(redis: Any, endpoint_id: str, count: int) -> list[Delivery]:
    """The endpoint's oldest queued deliveries, in order."""
    ids = await redis.zrange(queue_key(endpoint_id), 0, count - 1)
    if not ids:
        return []
    keys = [record_key(endpoint_id, i.decode() if isinstance(i, bytes) else i) for i in ids]
    return [_decode(raw) for raw in await redis.mget(keys) if raw]


async def record_attempt(
    redis: Any, delivery: Delivery, attempt: Attempt, status: Status, next_ms: int, now_ms: int
) -> Delivery:
    """The attempt kept (the newest ATTEMPTS_KEPT), and the delivery as it stands after it:
    still queued (due at `next_ms`), or finished and off the queue."""
    failed = attempt.status is None or not 200 <= attempt.status < 300
    first_failed = (
        delivery.first_failed_ms if delivery.first_failed_ms else (now_ms if failed else None)
    )
    changed = msgspec.structs.replace(
        delivery,
        status=status,
        attempts=delivery.attempts + 1,
        next_ms=next_ms,
        first_failed_ms=first_failed,
    )
    keys = [
        attempts_key(delivery.endpoint, delivery.id),
        record_key(delivery.endpoint, delivery.id),
        queue_key(delivery.endpoint),
        finished_key(delivery.endpoint),
    ]
    args = [
        msgspec.json.encode(attempt),
        ATTEMPTS_KEPT,
        msgspec.json.encode(changed),
        0 if status == "queued" else 1,
        delivery.id,
        now_ms,
    ]
    finished = await _RECORD(redis, keys, args)
    if finished > FINISHED_KEPT + TRIMMED_EVERY:
        await _trim_finished(redis, delivery.endpoint, finished - FINISHED_KEPT)
    return changed


# Scripts, not MULTI: a cluster's client runs no transaction (docs/stack-notes.md); each
# touches one endpoint's keys, in its slot. KEYS: 1 the attempts, 2 the record, 3 the queue,
# 4 the finished ones. ARGV: 1 the attempt, 2 attempts kept, 3 the record, 4 1 if finished,
# 5 the id, 6 now (ms). The number finished (0 while the delivery waits on).
_RECORD = Script("""
redis.call('LPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[2]) - 1)
redis.call('SET', KEYS[2], ARGV[3])
if ARGV[4] ~= '1' then return 0 end
redis.call('ZREM', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[5])
return redis.call('ZCARD', KEYS[4])
""")
# KEYS: 1 the record, 2 the finished ones, 3 the counter, 4 the queue. ARGV: 1 the record,
# 2 the id.
_REPLAY = Script("""
redis.call('SET', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZADD', KEYS[4], redis.call('INCR', KEYS[3]), ARGV[2])
return 1
""")


async def _trim_finished(redis: Any, endpoint_id: str, count: int) -> None:
    """The endpoint's `count` oldest finished deliveries deleted, with their attempts."""
    ids = [_text(i) for i in await redis.zrange(finished_key(endpoint_id), 0, count - 1)]
    if ids:
        await _delete(redis, endpoint_id, ids)
        await redis.zrem(finished_key(endpoint_id), *ids)


async def _delete(redis: Any, endpoint_id: str, ids: list[str]) -> None:
    for start in range(0, len(ids), 500):  # one slot: multi-key DELs, in bounded bites
        chunk = ids[start : start + 500]
        await redis.delete(
            *[record_key(endpoint_id, i) for i in chunk],
            *[attempts_key(endpoint_id, i) for i in chunk],
        )


async def forget(redis: Any, endpoint_id: str) -> None:
    """Everything a removed endpoint held: its deliveries, their attempts, its queue."""
    await redis.zrem(DUE, endpoint_id)
    for kept in (queue_key(endpoint_id), finished_key(endpoint_id)):
        await _delete(redis, endpoint_id, [_text(i) for i in await redis.zrange(kept, 0, -1)])
    await redis.delete(queue_key(endpoint_id), finished_key(endpoint_id), f"{tag(endpoint_id)}:n")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def attempts(redis: Any, endpoint_id: str, delivery_id: str) -> list[Attempt]:
    """The delivery's attempts, newest first."""
    return [
        _attempt(raw) for raw in await redis.lrange(attempts_key(endpoint_id, delivery_id), 0, -1)
    ]


async def get(redis: Any, endpoint_id: str, delivery_id: str) -> Delivery | None:
    raw = await redis.get(record_key(endpoint_id, delivery_id))
    return _decode(raw) if raw else None


async def recent(redis: Any, endpoint_id: str, count: int) -> list[Delivery]:
    """The queued deliveries, then the latest finished ones, newest first."""
    queued = await redis.zrevrange(queue_key(endpoint_id), 0, count - 1)
    finished = await redis.zrevrange(finished_key(endpoint_id), 0, count - 1)
    ids = [i.decode() if isinstance(i, bytes) else i for i in [*queued, *finished]][:count]
    if not ids:
        return []
    return [
        _decode(raw) for raw in await redis.mget([record_key(endpoint_id, i) for i in ids]) if raw
    ]


async def replay(redis: Any, delivery: Delivery, now_ms: int) -> Delivery:
    """A finished delivery queued again, at the end of its endpoint's queue, due now."""
    again = msgspec.structs.replace(delivery, status="queued", next_ms=0, first_failed_ms=None)
    keys = [
        record_key(delivery.endpoint, delivery.id),
        finished_key(delivery.endpoint),
        f"{tag(delivery.endpoint)}:n",
        queue_key(delivery.endpoint),
    ]
    await _REPLAY(redis, keys, [msgspec.json.encode(again), delivery.id])
    await redis.zadd(DUE, {delivery.endpoint: now_ms}, lt=True)
    return again
