"""Projections: read models fed by the shard feeds, each through its own consumer group.

Every projection writes its read model and acknowledges the feed entry in one script, and
each write is idempotent (a summary carries the seq it reflects, a round index its
checkpoint, a player's result is keyed by its game), so a redelivered or claimed entry
changes nothing twice. All of it can be dropped and rebuilt from the streams
(`danger projections rebuild`).

- lobby: a summary per game (`dg:{sNN}:lobby`);
- rounds: per game, the seq range of every round (`dg:{sNN}:rounds:<game>`), which
  `GET /v1/games/{id}/rounds/{n}` turns into a round summary;
- players: each finished game's result per player (`dg:{sNN}:players`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from domain.kernel import table as tables
from domain.registry import GAMES
from events import keys
from events.envelope import Envelope, EventCodec
from events.store import EventStore

from .lobby import LobbyGame, decode_summary

log = logging.getLogger("danger.projections")
CLAIM_IDLE_MS = 30_000

# KEYS: 1 the read model hash, 2 the feed. ARGV: 1 group, 2 n, then n entry ids, then
# field/value pairs.
WRITE_AND_ACK = """
local n = tonumber(ARGV[2])
for i = 3 + n, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
for i = 3, 2 + n do redis.call('XACK', KEYS[2], ARGV[1], ARGV[i]) end
return 1
"""


def by_game(entries: list[tuple[bytes, dict[bytes, bytes]]]) -> dict[str, tuple[list[bytes], int]]:
    """A batch of feed entries as one update per game: its entry ids and the last seq. Under
    load a game has several entries in a batch; its stream is read once for all of them."""
    out: dict[str, tuple[list[bytes], int]] = {}
    for entry_id, fields in entries:
        game = fields[b"game"].decode()
        ids, last = out.get(game, ([], 0))
        ids.append(entry_id)
        out[game] = (ids, max(last, int(fields[b"last"])))
    return out


def rounds_key(game_id: str) -> str:
    return f"{keys.GameKeys(game_id).stream.split(':game:')[0]}:rounds:{game_id}"


def players_key(shard: str) -> str:
    return f"{keys.PREFIX}:{{{shard}}}:players"


class Projection:
    """One consumer group over every shard feed."""

    group = ""

    def __init__(self, redis: Redis, store: EventStore) -> None:
        self.redis = redis
        self.store = store
        self.consumer = f"{socket.gethostname()}-{os.getpid()}"
        self._write = redis.register_script(WRITE_AND_ACK)

    async def run(self) -> None:
        await asyncio.gather(*(self._run_shard(s) for s in keys.all_shards()))

    async def catch_up(self) -> None:
        """Apply everything the feeds hold now, then return (a rebuild)."""
        await asyncio.gather(*(self._run_shard(s, once=True) for s in keys.all_shards()))

    async def _ensure_group(self, feed: str) -> None:
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(feed, self.group, id="0", mkstream=True)

    async def _run_shard(self, shard: str, once: bool = False) -> None:
        feed = keys.feed(shard)
        await self._ensure_group(feed)
        cursor = "0"  # first what this consumer left pending, then new entries
        idle_rounds = 0
        while True:
            try:
                block = None if once or cursor == "0" else 1000
                reply = await self.redis.xreadgroup(
                    self.group, self.consumer, {feed: cursor}, count=200, block=block
                )
                entries = reply[0][1] if reply else []
                if cursor == "0" and not entries:
                    cursor = ">"
                    continue
                if once and cursor == ">" and not entries:
                    return
                for game_id, (ids, last) in by_game(entries).items():
                    await self.apply(shard, ids, game_id, last)
                idle_rounds = idle_rounds + 1 if not entries else 0
                if idle_rounds % 30 == 29:
                    await self._claim_stale(shard)
            except asyncio.CancelledError:
                raise
            except ResponseError as exc:
                if "NOGROUP" in str(exc):  # dropped by a rebuild: start again from 0
                    await self._ensure_group(feed)
                    cursor = "0"
                    continue
                log.exception("%s projection failed on shard %s", self.group, shard)
                await asyncio.sleep(1)
            except Exception:  # keep the projection alive; the entry stays pending
                log.exception("%s projection failed on shard %s", self.group, shard)
                await asyncio.sleep(1)

    async def _claim_stale(self, shard: str) -> None:
        """Entries a dead consumer left pending are taken over and applied (idempotently)."""
        _, entries, *_ = await self.redis.xautoclaim(
            keys.feed(shard), self.group, self.consumer, CLAIM_IDLE_MS, start_id="0-0", count=100
        )
        for game_id, (ids, last) in by_game(entries).items():
            await self.apply(shard, ids, game_id, last)

    async def write(
        self, key: str, shard: str, entry_ids: list[bytes], pairs: dict[str, bytes]
    ) -> None:
        args: list[Any] = [self.group, len(entry_ids), *entry_ids]
        for field, value in pairs.items():
            args += [field, value]
        await self._write(keys=[key, keys.feed(shard)], args=args)

    async def apply(self, shard: str, entry_ids: list[bytes], game_id: str, last: int) -> None:
        raise NotImplementedError


class LobbyProjection(Projection):
    group = "lobby"

    def __init__(self, redis: Redis, store: EventStore) -> None:
        super().__init__(redis, store)
        self._final = {n: r.final_event.__struct_config__.tag for n, r in GAMES.items()}

    async def apply(self, shard: str, entry_ids: list[bytes], game_id: str, last: int) -> None:
        raw = await self.redis.hget(keys.lobby(shard), game_id)
        summary = decode_summary(raw) if raw else None
        if summary is not None and summary.seq >= last:
            await self.write(keys.lobby(shard), shard, entry_ids, {})
            return
        for envelope in await self.store.read(
            game_id, after=summary.seq if summary else 0, upto=last
        ):
            summary = self._fold(summary, envelope)
        assert summary is not None
        await self.write(
            keys.lobby(shard), shard, entry_ids, {game_id: msgspec.json.encode(summary)}
        )

    def _fold(self, summary: LobbyGame | None, envelope: Envelope) -> LobbyGame:
        data = envelope.data
        if envelope.type == "game_created":
            return LobbyGame(
                id=envelope.game,
                game=data["game"],
                status="open",
                seats=data["seats"],
                players=[],
                created_at=envelope.at,
                seq=envelope.seq,
            )
        assert summary is not None
        if envelope.type == "player_joined":
            summary.players.append(data["name"])
        elif envelope.type == "game_started":
            summary.status = "active"
        elif envelope.type == self._final[summary.game]:
            summary.status = "finished"
        summary.seq = envelope.seq
        return summary


class RoundIndex(msgspec.Struct):
    round: int
    first_seq: int
    last_seq: int
    scored: bool = False


class RoundsProjection(Projection):
    """Where each round's events lie: round_started opens a round, round_scored closes it,
    and what follows a game's last scoring (its end) belongs to its last round."""

    group = "rounds"

    async def apply(self, shard: str, entry_ids: list[bytes], game_id: str, last: int) -> None:
        key = rounds_key(game_id)
        done = int(await self.redis.hget(key, "_seq") or 0)
        if done >= last:
            await self.write(key, shard, entry_ids, {})
            return
        current_raw = await self.redis.hget(key, "_current")
        current = msgspec.json.decode(current_raw, type=RoundIndex) if current_raw else None
        changed: dict[str, RoundIndex] = {}
        for envelope in await self.store.read(game_id, after=done, upto=last):
            if envelope.type == "round_started" and (
                current is None or current.round != envelope.data["round"]
            ):
                current = RoundIndex(envelope.data["round"], envelope.seq, envelope.seq)
            elif current is not None:
                current.last_seq = envelope.seq
                current.scored = current.scored or envelope.type == "round_scored"
            if current is not None:
                changed[str(current.round)] = msgspec.structs.replace(current)
        pairs = {name: msgspec.json.encode(index) for name, index in changed.items()}
        if current is not None:
            pairs["_current"] = msgspec.json.encode(current)
        pairs["_seq"] = str(last).encode()
        await self.write(key, shard, entry_ids, pairs)


