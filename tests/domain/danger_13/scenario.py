"""Given / when / then for Danger 13: a table set up from a chosen draw pile."""

from __future__ import annotations

from collections import Counter

from domain.danger_13 import RULES, Danger13Options, Danger13State
from domain.danger_13.cards import DEFAULT_DECK, cards_of
from domain.danger_13.messages import Danger13Deck
from domain.kernel import Command, Event
from tests.domain.scenario import decided, refusing, set_up


def stack(*top: str, deck: dict[str, int] | None = None) -> list[str]:
    """A whole pile whose first cards are `top`, the rest of the deck after them."""
    rest = Counter(cards_of(deck or DEFAULT_DECK)) - Counter(top)
    return [*top, *sorted(rest.elements())]


def given(*top: str, seats: int = 2, deck: dict[str, int] | None = None) -> Danger13State:
    composition = Danger13Deck.of(deck or DEFAULT_DECK)
    options = Danger13Options(deck=composition, stack=stack(*top, deck=deck))
    return set_up(RULES, options, seats)


def when(state: Danger13State, seat: int, command: Command) -> list[Event]:
    return decided(RULES, state, seat, command)


refused = refusing(when)
