"""Projections: read models fed by the shard feeds, each through its own consumer group.

Every projection writes its read model and acknowledges the feed entry in one script, and
each write is idempotent (a summary carries the seq it reflects, a round index its
checkpoint, a player's result is keyed by its game), so a redelivered or claimed entry
changes nothing twice. All of it can be dropped and rebuilt from the streams
(`danger projections rebuild`).

- lobby: a summary per game, indexed by status and kind (service/lobby.py);
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
from redis.exceptions import NoScriptError, ResponseError

from domain.kernel import table as tables
from domain.registry import GAMES
from events import keys
from events.envelope import Folded, read_folded
from events.store import EventStore

from . import lobby
from .games import CODECS
from .lobby import LobbyGame

log = logging.getLogger("danger.projections")
CLAIM_IDLE_MS = 30_000  # an entry pending this long is taken over and applied again
CLAIM_EVERY_SECONDS = 10.0
SETTLE_SECONDS = 0.02  # after a batch, wait this long for the next to gather

# KEYS: 1 the feed, then the read model hashes written. ARGV: 1 group, 2 n, then n entry
# ids to acknowledge, then for each hash of KEYS[2..]: its number of pairs, then the pairs.
WRITE_AND_ACK = """
local n = tonumber(ARGV[2])
local i = 3 + n
for k = 2, #KEYS do
  local pairs = tonumber(ARGV[i])
  for j = i + 1, i + 2 * pairs, 2 do redis.call('HSET', KEYS[k], ARGV[j], ARGV[j + 1]) end
  i = i + 1 + 2 * pairs
end
for j = 3, 2 + n do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
return 1
"""

Updates = dict[str, tuple[list[bytes], int]]
"""Per game in a batch of feed entries: the entry ids, and the last seq they announce."""


def by_game(entries: list[tuple[bytes, dict[bytes, bytes]]]) -> Updates:
    """A batch of feed entries as one update per game. Under load a batch holds many games,
    and some games several times: each projection reads and writes once per batch."""
    out: Updates = {}
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
        self._write_sha: str | None = None

    async def run(self) -> None:
        await self._run()

    async def catch_up(self) -> None:
        """Apply everything the feeds hold now, then return (a rebuild)."""
        await self._run(once=True)

    async def _ensure_group(self, feed: str) -> None:
        with contextlib.suppress(ResponseError):  # BUSYGROUP: it exists already
            await self.redis.xgroup_create(feed, self.group, id="0", mkstream=True)

    async def _run(self, once: bool = False) -> None:
        """Read every shard's feed in one call, apply what came per shard, and let the next
        batch gather for a moment: under load a batch holds many commands, so the reads
        and writes per command fall as the load rises."""
        feeds = {keys.feed(shard): shard for shard in keys.all_shards()}
        for feed in feeds:
            await self._ensure_group(feed)
        cursor = "0"  # first what this consumer left pending, then new entries
        loop = asyncio.get_running_loop()
        claimed_at = loop.time()
        while True:
            try:
                block = None if once or cursor == "0" else 1000
                reply = await self.redis.xreadgroup(
                    self.group, self.consumer, dict.fromkeys(feeds, cursor), count=500, block=block
                )
                batches = {
                    feeds[name.decode() if isinstance(name, bytes) else name]: entries
                    for name, entries in reply or []
                    if entries
                }
                if cursor == "0" and not batches:
                    cursor = ">"
                    continue
                if once and cursor == ">" and not batches:
                    return
                if batches:
                    await self.apply(
                        {shard: by_game(entries) for shard, entries in batches.items()}
                    )
                if not once and loop.time() - claimed_at > CLAIM_EVERY_SECONDS:
                    claimed_at = loop.time()  # under any load: a busy feed must not hide these
                    for shard in feeds.values():
                        await self._claim_stale(shard)
                if batches and not once:
                    await asyncio.sleep(SETTLE_SECONDS)
            except asyncio.CancelledError:
                raise
            except ResponseError as exc:
                if "NOGROUP" in str(exc):  # dropped by a rebuild: start again from 0
                    for feed in feeds:
                        await self._ensure_group(feed)
                    cursor = "0"
                    continue
                if once:
                    raise
                log.exception("%s projection failed", self.group)
                cursor = ">"  # what failed stays pending; the periodic claim retries it
                await asyncio.sleep(1)
            except Exception:  # keep the projection alive; the entries stay pending
                if once:
                    raise  # a rebuild that cannot apply everything must say so
                log.exception("%s projection failed", self.group)
                cursor = ">"
                await asyncio.sleep(1)

    async def _claim_stale(self, shard: str) -> None:
        """Entries a dead consumer left pending are taken over and applied (idempotently)."""
        _, entries, *_ = await self.redis.xautoclaim(
            keys.feed(shard), self.group, self.consumer, CLAIM_IDLE_MS, start_id="0-0", count=100
        )
        if entries:
            await self.apply({shard: by_game(entries)})

    async def read_many(self, ranges: dict[str, tuple[int, int]]) -> dict[str, list[Folded]]:
        """Several games' events in one round trip (game -> (after, upto)), each decoded only
        as far as folding needs; a projection decodes the fields it reads."""
        logs = await self.store.read_many_raw(ranges)
        return {game_id: [read_folded(raw) for raw in log] for game_id, log in logs.items()}

    async def write(self, writes: list[tuple[str, Updates, dict[str, dict]]]) -> None:
        """Per shard: write the read models' fields and acknowledge its entries in one
        script; every shard's script goes in one round trip."""
        for attempt in range(2):
            if self._write_sha is None:
                self._write_sha = await self.redis.script_load(WRITE_AND_ACK)
            # EVALSHA itself: redis-py's script objects ask SCRIPT EXISTS on every pipeline.
            pipe = self.redis.pipeline(transaction=False)
            for shard, updates, hashes in writes:
                ids = [entry_id for entry_ids, _ in updates.values() for entry_id in entry_ids]
                args: list[Any] = [self.group, len(ids), *ids]
                for pairs in hashes.values():
                    args.append(len(pairs))
                    for field, value in pairs.items():
                        args += [field, value]
                pipe.evalsha(self._write_sha, 1 + len(hashes), keys.feed(shard), *hashes, *args)
            try:
                await pipe.execute()
                return
            except NoScriptError:  # the server restarted and lost its scripts: load again
                self._write_sha = None
                if attempt:
                    raise

    async def apply(self, batches: dict[str, Updates]) -> None:
        """Apply a batch of feed entries: per shard, one update per game."""
        raise NotImplementedError


