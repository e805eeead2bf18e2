"""Projections: read models fed by the shard feeds, each through its own consumer group.

A read model only moves forward. Every write is conditional, inside the script that makes
it, on the seq of the game it reflects: a lobby summary or a game's round index replaces
what is stored only if that is older, and a player's result, written once the game's log is
closed, never replaces one. So any number of consumers may apply a feed, an entry may be
redelivered or claimed, and a write that arrives late changes nothing.

- lobby: a summary per game, indexed by status and kind (service/readmodels/lobby.py);
- rounds: per game, the seq range of every round (`dg:{sNN}:rounds:<game>`), which
  `GET /v1/games/{id}/rounds/{n}` turns into a round summary;
- players: each finished game's result per registered player (`dg:{p:<id>}:results`,
  service/play/players.py); anonymous seats count in no one's record.

Every `upkeep_seconds` a consumer claims what a dead consumer left pending and trims the
feeds to what every group has acknowledged (events/feeds.py). An entry that still fails on
its own after `attempts` deliveries goes to the dead letters (service/readmodels/dead_letters.py).
`danger projections rebuild` builds every model again from the game streams themselves,
beside the live ones (service/readmodels/rebuild.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import Any, TypeVar

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from domain.kernel import table as tables
from domain.registry import GAMES
from events import feeds as feed_upkeep
from events import keys
from events.cluster import in_slices, read_streams, run_scripts
from events.envelope import Folded, read_folded
from events.store import EventStore
from service.infra.bell import FALLBACK_SECONDS, Bell, Listener, listening
from service.infra.config import ProjectionSettings
from service.infra.lua import Script
from service.play import players
from service.play.game_model import CODECS
from service.play.players import PlayerResult
from service.readmodels import dead_letters, lobby
from service.readmodels.lobby import LobbyGame

log = logging.getLogger("danger.projections")
T = TypeVar("T")
CLAIM_IDLE_MS = 30_000  # an entry pending this long is taken over and applied again
STOP_SECONDS = 5.0  # a consumer told to stop finishes the read and apply under way, so long
FULL_UPKEEP_EVERY = 6  # of the upkeeps, one looks at every feed; the others at those in use
ENTRIES_PER_READ = 500  # feed entries per feed and read
SETTLE_SECONDS = 0.02  # after a batch, wait this long for the next to gather
OUTAGE = (RedisConnectionError, RedisTimeoutError, OSError)
"""The store is away: no fault of the entries being applied, which are read again later."""

Entry = tuple[bytes, dict[bytes, bytes]]

# KEYS: 1 the feed. ARGV: 1 group, then the entry ids to acknowledge.
ACK = Script("""
for j = 2, #ARGV do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
return 1
""")

# KEYS: 1 the feed, then one game's rounds hash each. ARGV: 1 group, 2 n, then n entry ids
# to acknowledge, then for each hash: the seq it reflects, its number of pairs, the pairs.
# A hash whose `_seq` is as new already is left as it is.
WRITE_ROUNDS = Script("""
local n = tonumber(ARGV[2])
local i = 3 + n
for k = 2, #KEYS do
  local seq, pairs = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local done = tonumber(redis.call('HGET', KEYS[k], '_seq') or '0')
  if done < seq then
    for j = i + 2, i + 1 + 2 * pairs, 2 do redis.call('HSET', KEYS[k], ARGV[j], ARGV[j + 1]) end
  end
  i = i + 2 + 2 * pairs
