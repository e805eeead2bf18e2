"""Quick play: a registered player asks for a game of a kind and a number of seats (or a
range), with an optional rating band and options; the service seats waiting players into a
new game as soon as enough compatible requests wait, starts it, and tells each player its
game, seat and token (docs/quick-play.md).

Every request lives under one hash tag (`{qp}`), so that claiming a group of them is one
script on a cluster too: `dg:{qp}:req:<id>` (the request), `dg:{qp}:waiting:<kind>` (the
kind's waiting requests by the time they were made), `dg:{qp}:player:<player>` (the one
request a player may hold). Any process may match (an API process right after a request,
the worker every second): a group is claimed by one script that takes its requests off the
waiting set only if every one of them is still on it, so two processes never seat one
player twice; the claimant then creates the game, seats the players, starts it and marks
each request seated. A claim whose seating never finished (its process died) is put back to
waiting after SEATING_MS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

import msgspec

from domain.registry import GAMES
from events.envelope import canonical
from service.infra import metrics
from service.infra.errors import ApiError
from service.infra.lua import Script
from service.play import names, players

log = logging.getLogger("danger.quickplay")
TAG = "dg:{qp}"
SEATING_MS = 30_000
SEATED_KEPT_MS = 600_000  # a finished request (and a seat's token) is kept this long
WIDEN_PER_SECOND = 5.0  # rating points a band widens by each second a request waits
MATCH_EVERY_SECONDS = 1.0

Status = Literal["waiting", "seating", "seated", "expired", "cancelled"]


class Request(msgspec.Struct, frozen=True):
    id: str
    player: str
    name: str
    kind: str
    min_seats: int
    max_seats: int
    options: str  # canonical JSON: requests match only with the same options
    rating: float  # the player's rating in the kind when they asked (1500 unrated)
    band: float | None  # rating points either side; None: anyone
    client: str  # whom the seat is taken for (its origin, docs/rulings.md "Ratings")
    entropy: str
    made_ms: int
    expires_ms: int
    status: Status = "waiting"
    claimed_ms: int | None = None
    game: str | None = None
    seat: int | None = None
    token: str | None = None

    def band_at(self, now_ms: int) -> float | None:
        if self.band is None:
            return None
        return self.band + WIDEN_PER_SECOND * max(0, now_ms - self.made_ms) / 1000

    def fits(self, seats_from: int, seats_to: int) -> tuple[int, int] | None:
        low, high = max(self.min_seats, seats_from), min(self.max_seats, seats_to)
        return (low, high) if low <= high else None


_decode = msgspec.json.Decoder(Request).decode


def request_key(request_id: str) -> str:
    return f"{TAG}:req:{request_id}"


def waiting_key(kind: str) -> str:
    return f"{TAG}:waiting:{kind}"


def player_key(player_id: str) -> str:
    return f"{TAG}:player:{player_id}"


# KEYS: 1 the player's, 2 the request, 3 the kind's waiting set, 4 the request the player
# held when the caller looked (or the new one's). ARGV: 1 the request's id, 2 its record,
# 3 when it was made (ms), 4 ms it lives, 5 the most that may wait, 6 the id the player's
# key held ('' for none). 1 filed; 0 the player holds one still waiting or being seated;
# -1 too many wait; -2 the player's key changed since the caller looked (look again).
_FILE = Script("""
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[6] then return -2 end
local held = redis.call('GET', KEYS[4])
if ARGV[6] ~= '' and held then
  local status = cjson.decode(held)['status']
  if status == 'waiting' or status == 'seating' then return 0 end
end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[5]) then return -1 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
""")

# KEYS: the requests of a group, then the kind's waiting set, then the seating set. ARGV:
# 1 now (ms), then their ids. Claimed (1) only if every one is still waiting: each is taken
# off the waiting set, marked `seating` and noted in the seating set; else nothing
# changes (0).
_CLAIM = Script("""
local n = #KEYS - 2
local waiting, seating = KEYS[n + 1], KEYS[n + 2]
for i = 1, n do
  if not redis.call('ZSCORE', waiting, ARGV[i + 1]) then return 0 end
  if not redis.call('GET', KEYS[i]) then return 0 end
end
for i = 1, n do
  local request = cjson.decode(redis.call('GET', KEYS[i]))
  request['status'] = 'seating'
  request['claimed_ms'] = tonumber(ARGV[1])
  redis.call('SET', KEYS[i], cjson.encode(request), 'KEEPTTL')
  redis.call('ZREM', waiting, ARGV[i + 1])
  redis.call('ZADD', seating, ARGV[1], ARGV[i + 1])
