"""Given / when / then for High Voltage: a table dealt from a chosen deck."""

from __future__ import annotations

from domain.high_voltage import RULES, HighVoltageOptions, HighVoltageState
from domain.high_voltage.cards import DECKS
from domain.high_voltage.messages import Pick
from domain.kernel import Command, Event
from tests.domain.scenario import decided, refusing, set_up


def dealt(*hands: list[int], seats: int | None = None) -> list[int]:
    """A whole deck that deals `hands` (9 cards each) in seat order, the rest after them."""
    n = seats or len(hands)
    top = [c for hand in hands for c in hand]
    return top + [c for c in DECKS[n] if c not in top]


def given(deck: list[int], seats: int, **options: object) -> HighVoltageState:
    opts = HighVoltageOptions(deck=deck, **options)  # type: ignore[arg-type]  # the test's
    return set_up(RULES, opts, seats)


def when(state: HighVoltageState, seat: int, command: Command) -> list[Event]:
    return decided(RULES, state, seat, command)


refused = refusing(when)


def draft_lowest(state: HighVoltageState) -> None:
    """Every seat keeps its three lowest cards at both stages."""
    while state.phase == "draft":
        for seat in range(state.seats):
            if not state.picked[seat]:
                when(state, seat, Pick(cards=sorted(state.packets[seat])[:3]))
