"""The command path: authenticate, load, decide, append with the expected seq, answer.

The service holds nothing that cannot be rebuilt from Redis: a game's folded state is a
cache, checked against the stream's tail before every decision, and every append names the
seq it was decided against, so two processes on one Redis never fork a game.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import random
import secrets as pysecrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

import msgspec

from domain.kernel import (
    SPECTATOR,
    Command,
    Event,
    GameRules,
    Shuffler,
    Viewer,
    builtins,
    visible,
)
from domain.kernel import table as tables
from domain.kernel.errors import InvalidOptions, RuleViolation
from domain.kernel.fairness import commitment
from domain.kernel.table import GameCreated, Table
from domain.registry import GAMES
from events.envelope import (
    GENESIS,
    Envelope,
    EventCodec,
    Folded,
    canonical,
    event_data,
    read_folded,
    salt_for,
    seal,
)
from events.store import Appended, Conflict, Duplicate, EventStore, Refusal, decode_envelope

from . import metrics, request_context, tokens
from .clock import StoreClock
from .config import Lifecycle
from .errors import ApiError
from .game_cache import GameCache
from .history import HistoryBreaks
from .idempotency import fingerprint, reused, seal_secret, unseal_secret

log = logging.getLogger("danger.games")
MAX_ATTEMPTS = 20  # a decision lost to another writer is re-decided this many times at most
CACHE_BYTES = 256 * 2**20  # the folds one process keeps (DANGER_CACHE_MB)
SWEEP_SLACK_SECONDS = 5.0  # a job due this long ago and not done: the sweep queues it again
# A timer's job is queued this much before its deadline: processes whose clocks disagree by
# up to this much still ring it on time (it runs, finds itself early, and comes again).
TIMER_EARLY_SECONDS = 1.0


def _time(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


@dataclass
class Game:
    """One game folded from its stream, with what the command path needs beside it."""

    id: str
    rules: GameRules
    codec: EventCodec
    table: Table
    seed: bytes
    hashes: dict[str, str]  # role -> token hash
    setup_options: Any
    seq: int = 1
    head: str = GENESIS
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer_started: dict[str, str] = field(default_factory=dict)  # timer id -> `at` it began
    acted: dict[int, int] = field(default_factory=dict)  # seat -> seq of its last command
    _shuffler: Shuffler | None = None
    _shuffler_entropy: list[str] = field(default_factory=list)
    # seat -> (its last move's seq, when (epoch s) the move this process queued for it is due)
    bot_due: dict[int, tuple[int, float]] = field(default_factory=dict)
    created_at: str = ""
    active_at: str = ""  # the `at` of the last command of a seat, or of the start
    last_at: str = ""  # the `at` of the last event: the next may not be earlier

    def fold(self, envelope: Envelope | Folded, event: Event | None = None) -> None:
        """Apply the next event (decoded from the envelope unless given); events already
        applied (seq <= self.seq) are skipped."""
        seq = envelope.seq
        if seq != self.seq + 1:
            return
        event = self.codec.event(envelope) if event is None else event
        table = self.table
        tables.evolve(table, self.rules, event)
        kind, at = envelope.type, envelope.at
        if kind in _TOKEN_CHANGES:
            # Its token changed: the next check reads the stored hash (service/seats.py).
            self.hashes.pop(f"seat:{event.seat}", None)  # type: ignore[attr-defined]
        self.seq, self.head, self.last_at = seq, envelope.hash, at
        if envelope.actor.startswith("seat:") and envelope.commanded:
            self.acted[int(envelope.actor[5:])] = seq
            self.active_at = at
        elif kind == "game_started":
            self.active_at = at
        timers = table.timers
        if timers:  # a timer begun by this event starts its clock at this event's `at`
            now = table.events
            for name, start in timers.items():
                if start == now:
                    self._began(f"{name}@{start}", at)

    def _began(self, timer_id: str, at: str) -> None:
        started = self.timer_started
        started[timer_id] = at
        if len(started) > 2 * len(self.table.timers) + 8:  # forget the clocks that ended
            running = self.table.timer_ids()
            for ended in [t for t in started if t not in running]:
                del started[ended]

    def adopt(self, fresh: Game) -> None:
        """Become `fresh` (a new fold of the same game), keeping this object's lock: every
        holder of this object then sees the store's history."""
        for name in self.__dataclass_fields__:
            if name != "lock":
                setattr(self, name, getattr(fresh, name))

    def shuffler(self) -> Shuffler:
        """The game's source of shuffles, made again whenever the seats' entropy changed: a
        process may have made one while the game was open and folded later joins from
        another process's appends."""
        entropy = [p.entropy for p in self.table.players]
        if self._shuffler is None or self._shuffler_entropy != entropy:
            self._shuffler, self._shuffler_entropy = Shuffler(self.seed, entropy), entropy
        return self._shuffler

    def clocks(self) -> list[tuple[str, tables.Timer, datetime]]:
        """Every running timer with its deadline: the `at` of the event that began it, plus
        its seconds. Derived from the log alone, so any process computes the same one."""
        out = []
        for timer_id, timer in tables.running_timers(self.table, self.rules):
            began = datetime.fromisoformat(self.timer_started[timer_id].replace("Z", "+00:00"))
            out.append((timer_id, timer, began + timedelta(seconds=timer.seconds)))
        return out

    @property
    def finished(self) -> bool:
        """The game is over (finished or abandoned): its log is open to everyone."""
        return tables.is_over(self.table.status)

    def expiry(self, open_hours: float) -> tuple[datetime, tables.Abandon] | None:
        """When the game ends as abandoned unless a seat acts (RULINGS.md, "Liveness and
        lifecycle"): an open game `open_hours` after its creation, an active one
        `idle_minutes` after the last command of a seat (or its start)."""
        if self.table.status == "open":
            created = _time(self.created_at)
            return created + timedelta(hours=open_hours), tables.Abandon(
                reason="not_started", limit=open_hours
            )
        if self.table.status == "active":
            idle = float(getattr(self.table.options, "idle_minutes", tables.DEFAULT_IDLE_MINUTES))
            return _time(self.active_at) + timedelta(minutes=idle), tables.Abandon(
                reason="idle", limit=idle
            )
        return None

    def readable(self, envelope: Envelope, viewer: Viewer, event: Event | None = None) -> Envelope:
        return redact(self.codec, self.finished, envelope, viewer, event)


