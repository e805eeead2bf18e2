"""The write path of every command (a seat's, the admin's, a bot's, a timer's): decide
against the cached fold, seal the events into the hash chain, append them naming the seq
they were decided against, fold them, and answer. A fold another process has overtaken
fails the append and is folded again and decided again; a retry under an Idempotency-Key
gets the first answer. Part of `GameService` (service/play/games.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

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
from events.store import Appended, Conflict, Duplicate, Refusal, Retried
from service.infra import metrics, request_context
from service.infra.errors import ApiError
from service.play.game_model import Game, Outcome
from service.play.idempotency import reused

if TYPE_CHECKING:
    from service.play.games import GameService

log = logging.getLogger("danger.games")
MAX_ATTEMPTS = 20  # a decision lost to another writer is re-decided this many times at most


class WritePath:
    """The write path of `GameService`: every change to a game goes through `_execute`."""

    async def _execute(
        self: GameService,
        game: Game,
        actor: int | str,
        command: Command,
        idem: tuple[str, str] | None,
        command_id: str | None,
        if_match: int | None,
        secrets_for: Any,
        recheck: Callable[[], Awaitable[Any]] | None = None,
        full: bool = True,
        retry: tuple[int, str] | None = None,
    ) -> Outcome:
        """Decide `command` for `actor` and append its events. `recheck` checks the caller's
        token again whenever the fold is brought up to date: a token the log has since
        replaced (a seat left, or was given a new token) stops working at once. `retry`
        (seat, fingerprint of the body) for a seat's command without a key: sent again after
        a 503 whose events were written, it is answered with the first result."""
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        viewer: Viewer = actor if isinstance(actor, int) else SPECTATOR
        if isinstance(actor, int):
            note_seat(actor)
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
                    elif retry is not None and game.last_actor == label:
                        # Only a game whose last event is this seat's can hold its retry's
                        # record: other refusals ask the store nothing more.
                        found = await self.store.take_retry(game.id, *retry, game.head)
                        if found is not None:
                            return await self._repeat(game, found, retry[1], viewer, full)
                    raise
                if not events:
                    return Outcome(game, [], viewer, self.view(game, viewer) if full else None)
                await self.clock.refresh()
                at = self.clock.stamp(game.last_at)
                envelopes = seal_all(game, events, at, label, command_id, command)
                extra = secrets_for(events) if secrets_for else None
                result = await self.store.append(
                    game.id, game.seq, envelopes, idem, extra, retry
                )
                count_append(game, result, len(envelopes))
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
                if isinstance(result, Retried):
                    await self._catch_up(game)
                    return await self._repeat(game, result, result.fingerprint, viewer, full)
                if isinstance(result, Duplicate | Refusal):
                    return await self._repeat(game, result, idem[1], viewer, full)  # type: ignore[index]
                assert isinstance(result, Conflict)
                cached = False
                if if_match is not None:
                    raise ApiError(412, "stale_seq", "The game moved on.", seq=result.actual_seq)
        raise ApiError(
            503, "contention", "Too many concurrent writers on this game; retry shortly."
        )

    async def _ring_due_timer(self: GameService, game: Game) -> bool | None:
        """A timer past its deadline rings now, before a seat's command is decided: the
        worker may be late, but the rules are not ("if the timer goes off while you're
        still playing, your team IMMEDIATELY LOSES"). True if it rang, None on a conflict."""
        moment = self.clock.now()
        due = [(timer, deadline) for timer, _, deadline in game.clocks() if deadline <= moment]
        if not due:
            return False
        rang = await self._append_server(game, tables.FireTimer(timer=due[0][0]))
        if rang:
            count_timer(game, "inline", (moment - due[0][1]).total_seconds())
        return rang

    async def _append_server(self: GameService, game: Game, command: Command) -> bool | None:
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
        self._cache.get(game.id)
        await self._schedule_after_append(game)
        return True

    async def _guard_length(self: GameService, game: Game) -> None:
        """The last guard (docs/rulings.md, "Liveness and lifecycle"): a log that reaches
        `max_events` ends the game as abandoned; the two closing events fit under the bound."""
        limit = self.lifecycle.max_events
        if game.seq >= limit - 2 and not game.finished:
            abandon = tables.Abandon(reason="max_events", limit=float(limit))
            if await self._append_server(game, abandon) is None:
                await self._catch_up(game)  # another process came first; the next append checks

    async def _remember(
        self: GameService,
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
        self: GameService,
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


def note_seat(seat: int | None) -> None:
    context = request_context.current()
    if context is not None and seat is not None:
        context.seat = seat

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
