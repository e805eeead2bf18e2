"""One game folded from its log: the state a command is decided against (`Game`), what a
reader may see of each event (`redact`), what a write answers (`Outcome`), and the fold of a
stored log (`fold_log`). No I/O here: service/play/games.py loads, decides and stores."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import msgspec

from domain.kernel import (
    Event,
    GameRules,
    Shuffler,
    Viewer,
    visible,
)
from domain.kernel import table as tables
from domain.kernel.game import Timer
from domain.kernel.table import GameCreated, Table
from domain.registry import GAMES
from events.envelope import (
    GENESIS,
    Envelope,
    EventCodec,
    Folded,
    event_data,
    read_folded,
)
from events.store import decode_envelope


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
    # timer id -> the deadline this process queued the timer's job for (service/jobs/game_jobs.py)
    timers_queued: dict[str, datetime] = field(default_factory=dict)
    created_at: str = ""
    active_at: str = ""  # the `at` of the last command of a seat, or of the start
    last_at: str = ""  # the `at` of the last event: the next may not be earlier
    last_actor: str = ""  # who caused the last event ("seat:2", "admin", "server", ...)

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
        if kind in TOKEN_CHANGES:
            # Its token changed: the next check reads the stored hash (service/play/seats.py).
            self.hashes.pop(f"seat:{event.seat}", None)  # type: ignore[attr-defined]  # both carry it
        self.seq, self.head, self.last_at, self.last_actor = seq, envelope.hash, at, envelope.actor
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

    def fold_stored(self, log: Sequence[bytes]) -> None:
        """Fold stored envelopes, in order, as `fold` does one by one; events already applied
        are skipped. Replay's hot path: each event is decoded straight into its own type,
        and what only the end of the load needs (the head, when each running timer began)
        is worked out once, after the last event."""
        start = self.seq
        read = read_folded
        skip = 0  # a read of the tail starts at the head itself
        while skip < len(log) and read(log[skip]).seq <= start:
            skip += 1
        table, rules, acted, hashes = self.table, self.rules, self.acted, self.hashes
        evolve, decoders = tables.evolve, self.codec.decoders
        seq, last = start, None
        for raw in log[skip:] if skip else log:
            envelope = read(raw)
            if envelope.seq != seq + 1:
                break  # a gap: nothing after it folds
            kind = envelope.type
            decode = decoders.get(kind)
            if decode is None:
                raise msgspec.ValidationError(f"Invalid value {kind!r} - at `$.type`")
            event = decode(envelope.data)
            evolve(table, rules, event)
            seq, last, actor = seq + 1, envelope, envelope.actor
            if kind in TOKEN_CHANGES:
                hashes.pop(f"seat:{event.seat}", None)  # type: ignore[attr-defined]  # both carry it
            if actor.startswith("seat:") and len(envelope.cause) != 4:  # a seat's command
                acted[int(actor[5:])] = seq
                self.active_at = envelope.at
            elif kind == "game_started":
                self.active_at = envelope.at
        if last is None:
            return
        self.seq, self.head, self.last_at, self.last_actor = seq, last.hash, last.at, last.actor
        # A running timer's clock started at the `at` of the event that began it: the one
        # after which the table had folded `began` events (game_created is not counted).
        for name, began in table.timers.items():
            if began + 1 > start:
                self._began(f"{name}@{began}", read(log[skip + began - start]).at)

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

    def clocks(self) -> list[tuple[str, Timer, datetime]]:
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
        """When the game ends as abandoned unless a seat acts (docs/rulings.md, "Liveness
        and lifecycle"): an open game `open_hours` after its creation, an active one
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


@dataclass(frozen=True)
class Outcome:
    """What a write did, as its caller may see it: the events and the view are taken under
    the game's lock, so a command that follows at once does not show in them. `seq` is the
    game's after the write (the game object moves on), `head` and `head_at` the hash and the
    `at` of its event there (what the answer's receipt signs); `view` is None in a minimal
    answer."""

    game: Game
    envelopes: list[Envelope]
    viewer: Viewer
    view: Any
    seq: int = -1
    head: str = ""
    head_at: str = ""

    def __post_init__(self) -> None:
        if self.seq < 0:
            object.__setattr__(self, "seq", self.game.seq)
            object.__setattr__(self, "head", self.game.head)
            object.__setattr__(self, "head_at", self.game.last_at)


def _codec(rules: GameRules) -> EventCodec:
    return EventCodec((*tables.TABLE_EVENTS, *rules.events))


CODECS = {name: _codec(rules) for name, rules in GAMES.items()}
"""Each game's decoder of its stored events, by game name."""


# The events that give a seat another token hash: the token it had works no more.
TOKEN_CHANGES = frozenset({"seat_left", "seat_token_reissued", "seat_resigned"})

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
    game.fold_stored(log[1:])
    return game
