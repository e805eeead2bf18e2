"""Given / when / then for any game: what each game's scenario.py is made of (its state set
up from chosen options, commands decided and folded, a refusal's code), whole tables opened,
joined and started by the kernel, and a bot held to the moves it is offered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from domain.kernel import Command, Event, GameRules, RuleViolation, Shuffler, event_type
from domain.kernel import table as tables
from domain.kernel.bots import Bot

SHUFFLER = Shuffler(bytes(32))


def set_up(rules: GameRules, options: Any, seats: int, **setup: Any) -> Any:
    """The game's state once the events of its setup are folded."""
    state = rules.initial(options, seats)
    for event in rules.setup(options, seats, SHUFFLER, **setup):
        rules.evolve(state, event)
    return state


def decided(rules: GameRules, state: Any, seat: int, command: Command) -> list[Event]:
    """Decide `command` and fold its events into `state`; return the events."""
    events = rules.decide(state, command, seat, SHUFFLER)
    for event in events:
        rules.evolve(state, event)
    return events


def refusing(when: Callable[[Any, int, Command], list[Event]]) -> Callable[..., str]:
    """`refused(state, seat, command)` for a game's `when`: the code of the rule it breaks."""

    def refused(state: Any, seat: int, command: Command) -> str:
        with pytest.raises(RuleViolation) as info:
            when(state, seat, command)
        return info.value.code

    return refused


def types(events: list[Event]) -> list[str]:
    return [event_type(e) for e in events]


def applied(table: Any, rules: GameRules, events: list[Event]) -> list[Event]:
    """`events` folded into the table; returned."""
    for event in events:
        tables.evolve(table, rules, event)
    return events


def opened(rules: GameRules, seats: int = 2, joined: int | None = None, **options: Any) -> Any:
    """A table of `seats` (its options `options`), `joined` of them taken (all by default)."""
    created = tables.create(rules, seats, rules.options_type(**options), False, "c")[0]
    table = tables.from_created(rules, created)
    for seat in range(seats if joined is None else joined):
        join = tables.Join(name=f"p{seat}")
        applied(table, rules, tables.decide(table, rules, join, "anyone", SHUFFLER))
    return table


def started(rules: GameRules, seats: int = 2, **options: Any) -> Any:
    """A table of `seats`, every one taken, started by its admin."""
    table = opened(rules, seats, **options)
    applied(table, rules, tables.decide(table, rules, tables.Start(), "admin", SHUFFLER))
    return table


def fire(table: Any, rules: GameRules, timer_id: str) -> list[Event]:
    """The table's timer `timer_id` rings: its events, folded."""
    command = tables.FireTimer(timer=timer_id)
    return applied(table, rules, tables.decide(table, rules, command, "server", SHUFFLER))


def strict(bot: Bot, calls: list[int] | None = None) -> Bot:
    """`bot` held to the moves it is offered: a move that is not one of them fails the test.
    Each seat it decides for is added to `calls`, where given."""

    def checked(view: Any, seat: int, moves: list[Command], dice: Any) -> Command:
        move = bot(view, seat, moves, dice)
        assert move in moves
        if calls is not None:
            calls.append(seat)
        return move

    return checked