end
return 1
""")

SEATING = f"{TAG}:seating"


async def file(
    redis: Any,
    player: str,
    name: str,
    kind: str,
    seats: tuple[int, int],
    options: Any,
    rating: float,
    band: float | None,
    client: str,
    entropy: str,
    now_ms: int,
    seconds: float,
    most_waiting: int,
) -> Request:
    """A player's request, waiting; 409 if they hold one already, 429 if the kind has as many
    waiting as it may."""
    made = Request(
        id="qp_" + secrets.token_urlsafe(12).replace("-", "x").replace("_", "y"),
        player=player,
        name=name,
        kind=kind,
        min_seats=seats[0],
        max_seats=seats[1],
        options=canonical(msgspec.to_builtins(options)).decode(),
        rating=rating,
        band=band,
        client=client,
        entropy=entropy,
        made_ms=now_ms,
        expires_ms=now_ms + int(seconds * 1000),
    )
    lives = int(seconds * 1000) + SEATED_KEPT_MS
    for _ in range(5):
        held = _text(await redis.get(player_key(player)))
        keys = [
            player_key(player),
            request_key(made.id),
            waiting_key(kind),
            request_key(held or made.id),
        ]
        args = [made.id, msgspec.json.encode(made), now_ms, lives, most_waiting, held]
        filed = await _FILE(redis, keys, args)
        if filed != -2:
            break
    if filed == 0:
        held = await redis.get(player_key(player))
        raise ApiError(
            409,
            "already_waiting",
            f"This player waits for a game already ({_text(held)}): cancel it first.",
        )
    if filed == -1:
        raise ApiError(
            429, "quick_play_full", f"{most_waiting} requests wait for {kind}: try later."
        )
    if filed != 1:  # the player's requests changed under each of five looks
        raise ApiError(503, "contention", "This player's requests are changing: try again.")
    return made


async def get(redis: Any, request_id: str) -> Request | None:
    raw = await redis.get(request_key(request_id))
    return _decode(raw) if raw else None


async def wait_for_change(
    redis: Any, request: Request, seconds: float, poll: float = 0.25
) -> Request:
    """The request once it is no longer waiting (or seating), or as it is after `seconds`."""
    deadline = time.monotonic() + seconds
    current = request
    while current.status in ("waiting", "seating") and time.monotonic() < deadline:
        await asyncio.sleep(poll)
        found = await get(redis, request.id)
        if found is None:
            break
        current = found
    return current


_CANCEL = Script("""
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local request = cjson.decode(raw)
if request['status'] ~= 'waiting' then return -1 end
request['status'] = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(request), 'PX', ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
""")


async def cancel(redis: Any, request: Request, status: Status = "cancelled") -> bool:
    """A waiting request cancelled (or expired); False if it was no longer waiting."""
    keys = [request_key(request.id), waiting_key(request.kind)]
    ended = await _CANCEL(redis, keys, [request.id, status, SEATED_KEPT_MS]) == 1
    if ended:
        metrics.QUICK_PLAY.labels(request.kind, status).inc()
    return bool(ended)


# Matching ------------------------------------------------------------------------------


def compatible(group: Sequence[Request], other: Request, now_ms: int) -> bool:
    """`other` may sit with every request of `group`: each within the other's band."""
    for mine in group:
        if mine.options != other.options:
            return False
        for a, b in ((mine, other), (other, mine)):
            band = a.band_at(now_ms)
            if band is not None and abs(a.rating - b.rating) > band:
                return False
    return True


def groups(waiting: Sequence[Request], now_ms: int) -> list[list[Request]]:
    """The games the waiting requests make now, oldest request first: for each request not
    grouped yet, the largest number of seats in its range that it and the oldest compatible
    others who accept that number fill."""
    left = sorted(waiting, key=lambda r: (r.made_ms, r.id))
    made: list[list[Request]] = []
    while left:
        first = left.pop(0)
        for seats in range(first.max_seats, max(first.min_seats, 2) - 1, -1):
            group = [first]
            for other in left:
                if len(group) == seats:
                    break
                if other.min_seats <= seats <= other.max_seats and compatible(group, other, now_ms):
                    group.append(other)
            if len(group) == seats:
                made.append(group)
                left = [r for r in left if r not in group]
                break
    return made


