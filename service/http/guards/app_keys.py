"""App keys: how a third-party app says who it is. `DANGER_AUTH=keys` makes one necessary to
create games; in either mode a request that carries one is limited per key, not per address.

A key reads `dhk_<id>_<secret>`. Only its SHA-256 is stored, in `dg:{keys}:key:<id>` (one hash
tag for all keys, so that listing them is one slot), with its name, when it was made, when it
was revoked, and the rates that replace the process's for it. Every request that carries a key
reads its record (one HGETALL): a revoked key stops working at once in every process.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import time
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import msgspec

from service.http.guards.clients import SCOPE_KEY, kind_of
from service.infra.config import Rate
from service.infra.errors import ApiError

PREFIX = "dhk_"
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 12
TAG = "dg:{keys}"
INDEX = f"{TAG}:ids"
# The kinds of request an app key is read on (creating, joining, registering players).
KEYED = ("create", "join", "register")


def _record(key_id: str) -> str:
    return f"{TAG}:key:{key_id}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class AppKey:
    id: str
    name: str
    created_ms: int
    revoked_ms: int | None = None
    rates: dict[str, Rate | None] = field(default_factory=dict)  # kind -> its own rate

    @property
    def client(self) -> str:
        """The name its limits are kept under."""
        return f"key:{self.id}"

    def rate(self, kind: str, default: Rate | None) -> Rate | None:
        return self.rates.get(kind, default)


def parse_rates(texts: list[str]) -> dict[str, Rate | None]:
    """`create=100/60`, `read=off`, ...: the rates that replace the process's for a key."""
    rates: dict[str, Rate | None] = {}
    for text in texts:
        kind, sep, value = text.partition("=")
        if not sep or kind not in KEYED:  # the kinds a key is read on: no other could hold
            raise ValueError(f"--rate: expected KIND=N/S with KIND one of {', '.join(KEYED)}")
        rates[kind] = Rate.parse(f"--rate {kind}", value)
    return rates


def _rates_text(rates: dict[str, Rate | None]) -> str:
    return msgspec.json.encode(
        {k: None if r is None else [r.requests, r.seconds] for k, r in rates.items()}
    ).decode()


def _rates_of(text: bytes | None) -> dict[str, Rate | None]:
    if not text:
        return {}
    return {k: None if v is None else Rate(*v) for k, v in msgspec.json.decode(text).items()}


def rates_note(key: AppKey) -> str:
    """Its own rates, for a listing: " (create=200/60, read=off)"."""
    if not key.rates:
        return ""
    shown = [
        f"{kind}={'off' if r is None else f'{r.requests}/{r.seconds}'}"
        for kind, r in key.rates.items()
    ]
    return f" ({', '.join(shown)})"


def looks_like_key(token: str | None) -> TypeGuard[str]:
    return token is not None and token.startswith(PREFIX)


async def create(redis: Any, name: str, rates: dict[str, Rate | None]) -> tuple[AppKey, str]:
    """A new key and its token, which is not kept: shown once."""
    name = name.strip()
    if not name or len(name) > 100 or not name.isprintable():
        raise ValueError("a key's name is 1 to 100 printable characters")
    key_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    token = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    key = AppKey(key_id, name, int(time.time() * 1000), None, rates)
    # The record, then the index (one slot: `{keys}`); a record left out of the index by a
    # failure between the two still works and is revoked by its id.
    pipe = redis.pipeline(transaction=False)
    pipe.hset(
        _record(key_id),
        mapping={
            "name": name,
            "digest": _digest(token),
            "created": key.created_ms,
            "rates": _rates_text(rates),
        },
    )
    pipe.sadd(INDEX, key_id)
    await pipe.execute()
    return key, token


def _key_of(key_id: str, fields: dict[bytes, bytes]) -> AppKey:
    revoked = fields.get(b"revoked")
    return AppKey(
        key_id,
        fields[b"name"].decode(),
        int(fields[b"created"]),
        int(revoked) if revoked else None,
        _rates_of(fields.get(b"rates")),
    )


async def listing(redis: Any) -> list[AppKey]:
    ids = sorted(i.decode() for i in await redis.smembers(INDEX))
    pipe = redis.pipeline(transaction=False)
    for key_id in ids:
        pipe.hgetall(_record(key_id))
    found = await pipe.execute()
    keys = [_key_of(key_id, fields) for key_id, fields in zip(ids, found, strict=True) if fields]
    return sorted(keys, key=lambda k: k.created_ms)


async def revoke(redis: Any, key_id: str) -> bool:
    """Revoke a key (kept, marked, so that the list still shows it); False if unknown."""
    if not await redis.exists(_record(key_id)):
        return False
    await redis.hsetnx(_record(key_id), "revoked", int(time.time() * 1000))
    return True


async def verify(redis: Any, token: str) -> AppKey:
    """The key a token is, or a 401 saying why not."""
    key_id, sep, _ = token[len(PREFIX) :].partition("_")
    fields = {}
    if sep and len(key_id) == ID_LENGTH and key_id.isalnum() and key_id.isascii():
        fields = await redis.hgetall(_record(key_id))
    if not fields or not hmac.compare_digest(fields[b"digest"].decode(), _digest(token)):
        raise ApiError(401, "key_invalid", "That is not an app key of this service.")
    key = _key_of(key_id, fields)
    if key.revoked_ms is not None:
        raise ApiError(401, "key_revoked", "This app key was revoked; ask for a new one.")
    return key


def of(scope: Any) -> AppKey | None:
    """The app key the request carried (verified by the middleware), if any."""
    return scope.get(SCOPE_KEY)


def require(scope: Any, auth: str) -> None:
    """In keys mode, an operation that needs an app key refuses a request without one."""
    if auth == "keys" and of(scope) is None:
        raise ApiError(
            401,
            "key_missing",
            "This server asks for an app key: send 'Authorization: Bearer dhk_...'.",
        )


class AppKeyMiddleware:
    """Verifies the app key a create or a join carries, before its limits are taken: with a
    bad or revoked key it is refused at once, and with a good one counted under its key.
    Elsewhere the bearer token is a seat's or the admin's."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = kind_of(scope.get("method", ""), scope.get("path_template", ""))
        if scope["type"] == "http" and kind in KEYED:
            token = bearer_of(scope)
            if looks_like_key(token):
                scope[SCOPE_KEY] = await verify(scope["app"].state.redis, token)
        await self.app(scope, receive, send)


def bearer_of(scope: Any) -> str | None:
    """The request's bearer token, or None (no Authorization, or not a bearer's)."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return token.strip() if scheme.lower() == "bearer" else None
    return None