def redact(
    codec: EventCodec, over: bool, envelope: Envelope, viewer: Viewer, event: Event | None = None
) -> Envelope:
    """The envelope as `viewer` may read it (the hash is the full event's). A seat's command
    (a High Voltage pick names cards) is its own until the game is over."""
    if event is None:
        event = codec.event(envelope)
    shown = visible(event, viewer, over)
    hide_cause = (
        envelope.cause is not None
        and not over
        and envelope.actor.startswith("seat:")
        and envelope.actor != f"seat:{viewer}"
    )
    if shown is event and not hide_cause:
        return envelope
    return msgspec.structs.replace(
        envelope,
        data=event_data(shown),
        cause=None if hide_cause else envelope.cause,
        salt=envelope.salt if shown is event else None,
    )


class NotDue(Exception):
    """A timer's job came before the timer's deadline by the store's clock (the processes'
    clocks disagree): it should come again in `seconds`."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"due in {seconds:.3f} s")
        self.seconds = seconds


class Scheduler(Protocol):
    """Where the command path leaves work for the workers."""

    async def timer(self, game_id: str, timer_id: str, deadline: datetime) -> None:
        """Fire the timer at its deadline; a timer id queued twice runs once."""

    async def bot(self, game_id: str, seat: int, since: int, seq: int, delay: float) -> None:
        """Play a move for a bot seat after `delay` seconds (queued at game seq `seq`)."""


@dataclass(frozen=True)
class Outcome:
    """What a write did, as its caller may see it: the events and the view are taken under
    the game's lock, so a command that follows at once does not show in them. `seq` is the
    game's after the write (the game object moves on); `view` is None in a minimal answer."""

    game: Game
    envelopes: list[Envelope]
    viewer: Viewer
    view: Any
    seq: int = -1

    def __post_init__(self) -> None:
        if self.seq < 0:
            object.__setattr__(self, "seq", self.game.seq)


def _codec(rules: GameRules) -> EventCodec:
    return EventCodec((*tables.TABLE_EVENTS, *rules.events))


CODECS = {name: _codec(rules) for name, rules in GAMES.items()}
"""Each game's decoder of its stored events, by game name."""


_TOKEN_CHANGES = frozenset({"seat_left", "seat_token_reissued"})  # a seat's token hash moved

HASHED = ("admin", "invite")  # secrets kept as hashes of what a client shows: with the seats'


