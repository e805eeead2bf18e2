"""What the webhooks hear: a consumer group (`hooks`) on the shard feeds, like the read
models, turns each game's new events into deliveries for the endpoints that listen to it
(docs/webhooks.md). An append never waits for a receiver, and an entry the projection has
not acknowledged is delivered to it again after a crash: the deliveries' ids make a second
queueing a no-op.

A game is heard by the endpoints of the app key that created it and of the keys that
registered its seated players, each endpoint for the event types and kinds of game it
names. What a delivery says is what a spectator may see: `turn.changed` carries the public
view's `to_act`, and no event's hidden field is ever sent.

Per game the projection keeps how far it has heard and whose turn it last told
(`dg:{<shard>}:hooks:<game>`, in the game's slot), so each batch reads only the new events;
one consumer at a time tells a game (a lease beside the note), so a game's deliveries are
queued in its order whatever the number of consumers.
Rebuilding the read models does not replay webhooks: nothing here is a model.
"""

from __future__ import annotations

import secrets
from typing import Any

import msgspec

from events import keys
from events.envelope import Envelope
from service.infra import metrics
from service.infra.config import Webhooks
from service.infra.lua import Script
from service.play import players as player_records
from service.play import webhooks
from service.play.game_model import Game
from service.play.repository import Repository
from service.play.webhook_deliveries import Delivery, delivery_id, queue
from service.play.write_path import view
from service.readmodels.runner import ACK, Projection, Updates, at_ms, entry_ids, last_seqs

FOLDS_BYTES = 32 * 2**20  # the games this projection keeps folded
TELLING_MS = 10_000  # a consumer that died telling a game holds it this long
HEARD_SECONDS = 7 * 24 * 3600  # a game's note outlives its last event by this much



_RELEASE = Script("""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
""")


class Heard(msgspec.Struct, frozen=True):
    seq: int = 0
    to_act: list[int] | None = None


def heard_key(game_id: str) -> str:
    return f"{keys.PREFIX}:{{{keys.shard_of(game_id)}}}:hooks:{game_id}"


def _event(
    kind: str, event_type: str, envelope: Envelope | None, game: Game, data: dict[str, Any]
) -> dict[str, Any]:
    at = envelope.at if envelope is not None else game.last_at
    seq = envelope.seq if envelope is not None else game.seq
    return {
        "type": event_type,
        "timestamp": at,
        "data": {"game": game.id, "kind": kind, "seq": seq, **data},
    }


def events_of(
    game: Game, envelopes: list[Envelope], heard: Heard
) -> tuple[list[dict[str, Any]], Heard]:
    """The webhook events of `envelopes` (the game's new events, read as a spectator reads
    them), and what is heard after them."""
    kind = game.rules.name
    out: list[dict[str, Any]] = []
    for envelope in envelopes:
        data: dict[str, Any] = envelope.data
        if envelope.type == "game_created":
            out.append(_event(kind, "game.created", envelope, game, {"seats": game.table.seats}))
        elif envelope.type == "player_joined":
            seat = {
                k: data[k] for k in ("seat", "name", "player", "bot") if data.get(k) is not None
            }
            out.append(_event(kind, "seat.joined", envelope, game, seat))
        elif envelope.type in ("seat_left", "seat_resigned"):
            out.append(
                _event(
                    kind,
                    "seat.left",
                    envelope,
                    game,
                    {"seat": data.get("seat"), "why": envelope.type},
                )
            )
        elif envelope.type == "game_started":
            out.append(_event(kind, "game.started", envelope, game, {}))
        elif envelope.type == "round_scored":
            out.append(_event(kind, "round.scored", envelope, game, {"scoring": data}))
        elif envelope.type == "game_abandoned":
            out.append(
                _event(kind, "game.abandoned", envelope, game, {"reason": data.get("reason")})
            )
        elif envelope.type == "seed_revealed" and game.table.status == "finished":
            state = view(game, "spectator").state
            shared = {
                "winners": getattr(state, "winners", None),
                "totals": getattr(state, "totals", None),
            }
            out.append(_event(kind, "game.finished", envelope, game, shared))
    to_act = heard.to_act
    if game.table.status == "active":
        now = list(getattr(view(game, "spectator").state, "to_act", None) or [])
        if now != to_act:
            out.append(_event(kind, "turn.changed", None, game, {"to_act": now}))
            to_act = now
    return out, Heard(game.seq, to_act)