class PlayerResult(msgspec.Struct):
    game_id: str
    game: str
    score: int
    won: bool


class PlayersProjection(Projection):
    """Each finished game's result for each of its players."""

    group = "players"

    async def apply(self, shard: str, entry_ids: list[bytes], game_id: str, last: int) -> None:
        tail = await self.store.read(game_id, after=last - 1, upto=last)
        if not tail or tail[-1].type != "seed_revealed":  # the last event of every game
            await self.write(players_key(shard), shard, entry_ids, {})
            return
        envelopes = await self.store.read(game_id)
        rules = GAMES[envelopes[0].data["game"]]
        codec = EventCodec((*tables.TABLE_EVENTS, *rules.events))
        table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]
        for envelope in envelopes[1:]:
            tables.evolve(table, rules, codec.event(envelope))
        pairs = {}
        if rules.standings is not None:
            for seat, (score, won) in enumerate(rules.standings(table.state)):
                result = PlayerResult(game_id=game_id, game=rules.name, score=score, won=won)
                pairs[f"{table.players[seat].name}\x1f{game_id}"] = msgspec.json.encode(result)
        await self.write(players_key(shard), shard, entry_ids, pairs)


PROJECTIONS = (LobbyProjection, RoundsProjection, PlayersProjection)


async def run_all(redis: Redis, store: EventStore) -> None:
    await asyncio.gather(*(p(redis, store).run() for p in PROJECTIONS))


