"""The state Danger's fold builds, and `evolve`, the only way it changes."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Event
from domain.kernel.table import SeatResigned

from .cards import COLOURS, Colour
from .messages import (
    CardDiscarded,
    CardDrawn,
    CardPlaced,
    DangerOptions,
    DeckShuffled,
    GameEnded,
    RoundEnded,
    RoundScored,
    RoundStarted,
    RowClosed,
    RowProtected,
    TurnEnded,
)

ROUNDS = 5  # "The player who has the most points after 5 rounds wins."


class Row(msgspec.Struct):
    cards: list[str] = msgspec.field(default_factory=list)
    sum: int = 0
    protected: bool = False
    closed: bool = False

    @property
    def done(self) -> bool:
        """A row that takes no more cards this round."""
        return self.protected or self.closed


def empty_rows() -> dict[Colour, Row]:
    return {c: Row() for c in COLOURS}


class DangerState(msgspec.Struct):
    options: DangerOptions
    seats: int
    rows: list[dict[Colour, Row]]
    totals: list[int]
    round: int = 0
    starter: int = 0
    turn: int = 0
    phase: Literal["draw", "protect", "scoring", "over"] = "draw"
    stack: list[str] = msgspec.field(default_factory=list)  # top first
    discard: list[str] = msgspec.field(default_factory=list)  # top last
    takeable: bool = False  # the top discard was discarded on the turn just before
    drawn: str | None = None  # the card drawn this turn
    shuffles: int = 0  # counters of the random stream used so far
    last_round: RoundScored | None = None
    resigned: list[int] = msgspec.field(default_factory=list)
    """Seats that resigned: they play on by the service's hand and cannot win."""
    winners: list[int] | None = None


def initial(options: DangerOptions, seats: int) -> DangerState:
    return DangerState(
        options=options,
        seats=seats,
        rows=[empty_rows() for _ in range(seats)],
        totals=[0] * seats,
    )


def evolve(state: DangerState, event: Event) -> DangerState:
    match event:
        case DeckShuffled(reason=reason, order=order, counter=counter):
            assert order is not None, "the fold needs the full event"
            state.stack = list(order)
            if reason == "reshuffle":
                state.discard = []
                state.takeable = False
            if counter is not None:
                state.shuffles = counter + 1
        case RoundStarted(round=n, starter=starter):
            state.round, state.starter, state.turn = n, starter, starter
            state.phase, state.drawn = "draw", None
        case CardDrawn(card=card, source=source):
            taken = state.stack.pop(0) if source == "stack" else state.discard.pop()
            assert taken == card, f"drew {card}, but {taken} was on top"
            state.takeable = False
            state.drawn = card
        case CardPlaced(seat=seat, card=card, colour=colour, sum=total):
            row = state.rows[seat][colour]
            row.cards.append(card)
            row.sum = total
            state.phase = "protect"
        case RowClosed(seat=seat, colour=colour):
            state.rows[seat][colour].closed = True
        case CardDiscarded(card=card):
            state.discard.append(card)
            state.takeable = True
        case RowProtected(seat=seat, colour=colour):
            state.rows[seat][colour].protected = True
        case TurnEnded(next=nxt):
            state.turn, state.phase, state.drawn = nxt, "draw", None
        case RoundEnded():
            state.phase = "scoring"
        case RoundScored(totals=totals):
            # "All played cards are discarded. The next round is played with the remaining stack."
            for rows in state.rows:
                for row in rows.values():
                    state.discard.extend(row.cards)
            state.rows = [empty_rows() for _ in range(state.seats)]
            state.takeable = False
            state.totals = list(totals)
            state.last_round = event
        case GameEnded(winners=winners):
            state.phase = "over"
            state.winners = list(winners)
        case SeatResigned(seat=seat):
            state.resigned.append(seat)
        case _:
            raise ValueError(f"danger cannot fold {type(event).__name__}")
    return state