class WebhookEventsProjection(Projection):
    group = "hooks"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.games = Repository(self.store, FOLDS_BYTES)
        self.now_ms: Any = None  # tests set a clock; else the store's
        self.queued = Webhooks().queued  # the process's setting, given by `consumers`

    async def apply(self, batches: dict[str, Updates]) -> None:
        acks = [([keys.feed(s)], [self.group, *entry_ids(u)]) for s, u in batches.items()]
        if not await self.redis.exists(webhooks.ALL):  # no endpoint anywhere: nothing to tell
            await self.eval_all(ACK, acks)
            return
        last = last_seqs(batches)
        pipe = self.redis.pipeline(transaction=False)
        for game_id in last:
            pipe.get(heard_key(game_id))
        heard = {
            g: msgspec.json.decode(raw, type=Heard) if raw else Heard()
            for g, raw in zip(last, await pipe.execute(), strict=True)
        }
        behind = [g for g in last if heard[g].seq < last[g]]
        notes: dict[str, Heard] = {}
        held: set[str] = set()  # games another consumer is telling now
        now = await self._now()
        for game_id in behind:
            game = await self.games.get(game_id)
            listening = await self._endpoints(game)
            if not listening:
                notes[game_id] = Heard(game.seq, heard[game_id].to_act)
            elif not await self._tell(game, listening, now):
                held.add(game_id)
        pipe = self.redis.pipeline(transaction=False)
        for game_id, note in notes.items():
            pipe.set(heard_key(game_id), msgspec.json.encode(note), ex=HEARD_SECONDS)
        if notes:
            await pipe.execute()
        await self.kept()
        # A game another consumer was telling keeps its entries: delivered again later, they
        # find it told (or tell what is left).
        await self.eval_all(
            ACK,
            [
                ([keys.feed(s)], [self.group, *entry_ids({g: u[g] for g in u if g not in held})])
                for s, u in batches.items()
            ],
        )

    async def _tell(self, game: Game, listening: list[webhooks.Endpoint], now: int) -> bool:
        """The game's new events queued for the endpoints that listen, and the note of how
        far it is told moved on, by one consumer at a time (a lease on the game): two
        consumers telling one game at once could queue one `turn.changed` after events that
        come before it. False if another consumer holds the game."""
        lock = f"{heard_key(game.id)}:telling"
        token = secrets.token_hex(8)
        if not await self.redis.set(lock, token, nx=True, px=TELLING_MS):
            return False
        try:
            raw = await self.redis.get(heard_key(game.id))  # as the last teller left it
            heard = msgspec.json.decode(raw, type=Heard) if raw else Heard()
            if heard.seq >= game.seq:
                return True
            stored = await self.store.read(game.id, after=heard.seq, upto=game.seq)
            shown = [game.readable(e, "spectator") for e in stored]
            told, note = events_of(game, shown, heard)
            deliveries = [
                self._delivery(endpoint, event, now)
                for event in told
                for endpoint in listening
                if endpoint.hears(event["type"], game.rules.name, at_ms(event["timestamp"]))
            ]
            if deliveries:
                queued = await queue(self.redis, deliveries, now, self.queued)
                for endpoint_id in sorted(queued.full):
                    await self._pause_full(endpoint_id)
            await self.redis.set(heard_key(game.id), msgspec.json.encode(note), ex=HEARD_SECONDS)
            return True
        finally:
            await _RELEASE(self.redis, [lock], [token])

    async def _pause_full(self, endpoint_id: str) -> None:
        """An endpoint with as many deliveries waiting as it may hold hears nothing more
        until its owner resumes it; those waiting are sent once it is."""
        endpoint = await webhooks.get(self.redis, endpoint_id)
        if endpoint is None or endpoint.paused is not None:
            return
        reason = (
            f"{self.queued} deliveries waiting, as many as an endpoint may hold "
            "(DANGER_WEBHOOK_QUEUED): what happened since was not queued"
        )
        await webhooks.save(self.redis, msgspec.structs.replace(endpoint, paused=reason))
        metrics.WEBHOOKS_PAUSED.labels("full").inc()

    def _delivery(self, endpoint: webhooks.Endpoint, event: dict[str, Any], now: int) -> Delivery:
        data = event["data"]
        return Delivery(
            id=delivery_id(endpoint.id, data["game"], data["seq"], event["type"]),
            endpoint=endpoint.id,
            type=event["type"],
            game=data["game"],
            seq=data["seq"],
            body=msgspec.json.encode(event).decode(),
            created_ms=now,
        )

    async def _now(self) -> int:
        if self.now_ms is not None:
            return int(self.now_ms())
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    async def _endpoints(self, game: Game) -> list[webhooks.Endpoint]:
        """The endpoints that hear of the game and are not paused: its creator key's, its
        registered players' keys'."""
        secrets = await self.store.secrets(game.id)
        owners = {secrets["owner"]} if secrets.get("owner") else set()
        players = [p.player for p in game.table.players if p.player is not None]
        if players:
            pipe = self.redis.pipeline(transaction=False)
            for player in players:
                pipe.hget(player_records.record_key(player), "app_key")
            owners |= {k.decode() if isinstance(k, bytes) else k for k in await pipe.execute() if k}
        found: list[webhooks.Endpoint] = []
        for key_id in sorted(owners):
            found += [e for e in await webhooks.of_key(self.redis, key_id) if e.paused is None]
        return found
