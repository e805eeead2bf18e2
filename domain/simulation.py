"""Self-play: whole games between bots, through the same table and Decider the service uses,
with every invariant checked after every event.

Time is simulated. A bot takes `think` seconds a move and every seat that may act does so in
each step, in an order the dice choose, so simultaneous games (High Voltage's draft, Danger
Danger's race) are fair between seats. A running timer rings once the simulated clock passes
its deadline, as a worker would ring it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from domain.kernel import Command, Event, GameRules, Shuffler, commitment
from domain.kernel import table as tables
from domain.kernel.bots import Dice

MAX_STEPS = 100_000
"""A game still running after this many steps is reported as stuck, not played forever."""


class InvariantBroken(AssertionError):
    """A state the rules can never reach was reached: a defect, with where it happened."""

    def __init__(self, game: str, event: int, event_type: str, problems: list[str]) -> None:
        super().__init__(f"{game}: after event {event} ({event_type}): {'; '.join(problems)}")
        self.problems = problems


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


def play(
    rules: GameRules,
    bots: Sequence[str],
    seed: bytes,
    dice: Dice,
    options: msgspec.Struct | None = None,
    think: float = 1.0,
    teams: Sequence[str | None] | None = None,
    record: list[tuple[int | str, Command]] | None = None,
) -> Played:
    """Play one game to its end; raise InvariantBroken at the first broken invariant.
    `record`, if given, receives every (actor, command) in the order they were decided."""
    seats = len(bots)
    options = options if options is not None else rules.options_type()
    players = [rules.bot(name) for name in bots]
    table = tables.from_created(
        rules, tables.create(rules, seats, options, True, commitment(seed))[0]
    )
    log: list[Event] = []

    def apply(events: list[Event]) -> None:
        for event in events:
            tables.evolve(table, rules, event)
            log.append(event)
            if rules.invariants is not None and table.state is not None:
                problems = rules.invariants(table.state)
                if problems:
                    kind = type(event).__struct_config__.tag
                    raise InvariantBroken(rules.name, len(log), str(kind), problems)

    def decide(command: Command, actor: int | str) -> None:
        if record is not None:
            record.append((actor, command))
        apply(tables.decide(table, rules, command, actor, shuffler))  # type: ignore[arg-type]

    shuffler = Shuffler(seed)
    for seat in range(seats):
        team = teams[seat] if teams else None
        decide(tables.Join(name=f"{bots[seat]}-{seat}", entropy=f"{seat}", team=team), "anyone")
    shuffler = Shuffler(seed, [p.entropy for p in table.players])
    decide(tables.Start(), "admin")

    clock, commands = 0.0, 0
    started: dict[str, float] = {}  # running timer id -> simulated time it began
    for _ in range(MAX_STEPS):
        if table.status == "finished":
            break
        running = dict(tables.running_timers(table, rules))
        started = {tid: started.get(tid, clock) for tid in running}
        acting = [s for s in range(seats) if tables.legal(table, rules, s)]
        if not acting and not running:
            raise InvariantBroken(rules.name, len(log), "stuck", ["no seat may act, no timer"])
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
        raise InvariantBroken(rules.name, len(log), "stuck", [f"over {MAX_STEPS} steps"])

    _check_replay(rules, table, log)
    assert rules.standings is not None
    standings = rules.standings(table.state)
    return Played(
        bots=list(bots),
        events=len(log),
        commands=commands,
        seconds=clock,
        scores=[score for score, _ in standings],
        won=[won for _, won in standings],
        teams=[p.team for p in table.players],
    )


def _check_replay(rules: GameRules, table: tables.Table, log: list[Event]) -> None:
    """Folding the log again, after a JSON round trip, gives the same state."""
    union = tables.TABLE_EVENTS[0]
    for event_type in (*tables.TABLE_EVENTS[1:], *rules.events):
        union = union | event_type  # type: ignore[assignment]
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
