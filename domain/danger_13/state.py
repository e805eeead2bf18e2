"""The state Danger 13's fold builds, and `evolve`, the only way it changes."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Event
from domain.kernel.table import SeatResigned

from .cards import HIGH_LIMIT, LIMIT, plus_signs, value
from .messages import (
    ArrowResolved,
    CardAccepted,
    CardDrawn,
    CardGiven,
    CardPlaced,
    CardRefused,
    CardRevealed,
    CardsWon,
    CardWon,
    Danger13Options,
    DecisionPending,
    GameEnded,
    LimitReached,
    PacketDrawn,
    PacketReturned,
    PileShuffled,
    RoundScored,
    RoundStarted,
)


class Pending(msgspec.Struct, frozen=True):
    seat: int
    card: str


class Danger13State(msgspec.Struct):
    options: Danger13Options
    seats: int
    rows: list[list[str]]
    won: list[list[str]]
    received: list[bool]
    round: int = 0
    first: int = 0
    dealer: int = 0
    phase: Literal["give", "decide", "over"] = "give"
    pile: list[str] = msgspec.field(default_factory=list)  # top first
    discard: list[str] = msgspec.field(default_factory=list)
    packet: list[str] = msgspec.field(default_factory=list)  # top first
    revealed: bool = False  # packet[0] is face up, waiting to be given
    pending: Pending | None = None
    final: bool = False  # the pile ran out: the game ends at the next scoring
    shuffles: int = 0
    last_round: RoundScored | None = None
    winners: list[int] | None = None
    resigned: list[int] = msgspec.field(default_factory=list)
    """Seats that resigned: they play on by the service's hand and cannot win."""


def initial(options: Danger13Options, seats: int) -> Danger13State:
    return Danger13State(
        options=options,
        seats=seats,
        rows=[[] for _ in range(seats)],
        won=[[] for _ in range(seats)],
        received=[False] * seats,
    )


def limit_of(row: list[str]) -> int:
    """ "for him, the round only stops if the sum of his cards reaches or exceeds 18" """
    return HIGH_LIMIT if "limit18" in row else LIMIT


def row_sum(row: list[str]) -> int:
    return sum(value(c) for c in row)


def signs(cards: list[str]) -> int:
    return sum(plus_signs(c) for c in cards)


def evolve(state: Danger13State, event: Event) -> Danger13State:
    match event:
        case PileShuffled(reason=reason, order=order, counter=counter):
            assert order is not None, "the fold needs the full event"
            if reason == "reshuffle":
                state.discard, state.final = [], True
            state.pile = state.pile + list(order)
            if counter is not None:
                state.shuffles = counter + 1
        case RoundStarted(round=r, first=first):
            state.round, state.first, state.dealer = r, first, first
        case PacketDrawn(dealer=dealer, cards=cards):
            assert cards is not None
            assert state.pile[: len(cards)] == cards, "a packet is drawn from the top"
            del state.pile[: len(cards)]
            state.final = state.final or not state.pile  # "When the draw pile is exhausted"
            state.dealer, state.packet = dealer, list(cards)
            state.received, state.revealed, state.phase = [False] * state.seats, False, "give"
        case CardRevealed(card=card):
            assert state.packet[0] == card
            state.revealed = True
        case CardGiven(seat=seat, card=card):
            assert state.packet[0] == card
            state.packet.pop(0)
            state.revealed = False
            state.received[seat] = True
        case CardDrawn(card=card):
            taken = state.pile.pop(0)
            assert taken == card, f"drew {card}, but {taken} was on top"
            state.final = state.final or not state.pile
        case DecisionPending(seat=seat, card=card):
            state.pending, state.phase = Pending(seat=seat, card=card), "decide"
        case CardRefused(seat=seat, card=card):
            state.rows[seat].remove("hand")
            state.discard += ["hand", card]
            state.pending, state.phase = None, "give"
        case CardAccepted():
            state.pending, state.phase = None, "give"
        case CardPlaced(seat=seat, card=card):
            state.rows[seat].append(card)
        case CardWon(seat=seat, card=card):
            state.won[seat].append(card)
        case ArrowResolved(seat=seat, removed=removed):
            state.discard.append("arrow")
            if removed is not None:
                state.discard.append(state.rows[seat].pop())
        case LimitReached():
            pass  # the scoring that follows says what it costs
        case PacketReturned(cards=cards):
            assert cards is not None and state.packet == cards
            state.pile = list(cards) + state.pile
            state.packet, state.revealed = [], False
        case CardsWon(seat=seat, cards=cards):
            assert cards is not None
            state.won[seat] += cards
            for card in cards:
                state.rows[seat].remove(card)
        case RoundScored(discarded=discarded):
            for seat, cards in enumerate(discarded):
                for card in cards:
                    state.rows[seat].remove(card)
                state.discard += cards
            assert not any(state.rows), "a scoring clears every row"
            state.last_round = event
        case GameEnded(winners=winners):
            state.phase, state.winners = "over", list(winners)
        case SeatResigned(seat=seat):
            state.resigned.append(seat)
        case _:
            raise ValueError(f"danger-13 cannot fold {type(event).__name__}")
    return state


__all__ = ["Danger13State", "Pending", "evolve", "initial", "limit_of", "row_sum", "signs"]
