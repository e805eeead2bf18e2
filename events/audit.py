"""The audit of a game's log: what anyone can check, offline, with the log alone.

1. hash_chain: seq runs 1, 2, 3 ...; every `prev` names the previous `hash`; every `hash`
   is SHA-256 of the event's canonical bytes (docs/events.md).
2. seed_commitment: the seed published at the end (`seed_revealed`) hashes to the
   `seed_commitment` promised in the first event.
3. shuffles: every recorded shuffle and random draw is what the seed, the seats' entropy and
   its counter give (docs/fairness.md).
4. rules: each recorded command (`cause`), decided again by the game's rules against the
   state its predecessors made, yields exactly the recorded events. An abandonment is a
   command too: the admin's is decided again like any other; the service's must also have
   been due by the log's own clock (`_check_abandon`).
5. scores: every scoring and the final result are what the rules count.

3-5 are one replay: each command is decided again and its events compared; a difference in
an event carrying randomness fails `shuffles`, one in a scoring event fails `scores`, any
other fails `rules`, as does a timer rung by anyone but the server or before its deadline,
or event times that go backwards. The recorded events are folded either way, so one bad
event does not hide the next. A sandbox game whose deck was fixed cannot be verified and is
never reported as passing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, cast

import msgspec

from domain.kernel import Command, Event, GameRules, Shuffler, event_type
from domain.kernel import table as tables
from domain.registry import GAMES

from .envelope import Envelope, EventCodec, chain_break, event_data, first_break
from .signatures import first_bad_receipt

SCORING = {"round_scored", "game_ended"}


class Check(msgspec.Struct):
    name: str
    ok: bool
    detail: str
    seq: int | None = None
    """The first event where the check failed."""
    expected: Any = None
    """What the event should have been (type and data), where a replay says so."""


class Report(msgspec.Struct):
    game: str
    ok: bool
    finished: bool
    verifiable: bool
    checks: list[Check]


def _actor(actor: str) -> tables.Actor:
    if actor.startswith("seat:"):
        return int(actor.split(":")[1])
    # Any other actor as the log has it: `decide` lets no actor it does not know act.
    return cast(tables.Actor, actor)


def _may_be_redacted(envelope: Envelope, codec: EventCodec) -> bool:
    """True for an event that a running game's export may show redacted for its reader: a
    secret event without its salt (its hidden fields left out), or a seat's event without a
    recorded command (a seat's command is its own until the game is over)."""
    kind = codec.type_of(envelope.type)
    if kind is not None and kind.secret is not None and envelope.salt is None:
        return True
    return envelope.actor.startswith("seat:") and envelope.cause is None


def _running_chain(envelopes: list[Envelope], codec: EventCodec) -> Check:
    """The hash chain of a running game's export: every link, and the hash of every event
    shown whole. An event redacted for the export's reader keeps its hash (the whole
    event's), which only the whole event can be checked against."""
    broken, redacted = chain_break(envelopes, lambda e: _may_be_redacted(e, codec))
    if broken is not None:
        return Check("hash_chain", False, broken[1], broken[0])
    if not redacted:
        return Check("hash_chain", True, "every event chained and hashed")
    return Check(
        "hash_chain",
        True,
        f"every event chained, and every event shown whole hashed; {len(redacted)} events "
        "are redacted for this export's reader (the game is not over, and what the rules "
        "hide stays hidden until it is): export the game again once it is over to check "
        f"their hashes too (the first is event {redacted[0]})",
    )


def audit(envelopes: list[Envelope]) -> Report:
    game_id = envelopes[0].game if envelopes else ""
    checks: dict[str, Check] = {}
    broken = first_break(envelopes)
    checks["hash_chain"] = Check(
        "hash_chain",
        broken is None,
        "every event chained and hashed" if broken is None else broken[1],
        None if broken is None else broken[0],
    )
    if (
        not envelopes
        or envelopes[0].type != "game_created"
        or envelopes[0].data.get("game") not in GAMES
    ):
        checks["rules"] = Check("rules", False, "the log does not begin with a game_created", 1)
        return Report(game_id, False, False, False, list(checks.values()))
    rules = GAMES[envelopes[0].data["game"]]
    codec = EventCodec((*tables.TABLE_EVENTS, *rules.events))
    created = codec.event(envelopes[0])
    assert isinstance(created, tables.GameCreated)
    revealed = next((e for e in envelopes if e.type == "seed_revealed"), None)
    finished = revealed is not None
    if revealed is None:
        checks["hash_chain"] = _running_chain(envelopes, codec)
        pending = "the game is not over: its seed is still secret"
        for name in ("seed_commitment", "shuffles", "rules", "scores"):
            checks[name] = Check(name, False, pending)
        return Report(game_id, False, False, created.verifiable, list(checks.values()))
    seed = bytes.fromhex(revealed.data["seed"])
    promised = hashlib.sha256(seed).hexdigest() == created.seed_commitment
    checks["seed_commitment"] = Check(
        "seed_commitment",
        promised,
        "the revealed seed hashes to the commitment"
        if promised
        else "SHA-256 of the revealed seed is not the seed_commitment of the first event",
        None if promised else revealed.seq,
    )
    for name, what in (
        ("shuffles", "every shuffle and draw re-derived from the seed"),
        ("rules", "every command decided again gives the recorded events"),
        ("scores", "every scoring recounted"),
    ):
        checks[name] = Check(name, True, what)
    if not created.verifiable:
        # A sandbox deck fixed the cards: its order was chosen, not shuffled, and cannot be
        # decided again; such a game is reported as not verified, never as passing.
        for name in ("shuffles", "rules", "scores"):
            checks[name] = Check(
                name, False, "not verifiable: a sandbox deck or stack fixed the cards"
            )
        report = list(checks.values())
        return Report(game_id, False, True, False, report)
    _replay(envelopes, rules, codec, created, seed, checks)
    report = list(checks.values())
    return Report(game_id, all(c.ok for c in report), finished, created.verifiable, report)


def _replay(
    envelopes: list[Envelope],
    rules: GameRules,
    codec: EventCodec,
    created: tables.GameCreated,
    seed: bytes,
    checks: dict[str, Check],
) -> None:
    union: Any = tables.Start | tables.FireTimer | tables.Abandon
    for command_type in (*tables.TABLE_COMMANDS, *rules.commands):
        union = union | command_type
    table = tables.from_created(rules, created)
    batches: list[list[Envelope]] = []
    for envelope in envelopes[1:]:
        if envelope.cause is not None or not batches:
            batches.append([envelope])
        else:
            batches[-1].append(envelope)
    timers = TimerStarts()
    last_at = _time(envelopes[0].at)
    clock = _Clock(created=last_at)
    for batch in batches:
        first = batch[0]
        if _time(first.at) < last_at:
            _fail(checks, "rules", first.seq, "event time goes backwards")
        last_at = _time(first.at)
        if first.cause is not None and first.cause.get("type") == "fire_timer":
            _check_timer(table, rules, timers, first, checks)
        if first.cause is not None and first.cause.get("type") == "abandon":
            _check_abandon(clock, first, checks)
        clock.saw(first)
        try:
            command: Command = msgspec.convert(first.cause, union)
            shuffler = Shuffler(seed, [p.entropy for p in table.players])
            skip = False
            decided = tables.decide(table, rules, command, _actor(first.actor), shuffler)
        except Exception as exc:  # a refused or unreadable command is a finding, not a crash
            _fail(checks, "rules", first.seq, f"the command {first.cause} is refused: {exc}")
            decided, skip = [], True
        if not skip:
            _compare(batch, decided, checks)
        for envelope in batch:
            try:
                tables.evolve(table, rules, codec.event(envelope))
            except Exception as exc:
                _fail(checks, "rules", envelope.seq, f"the event cannot be folded: {exc}")
                return
            timers.saw(table, envelope)


class TimerStarts:
    """When each running timer of a game began: the `at` of the event after which it first
    ran (its deadline is that and its seconds, as every process derives it from the log)."""

    def __init__(self) -> None:
        self.started: dict[str, datetime] = {}

    def saw(self, table: tables.Table, envelope: Envelope) -> None:
        """`envelope` was folded into `table`."""
        running = table.timer_ids()
        for timer_id in running.keys() - self.started.keys():
            self.started[timer_id] = _time(envelope.at)
        for timer_id in self.started.keys() - running.keys():
            del self.started[timer_id]

    def deadline(self, table: tables.Table, rules: GameRules, timer_id: str) -> datetime | None:
        """The deadline of a timer running now; None for one that is not."""
        running = dict(tables.running_timers(table, rules))
        if timer_id not in running or timer_id not in self.started:
            return None
        return self.started[timer_id] + timedelta(seconds=running[timer_id].seconds)


def rung_timers(envelopes: list[Envelope]) -> list[tuple[int, str, datetime | None]]:
    """(seq, timer id, its deadline) for every batch a `fire_timer` caused in a log that
    begins with its `game_created`; the deadline is None for a timer that was not running."""
    rules = GAMES[envelopes[0].data["game"]]
    codec = EventCodec((*tables.TABLE_EVENTS, *rules.events))
    created = codec.event(envelopes[0])
    assert isinstance(created, tables.GameCreated)
    table = tables.from_created(rules, created)
    timers = TimerStarts()
    rung = []
    for envelope in envelopes[1:]:
        cause = envelope.cause or {}
        if cause.get("type") == "fire_timer":
            timer_id = cause.get("timer", "")
            rung.append((envelope.seq, timer_id, timers.deadline(table, rules, timer_id)))
        tables.evolve(table, rules, codec.event(envelope))
        timers.saw(table, envelope)
    return rung


class _Clock:
    """What an abandonment by the service is measured from: the game's first event, its
    start, and the last command a seat sent (a timer ringing is no seat's activity)."""

    def __init__(self, created: datetime) -> None:
        self.created = created
        self.active_since: datetime | None = None

    def saw(self, first: Envelope) -> None:
        if first.type == "game_started" or (
            first.cause is not None and first.actor.startswith("seat:")
        ):
            self.active_since = _time(first.at)


# `at` is kept to the millisecond, truncated: two times may each have lost up to 1 ms.
_AT_RESOLUTION = timedelta(milliseconds=1)


def _check_abandon(clock: _Clock, first: Envelope, checks: dict[str, Check]) -> None:
    """An abandonment by the service was due (RULINGS, "Liveness and lifecycle"); its limit
    is the one it records (`game_abandoned.limit`). Whether the game was open or active for
    it, and whether an idle limit is the game's own `idle_minutes`, the replay decides.

    - not_started: at least `limit` hours after the game's first event;
    - idle: at least `limit` minutes after the last command a seat sent, or after the start
      when no seat has sent one;
    - max_events: the log, closed by `game_abandoned` and `seed_revealed`, holds at least
      `limit` events (the abandonment came once it held `limit - 2`)."""
    if first.actor != "server":
        return  # the admin's (or anyone else's) is decided again like any command
    cause = first.cause or {}
    reason, limit = cause.get("reason"), cause.get("limit")
    if not isinstance(limit, int | float):
        return  # the replay refuses an abandonment that names no limit
    at = _time(first.at)
    due: str | None = None
    if reason == "not_started" and at + _AT_RESOLUTION < _after(clock.created, hours=limit):
        due = f"{at - clock.created} after the game was created, not {limit:g} hours"
    elif (
        reason == "idle"
        and clock.active_since is not None
        and at + _AT_RESOLUTION < _after(clock.active_since, minutes=limit)
    ):
        due = f"{at - clock.active_since} after the last seat's command, not {limit:g} minutes"
    elif reason == "max_events" and first.seq + 1 < limit:
        due = f"the log closes with {first.seq + 1} events, not the {limit:g} of max_events"
    if due is not None:
        _fail(checks, "rules", first.seq, f"the game was abandoned ({reason}) too soon: {due}")


def _after(moment: datetime, **duration: float) -> datetime:
    """`moment` plus `duration`; a duration past the calendar's end never comes."""
    try:
        return moment + timedelta(**duration)
    except OverflowError:
        return datetime.max.replace(tzinfo=moment.tzinfo)


def _time(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def _check_timer(
    table: tables.Table,
    rules: GameRules,
    timers: TimerStarts,
    first: Envelope,
    checks: dict[str, Check],
) -> None:
    """Only the server rings a timer, and never before its deadline."""
    if first.actor != "server":
        _fail(checks, "rules", first.seq, f"{first.actor} rang a timer; only the server may")
        return
    assert first.cause is not None, "called for a fire_timer cause"
    deadline = timers.deadline(table, rules, first.cause["timer"])
    if deadline is not None and _time(first.at) + timedelta(milliseconds=1) < deadline:
        _fail(checks, "rules", first.seq, f"the timer rang before its deadline {deadline}")


def _compare(batch: list[Envelope], decided: list[Event], checks: dict[str, Check]) -> None:
    recorded = [(e.type, e.data) for e in batch]
    expected = [(event_type(e), msgspec.to_builtins(event_data(e))) for e in decided]
    for index in range(max(len(recorded), len(expected))):
        got = recorded[index] if index < len(recorded) else None
        want = expected[index] if index < len(expected) else None
        if got == want:
            continue
        seq = batch[min(index, len(batch) - 1)].seq
        kind = (want or got or ("", {}))[0]
        data = (want or got or ("", {}))[1]
        name = "scores" if kind in SCORING else "shuffles" if "counter" in data else "rules"
        _fail(
            checks,
            name,
            seq,
            f"event {seq} is not what the rules give",
            None if want is None else {"type": want[0], "data": want[1]},
        )
        return


def _fail(checks: dict[str, Check], name: str, seq: int, detail: str, expected: Any = None) -> None:
    if checks[name].ok:
        checks[name] = Check(name, False, detail, seq, expected)


def audit_export(
    data: bytes,
    receipts: Sequence[Mapping[str, Any]] | None = None,
    keys: Mapping[str, str] | None = None,
) -> Report:
    """The audit of an exported log (JSON Lines, one envelope a line), as `danger audit FILE`
    and `POST /v1/audit` give it: a line that is not an event fails the hash chain there,
    since a changed byte can break the JSON itself. With `receipts` (and the public `keys`
    they are checked with, by id), a check of those too."""
    report, envelopes = _audit_lines(data)
    if receipts is None:
        return report
    hashes = {e.seq: e.hash for e in envelopes}
    bad = first_bad_receipt(report.game, hashes, receipts, keys or {})
    detail = f"{len(receipts)} receipt(s) signed by listed keys, each naming the log's hash"
    check = Check("receipts", bad is None, detail if bad is None else bad[0])
    if bad is not None:
        check.seq = bad[1]
    report.checks.append(check)
    report.ok = report.ok and check.ok
    return report


def _audit_lines(data: bytes) -> tuple[Report, list[Envelope]]:
    """The audit of the lines, and the events read up to the first line that is not one."""
    decode = msgspec.json.Decoder(Envelope).decode
    envelopes = []
    for number, line in enumerate((line for line in data.splitlines() if line.strip()), 1):
        try:
            envelopes.append(decode(line))
        except msgspec.DecodeError as exc:
            game = envelopes[0].game if envelopes else ""
            unreadable = Check("hash_chain", False, f"line {number} is not an event: {exc}", number)
            return Report(game, False, False, False, [unreadable]), envelopes
    if not envelopes:
        no_events = Check("hash_chain", False, "no events", None)
        return Report("", False, False, False, [no_events]), envelopes
    return audit(envelopes), envelopes
