"""Given / when / then for Danger 13: a table set up from a chosen draw pile."""

from __future__ import annotations

from collections import Counter

from domain.danger_13 import RULES, Danger13Options, Danger13State
from domain.danger_13.cards import DEFAULT_DECK, cards_of
from domain.danger_13.messages import Danger13Deck
from domain.kernel import Command, Event, Shuffler

SHUFFLER = Shuffler(bytes(32))


def stack(*top: str, deck: dict[str, int] | None = None) -> list[str]:
    """A whole pile whose first cards are `top`, the rest of the deck after them."""
    rest = Counter(cards_of(deck or DEFAULT_DECK)) - Counter(top)
    return [*top, *sorted(rest.elements())]


def given(*top: str, seats: int = 2, deck: dict[str, int] | None = None) -> Danger13State:
    composition = Danger13Deck.of(deck or DEFAULT_DECK)
    options = Danger13Options(deck=composition, stack=stack(*top, deck=deck))
    state = RULES.initial(options, seats)
    for event in RULES.setup(options, seats, SHUFFLER):
        RULES.evolve(state, event)
    return state


def when(state: Danger13State, seat: int, command: Command) -> list[Event]:
    events = RULES.decide(state, command, seat, SHUFFLER)
    for event in events:
        RULES.evolve(state, event)
    return events


def types(events: list[Event]) -> list[str]:
    return [type(e).__struct_config__.tag for e in events]  # type: ignore[misc]  # all tagged