end
for j = 3, 2 + n do redis.call('XACK', KEYS[1], ARGV[1], ARGV[j]) end
return 1
""")

Updates = dict[str, tuple[list[bytes], int]]
"""Per game in a batch of feed entries: the entry ids, and the last seq they announce."""


def by_game(entries: list[Entry]) -> Updates:
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


# Folds, shared by the consumers (from the model's last seq) and the rebuild (from zero) ----

FINAL = {name: rules.final_event.__struct_config__.tag for name, rules in GAMES.items()}


def fold_summary(
    game_id: str, summary: LobbyGame | None, envelopes: list[Folded]
) -> LobbyGame | None:
    """A game's lobby summary, `summary` (None: none yet) moved on by the events."""
    for envelope in envelopes:
        if envelope.type == "game_created":
            data = msgspec.json.decode(envelope.data)
            summary = LobbyGame(
                id=game_id,
                game=data["game"],
                status="open",
                seats=data["seats"],
                players=[],
                created_at=envelope.at,
                seq=envelope.seq,
                private=bool(data.get("private")),
            )
            continue
        if summary is None:
            raise ValueError(f"game {game_id}: event {envelope.seq} comes before its creation")
        if envelope.type in ("player_joined", "seat_left"):
            _seat(summary, msgspec.json.decode(envelope.data))
        elif envelope.type == "game_started":
            summary.status = "active"
        elif envelope.type == FINAL[summary.game]:
            summary.status = "finished"
        elif envelope.type == "game_abandoned":
            summary.status = "abandoned"
        summary.seq = envelope.seq
    return summary


def _seat(summary: LobbyGame, data: dict[str, Any]) -> None:
    """A seat taken (a name given) or given up: the players listed by seat."""
    seated = summary.seated or list(range(len(summary.players)))
    pairs = [(s, n) for s, n in zip(seated, summary.players, strict=True) if s != data["seat"]]
    if "name" in data:
        pairs = sorted([*pairs, (data["seat"], data["name"])])
    summary.seated, summary.players = [s for s, _ in pairs], [n for _, n in pairs]


class RoundIndex(msgspec.Struct):
    round: int
    first_seq: int
    last_seq: int
    scored: bool = False


def fold_rounds(
    current: RoundIndex | None, envelopes: list[Folded]
) -> tuple[dict[str, RoundIndex], RoundIndex | None]:
    """The rounds the events changed (by number), and the round in play after them:
    round_started opens a round, round_scored closes it, and what follows a game's last
    scoring (its end) belongs to its last round."""
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
    return changed, current


def round_fields(
    changed: dict[str, RoundIndex], current: RoundIndex | None, seq: int
) -> dict[str, bytes]:
    """A rounds hash's fields: the rounds changed, the round in play, and the seq reached."""
    pairs = {name: msgspec.json.encode(index) for name, index in changed.items()}
    if current is not None:
        pairs["_current"] = msgspec.json.encode(current)
    pairs["_seq"] = str(seq).encode()
    return pairs


def player_results_of(game_id: str, envelopes: list[Folded]) -> dict[str, bytes]:
    """A game's whole log -> its result per registered player (by player id), if it
    finished: an abandoned game has no winner and counts in nobody's record, and an
    anonymous seat counts in no one's."""
    rules = GAMES[msgspec.json.decode(envelopes[0].data)["game"]]
    codec = CODECS[rules.name]
    table = tables.from_created(rules, codec.event(envelopes[0]))  # type: ignore[arg-type]
    for envelope in envelopes[1:]:
        tables.evolve(table, rules, codec.event(envelope))
    if rules.standings is None or table.status != "finished":
        return {}
    return {
        table.players[seat].player: msgspec.json.encode(  # type: ignore[misc]
            PlayerResult(game_id=game_id, game=rules.name, score=score, won=won)
        )
        for seat, (score, won) in enumerate(rules.standings(table.state))
        if table.players[seat].player is not None
    }


def is_closed(envelopes: list[Folded]) -> bool:
    """The log is closed: its last event reveals the seed."""
    return bool(envelopes) and envelopes[-1].type == "seed_revealed"


# The consumers ----------------------------------------------------------------------------