class LobbyProjection(Projection):
    group = "lobby"

    def __init__(self, redis: Redis, store: EventStore) -> None:
        super().__init__(redis, store)
        self._final = {n: r.final_event.__struct_config__.tag for n, r in GAMES.items()}

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = {g: last for updates in batches.values() for g, (_, last) in updates.items()}
        known = await lobby.summaries(self.redis, list(last))
        behind = {
            g: (summary.seq if summary else 0, last[g])
            for g, summary in known.items()
            if summary is None or summary.seq < last[g]
        }
        changed = []
        for game_id, envelopes in (await self.read_many(behind)).items():
            summary = known[game_id]
            for envelope in envelopes:
                summary = self._fold(game_id, summary, envelope)
            if summary is not None:
                changed.append(summary)
        # The summaries first, then the acknowledgements: an entry redelivered after a crash
        # between the two finds its summary written and changes nothing.
        await lobby.write(self.redis, changed)
        await self.write([(shard, updates, {}) for shard, updates in batches.items()])

    def _fold(self, game_id: str, summary: LobbyGame | None, envelope: Folded) -> LobbyGame:
        if envelope.type == "game_created":
            data = msgspec.json.decode(envelope.data)
            return LobbyGame(
                id=game_id,
                game=data["game"],
                status="open",
                seats=data["seats"],
                players=[],
                created_at=envelope.at,
                seq=envelope.seq,
            )
        assert summary is not None
        if envelope.type == "player_joined":
            summary.players.append(msgspec.json.decode(envelope.data)["name"])
        elif envelope.type == "game_started":
            summary.status = "active"
        elif envelope.type == self._final[summary.game]:
            summary.status = "finished"
        elif envelope.type == "game_abandoned":
            summary.status = "abandoned"
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

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = {g: last for updates in batches.values() for g, (_, last) in updates.items()}
        pipe = self.redis.pipeline(transaction=False)
        for game_id in last:
            pipe.hmget(rounds_key(game_id), ["_seq", "_current"])
        marks = dict(zip(last, await pipe.execute(), strict=True))
        behind = {
            g: (int(done or 0), last[g])
            for g, (done, _) in marks.items()
            if int(done or 0) < last[g]
        }
        hashes: dict[str, dict[str, bytes]] = {}
        for game_id, envelopes in (await self.read_many(behind)).items():
            current_raw = marks[game_id][1]
            current = msgspec.json.decode(current_raw, type=RoundIndex) if current_raw else None
            changed: dict[str, RoundIndex] = {}
            for envelope in envelopes:
                number = (
                    msgspec.json.decode(envelope.data)["round"]
                    if envelope.type == "round_started"
                    else None
                )
                if number is not None and (current is None or current.round != number):
                    current = RoundIndex(number, envelope.seq, envelope.seq)
                elif current is not None:
                    current.last_seq = envelope.seq
                    current.scored = current.scored or envelope.type == "round_scored"
                if current is not None:
                    changed[str(current.round)] = msgspec.structs.replace(current)
            pairs = {name: msgspec.json.encode(index) for name, index in changed.items()}
            if current is not None:
                pairs["_current"] = msgspec.json.encode(current)
            pairs["_seq"] = str(last[game_id]).encode()
            hashes[game_id] = pairs
        await self.write(
            [
                (shard, updates, {rounds_key(g): hashes[g] for g in updates if g in hashes})
                for shard, updates in batches.items()
            ]
        )


