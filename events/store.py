"""The event store: one Redis stream per game, ids 0-<seq>, appended by one Lua script."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .cluster import Store, on_one_connection
from .envelope import Envelope, canonical
from .keys import PREFIX, GameKeys, all_shards, due
from .replicas import Replicas

APPEND_LUA = files("events").joinpath("append.lua").read_text()
APPEND_SHA = hashlib.sha1(APPEND_LUA.encode()).hexdigest()  # the name the server gives it
# How long the first answer to a keyed request is kept for its retries (DANGER_IDEMPOTENCY_HOURS).
KEEP_MS = 24 * 3600 * 1000
# How long a reader waits for replicas to confirm what it read (a healthy replica answers in
# a millisecond or two; a reader that finds none tries again rather than stall its others).
HELD_WAIT_MS = 100
decode_envelope = msgspec.json.Decoder(Envelope).decode


@dataclass(frozen=True)
class Appended:
    last_seq: int


@dataclass(frozen=True)
class Conflict:
    """The stream had moved past the seq the command was decided against. `tail`: the stored
    envelopes from that seq on, as read, when the caller was a few events behind (empty
    when it was far behind: it reads them itself)."""

    actual_seq: int
    tail: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class Forked(Conflict):
    """The stream is at the expected seq, but its last event is not the expected head: the
    caller's fold is of a history the store no longer holds."""


@dataclass(frozen=True)
class Duplicate:
    """The idempotency key was used before, by a request with this fingerprint."""

    fingerprint: str
    first_seq: int
    last_seq: int


@dataclass(frozen=True)
class Retried(Duplicate):
    """A seat's command sent again without a key: the one its seat sent last, which was
    written but answered 503, and whose last event is still the game's last."""


@dataclass(frozen=True)
class Unanswered:
    """A seat's command whose append may be written but was answered 503: its retry, with
    the same body, while its last event (`hash`) is the game's last, is answered from it."""

    seat: int
    fingerprint: str
    first_seq: int
    last_seq: int
    hash: str

    def __str__(self) -> str:
        return f"{self.fingerprint}|{self.first_seq}|{self.last_seq}|{self.hash}"

    @classmethod
    def parse(cls, seat: int, record: str) -> Unanswered:
        fingerprint, first, last, digest = record.rsplit("|", 3)
        return cls(seat, fingerprint, int(first), int(last), digest)


UNANSWERED_MAX = 1024
"""Unanswered commands one process keeps while the store cannot take their records (a
failover): each is written at the next append on its game. Beyond, the oldest is dropped."""


@dataclass(frozen=True)
class Refusal:
    """The idempotency key was first used by a request the rules refused: its answer."""

    fingerprint: str
    status: int
    code: str
    detail: str


_refusal = msgspec.json.Decoder(dict[str, str | int])


def parse_duplicate(record: str) -> Duplicate | Refusal:
    if record.startswith("{"):
        data = _refusal.decode(record)
        return Refusal(str(data["fp"]), int(data["status"]), str(data["code"]), str(data["detail"]))
    fingerprint, first, last = record.rsplit("|", 2)
    return Duplicate(fingerprint, int(first), int(last))


@dataclass(frozen=True)
class Copies:
    """An append is acknowledged only once this many replicas confirm it, within a bound.

    `WAITAOF 0 <replicas> <timeout>` counts a replica once its append-only file holds the
    write on disk (Valkey, Redis 7.2+); where the server has no WAITAOF, `WAIT` counts it
    once it holds the write in memory. Each waits for the offset of the connection's own
    last write, so they are sent on the connection that wrote, in the same pipeline.

    `WAIT` goes first even where WAITAOF follows: a replica answers the primary's request
    for an ack before its fsync, so a WAITAOF alone is confirmed by the replica's next
    periodic ack, about a second later; the request WAITAOF sends after WAIT reaches the
    replica once its fsync is done (docs/stack-notes.md)."""

    replicas: int
    timeout_ms: int
    on_disk: bool = True
    # No DANGER_DURABILITY: a primary with no replica online serves with its own fsync
    # (events/replicas.py), where `replicas:N` refuses.
    automatic: bool = False

    @property
    def waits(self) -> list[tuple[str | int, ...]]:
        wait: list[tuple[str | int, ...]] = [("WAIT", self.replicas, self.timeout_ms)]
        if self.on_disk:
            wait.append(("WAITAOF", 0, self.replicas, self.timeout_ms))
        return wait

    @property
    def name(self) -> str:
        return "WAIT+WAITAOF" if self.on_disk else "WAIT"

    def confirmed(self, replies: list[Any]) -> int:
        """How many replicas confirmed, from the replies to `waits`."""
        return int(replies[-1][1]) if self.on_disk else int(replies[-1])