async def rebuild(redis: Redis, store: EventStore) -> None:
    """Drop every read model and consumer group, and apply the feeds from their start."""
    for shard in keys.all_shards():
        feed = keys.feed(shard)
        for projection in PROJECTIONS:
            with contextlib.suppress(ResponseError):
                await redis.xgroup_destroy(feed, projection.group)
        doomed = [keys.lobby(shard), players_key(shard)]
        doomed += [k async for k in redis.scan_iter(match=f"{keys.PREFIX}:{{{shard}}}:rounds:*")]
        await redis.delete(*doomed)
    await asyncio.gather(*(p(redis, store).catch_up() for p in PROJECTIONS))


async def lag(redis: Redis) -> dict[str, dict[str, int]]:
    """Per projection: feed entries not yet applied, and how far behind (ms) its oldest is."""
    out = {p.group: {"entries": 0, "ms": 0} for p in PROJECTIONS}
    for shard in keys.all_shards():
        feed = keys.feed(shard)
        try:
            groups = await redis.xinfo_groups(feed)
            last = (await redis.xinfo_stream(feed))["last-generated-id"]
        except ResponseError:
            continue
        newest = int(last.split(b"-")[0] if isinstance(last, bytes) else str(last).split("-")[0])
        for group in groups:
            name = group["name"].decode() if isinstance(group["name"], bytes) else group["name"]
            if name not in out:
                continue
            behind = int(group.get("lag") or 0) + int(group.get("pending") or 0)
            delivered = group["last-delivered-id"]
            seen = int(
                (delivered.decode() if isinstance(delivered, bytes) else delivered).split("-")[0]
            )
            out[name]["entries"] += behind
            if behind:
                out[name]["ms"] = max(out[name]["ms"], newest - seen)
    return out


async def player_results(redis: Redis, name: str) -> list[PlayerResult]:
    """Every finished game of the player `name`, from the 16 shards' hashes."""
    pattern = "".join("\\" + c if c in "*?[]\\" else c for c in name) + "\x1f*"
    decode = msgspec.json.Decoder(PlayerResult).decode
    results = []
    for shard in keys.all_shards():
        async for _, raw in redis.hscan_iter(players_key(shard), match=pattern, count=500):
            results.append(decode(raw))
    return results