class Seater:
    """Claims and seats the groups of one kind (GameService's create, join and start)."""

    def __init__(self, redis: Any, service: Any, now_ms: Callable[[], int]) -> None:
        self.redis, self.service, self.now_ms = redis, service, now_ms

    async def match(self, kind: str) -> int:
        """Seat what the kind's waiting requests make; how many games were started. A group
        another process claimed first is given up and the waiting ones read again, until
        every group this process saw was claimed by someone."""
        started = 0
        lost = True
        while lost:
            lost = False
            now = self.now_ms()
            for group in groups(await self._waiting(kind, now), now):
                if await self._claim(kind, group, now):
                    await self._seat(group)
                    started += 1
                else:
                    lost = True
        return started

    async def _waiting(self, kind: str, now: int) -> list[Request]:
        """The kind's waiting requests; those expired are marked so."""
        ids = [_text(i) for i in await self.redis.zrange(waiting_key(kind), 0, -1)]
        raw = await self.redis.mget([request_key(i) for i in ids]) if ids else []
        waiting: list[Request] = []
        for request_id, found in zip(ids, raw, strict=True):
            request = _decode(found) if found else None
            if request is None or request.status != "waiting":
                await self.redis.zrem(waiting_key(kind), request_id)
            elif request.expires_ms <= now:
                await cancel(self.redis, request, "expired")
            else:
                waiting.append(request)
        return waiting

    async def _claim(self, kind: str, group: list[Request], now: int) -> bool:
        keys = [request_key(r.id) for r in group] + [waiting_key(kind), SEATING]
        return bool(await _CLAIM(self.redis, keys, [now, *(r.id for r in group)]) == 1)

    async def _seat(self, group: list[Request]) -> None:
        """The group's game made, its players seated and the game started; each request
        then seated, with its seat's token. A game that could not be made whole is
        abandoned and its requests wait again."""
        first = group[0]
        rules = GAMES[first.kind]
        options = msgspec.convert(msgspec.json.decode(first.options), rules.options_type)
        game, admin, _ = await self.service.create(first.kind, len(group), options)
        seated: list[Request] = []
        try:
            for request in group:
                outcome, token = await self.service.join(
                    game.id,
                    names.normalised(request.name),
                    request.entropy,
                    client=request.client,
                    player=request.player,
                )
                seat = outcome.envelopes[0].data["seat"]
                seated.append(
                    msgspec.structs.replace(request, game=game.id, seat=seat, token=token)
                )
            await self.service.start(game.id, admin)
        except Exception:
            with contextlib.suppress(Exception):
                await self.service.abandon(game.id, admin)
            await self._back(group)
            raise
        metrics.QUICK_PLAY_GAMES.labels(first.kind).inc()
        metrics.QUICK_PLAY.labels(first.kind, "seated").inc(len(seated))
        pipe = self.redis.pipeline(transaction=False)
        for request in seated:
            done = msgspec.structs.replace(request, status="seated")
            pipe.set(request_key(request.id), msgspec.json.encode(done), px=SEATED_KEPT_MS)
            pipe.zrem(SEATING, request.id)
        await pipe.execute()
        for request in seated:
            await players.announce_seat(self.redis, request.player, game.id)

    async def _back(self, group: Sequence[Request]) -> None:
        for request in group:
            back = msgspec.structs.replace(request, status="waiting", claimed_ms=None)
            await self.redis.set(request_key(request.id), msgspec.json.encode(back), keepttl=True)
            await self.redis.zadd(waiting_key(request.kind), {request.id: request.made_ms})
            await self.redis.zrem(SEATING, request.id)

    async def recover(self) -> None:
        """Claims whose seating never finished (their process died), waiting again."""
        lost = await self.redis.zrangebyscore(SEATING, "-inf", self.now_ms() - SEATING_MS)
        found = [await get(self.redis, _text(i)) for i in lost]
        await self._back([r for r in found if r is not None and r.status == "seating"])
        if lost:
            await self.redis.zrem(SEATING, *lost)


async def matching(seater: Seater, every: float = MATCH_EVERY_SECONDS) -> None:
    """The worker's task: each kind matched every `every` seconds (bands widen meanwhile),
    expired requests marked, lost claims put back."""
    while True:
        try:
            await seater.recover()
            for kind in GAMES:
                await seater.match(kind)
        except ApiError as exc:  # a game that could not be made: its requests wait on
            log.warning("quick play: %s", exc.detail)
        await asyncio.sleep(every)


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else value