class PlayerResult(msgspec.Struct):
    game_id: str
    game: str
    score: int
    won: bool


class PlayersProjection(Projection):
    """Each finished game's result for each of its players."""

    group = "players"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = {g: last for updates in batches.values() for g, (_, last) in updates.items()}
        tails = await self.read_many({g: (seq - 1, seq) for g, seq in last.items()})
        ended = [g for g, tail in tails.items() if tail and tail[-1].type == "seed_revealed"]
        results: dict[str, dict[str, bytes]] = {}
        for game_id, envelopes in (await self.read_many(dict.fromkeys(ended, (0, 2**62)))).items():
            rules = GAMES[msgspec.json.decode(envelopes[0].data)["game"]]
            codec = CODECS[rules.name]
            table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]
            for envelope in envelopes[1:]:
                tables.evolve(table, rules, codec.event(envelope))
            # An abandoned game has no winner and counts in nobody's record.
            if rules.standings is not None and table.status == "finished":
                results[game_id] = {
                    f"{table.players[seat].name}\x1f{game_id}": msgspec.json.encode(
                        PlayerResult(game_id=game_id, game=rules.name, score=score, won=won)
                    )
                    for seat, (score, won) in enumerate(rules.standings(table.state))
                }
        await self.write(
            [
                (
                    shard,
                    updates,
                    {
                        players_key(shard): {
                            k: v for g in updates for k, v in results.get(g, {}).items()
                        }
                    },
                )
                for shard, updates in batches.items()
            ]
        )


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
        doomed = [players_key(shard)]
        doomed += [k async for k in redis.scan_iter(match=f"{keys.PREFIX}:{{{shard}}}:rounds:*")]
        await redis.delete(*doomed)
    await lobby.drop(redis)
    await asyncio.gather(*(p(redis, store).catch_up() for p in PROJECTIONS))
    await file_due(redis)


async def file_due(redis: Redis) -> None:
    """Every game that is not over, filed in its shard's due set for the sweep to look at
    now (unless it is due sooner): a store written before the due sets existed, or one whose
    due sets were lost, gets its timers, bot moves and expiries back."""
    seconds, micros = await redis.time()
    at = seconds * 1000 + micros // 1000
    for status in ("open", "active"):
        game_ids = [_text(g) for g in await redis.zrange(lobby.index(status, None), 0, -1)]
        for first in range(0, len(game_ids), 1000):
            pipe = redis.pipeline(transaction=False)
            for game_id in game_ids[first : first + 1000]:
                pipe.zadd(keys.GameKeys(game_id).due, {game_id: at}, lt=True)
            await pipe.execute()


async def lag(redis: Redis) -> dict[str, dict[str, int]]:
    """Per projection: feed entries not yet applied, and how long (ms, by the server's clock)
    the oldest of them has waited: a delivered but unacknowledged entry, or else the first
    one not yet delivered."""
    out = {p.group: {"entries": 0, "ms": 0} for p in PROJECTIONS}
    seconds, micros = await redis.time()
    now = seconds * 1000 + micros // 1000
    for shard in keys.all_shards():
        feed = keys.feed(shard)
        try:
            groups = await redis.xinfo_groups(feed)
        except ResponseError:
            continue
        for group in groups:
            name = _text(group["name"])
            if name not in out:
                continue
            pending = int(group.get("pending") or 0)
            undelivered = int(group.get("lag") or 0)
            if not pending + undelivered:
                continue
            oldest: list[str] = []
            if pending:
                first_pending = (await redis.xpending(feed, name))["min"]
                if first_pending is not None:  # unless acknowledged since
                    oldest.append(_text(first_pending))
            if undelivered:
                first = await redis.xrange(
                    feed, "(" + _text(group["last-delivered-id"]), "+", count=1
                )
                oldest += [_text(entry_id) for entry_id, _ in first]
            out[name]["entries"] += pending + undelivered
            if oldest:
                since = min(int(entry_id.split("-")[0]) for entry_id in oldest)
                out[name]["ms"] = max(out[name]["ms"], max(0, now - since))
    return out


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


async def player_results(redis: Redis, name: str) -> list[PlayerResult]:
    """Every finished game of the player `name`, from the 16 shards' hashes."""
    pattern = "".join("\\" + c if c in "*?[]\\" else c for c in name) + "\x1f*"
    decode = msgspec.json.Decoder(PlayerResult).decode
    results = []
    for shard in keys.all_shards():
        async for _, raw in redis.hscan_iter(players_key(shard), match=pattern, count=500):
            results.append(decode(raw))
    return results
