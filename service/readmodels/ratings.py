"""Ratings and leaderboards: a rating per registered player per kind of game (Glicko-2 over
the pairwise results of the final placings, domain/ratings), moved by every rated game
they finish, and a leaderboard per kind.

Which games are rated (docs/rulings.md, "Ratings"): a finished game, not set up with
sandbox options, that its creator did not mark `rated: false`, and either marked
`rated: true` (its registered players are rated among themselves) or whose every seat is a
registered player. Seats that came from the same client (the app key or the address that
took them, `origin:<seat>` in the game's secrets) count for nobody: a person with several
registrations cannot rate them against each other from one place. Bots and anonymous seats
are never rated, nor met.

Ratings depend on the order games are applied in: they are applied in the order the games
finished (the finishing event's `at`, then the game's id), which a rebuild can read from the
logs. A rated game is filed in its kind's `pending` set by the players' projection
(records.py) when its log closes, and applied by the worker `HOLD_MS` after it finished, so
that games finishing at nearly the same time on other shards are filed before it is applied.
(A game filed later than that, after a long outage of the projections, is applied when it
comes: a rebuild would place it by its finish.)

Keys, per kind, under one hash tag (`{r:<kind>}`), so that a game's ratings are written in
one script on a cluster:
- `dg:{r:<kind>}:pending` (zset, game -> finish ms) and `:entries` (hash, game -> RatedGame):
  the games waiting to be applied;
- `:players` (hash, player -> PlayerRating), `:board` (zset, player -> rating),
  `:history` (hash, player -> their last HISTORY_KEPT points), `:applied` (set of game ids):
  the model, which a rebuild builds beside (`:next:*`) and switches to;
- `:rebuilding`: the rebuild's marker (no game is applied while it stands), `:applier`: the
  worker applying the kind's games (a lease).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

import msgspec

from domain.kernel import table as tables
from domain.kernel.placings import Side
from domain.ratings import PROVISIONAL_DEVIATION, Rating, rate_game
from domain.registry import GAMES
from events.envelope import Folded
from events.keys import GameKeys
from service.infra.clock import StoreClock
from service.infra.lua import Script
from service.play.game_model import CODECS
from service.readmodels.runner import OUTAGE, RebuildFailed, at_ms, text

log = logging.getLogger("danger.ratings")
HOLD_MS = 2_000
APPLY_EVERY_SECONDS = 0.5
HISTORY_KEPT = 50
LEASE_MS = 10_000
APPLIED_AT_ONCE = 100
MODEL = ("players", "board", "history", "applied")


class RatedSide(msgspec.Struct, frozen=True):
    players: list[str]
    place: int


class RatedGame(msgspec.Struct, frozen=True):
    game: str
    kind: str
    at_ms: int
    sides: list[RatedSide]


class PlayerRating(msgspec.Struct, frozen=True):
    rating: float
    deviation: float
    volatility: float
    games: int
    at_ms: int  # when the last game that moved it finished

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def glicko(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)


class Point(msgspec.Struct, frozen=True, array_like=True):
    game: str
    at_ms: int
    rating: float
    deviation: float


_rated_game = msgspec.json.Decoder(RatedGame).decode
_player_rating = msgspec.json.Decoder(PlayerRating).decode
_points = msgspec.json.Decoder(list[Point]).decode


def key(kind: str, part: str) -> str:
    return f"dg:{{r:{kind}}}:{part}"


def next_key(kind: str, part: str) -> str:
    return key(kind, f"next:{part}")



def rated_game(game_id: str, envelopes: list[Folded], secrets_: dict[str, str]) -> RatedGame | None:
    """A finished game's rated sides, or None if it is not rated (see above)."""
    created = msgspec.json.decode(envelopes[0].data)
    if created.get("sandbox") or created.get("rated") is False:
        return None
    rules = GAMES[created["game"]]
    codec = CODECS[rules.name]
    table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]  # game_created
    for envelope in envelopes[1:]:
        tables.evolve(table, rules, codec.event(envelope))
    if rules.placings is None or table.status != "finished":
        return None
    players = {seat: p.player for seat, p in enumerate(table.players) if p.player is not None}
    if created.get("rated") is not True and len(players) < table.seats:
        return None  # not marked: rated only when every seat is a registered player
    origins: dict[str, list[int]] = {}
    for seat in players:
        origins.setdefault(secrets_.get(f"origin:{seat}") or f"unknown:{seat}", []).append(seat)
    sitting: dict[str, list[int]] = {}
    for seat, player in players.items():
        sitting.setdefault(player, []).append(seat)
    counted = {
        seat
        for seat, player in players.items()
        if len(sitting[player]) == 1
        and len(origins[secrets_.get(f"origin:{seat}") or f"unknown:{seat}"]) == 1
    }
    sides = [
        RatedSide([players[s] for s in side.seats if s in counted], side.place)
        for side in rules.placings(table.state)
    ]
    sides = [side for side in sides if side.players]
    if len(sides) < 2:
        return None
    return RatedGame(game_id, rules.name, at_ms(envelopes[-1].at), sides)