class Projection:
    """One consumer group over every shard feed."""

    group = ""

    def __init__(
        self,
        redis: Redis,
        store: EventStore,
        settings: ProjectionSettings | None = None,
        bell: Bell | None = None,
    ) -> None:
        self.redis = redis
        self.store = store
        self.settings = settings or ProjectionSettings()
        self.bell = bell  # the process's (service/infra/bell.py); None: one of its own
        self.consumer = f"{socket.gethostname()}-{os.getpid()}"
        self.errors = 0
        """Failed attempts to apply a batch or an entry, since this consumer started."""
        self.last_error: str | None = None
        self._holding: set[str] | None = None  # shards whose feeds may hold entries (None: any)
        self._upkeeps = 0

    async def run(self) -> None:
        await self._run()

    async def catch_up(self) -> None:
        """Apply everything the feeds hold now, then return."""
        await self._run(once=True)

    async def _ensure_groups(self, feeds: list[str]) -> None:
        """Each feed's consumer group, made where missing (BUSYGROUP: it exists already)."""
        def add(pipe: Any, feed: str) -> None:
            pipe.xgroup_create(feed, self.group, id="0", mkstream=True)

        for reply in await in_slices(self.redis, feeds, add, raise_on_error=False):
            if isinstance(reply, Exception) and "BUSYGROUP" not in str(reply):
                raise reply

    async def _run(self, once: bool = False) -> None:
        """Read the feeds that rang (service/infra/bell.py; every feed at the start, after a
        failure and now and then), apply what came per shard, and let the next batch gather
        for a moment: under load a batch holds many commands, so the reads and writes per
        command fall as the load rises. A feed is read with its own XREADGROUP in a cluster,
        with the others of its group on a single server (events/cluster.py)."""
        feeds = {keys.feed(shard): shard for shard in keys.all_shards()}
        await self._ensure_groups(list(feeds))
        async with listening(self.bell, self.redis, quiet=once) as bell:
            await self._loop(feeds, bell, once)

    async def _loop(self, feeds: dict[str, str], bell: Listener, once: bool) -> None:
        cursor = "0"  # first what this consumer left pending, then new entries
        wanted: set[str] | None = None  # the feeds to read next (None: every feed)
        loop = asyncio.get_running_loop()
        upkeep_at = loop.time()
        retry_at: float | None = None  # when to read again what failed
        while True:
            try:
                if retry_at is not None and loop.time() >= retry_at:
                    cursor, retry_at = "0", None
                names = list(feeds) if wanted is None or cursor == "0" else sorted(wanted)
                step = asyncio.ensure_future(self._step(feeds, names, cursor, once))
                reply, batches, applied = await _finishing(step)
                if cursor == "0" and not batches:
                    cursor, wanted = ">", None
                    continue
                if once and cursor == ">" and not batches:
                    return
                if not applied:
                    # What failed stays pending: read the new entries, and it again later.
                    cursor = ">"
                    retry_at = loop.time() + self.settings.retry_seconds
                if not once and loop.time() - upkeep_at > self.settings.upkeep_seconds:
                    upkeep_at = loop.time()  # under any load: a busy feed must not hide these
                    await self._upkeep(self._to_keep_up(list(feeds.values())))
                if once or cursor == "0":
                    wanted = None
                    continue
                if batches:
                    await asyncio.sleep(SETTLE_SECONDS)
                full = {_text(n) for n, entries in reply if len(entries) >= ENTRIES_PER_READ}
                rung = bell.take()
                if full or rung is None or rung:
                    wanted = None if rung is None else (full | rung) & feeds.keys()
                    continue
                timeout = upkeep_at + self.settings.upkeep_seconds - loop.time()
                if retry_at is not None:
                    timeout = min(timeout, retry_at - loop.time())
                rung = await bell.wait(max(0.0, min(FALLBACK_SECONDS, timeout)))
                wanted = None if rung is None else rung & feeds.keys()
            except asyncio.CancelledError:
                raise
            except ResponseError as exc:
                if "NOGROUP" in str(exc):  # the feed was lost: start again from 0
                    await self._ensure_groups(list(feeds))
                    cursor, wanted = "0", None
                    continue
                if once:
                    raise
                self._failed(exc)
                cursor, wanted = "0", None
                await asyncio.sleep(self.settings.retry_seconds)
            except Exception as exc:  # keep the projection alive; the entries stay pending
                if once:
                    raise  # a catch-up that cannot apply everything must say so
                self._failed(exc)
                cursor, wanted = "0", None
                await asyncio.sleep(self.settings.retry_seconds)

    async def _step(
        self, feeds: dict[str, str], names: list[str], cursor: str, once: bool
    ) -> tuple[Any, dict[str, list[Entry]], bool]:
        """Read the feeds `names` from `cursor` and apply what came: the reply, the batches
        by shard, and False if some entry failed and stays pending."""
        reply = await read_streams(
            self.redis, dict.fromkeys(names, cursor), ENTRIES_PER_READ, (self.group, self.consumer)
        )
        batches = {feeds[_text(name)]: entries for name, entries in reply if entries}
        if self._holding is not None:
            self._holding.update(batches)
        applied = await self._apply_each(batches, once) if batches else True
        return reply, batches, applied

    def _failed(self, exc: BaseException) -> None:
        self.errors += 1
        self.last_error = f"{type(exc).__name__}: {exc}"[:500]
        log.error("%s projection failed: %s", self.group, self.last_error, exc_info=exc)

    async def _apply_each(self, batches: dict[str, list[Entry]], once: bool = False) -> bool:
        """Apply a batch; if it fails, each of its entries on its own, so one that cannot be
        applied holds back no other. False if some entry failed and stays pending."""
        try:
            await self.apply({shard: by_game(entries) for shard, entries in batches.items()})
            return True
        except OUTAGE:
            raise
        except ResponseError as exc:
            if once or "NOGROUP" in str(exc):
                raise
            self._failed(exc)
        except Exception as exc:
            if once:
                raise
            self._failed(exc)
        applied = True
        for shard, entries in batches.items():
            for entry in entries:
                try:
                    await self.apply({shard: by_game([entry])})
                except OUTAGE:
                    raise
                except Exception as exc:
                    if isinstance(exc, ResponseError) and "NOGROUP" in str(exc):
                        raise
                    applied = await self._set_aside_if_spent(shard, entry, exc) and applied
        return applied

    async def _set_aside_if_spent(self, shard: str, entry: Entry, exc: Exception) -> bool:
        """An entry that failed on its own: a dead letter once it has been delivered
        `attempts` times (deliveries are counted by the server, across consumers and
        restarts). True if it is out of the way."""
        entry_id, fields = entry
        feed = keys.feed(shard)
        pending = await self.redis.xpending_range(
            feed, self.group, min=entry_id, max=entry_id, count=1
        )
        if not pending:
            return True  # acknowledged meanwhile, by a consumer that claimed it
        delivered = int(pending[0]["times_delivered"])
        error = f"{type(exc).__name__}: {exc}"
        if delivered < self.settings.attempts:
            log.warning(
                "%s: feed entry %s of %s failed (delivery %d of %d): %s",
                self.group,
                _text(entry_id),
                shard,
                delivered,
                self.settings.attempts,
                error,
            )
            return False
        if await dead_letters.add(
            self.redis, shard, self.group, entry_id, fields, error, delivered
        ):
            log.error(
                "%s: feed entry %s of %s set aside as a dead letter after %d deliveries: %s",
                self.group,
                _text(entry_id),
                shard,
                delivered,
                error,
            )
        return True

    def _to_keep_up(self, every: list[str]) -> list[str]:
        """The shards the next upkeep looks at: those whose feeds this consumer has read
        entries from or found holding some, and now and then every one (what another consumer
        read and left, or a dead one left pending). Its cost follows the feeds in use, not
        the number of shards (1,024)."""
        self._upkeeps += 1
        if self._holding is None or self._upkeeps % FULL_UPKEEP_EVERY == 0:
            return every
        return sorted(self._holding)

    async def _upkeep(self, shards: list[str]) -> None:
        """Claim what dead consumers left pending, and trim the feeds: of the feeds that hold
        anything (an entry is never trimmed while pending), found with one XLEN each."""
        lengths = await in_slices(self.redis, shards, lambda pipe, s: pipe.xlen(keys.feed(s)))
        looked_at = set(shards)
        shards = [shard for shard, length in zip(shards, lengths, strict=True) if length]
        self._holding = (self._holding or set()) - looked_at | set(shards)
        if not shards:
            return
        await self._claim_stale(shards)
        seconds, micros = await self.redis.time()
        keep_since = seconds * 1000 + micros // 1000 - int(self.settings.feed_keep_seconds * 1000)
        groups = [p.group for p in PROJECTIONS]
        await feed_upkeep.trim_all(self.redis, [keys.feed(s) for s in shards], groups, keep_since)

    async def _claim_stale(self, shards: list[str]) -> None:
        """Entries a dead consumer left pending are taken over and applied (idempotently)."""
        def add(pipe: Any, shard: str) -> None:
            feed = keys.feed(shard)
            pipe.xautoclaim(feed, self.group, self.consumer, CLAIM_IDLE_MS, "0-0", count=100)

        claimed = await in_slices(self.redis, shards, add)
        for shard, (_, entries, *_) in zip(shards, claimed, strict=True):
            entries = [entry for entry in entries if entry[1]]
            if entries:
                await self._apply_each({shard: entries})

    async def read_many(self, ranges: dict[str, tuple[int, int]]) -> dict[str, list[Folded]]:
        """Several games' events in one round trip (game -> (after, upto)), each decoded only
        as far as folding needs; a projection decodes the fields it reads."""
        logs = await self.store.read_many_raw(ranges)
        return {game_id: [read_folded(raw) for raw in log] for game_id, log in logs.items()}

    async def eval_all(self, script: Script, calls: list[tuple[list[str], list[Any]]]) -> None:
        """One script per call, in as few round trips as the store allows."""
        await run_scripts(self.redis, script, calls)

    async def apply(self, batches: dict[str, Updates]) -> None:
        """Apply a batch of feed entries: per shard, one update per game."""
        raise NotImplementedError


