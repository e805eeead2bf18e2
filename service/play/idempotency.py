"""Idempotency-Key: a retried write gets its first answer again, and never a second effect.

Whose a key is, so that no client can read or replay another's answer by guessing or reusing
its key (the same key in another scope is another key):
- create: the client, as the rate limits name it (service/http/guards/clients.py), and the key;
- join: the game, the client and the key;
- start, abandon: the game, the admin role and the key; a game command: the game, the seat
  and the key.

Each record is kept `DANGER_IDEMPOTENCY_HOURS` (24) and then expires. A retry with the same
key and another body, or another `If-Match`, is 422 `idempotency_key_reused`.

A token is shown once, so the answer that carries it (a create's admin token, a join's seat
token) keeps it sealed under a key derived from the Idempotency-Key and its scope: the store
never holds a token in clear, nor the Idempotency-Key that opens it (a record is named by a
hash of it). A sealed token is as hard to open as the Idempotency-Key is to guess: a client
should send a random one (a UUID).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import time
from typing import Any

import msgspec

from events.envelope import canonical
from service.infra.errors import ApiError
from service.infra.lua import Script
from service.wire.schemas import Created

SALT_BYTES = 16
# A create claims its key before it creates: a claim outlives its request only when the
# process died in between, and is void after this.
PENDING_MS = 60_000
# A retry that arrives while the first request with its key is still being answered waits
# this long for that answer, then is told to come back.
PENDING_WAIT_SECONDS = 5.0
POLL_SECONDS = 0.02


def fingerprint(scope: str, body: Any, if_match: int | None = None) -> str:
    """What makes two requests with one key the same request: its scope, its body as decoded
    (so `{}` and an absent field with that default are the same), and `If-Match`."""
    text = scope.encode() + b"\n" + canonical(body)
    if if_match is not None:
        text += b"\nIf-Match: " + str(if_match).encode()
    return hashlib.sha256(text).hexdigest()


def reused() -> ApiError:
    return ApiError(
        422, "idempotency_key_reused", "This Idempotency-Key was used with another request body."
    )


def _stream(key: str, scope: str, salt: bytes, size: int) -> bytes:
    """HMAC-SHA256 in counter mode, keyed by the Idempotency-Key within its scope."""
    root = hmac.new(key.encode(), b"danger-hall/idempotency/" + scope.encode(), "sha256").digest()
    blocks = (size + 31) // 32
    return b"".join(
        hmac.new(root, salt + n.to_bytes(4, "big"), "sha256").digest() for n in range(blocks)
    )[:size]


def seal_secret(key: str, scope: str, secret: str) -> str:
    """`secret` encrypted for whoever holds the Idempotency-Key `key` in `scope`."""
    salt, data = os.urandom(SALT_BYTES), secret.encode()
    mask = _stream(key, scope, salt, len(data))
    return (salt + bytes(a ^ b for a, b in zip(data, mask, strict=True))).hex()


def unseal_secret(key: str, scope: str, sealed: str) -> str | None:
    """The secret, or None when `sealed` is not one sealed under this key in this scope (the
    field was sealed again since, for another key): what comes out is not text, or not the
    secret, which the caller checks against its hash."""
    try:
        raw = bytes.fromhex(sealed)
    except ValueError:
        return None
    salt, data = raw[:SALT_BYTES], raw[SALT_BYTES:]
    mask = _stream(key, scope, salt, len(data))
    try:
        return bytes(a ^ b for a, b in zip(data, mask, strict=True)).decode("ascii")
    except UnicodeDecodeError:
        return None


class Unkept(msgspec.Struct, frozen=True):
    """A create written but not confirmed by the replicas (503 `not_replicated`): its game,
    the admin token and invite (sealed under the key, in a record), and its first event's
    hash, to find it again."""

    game: str
    admin_token: str
    invite: str | None
    head: str


class _Record(msgspec.Struct, frozen=True, omit_defaults=True):
    fp: str
    answer: Created | None = None  # None while the first request is being answered
    unkept: Unkept | None = None  # a create written, its confirmation still to come


_decode = msgspec.json.Decoder(_Record).decode


# KEYS: 1 a create's record. ARGV: 1 the lost game, 2 the pending record, 3 its lifetime (ms).
# The record becomes pending again only if it still names the lost game.
_RECLAIM = Script("""
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local unkept = cjson.decode(raw)['unkept']
if type(unkept) ~= 'table' or unkept['game'] ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
""")


class Creates:
    """The first answer of each create sent with an Idempotency-Key, by client and key.

    A game's id is random, so the record cannot live in the game's slot and be written by
    the append itself: instead the first request claims the key (SET NX, with a pending
    marker) before it creates, and every other request with the key waits for the answer
    the claim leads to. Two requests at once create one game."""

    def __init__(self, keep_ms: int) -> None:
        self.keep_ms = keep_ms

    @staticmethod
    def _name(client: str, key: str) -> str:
        return "dg:idem:create:" + hashlib.sha256(f"{client}\n{key}".encode()).hexdigest()[:32]

    @staticmethod
    def _scope(client: str) -> str:
        return f"create:{client}"

    async def claim(self, redis: Any, client: str, key: str, body: Any) -> Created | Unkept | None:
        """None: the key is this request's now; create, then `keep` the answer or `drop` the
        claim. Otherwise the first answer, for a retry with the same body; or the game a
        first request wrote without its replicas' confirmation, to confirm (`Unkept`,
        opened), then `keep` or `reclaim`."""
        name, fp = self._name(client, key), fingerprint("create", body)
        pending = msgspec.json.encode(_Record(fp))
        give_up = time.monotonic() + PENDING_WAIT_SECONDS
        while True:
            if await redis.set(name, pending, nx=True, px=PENDING_MS):
                return None
            raw = await redis.get(name)
            if raw is None:
                continue  # the first request failed and gave its claim back: claim it
            record = _decode(raw)
            if record.fp != fp:
                raise reused()
            if record.answer is not None:
                return self._opened(record.answer, key, client)
            if record.unkept is not None:
                return self._unsealed(record.unkept, key, client)
            if time.monotonic() > give_up:
                raise ApiError(
                    409,
                    "idempotency_key_in_use",
                    "A request with this Idempotency-Key is still being answered; retry.",
                    headers={"Retry-After": "1"},
                )
            await asyncio.sleep(POLL_SECONDS)

    async def keep(self, redis: Any, client: str, key: str, body: Any, answer: Created) -> None:
        """The answer kept for retries, its secrets (the admin token, a private game's invite)
        sealed under the key."""
        scope = self._scope(client)
        sealed = msgspec.structs.replace(
            answer,
            admin_token=seal_secret(key, scope, answer.admin_token),
            invite=None if answer.invite is None else seal_secret(key, scope, answer.invite),
        )
        record = _Record(fingerprint("create", body), sealed)
        await redis.set(self._name(client, key), msgspec.json.encode(record), px=self.keep_ms)

    def _opened(self, sealed: Created, key: str, client: str) -> Created:
        scope = self._scope(client)
        token = unseal_secret(key, scope, sealed.admin_token)
        assert token is not None  # the record is named by this very key and scope
        invite = sealed.invite
        if invite is not None:  # a record kept before invites were sealed holds it in clear
            invite = unseal_secret(key, scope, invite) or invite
        return msgspec.structs.replace(sealed, admin_token=token, invite=invite)

    async def keep_unkept(
        self, redis: Any, client: str, key: str, body: Any, unkept: Unkept
    ) -> None:
        """A create written but not confirmed: what its retries confirm, kept as an answer is."""
        scope = self._scope(client)
        sealed = msgspec.structs.replace(
            unkept,
            admin_token=seal_secret(key, scope, unkept.admin_token),
            invite=None if unkept.invite is None else seal_secret(key, scope, unkept.invite),
        )
        record = _Record(fingerprint("create", body), unkept=sealed)
        await redis.set(self._name(client, key), msgspec.json.encode(record), px=self.keep_ms)

    def _unsealed(self, sealed: Unkept, key: str, client: str) -> Unkept:
        scope = self._scope(client)
        token = unseal_secret(key, scope, sealed.admin_token)
        assert token is not None  # the record is named by this very key and scope
        invite = None if sealed.invite is None else unseal_secret(key, scope, sealed.invite)
        return msgspec.structs.replace(sealed, admin_token=token, invite=invite)

    async def reclaim(self, redis: Any, client: str, key: str, body: Any, lost: Unkept) -> bool:
        """The game of an unconfirmed create is gone (a failover took it back): the key is
        this request's again, to create afresh, unless another request with it took it
        first (False: claim again)."""
        pending = msgspec.json.encode(_Record(fingerprint("create", body)))
        return bool(
            await _RECLAIM(redis, [self._name(client, key)], [lost.game, pending, PENDING_MS])
        )

    async def drop(self, redis: Any, client: str, key: str) -> None:
        """Nothing was created: a retry with the key is decided afresh."""
        await redis.delete(self._name(client, key))