async def file(redis: Any, games: list[RatedGame]) -> None:
    """Rated games filed to be applied (a game filed twice is filed once)."""
    if not games:
        return
    pipe = redis.pipeline(transaction=False)
    for game in games:
        pipe.hset(key(game.kind, "entries"), game.game, msgspec.json.encode(game))
        pipe.zadd(key(game.kind, "pending"), {game.game: game.at_ms})
    await pipe.execute()


def applied(game: RatedGame, before: dict[str, PlayerRating]) -> dict[str, PlayerRating]:
    """Each rated player's rating after the game, from theirs before it (a player not in
    `before` starts at 1500, deviation 350)."""
    seats: list[tuple[int, tuple[int, ...]]] = []
    who: dict[int, str] = {}
    for side in game.sides:
        numbers = []
        for player in side.players:
            who[len(who)] = player
            numbers.append(len(who) - 1)
        seats.append((side.place, tuple(numbers)))
    start = {n: before[p].glicko() if p in before else Rating() for n, p in who.items()}
    after = rate_game([Side(numbers, place) for place, numbers in seats], start)
    games = {p: before[p].games if p in before else 0 for p in who.values()}
    return {
        who[n]: PlayerRating(r.rating, r.deviation, r.volatility, games[who[n]] + 1, game.at_ms)
        for n, r in after.items()
    }


def _history(raw: bytes | None, game: RatedGame, rating: PlayerRating) -> bytes:
    points = _points(raw) if raw else []
    points.append(Point(game.game, game.at_ms, rating.rating, rating.deviation))
    return msgspec.json.encode(points[-HISTORY_KEPT:])


# KEYS: 1 the lease, 2 the marker, 3 applied, 4 players, 5 board, 6 history, 7 pending,
# 8 entries. ARGV: 1 the lease's token, 2 the game, 3 the number of players n, then n
# (player, rating record, rating, history). Applies only while the lease is the caller's,
# no rebuild runs, and the game was not applied already.
_APPLY = Script("""
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
if redis.call('EXISTS', KEYS[2]) == 1 then return -2 end
redis.call('ZREM', KEYS[7], ARGV[2])
redis.call('HDEL', KEYS[8], ARGV[2])
if redis.call('SADD', KEYS[3], ARGV[2]) == 0 then return 0 end
local n = tonumber(ARGV[3])
for i = 0, n - 1 do
  local at = 4 + i * 4
  redis.call('HSET', KEYS[4], ARGV[at], ARGV[at + 1])
  redis.call('ZADD', KEYS[5], ARGV[at + 2], ARGV[at])
  redis.call('HSET', KEYS[6], ARGV[at], ARGV[at + 3])
end
return 1
""")


