"""The write path of every command (a seat's, the admin's, a bot's, a timer's): decide
against the cached fold, seal the events into the hash chain, append them naming the seq
they were decided against, fold them, run the reactions to an append, and answer. A fold
another process has overtaken fails the append and is folded again and decided again; a
retry under an Idempotency-Key gets the first answer.

What follows an append that is not the command's answer (the workers' jobs, and anything
else that must hear of every change) is a reaction, handed in by the composition root
(service/assembly/runtime.py): the write path knows their shape, not who they are.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import (
    SPECTATOR,
    Command,
    Event,
    Viewer,
    builtins,
)
from domain.kernel import table as tables
from domain.kernel.errors import RuleViolation
from events.envelope import (
    Envelope,
    salt_for,
    seal,
)
from events.store import Appended, Conflict, Duplicate, EventStore, Refusal, Retried
from service.infra import metrics, request_context
from service.infra.clock import StoreClock
from service.infra.config import Lifecycle
from service.infra.errors import ApiError
from service.play.access import note_seat
from service.play.game_model import Game, Outcome
from service.play.idempotency import reused
from service.play.repository import Repository

log = logging.getLogger("danger.games")
MAX_ATTEMPTS = 20  # a decision lost to another writer is re-decided this many times at most

# Called with the game once events it was decided against are appended and folded, under
# the game's lock. A reaction that fails is logged: the events are stored, and the answer
# stands.
Reaction = Callable[[Game], Awaitable[None]]
SecretsFor = Callable[[list[Event]], dict[str, str]]


@dataclass(frozen=True, slots=True)
class Write:
    """One change asked of a game: `command` decided for `actor` (a seat, `admin`,
    `anyone` for a join, `server`)."""

    game: Game
    actor: tables.Actor
    command: Command
    idem: tuple[str, str] | None = None
    """(the Idempotency-Key's scope in the game, the fingerprint of the request)"""
    command_id: str | None = None
    """recorded in the events (a seat's or the admin's Idempotency-Key)"""
    if_match: int | None = None
    secrets_for: SecretsFor | None = None
    """secrets stored with the events (a new seat's token hash)"""
    recheck: Callable[[], Awaitable[Any]] | None = None
    """checks the caller's token again whenever the fold is brought up to date: a token
    the log has since replaced (a seat left, or was given a new token) stops working at
    once"""
    full: bool = True
    """False: answer with the seq only (`Prefer: return=minimal`)"""
    retry: tuple[int, str] | None = None
    """(seat, fingerprint of the body) of a seat's command without a key: sent again after
    a 503 whose events were written, it is answered with the first result"""


class WritePath:
    """Every change to a game goes through `execute`."""

    def __init__(
        self,
        repository: Repository,
        clock: StoreClock,
        lifecycle: Lifecycle,
        reactions: Sequence[Reaction] = (),
    ) -> None:
        self.repository = repository
        self.store: EventStore = repository.store
        self.clock = clock
        self.lifecycle = lifecycle
        self.reactions = tuple(reactions)

    async def execute(self, write: Write) -> Outcome:
        """Decide the command and append its events; the answer, or the first answer again
        for a retry."""
        game, actor, command, idem = write.game, write.actor, write.command, write.idem
        if_match, recheck, full, retry = write.if_match, write.recheck, write.full, write.retry
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        viewer: Viewer = actor if isinstance(actor, int) else SPECTATOR
        if isinstance(actor, int):
            note_seat(actor)
        # The first decision trusts the cached fold, without reading the stream: the append
        # names the seq it was decided against, so a fold another process has overtaken
        # fails there (a conflict), and a refusal is only given once the fold is current.
        cached = True
        caught_up = False  # the fold was just brought current: a refused append brought the
        # events it missed, or a refused decision read them
        for _ in range(MAX_ATTEMPTS):
            async with game.lock:
                if not cached:
                    if not caught_up:
                        await self.repository.catch_up(game)
                    caught_up = False
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
                        await self.repository.catch_up(game)
                        if game.seq != seq:
                            # Decided on an old fold: decide again on the new one, which
                            # needs no second read.
                            caught_up = True
                            continue
                        if recheck is not None:
                            await recheck()
                    if idem is not None:
                        first = await self._remember(game, idem, refused, viewer, full)
                        if first is not None:
                            return first
                    elif retry is not None and game.last_actor == label:
                        # Only a game whose last event is this seat's can hold its retry's
                        # record: other refusals ask the store nothing more.
                        found = await self.store.take_retry(game.id, *retry, game.head)
                        if found is not None:
                            return await self._repeat(game, found, retry[1], viewer, full)
                    raise
                if not events:
                    return Outcome(game, [], viewer, view(game, viewer) if full else None)
                await self.clock.refresh()
                at = self.clock.stamp(game.last_at)
                envelopes = seal_all(game, events, at, label, write.command_id, command)
                extra = write.secrets_for(events) if write.secrets_for else None
                result = await self.store.append(game.id, game.seq, envelopes, idem, extra, retry)
                count_append(game, result, len(envelopes))
                if isinstance(result, Appended):
                    if extra:
                        game.hashes.update(extra)
                    try:
                        for envelope, event in zip(envelopes, events, strict=True):
                            game.fold(envelope, event)
                    except Exception:
                        self.repository.forget(game.id)
                        raise
                    self.repository.folded(game.id)
                    await self._react(game)
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
                        view(game, viewer),
                    )
                if isinstance(result, Retried):
                    await self.repository.catch_up(game)
                    return await self._repeat(game, result, result.fingerprint, viewer, full)
                if isinstance(result, Duplicate | Refusal):
                    assert idem is not None  # the store answers so only a keyed write
                    return await self._repeat(game, result, idem[1], viewer, full)
                assert isinstance(result, Conflict)
                cached = False
                caught_up = self.repository.fold_tail(game, result.tail)
                if caught_up:
                    self.repository.folded(game.id)
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
        rang = await self.append_server(game, tables.FireTimer(timer=due[0][0]))
        if rang:
            count_timer(game, "inline", (moment - due[0][1]).total_seconds())
        return rang

    async def append_server(self, game: Game, command: Command) -> bool | None:
        """Decide and append a command of the service itself, under the game's lock held by
        the caller. True if it took effect, False if it changed nothing, None on a conflict."""
        events = tables.decide(
            game.table, game.rules, command, "server", game.shuffler(), game.setup_options
        )
        if not events:
            return False
        await self.clock.refresh()
        at = self.clock.stamp(game.last_at)
        envelopes = seal_all(game, events, at, "server", None, command)
        result = await self.store.append(game.id, game.seq, envelopes)
        count_append(game, result, len(envelopes))
        if not isinstance(result, Appended):
            return None
        for envelope in envelopes:
            game.fold(envelope)
        self.repository.folded(game.id)
        await self._react(game)
        return True

    async def _react(self, game: Game) -> None:
        for reaction in self.reactions:
            try:
                await reaction(game)
            except Exception:  # the events are stored: the answer stands
                log.exception(
                    "a reaction to an append of %s failed; the sweep looks again", game.id
                )

    async def _guard_length(self, game: Game) -> None:
        """The last guard (docs/rulings.md, "Liveness and lifecycle"): a log that reaches
        `max_events` ends the game as abandoned; the two closing events fit under the bound."""
        limit = self.lifecycle.max_events
        if game.seq >= limit - 2 and not game.finished:
            abandon = tables.Abandon(reason="max_events", limit=float(limit))
            if await self.append_server(game, abandon) is None:
                # Another process came first; the next append checks again.
                await self.repository.catch_up(game)

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
            head, head_at = game.head, game.last_at
            if game.seq != prior.last_seq:
                last = prior.last_seq
                there = await self.store.read(game.id, after=last - 1, upto=last)
                head, head_at = there[-1].hash, there[-1].at
            return Outcome(game, [], viewer, None, prior.last_seq, head, head_at)
        then = await self.repository.replay(game.id, prior.last_seq)
        envelopes = await self.store.read(game.id, after=prior.first_seq - 1, upto=prior.last_seq)
        return Outcome(
            then, [game.readable(e, viewer) for e in envelopes], viewer, view(then, viewer)
        )


def view(game: Game, viewer: Viewer) -> Any:
    return tables.view(game.table, game.rules, viewer)


def count_append(game: Game, result: object, events: int) -> None:
    kind = game.rules.name
    if isinstance(result, Appended):
        metrics.series(metrics.APPENDS, kind).inc()
        metrics.series(metrics.EVENTS, kind).inc(events)
    elif isinstance(result, Conflict):
        metrics.series(metrics.CONFLICTS, kind).inc()


def count_timer(game: Game, by: str, late: float) -> None:
    metrics.TIMERS.labels(game.rules.name, by).inc()
    metrics.TIMER_LATENESS.labels(by).observe(max(0.0, late))


def seal_all(
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