class Unconfirmed(Exception):
    """The store wrote the append, but fewer replicas than required confirmed it in time:
    it may or may not survive a failover. A retry with the same idempotency key answers the
    first answer once it is confirmed, and never appends twice."""

    def __init__(self, confirmed: int, copies: Copies) -> None:
        super().__init__(
            f"{confirmed} of {copies.replicas} replicas confirmed within {copies.timeout_ms} ms"
        )
        self.confirmed = confirmed
        self.copies = copies


@dataclass(frozen=True)
class _Kept:
    """How an append was kept: `copies` it waited for and how many confirmed (no copies:
    the primary's own fsync is the guarantee)."""

    copies: Copies | None
    confirmed: int

    def require(self) -> None:
        if self.copies is not None and self.confirmed < self.copies.replicas:
            raise Unconfirmed(self.confirmed, self.copies)


def _at(node: Any) -> dict[str, Any]:
    return {} if node is None else {"target_nodes": node}


class EventStore:
    def __init__(
        self, redis: Store, copies: Copies | None = None, keep_ms: int = KEEP_MS
    ) -> None:
        self.redis = redis
        self.copies = copies  # None: the store's own fsync is the guarantee
        # Automatic: which primaries have a replica to wait for.
        self.replicas = Replicas(redis) if copies is not None and copies.automatic else None
        self.keep_ms = keep_ms  # how long an idempotency record lives
        # XRANGE's reply as the server sent it: redis-py rebuilds it entry by entry (ids,
        # field dicts) in Python, which costs more than the fold. A client made by
        # service/infra/connections.py answers so already (a cluster's too); another gets a twin
        # on the same connections.
        # Unanswered commands whose records the store could not take yet, by game.
        self.unanswered: dict[str, list[Unanswered]] = {}
        self._raw: Any = redis
        if not getattr(redis, "raw_xrange", False):
            assert isinstance(redis, Redis), "a cluster client has no pool to share"
            self._raw = Redis(connection_pool=redis.connection_pool)
            self._raw.set_response_callback("XRANGE", lambda reply, **_: reply)

    async def append(
        self,
        game_id: str,
        expected_seq: int,
        envelopes: list[Envelope],
        idempotency: tuple[str, str] | None = None,
        secrets: Mapping[str, str] | None = None,
        retry: tuple[int, str] | None = None,
    ) -> Appended | Conflict | Duplicate | Refusal:
        """Append `envelopes` decided against `expected_seq`. `retry` (seat, fingerprint),
        for a seat's command sent without a key: if its append is written but answered 503,
        a retry with the same body is answered from it (`Retried`) while its last event is
        the game's last."""
        keys = GameKeys(game_id)
        await self.write_unanswered(game_id)
        field, fingerprint = idempotency or ("", "")
        keep = self.keep_ms if idempotency else ""
        record = keys.idempotency(field)
        if idempotency is None and retry is not None:
            record, fingerprint = keys.retry(retry[0]), retry[1]
        pairs = [x for kv in (secrets or {}).items() for x in kv]
        head = envelopes[0].prev
        args: list[int | str | bytes]
        args = [expected_seq, game_id, keep, fingerprint, head, len(pairs) // 2, *pairs]
        args += [canonical(e) for e in envelopes]
        unanswered = None
        if idempotency is None and retry is not None:
            first, last = envelopes[0].seq, envelopes[-1].seq
            unanswered = Unanswered(retry[0], retry[1], first, last, envelopes[-1].hash)
        try:
            (status, value, *tail), kept = await self._eval_append(
                [keys.stream, keys.feed, record, keys.secrets, keys.due], args
            )
        except (RedisConnectionError, RedisTimeoutError):
            if unanswered is not None:  # written or not: a record of what was not is inert
                self._keep_unanswered(game_id, unanswered)
            raise
        status, value = _text(status), _text(value)
        if status == "ok":
            try:
                kept.require()
            except Unconfirmed:
                if unanswered is not None:
                    self._keep_unanswered(game_id, unanswered)
                    with contextlib.suppress(RedisError):  # kept here until it can be
                        await self.write_unanswered(game_id)
                raise
            return Appended(int(value))
        if status == "retry":
            assert retry is not None
            found = Unanswered.parse(retry[0], value)
            try:
                await self._confirm(keys.shard)
            except Unconfirmed:  # still unanswered: its record again, for the next retry
                self._keep_unanswered(game_id, found)
                with contextlib.suppress(RedisError):
                    await self.write_unanswered(game_id)
                raise
            return Retried(found.fingerprint, found.first_seq, found.last_seq)
        if status == "conflict":
            return Conflict(int(value), tuple(tail))
        if status == "forked":
            return Forked(int(value))
        answered = parse_duplicate(value)
        if isinstance(answered, Duplicate):
            await self._confirm(keys.shard)
        return answered

    async def _eval_append(self, keys: list[str], args: list[Any]) -> tuple[Any, _Kept]:
        """EVALSHA straight away (redis-py's script object costs a wrapper and a deprecation
        shim per call); a server without the script (restarted, or a replica just promoted)
        gets it with EVAL, on the node of the game's keys. With `copies`, the wait for the
        replicas follows on the same connection, in the same round trip: the reply and
        whether the copies asked for were confirmed."""
        for call in (("EVALSHA", APPEND_SHA), ("EVAL", APPEND_LUA)):
            script = (*call, len(keys), *keys, *args)
            try:
                return await self._with_copies(keys[0], script)
            except NoScriptError:
                continue
        raise AssertionError("EVAL answered NOSCRIPT")

    async def _with_copies(
        self, key: str, write: tuple[Any, ...], copies: Copies | None = None
    ) -> tuple[Any, _Kept]:
        """`write` on the node of `key`, then the wait for its copies where there are any
        to wait for (`copies`: the store's, unless given)."""
        copies, replicas = copies or self.copies, self.replicas
        node = None
        if replicas is not None:
            node = replicas.node_of(key)
            if not await replicas.waits(node):
                copies = None
        if copies is None:
            return await self.redis.execute_command(*write, **_at(node)), _Kept(None, 0)
        reply, *waited = await on_one_connection(self.redis, key, [write, *copies.waits], node)
        confirmed = copies.confirmed(waited)
        if replicas is not None and await replicas.stands(node, confirmed >= copies.replicas):
            return reply, _Kept(None, 0)
        return reply, _Kept(copies, confirmed)

    async def write_kept(self, key: str, *command: Any) -> Any:
        """`command`, a write on the node of `key`, kept as an append is: answered once the
        replicas the store promises confirm it (`Unconfirmed` otherwise)."""
        reply, kept = await self._with_copies(key, command)
        kept.require()
        return reply

    async def confirm(self, shard: str) -> None:
        """What the store holds of the shard now is confirmed by the replicas it promises
        (`Unconfirmed` otherwise)."""
        await self._confirm(shard)

    async def _confirm(self, shard: str, copies: Copies | None = None) -> None:
        """Confirm what the store holds already (an append answered again for a retry): the
        replication stream is ordered, so replicas that confirm a write made now hold every
        write before it. The write is a mark in the game's shard (its cluster slot)."""
        await self._confirm_mark(f"{PREFIX}:{{{shard}}}:mark", copies)

    async def _confirm_mark(self, mark: str, copies: Copies | None = None) -> None:
        if self.copies is None:
            return
        _, kept = await self._with_copies(mark, ("SET", mark, b"1"), copies)
        kept.require()

    async def kept_everywhere(self) -> None:
        """Every write made before this call, on every primary, is confirmed by the replicas
        an append waits for (`Unconfirmed` otherwise): a projection acknowledges the feed
        entries it applied only once the read models it wrote for them are kept as the
        events are, so a failover cannot take back a model whose entries are gone from the
        feed (tests/faults found a lobby that listed finished games as active)."""
        if self.copies is None:
            return
        await asyncio.gather(*(self._confirm_mark(mark) for mark in self._marks()))

    def _marks(self) -> list[str]:
        """A mark key on each primary."""
        if not isinstance(self.redis, RedisCluster):
            return [f"{PREFIX}:{{mark}}:mark"]
        primaries = {str(node.name) for node in self.redis.get_primaries()}
        found: dict[str, str] = {}
        for n in range(100_000):
            if primaries <= found.keys():
                break
            key = f"{PREFIX}:{{mark{n}}}:mark"
            found.setdefault(str(self.redis.get_node_from_key(key).name), key)
        return [found[name] for name in primaries if name in found]

    async def held(self, shards: Iterable[str]) -> set[str]:
        """The shards among `shards` whose every event read before this call survives the
        loss of their primary: confirmed by the replicas an append waits for (every shard,
        where there are none to wait for), one mark per node, within HELD_WAIT_MS. What a
        stream shows is held: an append answered 503 `not_replicated`, which a failover may
        take back, is shown once its replicas confirm it, never before (tests/faults)."""
        shards = set(shards)
        if self.copies is None or not shards:
            return shards
        by_node: dict[str | None, list[str]] = {}
        for shard in shards:
            by_node.setdefault(self._node_of(f"{PREFIX}:{{{shard}}}:mark"), []).append(shard)
        wait_ms = min(HELD_WAIT_MS, self.copies.timeout_ms)
        quick = dataclasses.replace(self.copies, timeout_ms=wait_ms)
        held: set[str] = set()

        async def confirm(group: list[str]) -> None:
            with contextlib.suppress(Unconfirmed, RedisError):
                await self._confirm(group[0], quick)
                held.update(group)

        await asyncio.gather(*(confirm(group) for group in by_node.values()))
        return held

    def _node_of(self, key: str) -> str | None:
        if not isinstance(self.redis, RedisCluster):
            return None
        return str(self.redis.get_node_from_key(key).name)

    def node_name(self, game_id: str) -> str | None:
        """host:port of the cluster node that holds the game (None: a single server)."""
        if not isinstance(self.redis, RedisCluster):
            return None
        return self._node_of(GameKeys(game_id).stream)

    def _keep_unanswered(self, game_id: str, unanswered: Unanswered) -> None:
        kept = [u for u in self.unanswered.pop(game_id, []) if u.seat != unanswered.seat]
        self.unanswered[game_id] = [*kept, unanswered]
        while len(self.unanswered) > UNANSWERED_MAX:
            del self.unanswered[next(iter(self.unanswered))]

    async def write_unanswered(self, game_id: str) -> None:
        """Write the records of this game's unanswered commands that the store could not take
        when they were answered 503 (a store that fails now fails the caller as well)."""
        waiting = self.unanswered.pop(game_id, None)
        if not waiting:
            return
        keys = GameKeys(game_id)
        try:
            for unanswered in waiting:
                await self.redis.set(keys.retry(unanswered.seat), str(unanswered), px=self.keep_ms)
        except Exception:
            self.unanswered.setdefault(game_id, waiting)
            raise

    async def take_retry(
        self, game_id: str, seat: int, fingerprint: str, head: str
    ) -> Retried | None:
        """The seat's unanswered command, if `fingerprint` is its body's and its last event is
        `head` (the game's last): confirmed as an append would be, and then forgotten, so that
        the same body sent once more is a move of its own."""
        await self.write_unanswered(game_id)
        key = GameKeys(game_id).retry(seat)
        raw = await self.redis.get(key)
        if raw is None:
            return None
        found = Unanswered.parse(seat, _text(raw))
        if found.fingerprint != fingerprint or found.hash != head:
            return None
        await self._confirm(GameKeys(game_id).shard)
        await self.redis.delete(key)
        return Retried(found.fingerprint, found.first_seq, found.last_seq)

    async def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        return [decode_envelope(raw) for raw in await self.read_raw(game_id, after, upto)]

    async def read_raw(self, game_id: str, after: int = 0, upto: int | None = None) -> list[bytes]:
        """The stored envelopes as they are, undecoded."""
        stop = f"0-{upto}" if upto is not None else "+"
        rows = await self._raw.xrange(GameKeys(game_id).stream, f"(0-{after}", stop)
        return [fields[1] for _, fields in rows]  # fields: [b"e", envelope]

    async def read_many_raw(self, ranges: dict[str, tuple[int, int]]) -> dict[str, list[bytes]]:
        """Several games' stored envelopes in one round trip: game -> (after, upto)."""
        if not ranges:
            return {}
        pipe = self._raw.pipeline(transaction=False)
        for game_id, (after, upto) in ranges.items():
            pipe.xrange(GameKeys(game_id).stream, f"(0-{after}", f"0-{upto}")
        replies = await pipe.execute()
        return {
            game_id: [fields[1] for _, fields in rows]
            for game_id, rows in zip(ranges, replies, strict=True)
        }

    async def load(
        self, game_id: str, upto: int | None = None
    ) -> tuple[list[bytes], dict[str, str]]:
        """A game's stored envelopes (up to `upto`) and its secrets, in one round trip."""
        keys = GameKeys(game_id)
        pipe = self._raw.pipeline(transaction=False)
        pipe.xrange(keys.stream, "-", f"0-{upto}" if upto is not None else "+")
        pipe.hgetall(keys.secrets)
        rows, secret = await pipe.execute()
        return [fields[1] for _, fields in rows], {_text(k): _text(v) for k, v in secret.items()}

    async def idempotency_record(self, game_id: str, field: str) -> Duplicate | Refusal | None:
        """The first answer given under an idempotency key; an append it names is confirmed
        by the replicas (`copies`) before it is answered again."""
        keys = GameKeys(game_id)
        record = await self.redis.get(keys.idempotency(field))
        if record is None:
            return None
        found = parse_duplicate(_text(record))
        if isinstance(found, Duplicate):
            await self._confirm(keys.shard)
        return found

    async def remember_refusal(self, game_id: str, field: str, refusal: Refusal) -> bool:
        """Keep a refused request's answer under its key; False if the key was taken first."""
        record = msgspec.json.encode(
            {
                "fp": refusal.fingerprint,
                "status": refusal.status,
                "code": refusal.code,
                "detail": refusal.detail,
            }
        )
        key = GameKeys(game_id).idempotency(field)
        return bool(await self.redis.set(key, record, nx=True, px=self.keep_ms))

    async def set_due(self, game_id: str, at_ms: int | None) -> None:
        """When the worker's sweep should look at the game next (None: never; it is over)."""
        due = GameKeys(game_id).due
        if at_ms is None:
            await self.redis.zrem(due, game_id)
        else:
            await self.redis.zadd(due, {game_id: at_ms})

    async def due_games(self, now_ms: int, limit: int) -> list[str]:
        """Games whose time to be looked at has come, from every shard's due set: the sweep
        reads these, never every game."""
        pipe = self.redis.pipeline(transaction=False)
        for shard in all_shards():
            pipe.zrangebyscore(due(shard), "-inf", now_ms, start=0, num=limit)
        return [_text(g) for found in await pipe.execute() for g in found]

    async def secrets(self, game_id: str) -> dict[str, str]:
        key = GameKeys(game_id).secrets
        raw = await self.redis.hgetall(key)  # type: ignore[misc]  # redis-py: Awaitable[T] | T
        return {_text(k): _text(v) for k, v in raw.items()}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
