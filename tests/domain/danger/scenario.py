"""Given / when / then for Danger: a table set up from a chosen stack, commands decided."""

from __future__ import annotations

from collections import Counter

from domain.danger import RULES, DangerOptions, DangerState
from domain.danger.cards import FULL_DECK
from domain.kernel import Command, Event
from tests.domain.scenario import decided, refusing, set_up


def stack(*top: str) -> list[str]:
    """A complete deck whose first cards are `top` (in order), the rest in a fixed order."""
    rest = Counter(FULL_DECK) - Counter(top)
    return [*top, *sorted(rest.elements())]


def given(*top: str, seats: int = 3, **options: object) -> DangerState:
    opts = DangerOptions(deck=stack(*top), **options)  # type: ignore[arg-type]  # the test's
    return set_up(RULES, opts, seats)


def when(state: DangerState, seat: int, command: Command) -> list[Event]:
    """Decide `command` and fold its events into `state`; return the events."""
    return decided(RULES, state, seat, command)


refused = refusing(when)