def _ids(updates: Updates) -> list[bytes]:
    return [entry_id for entry_ids, _ in updates.values() for entry_id in entry_ids]


def _last(batches: dict[str, Updates]) -> dict[str, int]:
    return {g: last for updates in batches.values() for g, (_, last) in updates.items()}


class LobbyProjection(Projection):
    group = "lobby"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = _last(batches)
        known = await lobby.summaries(self.redis, list(last))
        behind = {
            g: (summary.seq if summary else 0, last[g])
            for g, summary in known.items()
            if summary is None or summary.seq < last[g]
        }
        changed = []
        for game_id, envelopes in (await self.read_many(behind)).items():
            summary = fold_summary(game_id, known[game_id], envelopes)
            if summary is not None:
                changed.append(summary)
        await self.commit(batches, changed)

    async def commit(self, batches: dict[str, Updates], changed: list[LobbyGame]) -> None:
        # The summaries first, then the acknowledgements: an entry redelivered after a crash
        # between the two finds its summary written and changes nothing.
        await lobby.write(self.redis, changed)
        await self.eval_all(
            ACK, [([keys.feed(shard)], [self.group, *_ids(u)]) for shard, u in batches.items()]
        )


class RoundsProjection(Projection):
    """Where each round's events lie (fold_rounds)."""

    group = "rounds"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = _last(batches)
        pipe = self.redis.pipeline(transaction=False)
        for game_id in last:
            pipe.hmget(rounds_key(game_id), ["_seq", "_current"])
        marks = dict(zip(last, await pipe.execute(), strict=True))
        behind = {
            g: (int(done or 0), last[g])
            for g, (done, _) in marks.items()
            if int(done or 0) < last[g]
        }
        hashes: dict[str, tuple[int, dict[str, bytes]]] = {}
        for game_id, envelopes in (await self.read_many(behind)).items():
            current_raw = marks[game_id][1]
            current = msgspec.json.decode(current_raw, type=RoundIndex) if current_raw else None
            changed, current = fold_rounds(current, envelopes)
            hashes[game_id] = (last[game_id], round_fields(changed, current, last[game_id]))
        await self.commit(batches, hashes)

    async def commit(
        self, batches: dict[str, Updates], hashes: dict[str, tuple[int, dict[str, bytes]]]
    ) -> None:
        """Per shard, one script writes each game's changed rounds, unless its hash reflects
        as late a seq already, and acknowledges the entries."""
        calls = []
        for shard, updates in batches.items():
            games = [g for g in updates if g in hashes]
            args: list[Any] = [self.group, len(_ids(updates)), *_ids(updates)]
            for game_id in games:
                seq, pairs = hashes[game_id]
                args += [seq, len(pairs), *(x for kv in pairs.items() for x in kv)]
            calls.append(([keys.feed(shard), *map(rounds_key, games)], args))
        await self.eval_all(WRITE_ROUNDS, calls)