async def apply_ready(redis: Any, kind: str, now_ms: int, hold_ms: int = HOLD_MS) -> int:
    """Apply the kind's rated games that finished `hold_ms` ago or more, in the order they
    finished; how many were applied. One worker at a time per kind (a lease)."""
    if not await redis.zcount(key(kind, "pending"), "-inf", now_ms - hold_ms):
        return 0  # the usual answer, and one round trip
    token = secrets.token_hex(8)
    lease = key(kind, "applier")
    if not await redis.set(lease, token, nx=True, px=LEASE_MS):
        return 0
    done = 0
    try:
        if await redis.exists(key(kind, "rebuilding")):
            return 0
        ready = await redis.zrangebyscore(
            key(kind, "pending"), "-inf", now_ms - hold_ms, start=0, num=APPLIED_AT_ONCE
        )
        for game_id in ready:
            raw = await redis.hget(key(kind, "entries"), game_id)
            if raw is None:  # filed without its entry: nothing to apply
                await redis.zrem(key(kind, "pending"), game_id)
                continue
            game = _rated_game(raw)
            wrote = await _apply(redis, kind, game, token)
            if wrote < 0:
                break
            done += wrote
    finally:
        await _release(redis, [lease], [token])
    return done


async def applying(redis: Any, clock: StoreClock, every: float = APPLY_EVERY_SECONDS) -> None:
    """The worker's task: each kind's rated games applied as they become ready."""
    while True:
        try:
            await clock.refresh()
            now_ms = int(clock.time() * 1000)
            for kind in GAMES:
                while await apply_ready(redis, kind, now_ms) == APPLIED_AT_ONCE:
                    pass  # more are ready
        except OUTAGE as exc:  # the store away: try again at the next turn
            log.warning("ratings not applied: %s", exc)
        await asyncio.sleep(every)


_RELEASE = Script("""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
""")


async def _release(redis: Any, keys_: list[str], args: list[str]) -> None:
    await _RELEASE(redis, keys_, args)


# Reading ------------------------------------------------------------------------------


class Standing(msgspec.Struct, frozen=True):
    player: str
    rank: int  # 1: the highest rating
    rating: PlayerRating


async def of_player(redis: Any, player_id: str) -> dict[str, tuple[PlayerRating, int, list[Point]]]:
    """The player's rating in each kind they were rated in: (rating, rank, history)."""
    out = {}
    for kind in GAMES:
        pipe = redis.pipeline(transaction=False)
        pipe.hget(key(kind, "players"), player_id)
        pipe.zrevrank(key(kind, "board"), player_id)
        pipe.hget(key(kind, "history"), player_id)
        raw, rank, points = await pipe.execute()
        if raw is not None and rank is not None:
            out[kind] = (_player_rating(raw), rank + 1, _points(points) if points else [])
    return out


async def page(
    redis: Any, kind: str, after: tuple[float, str] | None, size: int
) -> tuple[list[Standing], tuple[float, str] | None]:
    """A page of the kind's leaderboard, highest rating first (a tie: by player id, the
    greater first), after the cursor `after` (the last row's rating and player); the next
    cursor, None at the end."""
    board = key(kind, "board")
    if after is None:
        rows = await redis.zrevrange(board, 0, size, withscores=True)
    else:
        score, last = after
        ties = await redis.zcount(board, score, score)
        rows = await redis.zrevrangebyscore(
            board, score, "-inf", start=0, num=size + 1 + ties, withscores=True
        )
        rows = [(m, s) for m, s in rows if (s, text(m)) < (score, last)]
    rows = rows[: size + 1]
    more = len(rows) > size
    rows = rows[:size]
    if not rows:
        return [], None
    players = [text(m) for m, _ in rows]
    pipe = redis.pipeline(transaction=False)
    pipe.zrevrank(board, players[0])
    pipe.hmget(key(kind, "players"), players)
    first, records = await pipe.execute()
    standings = [
        Standing(player, (first or 0) + 1 + n, _player_rating(raw))
        for n, (player, raw) in enumerate(zip(players, records, strict=True))
        if raw is not None
    ]
    cursor = (rows[-1][1], players[-1]) if more else None
    return standings, cursor


async def standing(redis: Any, kind: str, player_id: str) -> Standing | None:
    """The player's row on the kind's leaderboard; None if they are not rated in it."""
    pipe = redis.pipeline(transaction=False)
    pipe.zrevrank(key(kind, "board"), player_id)
    pipe.hget(key(kind, "players"), player_id)
    rank, raw = await pipe.execute()
    if rank is None or raw is None:
        return None
    return Standing(player_id, rank + 1, _player_rating(raw))



