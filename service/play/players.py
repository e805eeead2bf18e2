"""Registered players: an identity an app keeps for each of its people, so that their record
follows them and not a display name anyone can type.

`POST /v1/players` makes one: an id, the name it was registered with (names need not be
unique) and a token (`dhp_<id>_<secret>`, shown once; only its SHA-256 is kept). A join that
carries the token seats the player: the seat is credited to the id (`player` in
`player_joined`), and when the game finishes, the players projection files its result
under the id. A seat joined without one is anonymous and counts in no one's record.

A player who never sits at a table that starts is kept `DANGER_UNSEATED_PLAYER_HOURS` (24)
and then forgotten; one who does is kept for good. A client may hold at most
`DANGER_UNSEATED_PLAYERS_PER_CLIENT` (1,000) players who have not taken a seat yet.

Each player's keys have a hash tag of their own (`dg:{p:<id>}:...`), so players spread over a
cluster's slots and a player's record is one read.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import string
import time
from typing import Any, TypeGuard

from service.infra.bell import SEATS as SEATS_CHANNEL
from service.infra.config import Unseated
from service.infra.errors import ApiError
from service.infra.lua import Script

PREFIX = "dhp_"
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 16


def record_key(player_id: str) -> str:
    return f"dg:{{p:{player_id}}}:player"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def valid_id(player_id: str) -> bool:
    return len(player_id) == ID_LENGTH and player_id.isascii() and player_id.isalnum()


def looks_like_token(token: str | None) -> TypeGuard[str]:
    return token is not None and token.startswith(PREFIX)


_FILE_UNSEATED = Script.named("service.play", "unseated_players.lua")
# The record and its expiry in one step, so that no record is ever kept for good by mistake
# (a cluster's client runs no MULTI).
_KEEP_FOR = Script(
    "redis.call('HSET', KEYS[1], unpack(ARGV, 2)) redis.call('PEXPIRE', KEYS[1], ARGV[1])"
)


def unseated_key(client: str) -> str:
    """A client's players who never took a seat: id -> when the record expires (ms)."""
    return f"dg:{{reg:{client}}}:unseated"


async def register(
    redis: Any, name: str, app_key: str | None, client: str, unseated: Unseated
) -> tuple[str, str]:
    """A new player: (id, token). `app_key`: the id of the app key that registered it;
    `client`: whom the limits name. Its record expires unless the player takes a seat
    (`seated`) within `unseated.keep_ms`; a client holding `unseated.per_client` such
    players is refused another (429 `too_many_players`) until one takes a seat or expires."""
    player_id = "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))
    filed = await _FILE_UNSEATED(
        redis, [unseated_key(client)], [unseated.per_client, player_id, unseated.keep_ms]
    )
    if not filed:
        hours = unseated.keep_ms / 3_600_000
        raise ApiError(
            429,
            "too_many_players",
            f"This client holds {unseated.per_client} registered players who have not taken "
            f"a seat; each is kept {hours:g} h unless it does. Seat them, or wait.",
            headers={"Retry-After": "60"},
        )
    token = f"{PREFIX}{player_id}_{secrets.token_urlsafe(32)}"
    record = {
        "name": name,
        "digest": _digest(token),
        "created": int(time.time() * 1000),
        "client": client,
    }
    if app_key is not None:
        record["app_key"] = app_key
    fields = [item for pair in record.items() for item in pair]
    await _KEEP_FOR(redis, [record_key(player_id)], [unseated.keep_ms, *fields])
    return player_id, token


_SEATED = Script(
    "if redis.call('PERSIST', KEYS[1]) == 1 then "
    "local client = redis.call('HGET', KEYS[1], 'client') "
    "redis.call('HDEL', KEYS[1], 'client') return client end return false"
)


async def seated(redis: Any, player_ids: list[str]) -> None:
    """The players sat at a table that started: each record is kept from now on (its results
    are filed under it), no longer counts against its client's cap, and forgets the address
    that registered it. A join alone is not enough: joining and leaving again would keep a
    record for ever."""
    for player_id in player_ids:
        client = await _SEATED(redis, [record_key(player_id)], [])
        if client:
            await redis.zrem(unseated_key(client.decode()), player_id)


async def verify(redis: Any, token: str) -> str:
    """The id of the player a token is, or 401 `player_token_invalid`."""
    player_id, sep, _ = token[len(PREFIX) :].partition("_")
    digest = None
    if sep and valid_id(player_id):
        digest = await redis.hget(record_key(player_id), "digest")
    if digest is None or not hmac.compare_digest(digest.decode(), _digest(token)):
        raise ApiError(401, "player_token_invalid", "That is not a player token of this service.")
    return player_id


async def name_of(redis: Any, player_id: str) -> str | None:
    name = await redis.hget(record_key(player_id), "name") if valid_id(player_id) else None
    return name.decode() if name is not None else None


async def announce_seat(redis: Any, player_id: str, game_id: str) -> None:
    """Tell the player's streams, wherever they are open, that the player took a seat in
    `game_id` (service/live/player_streams.py). Lost, it is made up for within a keep-alive
    period: the streams read the player's games again then."""
    with contextlib.suppress(Exception):  # the seat is taken: its answer does not wait on this
        await redis.publish(SEATS_CHANNEL, f"{player_id} {game_id}")
