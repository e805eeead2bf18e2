"""The audit re-derives an abandoned game: the admin's abandonment is decided again like any
command; the service's must have been due by the log's own clock (RULINGS, "Liveness and
lifecycle"). Logs are sealed in-process, each event at a chosen time, as the service seals
them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from domain.danger import RULES as DANGER
from domain.danger.messages import Draw, EndTurn
from domain.danger_danger import RULES as DANGER_DANGER
from domain.kernel import Command, Event, GameRules, Shuffler, commitment
from domain.kernel import table as tables
from domain.kernel.table import Abandon, FireTimer, GameAbandoned, SeedRevealed
from events.audit import Report, audit
from events.envelope import GENESIS, Envelope, seal

SEED = bytes(range(32))
T0 = datetime(2025, 1, 1, tzinfo=UTC)


def at(**since_t0: float) -> str:
    moment = T0 + timedelta(**since_t0)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Log:
    """A game's log built as the service builds it: each command decided by the table and
    sealed with its cause on the first event, chained to the one before."""

    def __init__(self, rules: GameRules, seats: int, **options: Any) -> None:
        self.rules = rules
        chosen = rules.options_type(**options)
        created = tables.create(rules, seats, chosen, False, commitment(SEED))
        self.table = tables.from_created(rules, created[0])
        self.envelopes: list[Envelope] = []
        self.record(created, "admin", None, at())

    def send(self, command: Command, actor: tables.Actor, when: str) -> list[Event]:
        shuffler = Shuffler(SEED, [p.entropy for p in self.table.players])
        events = tables.decide(self.table, self.rules, command, actor, shuffler)
        label = f"seat:{actor}" if isinstance(actor, int) else actor
        self.record(events, label, msgspec.to_builtins(command), when)
        return events

    def record(self, events: Sequence[Event], actor: str, cause: Any, when: str) -> None:
        """Seal `events` as they are given (decided or forged) and fold them."""
        for offset, event in enumerate(events):
            prev = self.envelopes[-1].hash if self.envelopes else GENESIS
            seq = len(self.envelopes) + 1
            first_cause = cause if offset == 0 else None
            envelope = seal("g", seq, event, when, actor, None, prev, first_cause)
            self.envelopes.append(envelope)
            if seq > 1:
                tables.evolve(self.table, self.rules, event)

    def started(self, seats: int, when: str = at()) -> Log:
        for seat in range(seats):
            self.send(tables.Join(name=f"p{seat}", entropy=str(seat)), "anyone", when)
        self.send(tables.Start(), "admin", when)
        return self


def failed(report: Report) -> tuple[str, int | None, str]:
    check = next(c for c in report.checks if not c.ok)
    return check.name, check.seq, check.detail


def passes(report: Report) -> bool:
    return report.ok and report.finished and all(c.ok for c in report.checks)


def test_an_idle_game_abandoned_after_idle_minutes_passes_and_is_finished():
    log = Log(DANGER, 2).started(2)
    log.send(Draw(), 0, at(minutes=1))
    log.send(EndTurn(), 0, at(minutes=2))  # the last command a seat sent
    log.send(Abandon(reason="idle", limit=60.0), "server", at(minutes=62))
    assert log.table.status == "abandoned"
    assert passes(audit(log.envelopes))


def test_an_idle_game_abandoned_too_soon_fails_the_rules_at_the_abandonment():
    log = Log(DANGER, 2).started(2)
    log.send(Draw(), 0, at(minutes=1))
    log.send(Abandon(reason="idle", limit=60.0), "server", at(minutes=60, seconds=59))
    seq = len(log.envelopes) - 1
    name, where, detail = failed(audit(log.envelopes))
    assert (name, where) == ("rules", seq) and "too soon" in detail


def test_with_no_seat_command_yet_idle_counts_from_the_start():
    too_soon = Log(DANGER, 2).started(2, at(minutes=10))
    too_soon.send(Abandon(reason="idle", limit=60.0), "server", at(minutes=69))
    assert failed(audit(too_soon.envelopes))[0] == "rules"
    due = Log(DANGER, 2).started(2, at(minutes=10))
    due.send(Abandon(reason="idle", limit=60.0), "server", at(minutes=70))
    assert passes(audit(due.envelopes))


def test_a_timer_ringing_is_no_seats_activity():
    log = Log(DANGER, 2, turn_seconds=30).started(2)
    for minutes in (1, 2, 3):  # nobody plays: the turn clock plays for them, again and again
        (timer,) = log.table.timer_ids()
        assert log.send(FireTimer(timer=timer), "server", at(minutes=minutes))
    log.send(Abandon(reason="idle", limit=60.0), "server", at(minutes=60))
    assert passes(audit(log.envelopes))


def test_an_idle_limit_that_is_not_the_games_idle_minutes_fails():
    log = Log(DANGER, 2).started(2)
    forged = [GameAbandoned(reason="idle", limit=5.0), SeedRevealed(seed=SEED.hex())]
    log.record(forged, "server", {"type": "abandon", "reason": "idle", "limit": 5.0}, at(hours=2))
    name, where, detail = failed(audit(log.envelopes))
    assert (name, where) == ("rules", len(log.envelopes) - 1) and "idle_minutes" in detail


def test_an_open_game_is_abandoned_once_open_hours_have_passed():
    log = Log(DANGER, 3)
    log.send(tables.Join(name="early"), "anyone", at(hours=1))
    log.send(Abandon(reason="not_started", limit=24.0), "server", at(hours=24))
    assert log.table.status == "abandoned" and passes(audit(log.envelopes))
    early = Log(DANGER, 3)
    early.send(Abandon(reason="not_started", limit=24.0), "server", at(hours=23, minutes=59))
    assert failed(audit(early.envelopes))[:2] == ("rules", 2)


def test_a_started_game_cannot_be_abandoned_as_not_started():
    log = Log(DANGER, 2).started(2)
    cause = {"type": "abandon", "reason": "not_started", "limit": 24.0}
    forged = [GameAbandoned(reason="not_started", limit=24.0), SeedRevealed(seed=SEED.hex())]
    log.record(forged, "server", cause, at(hours=30))
    name, _, detail = failed(audit(log.envelopes))
    assert name == "rules" and "refused" in detail


def test_max_events_once_the_closed_log_holds_the_limit():
    log = Log(DANGER, 2).started(2)
    limit = float(len(log.envelopes) + 2)  # game_abandoned and seed_revealed close it
    log.send(Abandon(reason="max_events", limit=limit), "server", at(minutes=1))
    assert len(log.envelopes) == limit and passes(audit(log.envelopes))
    early = Log(DANGER, 2).started(2)
    limit = float(len(early.envelopes) + 3)
    cause = {"type": "abandon", "reason": "max_events", "limit": limit}
    forged = [GameAbandoned(reason="max_events", limit=limit), SeedRevealed(seed=SEED.hex())]
    early.record(forged, "server", cause, at(minutes=1))
    name, where, detail = failed(audit(early.envelopes))
    assert (name, where) == ("rules", len(early.envelopes) - 1) and "max_events" in detail


def test_the_admin_abandons_an_open_game_and_nobody_else_may():
    log = Log(DANGER, 2)
    log.send(Abandon(reason="admin"), "admin", at(seconds=5))
    assert passes(audit(log.envelopes))
    for actor in ("seat:0", "anyone"):
        forged = Log(DANGER, 2).started(2)
        cause = {"type": "abandon", "reason": "admin", "limit": None}
        events = [GameAbandoned(reason="admin"), SeedRevealed(seed=SEED.hex())]
        forged.record(events, actor, cause, at(minutes=5))
        name, _, detail = failed(audit(forged.envelopes))
        assert name == "rules" and "refused" in detail, actor


def test_a_danger_danger_game_nobody_plays_ends_after_three_replays_and_passes():
    log = Log(DANGER_DANGER, 2).started(2)
    for minute in (1, 2, 3):
        (timer,) = log.table.timer_ids()
        events = log.send(FireTimer(timer=timer), "server", at(minutes=minute))
    assert events[-2:] == [GameAbandoned(reason="no_play"), SeedRevealed(seed=SEED.hex())]
    report = audit(log.envelopes)
    assert passes(report) and log.table.status == "abandoned"


def test_a_no_play_abandonment_after_two_replays_is_caught_by_the_replay():
    log = Log(DANGER_DANGER, 2).started(2)
    (timer,) = log.table.timer_ids()
    log.send(FireTimer(timer=timer), "server", at(minutes=1))  # the first replay
    (timer,) = log.table.timer_ids()  # the second would be replayed, not abandoned
    shuffler = Shuffler(SEED, [p.entropy for p in log.table.players])
    decided = tables.decide(log.table, DANGER_DANGER, FireTimer(timer=timer), "server", shuffler)
    forged = [*decided[:2], GameAbandoned(reason="no_play"), SeedRevealed(seed=SEED.hex())]
    log.record(forged, "server", {"type": "fire_timer", "timer": timer}, at(minutes=2))
    name, where, _ = failed(audit(log.envelopes))
    assert (name, where) == ("rules", len(log.envelopes) - 1)