class PlayersProjection(Projection):
    """Each finished game's result for each of its registered players."""

    group = "players"

    async def apply(self, batches: dict[str, Updates]) -> None:
        last = _last(batches)
        tails = await self.read_many({g: (seq - 1, seq) for g, seq in last.items()})
        ended = [g for g, tail in tails.items() if is_closed(tail)]
        by_player: dict[str, dict[str, bytes]] = {}
        for game_id, envelopes in (await self.read_many(dict.fromkeys(ended, (0, 2**62)))).items():
            for player_id, result in player_results_of(game_id, envelopes).items():
                by_player.setdefault(player_id, {})[game_id] = result
        await players.file_results(self.redis, by_player)  # each once: before the ack
        calls = [([keys.feed(shard)], [self.group, *_ids(u)]) for shard, u in batches.items()]
        await self.eval_all(ACK, calls)


PROJECTIONS: tuple[type[Projection], ...] = (LobbyProjection, RoundsProjection, PlayersProjection)
GROUPS = [p.group for p in PROJECTIONS]


def consumers(
    redis: Redis,
    store: EventStore,
    settings: ProjectionSettings | None = None,
    bell: Bell | None = None,
) -> list[Projection]:
    """One consumer of each projection: what a process runs (service/assembly/background.py),
    and whose `errors` and `last_error` /health shows."""
    return [p(redis, store, settings, bell) for p in PROJECTIONS]