# Rebuild ------------------------------------------------------------------------------


class Rebuilding:
    """The rated games a rebuild finds, applied in the order they finished once every log
    was read, into the model built beside the live one."""

    def __init__(self) -> None:
        self.games: list[RatedGame] = []

    async def collect(self, redis: Any, logs: dict[str, list[Folded]]) -> None:
        """The rated games among a batch of whole logs (those closed, with a registered
        player: their seats' origins are read for them)."""
        closed = [
            game_id
            for game_id, log in logs.items()
            if log
            and log[-1].type == "seed_revealed"
            and any(e.type == "player_joined" and b'"player"' in bytes(e.data) for e in log)
        ]
        if not closed:
            return
        pipe = redis.pipeline(transaction=False)
        for game_id in closed:
            pipe.hgetall(GameKeys(game_id).secrets)
        for game_id, raw in zip(closed, await pipe.execute(), strict=True):
            secrets_ = {text(k): text(v) for k, v in raw.items()}
            try:
                found = rated_game(game_id, logs[game_id], secrets_)
            except Exception as exc:
                raise RebuildFailed(f"game {game_id}: {type(exc).__name__}: {exc}") from exc
            if found is not None:
                self.games.append(found)

    async def build(self, redis: Any) -> None:
        for kind in GAMES:
            mine = sorted(
                (g for g in self.games if g.kind == kind), key=lambda g: (g.at_ms, g.game)
            )
            ratings: dict[str, PlayerRating] = {}
            history: dict[str, list[Point]] = {}
            for game in mine:
                for player, rating in applied(game, ratings).items():
                    ratings[player] = rating
                    kept = history.setdefault(player, [])
                    kept.append(Point(game.game, game.at_ms, rating.rating, rating.deviation))
                    del kept[:-HISTORY_KEPT]
            await _write_beside(redis, kind, ratings, history, [g.game for g in mine])


async def _write_beside(
    redis: Any,
    kind: str,
    ratings: dict[str, PlayerRating],
    history: dict[str, list[Point]],
    games: list[str],
) -> None:
    players = list(ratings)
    for first in range(0, max(len(players), len(games)), 1000):
        pipe = redis.pipeline(transaction=False)
        chunk = players[first : first + 1000]
        if chunk:
            pipe.hset(
                next_key(kind, "players"),
                mapping={p: msgspec.json.encode(ratings[p]) for p in chunk},
            )
            pipe.zadd(next_key(kind, "board"), {p: ratings[p].rating for p in chunk})
            pipe.hset(
                next_key(kind, "history"),
                mapping={p: msgspec.json.encode(history[p]) for p in chunk},
            )
        done = games[first : first + 1000]
        if done:
            pipe.sadd(next_key(kind, "applied"), *done)
        await pipe.execute()


def rebuilt_models() -> list[tuple[str, list[str], list[str]]]:
    """Per kind: its marker, its live keys, the keys built beside them."""
    return [
        (
            key(kind, "rebuilding"),
            [key(kind, part) for part in MODEL],
            [next_key(kind, part) for part in MODEL],
        )
        for kind in GAMES
    ]


async def _apply(redis: Any, kind: str, game: RatedGame, token: str) -> int:
    players = sorted({p for side in game.sides for p in side.players})
    pipe = redis.pipeline(transaction=False)
    pipe.hmget(key(kind, "players"), players)
    pipe.hmget(key(kind, "history"), players)
    records, histories = await pipe.execute()
    before = {p: _player_rating(r) for p, r in zip(players, records, strict=True) if r}
    after = applied(game, before)
    args: list[Any] = [token, game.game, len(after)]
    history = dict(zip(players, histories, strict=True))
    for player, rating in sorted(after.items()):
        args += [
            player,
            msgspec.json.encode(rating),
            repr(rating.rating),
            _history(history[player], game, rating),
        ]
    keys_ = [
        key(kind, "applier"),
        key(kind, "rebuilding"),
        key(kind, "applied"),
        key(kind, "players"),
        key(kind, "board"),
        key(kind, "history"),
        key(kind, "pending"),
        key(kind, "entries"),
    ]
    return int(await _APPLY(redis, keys_, args))