def fold_log(game_id: str, log: list[bytes], secret: dict[str, str]) -> Game:
    """A game folded from its stored envelopes and its secrets: all a load does but
    the reading."""
    first = decode_envelope(log[0])
    rules = GAMES[first.data["game"]]
    codec = CODECS[rules.name]
    created = codec.event(first)
    assert isinstance(created, GameCreated)
    game = Game(
        id=game_id,
        rules=rules,
        codec=codec,
        table=tables.from_created(rules, created),
        seed=bytes.fromhex(secret["seed"]),
        hashes={k: v for k, v in secret.items() if k in HASHED or k.startswith("seat:")},
        setup_options=msgspec.json.decode(secret["options"], type=rules.options_type),
        head=first.hash,
        created_at=first.at,
        last_at=first.at,
    )
    # The game's own options, sandbox deck included, so a fixed deck is dealt every
    # round; views leave the sandbox options out.
    game.table.options = game.setup_options
    for raw in log[1:]:
        game.fold(read_folded(raw))
    return game


class GameService:
    def __init__(
        self,
        store: EventStore,
        sandbox: bool,
        scheduler: Scheduler | None = None,
        lifecycle: Lifecycle | None = None,
        clock: StoreClock | None = None,
        cache_bytes: int = CACHE_BYTES,
    ) -> None:
        self.store = store
        self.clock = clock or StoreClock(store.redis)
        self.breaks = HistoryBreaks()
        self.sandbox = sandbox
        self.scheduler = scheduler
        self.lifecycle = lifecycle or Lifecycle()
        self._cache = self.games = GameCache(cache_bytes)

    # Loading ------------------------------------------------------------------------

    async def get(self, game_id: str, current: bool = True) -> Game:
        """The game, its cached fold brought up to the stream's last event (`current`), or
        as cached, for a command that will name the seq it was decided against."""
        game = self._cache.get(game_id)
        if game is None:
            metrics.CACHE_MISSES.inc()
            game = await self._load(game_id)
        elif current:
            await self._catch_up(game)
        context = request_context.current()
        if context is not None:
            context.game, context.kind = game_id, game.rules.name
        return game

    async def _catch_up(self, game: Game) -> None:
        """Fold what the store holds past the cached head. The read starts at the head itself:
        a store that no longer holds it as it was folded lost acknowledged events (service/
        history.py), and the game is folded again from what it holds."""
        # The fold as it is when the read begins: a command of this process may fold its
        # own events into it while the read is on its way.
        seq, hash_ = game.seq, game.head
        try:
            raws = await self.store.read_raw(game.id, after=seq - 1)
            head = read_folded(raws[0]) if raws else None
            if head is None or head.seq != seq or head.hash != hash_:
                await self._fold_again(game)
                return
            for raw in raws[1:]:
                game.fold(read_folded(raw))
        except Exception:
            self._cache.pop(game.id, None)
            raise

    async def _fold_again(self, game: Game) -> None:
        stored, secret = await self.store.load(game.id)
        self.breaks.saw(game.id, game.seq, len(stored))
        if not stored:
            raise ApiError(
                503,
                "history_lost",
                "The store no longer holds this game, which it had acknowledged; the "
                "operator is alerted.",
            )
        game.adopt(fold_log(game.id, stored, secret))

    async def _load(self, game_id: str, upto: int | None = None) -> Game:
        stored, secret = await self.store.load(game_id, upto=upto)
        if not stored:
            raise ApiError(404, "unknown_game", f"There is no game {game_id!r}.")
        game = fold_log(game_id, stored, secret)
        if upto is None:
            game = self._cache.setdefault(game_id, game)
        return game

    async def replay(self, game_id: str, upto: int) -> Game:
        """A fresh fold of the game as it stood after event `upto`."""
        return await self._load(game_id, upto=upto)

    # Reading ------------------------------------------------------------------------

    async def viewer(self, game: Game, token: str | None) -> tuple[Viewer, str]:
        """The reader a token makes (seat, spectator) and its role label."""
        if token is None:
            return SPECTATOR, "spectator"
        role = await self._authenticate(game, token)
        seat = tokens.parse(token).seat  # type: ignore[union-attr]
        _note_seat(seat)
        return (seat if seat is not None else SPECTATOR), role

    def view(self, game: Game, viewer: Viewer) -> Any:
        return tables.view(game.table, game.rules, viewer)

    def legal(self, game: Game, viewer: Viewer) -> list[Command]:
        return tables.legal(game.table, game.rules, viewer)

    def readable(self, game: Game, envelopes: list[Envelope], viewer: Viewer) -> list[Envelope]:
        return [game.readable(e, viewer) for e in envelopes]

    # Commands -----------------------------------------------------------------------

    async def create(
        self, game_name: str, seats: int, options: Any, private: bool = False
    ) -> tuple[Game, str, str | None]:
        """A new game, its admin token and, for a private game, its invite."""
        rules = GAMES[game_name]
        sandboxed = [k for k in rules.sandbox_options if getattr(options, k, None) is not None]
        if sandboxed and not self.sandbox:
            raise ApiError(
                403,
                "sandbox_only",
                f"The option(s) {', '.join(sandboxed)} are accepted only by a server started "
                "with DANGER_SANDBOX=1.",
            )
        seed = os.urandom(32)
        if getattr(options, "seed", None) is not None:
            seed = bytes.fromhex(options.seed)  # the schema admits 16-64 bytes of hex only
        try:
            created = tables.create(
                rules, seats, options, bool(sandboxed), commitment(seed), private
            )
        except (RuleViolation, InvalidOptions) as exc:  # well-formed, but no game can be so
            raise ApiError(422, exc.code, exc.message) from None
        for _ in range(5):
            game_id = pysecrets.token_urlsafe(9).replace("-", "x").replace("_", "y")
            admin_token, admin_hash = tokens.issue(game_id, "admin")
            secret = {
                "seed": seed.hex(),
                "admin": admin_hash,
                "options": canonical(msgspec.to_builtins(options)).decode(),
            }
            invite = pysecrets.token_urlsafe(16) if private else None
            if invite is not None:
                secret["invite"] = tokens.digest(invite)
            await self.clock.refresh()
            envelope = seal(
                game_id,
                1,
                created[0],
                self.clock.stamp(),
                "admin",
                None,
                GENESIS,
                meta=request_context.meta(),
            )
            result = await self.store.append(game_id, 0, [envelope], secrets=secret)
            if isinstance(result, Appended):
                metrics.APPENDS.labels(rules.name).inc()
                metrics.EVENTS.labels(rules.name).inc()
                return await self.get(game_id), admin_token, invite
        raise ApiError(503, "id_exhausted", "Could not allocate a game id; try again.")

    async def join(
        self,
        game_id: str,
        name: str,
        entropy: str,
        team: str | None = None,
        bot: str | None = None,
        think_ms: int | None = None,
        idempotency_key: str | None = None,
        client: str = "",
        player: str | None = None,
        invite: str | None = None,
    ) -> tuple[Outcome, str | None]:
        """A seat for a player (its token is returned) or for a bot (no token: only the
        service plays it). With an Idempotency-Key, the key of `client` in this game: a
        retry gets the same seat and token (kept sealed beside the seat's token hash)."""
        if think_ms is not None and bot is None:
            raise ApiError(422, "think_without_bot", "Only a bot seat has a think delay.")
        game = await self.get(game_id)
        if game.table.private and not (
            invite is not None and tokens.matches(invite, game.hashes.get("invite"))
        ):  # its existence is not confirmed to whoever lacks the invite
            raise ApiError(404, "unknown_game", f"There is no game {game_id!r}.")
        joined = tables.Join(
            name=name, entropy=entropy, team=team, bot=bot, think_ms=think_ms, player=player
        )
        idem = None
        if idempotency_key is not None:
            scope = f"join:{client}:{idempotency_key}"
            idem = (scope, fingerprint("join", builtins(joined)))
        issued: dict[str, str] = {}

        def token_for(events: list[Event]) -> dict[str, str]:
            seat = events[0].seat  # type: ignore[attr-defined]
            token, digest = tokens.issue(game_id, f"seat:{seat}")
            issued["token"] = token
            secret = {f"seat:{seat}": digest}
            if idem is not None and idempotency_key is not None:
                secret[sealed_token(seat)] = seal_secret(idempotency_key, idem[0], token)
            return secret

        issue = None if bot else token_for
        # The key is not recorded in the event (as a command's is): it opens the sealed token.
        outcome = await self._execute(game, "anyone", joined, idem, None, None, issue)
        if bot:
            return outcome, None
        seat = outcome.envelopes[0].data["seat"]
        token = issued.get("token")
        if token is not None and tokens.matches(token, game.hashes.get(f"seat:{seat}")):
            return outcome, token
        # The first answer again: its token is the one stored for the seat, not one issued now.
        stored = await self.store.secrets(game_id)
        assert idem is not None and idempotency_key is not None
        return outcome, unseal_secret(idempotency_key, idem[0], stored[sealed_token(seat)])

    async def start(
        self, game_id: str, token: str | None, idempotency_key: str | None = None
    ) -> Outcome:
        return await self._by_admin(game_id, token, idempotency_key, "start", tables.Start())

    async def command(
        self,
        game_id: str,
        token: str | None,
        command: Command,
        idempotency_key: str | None,
        if_match: int | None,
        full: bool = True,
    ) -> Outcome:
        """A seat's command; `full=False` answers with the seq only (`Prefer:
        return=minimal`: a client that follows the stream has the events from there)."""
        game = await self.get(game_id, current=False)
        role = await self._authenticate(game, self._required(token))
        seat = tokens.parse(token).seat  # type: ignore[arg-type, union-attr]
        if seat is None:
            raise ApiError(403, "seat_only", "Only a seat's token may send game commands.")
        if type(command) not in game.rules.commands:
            tag = command.__struct_config__.tag
            raise ApiError(
                409, "not_this_games_command", f"{tag!r} is not a command of {game.rules.name}."
            )
        idem = None
        if idempotency_key is not None:
            body = msgspec.to_builtins(command)
            idem = (f"{role}:{idempotency_key}", fingerprint(role, body, if_match))
        return await self._execute(
            game,
            seat,
            command,
            idem,
            idempotency_key,
            if_match,
            None,
            lambda: self._authenticate(game, token),  # type: ignore[arg-type]
            full,
        )

    async def schedule_jobs(self, game: Game, recheck: float | None = None) -> None:
        """Queue what the workers must do next for this game (its running timers, and a move
        for every bot seat that may act now) and file the game in its shard's due set at
        the moment the sweep should look at it again: a job's due time plus some slack, or
        the game's expiry. `recheck` (epoch s), from the sweep: not sooner than this."""
        if self.scheduler is None:
            return
        due: list[float] = []
        # Every running timer, every time: its deadline comes from the log and the queue
        # refuses a timer id it holds already, so queueing again (another process, a
        # restart, the sweep) changes nothing, and a timer whose job was lost is queued anew.
        for timer_id, _, deadline in game.clocks():
            # A deadline is the store's time; the queue runs jobs by the clock of the worker
            # that takes them. Early by a margin (the job comes again at the deadline,
            # measured by the store's clock), never late by a worker's skew.
            early = timedelta(seconds=self.clock.offset + TIMER_EARLY_SECONDS)
            await self.scheduler.timer(game.id, timer_id, deadline - early)
            due.append(deadline.timestamp() + SWEEP_SLACK_SECONDS)
        expiry = game.expiry(self.lifecycle.open_hours)
        if expiry is not None:
            due.append(expiry[0].timestamp())
        if game.table.status == "active":
            moment = self.clock.time()
            for seat, player in enumerate(game.table.players):
                if player.bot is None or not self.legal(game, seat):
                    continue
                since = game.acted.get(seat, 0)
                waiting = game.bot_due.get(seat)
                if waiting is None or waiting[0] != since or waiting[1] <= moment:
                    delay = (player.think_ms or 0) / 1000
                    await self.scheduler.bot(game.id, seat, since, game.seq, delay)
                    # else this process queued its move already; it will see this event too
                    game.bot_due[seat] = waiting = (since, moment + delay)
                due.append(waiting[1] + SWEEP_SLACK_SECONDS)
        if not due:
            await self.store.set_due(game.id, None)
            return
        at = max(min(due), recheck) if recheck is not None else min(due)
        await self.store.set_due(game.id, int(at * 1000))

    async def expire(self, game_id: str) -> bool:
        """End the game as abandoned if its expiry has come (the sweep asks). The expiry is
        looked at under the game's lock on the current log, and the append names that log's
        seq, so a seat's command that came meanwhile keeps the game alive. True if it ended."""
        game = await self.get(game_id)
        async with game.lock:
            await self._catch_up(game)
            expiry = game.expiry(self.lifecycle.open_hours)
            if expiry is None or expiry[0] > self.clock.now():
                return False
            return bool(await self._append_server(game, expiry[1]))

    async def abandon(
        self, game_id: str, token: str | None, idempotency_key: str | None = None
    ) -> Outcome:
        """The admin ends a game that has not started (RULINGS.md: "The admin may abandon an
        open game at any time")."""
        return await self._by_admin(
            game_id, token, idempotency_key, "abandon", tables.Abandon(reason="admin")
        )

    async def _by_admin(
        self,
        game_id: str,
        token: str | None,
        idempotency_key: str | None,
        operation: str,
        command: Command,
    ) -> Outcome:
        """A command only the game's admin token may send (start, abandon); one key names
        one of its operations."""
        game = await self.get(game_id)
        role = await self._authenticate(game, self._required(token))
        if role != "admin":
            raise ApiError(
                403, "admin_only", f"Only the game's admin token may {operation} it."
            )
        idem = _admin_idem(operation, idempotency_key)
        return await self._execute(game, "admin", command, idem, idempotency_key, None, None)

    async def _schedule_after_append(self, game: Game) -> None:
        """The events are stored: a queue that fails now must not turn the answer into an
        error. What is not queued here, the periodic sweep queues (`worker.sweep`)."""
        try:
            await self.schedule_jobs(game)
        except Exception:
            log.exception("could not queue the jobs of %s; the sweep will", game.id)

    async def play_bot(self, game_id: str, seat: int, since: int) -> Outcome | None:
        """One move of a bot seat, decided from its own view, through the command path.
        `since` is the seq of the seat's last move when the job was queued: once the seat
        has moved again, the job is stale (another job was queued after that move)."""
        for _ in range(MAX_ATTEMPTS):
            game = await self.get(game_id)
            if game.table.status != "active" or game.acted.get(seat, 0) != since:
                return None
            player = game.table.players[seat]
            moves = self.legal(game, seat)
            if player.bot is None or not moves:
                return None
            bot = game.rules.bot(player.bot)
            # Seeded from the game's secret seed, so nobody can foresee a bot's choices; once
            # the seed is revealed, anyone can replay them.
            dice = random.Random(bot_seed(game.seed, seat, game.seq))
            command = bot(game.rules.view(game.table.state, seat), seat, moves, dice)
            try:
                outcome = await self._execute(game, seat, command, None, None, game.seq, None)
                if outcome.envelopes:
                    metrics.BOT_MOVES.labels(game.rules.name).inc()
                return outcome
            except ApiError as moved_on:  # another seat or a timer came first: look again
                if moved_on.status not in (409, 412):
                    raise
        log.warning("bot seat %s of %s found no move that stood; the sweep retries", seat, game_id)
        return None

    async def system(self, game_id: str, command: Command) -> Outcome | None:
        """A command from the service itself (a worker's timer), not from a seat."""
        game = await self.get(game_id)
        if game.table.status != "active":
            return None
        late = None
        if isinstance(command, tables.FireTimer):
            await self.clock.refresh()
            for timer_id, _, deadline in game.clocks():
                early = (deadline - self.clock.now()).total_seconds()
                if timer_id == command.timer and early > 0:
                    raise NotDue(early)
                if timer_id == command.timer:
                    late = -early
        outcome = await self._execute(game, "server", command, None, None, None, None)
        if late is not None and outcome.envelopes:
            _count_timer(game, "worker", late)
        return outcome

    @staticmethod
    def _required(token: str | None) -> str:
        if token is None:
            raise ApiError(401, "token_missing", "Send your token as 'Authorization: Bearer ...'.")
        return token

    async def _authenticate(self, game: Game, token: str) -> str:
        credential = tokens.parse(token)
        if credential is None:
            raise ApiError(401, "token_invalid", "That is not a token this service issued.")
        if credential.game_id != game.id:
            raise ApiError(403, "token_for_other_game", "That token belongs to another game.")
        if credential.role not in game.hashes:  # a seat joined through another process
            fresh = await self.store.secrets(game.id)
            game.hashes.update({k: v for k, v in fresh.items() if k == credential.role})
        if not tokens.matches(token, game.hashes.get(credential.role)):
            raise ApiError(401, "token_invalid", "That token is not valid for this game.")
        return credential.role

    async def _execute(
        self,
        game: Game,
        actor: int | str,
        command: Command,
        idem: tuple[str, str] | None,
        command_id: str | None,
        if_match: int | None,
        secrets_for: Any,
        recheck: Callable[[], Awaitable[Any]] | None = None,
        full: bool = True,
    ) -> Outcome:
        """Decide `command` for `actor` and append its events. `recheck` checks the caller's
        token again whenever the fold is brought up to date: a token the log has since
        replaced (a seat left, or was given a new token) stops working at once."""
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        viewer: Viewer = actor if isinstance(actor, int) else SPECTATOR
        if isinstance(actor, int):
            _note_seat(actor)
        # The first decision trusts the cached fold, without reading the stream: the append
        # names the seq it was decided against, so a fold another process has overtaken
        # fails there (a conflict), and a refusal is only given once the fold is current.
        cached = True
        for _ in range(MAX_ATTEMPTS):
            async with game.lock:
                if not cached:
                    await self._catch_up(game)
                    if recheck is not None:
                        await recheck()
                if idem is not None:
                    prior = await self.store.idempotency_record(game.id, idem[0])
                    if prior is not None:
                        return await self._repeat(game, prior, idem[1], viewer, full)
                rang = await self._ring_due_timer(game) if isinstance(actor, int) else False
                if rang is None:
                    cached = False
                    continue  # another writer came first: catch up and look again
                try:
                    if rang:
                        raise ApiError(
                            409,
                            "too_late",
                            "A timer ran out before your command arrived and has taken "
                            "effect: look at the game again.",
                        )
                    if if_match is not None and if_match != game.seq:
                        raise ApiError(
                            412,
                            "stale_seq",
                            f"The game is at seq {game.seq}, not {if_match}.",
                            seq=game.seq,
                        )
                    try:
                        events = tables.decide(
                            game.table,
                            game.rules,
                            command,
                            actor,
                            game.shuffler(),
                            game.setup_options,
                        )
                    except RuleViolation as exc:
                        raise ApiError(409, exc.code, exc.message) from None
                except ApiError as refused:
                    if cached:
                        cached, seq = False, game.seq
                        await self._catch_up(game)
                        if game.seq != seq:
                            continue  # decided on an old fold: decide again on the new one
                        if recheck is not None:
                            await recheck()
                    if idem is not None:
                        first = await self._remember(game, idem, refused, viewer, full)
                        if first is not None:
                            return first
                    raise
                if not events:
                    return Outcome(game, [], viewer, self.view(game, viewer) if full else None)
                await self.clock.refresh()
                at = self.clock.stamp(game.last_at)
                envelopes = _seal_all(game, events, at, label, command_id, command)
                extra = secrets_for(events) if secrets_for else None
                result = await self.store.append(game.id, game.seq, envelopes, idem, extra)
                _count_append(game, result, len(envelopes))
                if isinstance(result, Appended):
                    if extra:
                        game.hashes.update(extra)
                    try:
                        for envelope, event in zip(envelopes, events, strict=True):
                            game.fold(envelope, event)
                    except Exception:
                        self._cache.pop(game.id, None)
                        raise
                    self._cache.get(game.id)  # its footprint follows what it folded
                    await self._schedule_after_append(game)
                    try:
                        await self._guard_length(game)
                    except Exception:  # the command is stored: the next append checks again
                        log.exception("could not end %s at its length bound", game.id)
                    if not full:
                        return Outcome(game, [], viewer, None)
                    return Outcome(
                        game,
                        [
                            game.readable(e, viewer, event)
                            for e, event in zip(envelopes, events, strict=True)
                        ],
                        viewer,
                        self.view(game, viewer),
                    )
                if isinstance(result, Duplicate | Refusal):
                    return await self._repeat(game, result, idem[1], viewer, full)  # type: ignore[index]
                assert isinstance(result, Conflict)
                cached = False
                if if_match is not None:
                    raise ApiError(412, "stale_seq", "The game moved on.", seq=result.actual_seq)
        raise ApiError(
            503, "contention", "Too many concurrent writers on this game; retry shortly."
        )

    async def _ring_due_timer(self, game: Game) -> bool | None:
        """A timer past its deadline rings now, before a seat's command is decided: the
        worker may be late, but the rules are not ("if the timer goes off while you're
        still playing, your team IMMEDIATELY LOSES"). True if it rang, None on a conflict."""
        moment = self.clock.now()
        due = [(timer, deadline) for timer, _, deadline in game.clocks() if deadline <= moment]
        if not due:
            return False
        rang = await self._append_server(game, tables.FireTimer(timer=due[0][0]))
        if rang:
            _count_timer(game, "inline", (moment - due[0][1]).total_seconds())
        return rang

    async def _append_server(self, game: Game, command: Command) -> bool | None:
        """Decide and append a command of the service itself, under the game's lock held by
        the caller. True if it took effect, False if it changed nothing, None on a conflict."""
        events = tables.decide(
            game.table, game.rules, command, "server", game.shuffler(), game.setup_options
        )
        if not events:
            return False
        await self.clock.refresh()
        at = self.clock.stamp(game.last_at)
        envelopes = _seal_all(game, events, at, "server", None, command)
        result = await self.store.append(game.id, game.seq, envelopes)
        _count_append(game, result, len(envelopes))
        if not isinstance(result, Appended):
            return None
        for envelope in envelopes:
            game.fold(envelope)
        self._cache.get(game.id)
        await self._schedule_after_append(game)
        return True

    async def _guard_length(self, game: Game) -> None:
        """The last guard (RULINGS.md): a log that reaches `max_events` ends the game as
        abandoned; the two closing events fit under the bound."""
        limit = self.lifecycle.max_events
        if game.seq >= limit - 2 and not game.finished:
            abandon = tables.Abandon(reason="max_events", limit=float(limit))
            if await self._append_server(game, abandon) is None:
                await self._catch_up(game)  # another process came first; the next append checks

    async def _remember(
        self,
        game: Game,
        idem: tuple[str, str],
        refused: ApiError,
        viewer: Viewer,
        full: bool = True,
    ) -> Outcome | None:
        """A refusal is the first answer too: a retry with the same key gets it again, even
        if the game has since moved to where the same command would be accepted. If another
        request with the key got there first, its answer is the one to give."""
        refusal = Refusal(idem[1], refused.status, refused.code, refused.detail)
        if await self.store.remember_refusal(game.id, idem[0], refusal):
            return None
        prior = await self.store.idempotency_record(game.id, idem[0])
        if prior is None or prior == refusal:
            return None
        return await self._repeat(game, prior, idem[1], viewer, full)

    async def _repeat(
        self,
        game: Game,
        prior: Duplicate | Refusal,
        fingerprint: str,
        viewer: Viewer,
        full: bool = True,
    ) -> Outcome:
        """The first answer again, for a retry carrying the same Idempotency-Key and body."""
        if prior.fingerprint != fingerprint:
            raise reused()
        metrics.REPEATS.inc()
        context = request_context.current()
        if context is not None:
            context.repeat = True
        if isinstance(prior, Refusal):
            raise ApiError(prior.status, prior.code, prior.detail)
        if not full:
            return Outcome(game, [], viewer, None, prior.last_seq)
        then = await self.replay(game.id, prior.last_seq)
        envelopes = await self.store.read(game.id, after=prior.first_seq - 1, upto=prior.last_seq)
        return Outcome(
            then, self.readable(game, envelopes, viewer), viewer, self.view(then, viewer)
        )