async def _finishing(step: asyncio.Future[T]) -> T:
    """The step's result. A consumer stopped while it reads and applies (a process shutting
    down) first finishes the step, for at most STOP_SECONDS: what the feeds gave it would
    otherwise stay pending under a consumer that is gone, for CLAIM_IDLE_MS, before another
    takes it over (a lobby half a minute behind after every restart of a process)."""
    try:
        return await asyncio.shield(step)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(step, STOP_SECONDS)
        raise


async def lag(redis: Redis) -> dict[str, dict[str, int]]:
    """Per projection: feed entries not yet applied, and how long (ms, by the server's clock)
    the oldest of them has waited: a delivered but unacknowledged entry, or else the first
    one not yet delivered. Three round trips (per node) whatever the number of shards."""
    out = {p.group: {"entries": 0, "ms": 0} for p in PROJECTIONS}
    seconds, micros = await redis.time()
    now = seconds * 1000 + micros // 1000
    feeds = [keys.feed(shard) for shard in keys.all_shards()]
    infos = await in_slices(redis, feeds, lambda pipe, f: pipe.xinfo_groups(f), False)
    behind = []  # (feed, group name, pending, undelivered, last delivered id)
    for feed, groups in zip(feeds, infos, strict=True):
        if isinstance(groups, Exception):  # no such feed yet
            continue
        for group in groups:
            name = _text(group["name"])
            pending = int(group.get("pending") or 0)
            undelivered = int(group.get("lag") or 0)
            if name in out and pending + undelivered:
                behind.append((feed, name, pending, undelivered, _text(group["last-delivered-id"])))
    if not behind:
        return out
    def add(pipe: Any, lagging: tuple[str, str, int, int, str]) -> None:
        feed, name, _, _, last = lagging
        pipe.xpending(feed, name)
        pipe.xrange(feed, "(" + last, "+", count=1)

    replies = iter(await in_slices(redis, behind, add))
    for _, name, pending, undelivered, _ in behind:
        first_pending, first_new = next(replies)["min"], next(replies)
        oldest: list[str] = []
        if pending and first_pending is not None:  # unless acknowledged since
            oldest.append(_text(first_pending))
        if undelivered:
            oldest += [_text(row[0]) for row in first_new]
        out[name]["entries"] += pending + undelivered
        if oldest:
            since = min(int(entry_id.split("-")[0]) for entry_id in oldest)
            out[name]["ms"] = max(out[name]["ms"], max(0, now - since))
    return out


async def health(
    redis: Redis, running: list[Projection] | None = None
) -> dict[str, dict[str, int]]:
    """Per projection, what /health shows: its lag (`entries`, `ms`), the dead letters kept
    (`dead_letters`, over every consumer), and the failed attempts of the consumers running
    in this process since they started (`errors`; 0 where none runs)."""
    out = await lag(redis)
    for group, count in (await dead_letters.counts(redis, GROUPS)).items():
        out[group]["dead_letters"] = count
        out[group]["errors"] = 0
    for projection in running or []:
        out[projection.group]["errors"] += projection.errors
    return out


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


