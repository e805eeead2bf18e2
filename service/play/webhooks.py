"""Webhook endpoints: where an app key's holder asks to hear of its games
(docs/webhooks.md). One JSON record per endpoint, and each key's endpoints in a set, all
under the hash tag `{hooks}`: a few per key, read by every delivery and by the projection
that queues them.

A secret reads `whsec_` and 24 random bytes in base64 (Standard Webhooks). Rotating one
puts a new secret first and keeps the old one for ROTATION_HOURS: a delivery is signed
with both meanwhile, so a receiver can change its secret without losing one.
"""

from __future__ import annotations

import base64
import secrets as pysecrets
import string
from typing import Any

import msgspec

from service.infra.lua import Script

EVENT_TYPES = (
    "game.created",
    "game.started",
    "seat.joined",
    "seat.left",
    "turn.changed",
    "round.scored",
    "game.finished",
    "game.abandoned",
)
TAG = "dg:{hooks}"
ALL = f"{TAG}:all"  # every endpoint's id: none, and the projection hears nothing
ROTATION_HOURS = 24
ID_ALPHABET = string.ascii_lowercase + string.digits


class Secret(msgspec.Struct, frozen=True, omit_defaults=True):
    value: str
    until_ms: int | None = None  # a rotated secret's last moment of use


class Endpoint(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    key: str  # the app key's id
    url: str
    events: list[str]
    games: list[str]  # the kinds of game heard of; empty: every kind
    secrets: list[Secret]
    created_ms: int
    paused: str | None = None  # why deliveries are held: the owner's word, or the failures'
    failing_since_ms: int | None = None  # the first failed attempt since the last success

    def signing(self, now_ms: int) -> list[str]:
        """The secrets a delivery is signed with now."""
        return [s.value for s in self.secrets if s.until_ms is None or s.until_ms > now_ms]

    def hears(self, event_type: str, kind: str, at_ms: int) -> bool:
        """Whether it hears of an event of this type, in a game of this kind, that happened
        at `at_ms`: an endpoint hears nothing from before it was made."""
        return (
            event_type in self.events
            and (not self.games or kind in self.games)
            and at_ms >= self.created_ms
        )


class TooMany(Exception):
    """The key has as many endpoints as it may."""


_decode = msgspec.json.Decoder(Endpoint).decode


def _record(endpoint_id: str) -> str:
    return f"{TAG}:ep:{endpoint_id}"


def _of_key(key_id: str) -> str:
    return f"{TAG}:key:{key_id}"


def new_secret() -> str:
    return "whsec_" + base64.b64encode(pysecrets.token_bytes(24)).decode()


async def add(
    redis: Any,
    key_id: str,
    url: str,
    events: list[str],
    games: list[str],
    now_ms: int,
    per_key: int,
) -> Endpoint:
    """A new endpoint of the key; TooMany past `per_key`."""
    endpoint = Endpoint(
        id="wh_" + "".join(pysecrets.choice(ID_ALPHABET) for _ in range(16)),
        key=key_id,
        url=url,
        events=sorted(set(events)),
        games=sorted(set(games)),
        secrets=[Secret(new_secret())],
        created_ms=now_ms,
    )
    keys = [_record(endpoint.id), _of_key(key_id), ALL]
    if not await _ADD(redis, keys, [msgspec.json.encode(endpoint), endpoint.id, per_key]):
        raise TooMany(f"the key has {per_key} webhook endpoints, as many as it may")
    return endpoint


# Scripts, not MULTI: a cluster's client runs no transaction (docs/stack-notes.md); every key
# here is in `{hooks}`'s slot. KEYS: 1 the record, 2 the key's set, 3 ALL. ARGV: 1 the record,
# 2 its id, 3 the most the key may have. 0: the key has as many as it may.
_ADD = Script("""
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
return 1
""")
# KEYS: 1 the key's set, 2 ALL, 3 the record. ARGV: 1 the id. 0: not the key's.
_REMOVE = Script("""
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('SREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return 1
""")


async def get(redis: Any, endpoint_id: str) -> Endpoint | None:
    raw = await redis.get(_record(endpoint_id))
    return _decode(raw) if raw else None


async def of_key(redis: Any, key_id: str) -> list[Endpoint]:
    """The key's endpoints, oldest first."""
    ids = sorted(
        i.decode() if isinstance(i, bytes) else i for i in await redis.smembers(_of_key(key_id))
    )
    if not ids:
        return []
    found = [_decode(raw) for raw in await redis.mget([_record(i) for i in ids]) if raw]
    return sorted(found, key=lambda e: (e.created_ms, e.id))


async def save(redis: Any, endpoint: Endpoint) -> None:
    """The endpoint as changed (its URL, events, kinds, pause, secrets, failures); nothing
    if it was removed meanwhile."""
    await redis.set(_record(endpoint.id), msgspec.json.encode(endpoint), xx=True)


async def rotate(redis: Any, endpoint: Endpoint, now_ms: int) -> Endpoint:
    """A new secret first; the current one signs too for ROTATION_HOURS, then stops; any
    older one stops now."""
    until = now_ms + ROTATION_HOURS * 3600 * 1000
    current = endpoint.signing(now_ms)[:1]
    rotated = msgspec.structs.replace(
        endpoint,
        secrets=[Secret(new_secret()), *(Secret(value, until) for value in current)],
    )
    await save(redis, rotated)
    return rotated


async def remove(redis: Any, key_id: str, endpoint_id: str) -> bool:
    """False if the key has no such endpoint (another key's is never touched)."""
    return bool(await _REMOVE(redis, [_of_key(key_id), ALL, _record(endpoint_id)], [endpoint_id]))