def _note_seat(seat: int | None) -> None:
    context = request_context.current()
    if context is not None and seat is not None:
        context.seat = seat


def _count_append(game: Game, result: object, events: int) -> None:
    kind = game.rules.name
    if isinstance(result, Appended):
        metrics.APPENDS.labels(kind).inc()
        metrics.EVENTS.labels(kind).inc(events)
    elif isinstance(result, Conflict):
        metrics.CONFLICTS.labels(kind).inc()


def _count_timer(game: Game, by: str, late: float) -> None:
    metrics.TIMERS.labels(game.rules.name, by).inc()
    metrics.TIMER_LATENESS.labels(by).observe(max(0.0, late))


def sealed_token(seat: int) -> str:
    """The secrets field of a seat's token sealed under the Idempotency-Key of its join."""
    return f"sealed:seat:{seat}"


def _admin_idem(operation: str, idempotency_key: str | None) -> tuple[str, str] | None:
    """The admin's key, in the game: one key names one of its operations (start, abandon)."""
    if idempotency_key is None:
        return None
    return f"admin:{idempotency_key}", fingerprint("admin", {"type": operation})


def bot_seed(seed: bytes, seat: int, seq: int) -> bytes:
    """The seed of a bot's dice for one decision: secret while the game runs (it derives
    from the server seed), so nobody can foresee a bot's choices; checkable after."""
    return hmac.new(seed, f"danger-hall/bot/{seat}/{seq}".encode(), hashlib.sha256).digest()


def _seal_all(
    game: Game,
    events: list[Event],
    at: str,
    label: str,
    command_id: str | None,
    command: Command,
) -> list[Envelope]:
    """The envelopes of one command's events at `at`, chained from the game's head. The
    command is recorded on the first (so an audit can decide it again); a secret event gets
    its salt."""
    prev, envelopes = game.head, []
    cause = builtins(command)
    meta = request_context.meta()
    for offset, event in enumerate(events, start=1):
        seq = game.seq + offset
        secret = type(event).secret is not None
        envelope = seal(
            game.id,
            seq,
            event,
            at,
            label,
            command_id,
            prev,
            cause if offset == 1 else None,
            salt_for(game.seed, game.id, seq) if secret else None,
            meta,
        )
        envelopes.append(envelope)
        prev = envelope.hash
    return envelopes
