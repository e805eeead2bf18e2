"""Self-play: whole games between bots, through the same table and Decider the service uses,
with every invariant checked after every event.

Time is simulated. A bot takes `think` seconds a move and every seat that may act does so in
each step, in an order the dice choose, so simultaneous games (High Voltage's draft, Danger
Danger's race) are fair between seats. A running timer rings once the simulated clock passes
its deadline, as a worker would ring it.

A game must end (RULINGS, "Liveness and lifecycle"): one that comes back to a position it
has been in during the same round, or is still running after `MAX_STEPS`, or is abandoned,
is reported as stalled at the event where it happened.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.kernel import Command, Event, GameRules, Shuffler, commitment, event_type
from domain.kernel import table as tables
from domain.kernel.bots import Dice

MAX_STEPS = 100_000
"""A game still running after this many steps is reported as stalled, not played forever."""


class InvariantBroken(AssertionError):
    """A state the rules can never reach was reached: a defect, with where it happened
    (`seq` as the game's log would number the event: `game_created` is 1)."""

    def __init__(self, game: str, seq: int, kind: str, problems: list[str]) -> None:
        super().__init__(f"{game}: after event {seq} ({kind}): {'; '.join(problems)}")
        self.seq, self.event_type, self.problems = seq, kind, problems


class Stalled(InvariantBroken):
    """A game that does not end: it repeats a position, passes its step limit, or is
    abandoned although every seat is a bot that always moves."""


@dataclass
class Played:
    """One simulated game, as the summary needs it."""

    bots: list[str]
    events: int
    commands: int
    seconds: float
    """Simulated time the game took."""
    scores: list[int]
    won: list[bool]
    teams: list[str | None] = field(default_factory=list)
    resigned: list[bool] = field(default_factory=list)


def play(
    rules: GameRules,
    bots: Sequence[str],
    seed: bytes,
    dice: Dice,
    options: msgspec.Struct | None = None,
    think: float = 1.0,
    teams: Sequence[str | None] | None = None,
    record: list[tuple[int | str, Command]] | None = None,
    resignations: Sequence[tuple[int, int]] = (),
) -> Played:
    """Play one game to its end; raise InvariantBroken at the first broken invariant, and
    Stalled where the game stops making progress. `record`, if given, receives every
    (actor, command) in the order they were decided. `resignations` are (step, seat): at
    that step of play, if the game is still on, the seat resigns and the bot the table
    names plays it on."""
    seats = len(bots)
    options = options if options is not None else rules.options_type()
    players = [rules.bot(name) for name in bots]
    table = tables.from_created(
        rules, tables.create(rules, seats, options, True, commitment(seed))[0]
    )
    log: list[Event] = []
    positions = Positions(rules.name)
    clock, commands = 0.0, 0
    started: dict[str, float] = {}  # running timer id -> simulated time it began

    def apply(events: list[Event]) -> None:
        for event in events:
            tables.evolve(table, rules, event)
            log.append(event)
            if rules.invariants is not None and table.state is not None:
                problems = rules.invariants(table.state)
                if problems:
                    raise InvariantBroken(rules.name, *_last(log), problems)

    def decide(command: Command, actor: tables.Actor) -> None:
        if record is not None:
            record.append((actor, command))
        apply(tables.decide(table, rules, command, actor, shuffler))

    shuffler = Shuffler(seed)
    for seat in range(seats):
        team = teams[seat] if teams else None
        decide(tables.Join(name=f"{bots[seat]}-{seat}", entropy=f"{seat}", team=team), "anyone")
    shuffler = Shuffler(seed, [p.entropy for p in table.players])
    decide(tables.Start(), "admin")

    resigning = sorted(resignations)
    for step in range(MAX_STEPS):
        if tables.is_over(table.status):
            break
        while resigning and resigning[0][0] <= step and table.status == "active":
            seat = resigning.pop(0)[1]
            if not table.players[seat].resigned:
                decide(tables.Resign(seat=seat), seat)
                players[seat] = rules.bot(table.players[seat].bot or "greedy")
        if tables.is_over(table.status):
            break
        running = dict(tables.running_timers(table, rules))
        started = {tid: started.get(tid, clock) for tid in running}
        ran = {timer.name: clock - started[tid] for tid, timer in running.items()}
        positions.check(table.state, ran, *_last(log))
        acting = [s for s in range(seats) if tables.legal(table, rules, s)]
        if not acting and not running:
            raise Stalled(rules.name, *_last(log), ["no seat may act, and no timer runs"])
        if acting:
            for seat in sorted(acting, key=lambda _: dice.random()):
                moves = tables.legal(table, rules, seat)
                if moves and table.status == "active":
                    command = players[seat](rules.view(table.state, seat), seat, moves, dice)
                    decide(command, seat)
                    commands += 1
            clock += think
        else:
            clock = min(started[tid] + timer.seconds for tid, timer in running.items())
        for tid, timer in running.items():
            if table.status == "active" and clock >= started[tid] + timer.seconds:
                decide(tables.FireTimer(timer=tid), "server")
    else:
        raise Stalled(rules.name, *_last(log), [f"still running after {MAX_STEPS} steps"])
    if table.status != "finished":
        reason = next(e.reason for e in log if isinstance(e, tables.GameAbandoned))
        raise Stalled(rules.name, *_last(log), [f"abandoned ({reason}) between bots"])

    _check_replay(rules, table, log)
    assert rules.standings is not None
    standings = rules.standings(table.state)
    _check_placings(rules, table.state, [won for _, won in standings], *_last(log))
    return Played(
        bots=list(bots),
        events=len(log),
        commands=commands,
        seconds=clock,
        scores=[score for score, _ in standings],
        won=[won for _, won in standings],
        teams=[p.team for p in table.players],
        resigned=[p.resigned for p in table.players],
    )


def _check_placings(rules: GameRules, state: object, won: list[bool], at: int, what: str) -> None:
    """The placings ratings are computed from agree with the game's winners: every seat
    placed once, and first exactly the seats that won (when any did)."""
    if rules.placings is None:
        return
    sides = rules.placings(state)
    placed = sorted(s for side in sides for s in side.seats)
    first = {s for side in sides if side.place == 0 for s in side.seats}
    problems = []
    if placed != list(range(len(won))):
        problems.append(f"seats placed {placed}")
    if any(won) and first != {s for s, w in enumerate(won) if w}:
        problems.append(f"placed first {sorted(first)}, won {won}")
    if problems:
        raise InvariantBroken(rules.name, at, what, problems)


def _last(log: list[Event]) -> tuple[int, str]:
    """The seq and type of the log's last event."""
    return len(log) + 1, event_type(log[-1]) if log else "game_created"


class Positions:
    """Every position a game has been in this round, between the simulation's steps. A
    position is the whole state and how long each running timer has run: a game that comes
    back to one can go round the same loop for ever. (Within a step the clock stands still,
    and a command may change nothing, such as Danger Danger's swap of two equal cards; the
    next step's clock moves on, so a timer that runs still ends that.)"""

    def __init__(self, game: str) -> None:
        self.game = game
        self.round: object = None
        self.seen: dict[bytes, int] = {}  # a position's digest -> the seq it was first seen

    def check(self, state: object, timers: dict[str, float], seq: int, kind: str) -> None:
        this_round = (getattr(state, "round", None), getattr(state, "attempt", None))
        if this_round != self.round:  # a position never comes back in another round
            self.round, self.seen = this_round, {}
        position = hashlib.blake2b(msgspec.json.encode(state), digest_size=16)
        if timers:
            position.update(msgspec.json.encode(sorted(timers.items())))
        first = self.seen.setdefault(position.digest(), seq)
        if first != seq:
            raise Stalled(
                self.game,
                seq,
                kind,
                [f"the position after event {first} again: the game can go round for ever"],
            )


def _check_replay(rules: GameRules, table: tables.Table, log: list[Event]) -> None:
    """Folding the log again, after a JSON round trip, gives the same state."""
    union: Any = tables.TABLE_EVENTS[0]  # a union of types made at run time
    for kind in (*tables.TABLE_EVENTS[1:], *rules.events):
        union = union | kind
    again = tables.Table(
        game=table.game,
        seats=table.seats,
        options=table.options,
        sandbox=table.sandbox,
        verifiable=table.verifiable,
        seed_commitment=table.seed_commitment,
    )
    for event in msgspec.json.decode(msgspec.json.encode(log), type=list[union]):
        tables.evolve(again, rules, event)
    if msgspec.json.encode(again) != msgspec.json.encode(table):
        raise InvariantBroken(rules.name, len(log), "replay", ["replay gives another state"])
