"""The state High Voltage's fold builds, and `evolve`, the only way it changes."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Event
from domain.kernel.table import SeatResigned

from .messages import (
    CardPlayed,
    CardsPassed,
    CardsPicked,
    DeckShuffled,
    GameEnded,
    HandDealt,
    HighVoltageOptions,
    HighVoltageRoundScored,
    LeaderDrawn,
    RoundStarted,
    TrickStarted,
    TrickWon,
)

ROUNDS = 3  # "DANGER is played in 3 rounds"


class Played(msgspec.Struct, frozen=True):
    seat: int
    card: int


class HighVoltageState(msgspec.Struct):
    options: HighVoltageOptions
    seats: int
    totals: list[int]
    rounds: int = ROUNDS
    round: int = 0
    phase: Literal["draft", "tricks", "over"] = "draft"
    stage: Literal[1, 2] = 1
    hands: list[list[int]] = msgspec.field(default_factory=list)  # cards kept / held
    packets: list[list[int]] = msgspec.field(default_factory=list)  # draft: to choose from
    incoming: list[list[int]] = msgspec.field(default_factory=list)  # passed, not yet taken up
    picked: list[bool] = msgspec.field(default_factory=list)
    passes: int = 0  # passes of this stage folded so far
    undealt: list[int] = msgspec.field(default_factory=list)
    leader: int = 0
    turn: int = 0
    trick: int = 0
    plays: list[Played] = msgspec.field(default_factory=list)
    won: list[list[int]] = msgspec.field(default_factory=list)
    shuffles: int = 0
    last_round: HighVoltageRoundScored | None = None
    winners: list[int] | None = None
    resigned: list[int] = msgspec.field(default_factory=list)
    """Seats that resigned: they play on by the service's hand and cannot win."""


def initial(options: HighVoltageOptions, seats: int) -> HighVoltageState:
    return HighVoltageState(options=options, seats=seats, totals=[0] * seats)


def _empty(seats: int) -> list[list[int]]:
    return [[] for _ in range(seats)]


def evolve(state: HighVoltageState, event: Event) -> HighVoltageState:
    n = state.seats
    match event:
        case RoundStarted(round=r, leader=leader):
            state.round, state.leader, state.turn = r, leader, leader
            state.phase, state.stage, state.trick, state.passes = "draft", 1, 0, 0
            state.hands, state.packets, state.incoming = _empty(n), _empty(n), _empty(n)
            state.won, state.picked, state.plays = _empty(n), [False] * n, []
            state.rounds = max(state.rounds, r)
        case DeckShuffled(order=order, counter=counter):
            assert order is not None, "the fold needs the full event"
            state.undealt = list(order)
            if counter is not None:
                state.shuffles = counter + 1
        case HandDealt(seat=seat, cards=cards):
            assert cards is not None
            state.packets[seat] = list(cards)
            dealt = set(cards)
            state.undealt = [c for c in state.undealt if c not in dealt]
        case CardsPicked(seat=seat, cards=cards):
            assert cards is not None
            kept = set(cards)
            state.hands[seat].extend(cards)
            state.packets[seat] = [c for c in state.packets[seat] if c not in kept]
            state.picked[seat] = True
        case CardsPassed(seat=seat, to=to, cards=cards):
            assert cards is not None
            state.packets[seat] = []
            state.incoming[to] = list(cards)
            state.passes += 1
            if state.passes == n:
                _take_up_passes(state)
        case TrickStarted(trick=trick, leader=leader):
            state.phase, state.trick, state.leader, state.turn = "tricks", trick, leader, leader
            state.plays = []
        case CardPlayed(seat=seat, card=card):
            state.hands[seat].remove(card)
            state.plays.append(Played(seat=seat, card=card))
            state.turn = (seat + 1) % n
        case TrickWon(seat=seat, cards=cards):
            state.won[seat].extend(cards)
            state.plays = []
        case HighVoltageRoundScored(totals=totals):
            state.totals = list(totals)
            state.last_round = event
        case LeaderDrawn(counter=counter):
            state.shuffles = counter + 1  # the round_started that follows names the leader
        case GameEnded(winners=winners):
            state.phase = "over"
            state.winners = list(winners)
        case SeatResigned(seat=seat):
            state.resigned.append(seat)
        case _:
            raise ValueError(f"high-voltage cannot fold {type(event).__name__}")
    return state


def _take_up_passes(state: HighVoltageState) -> None:
    """Every seat has passed: the cards received become the next choice, or the hand."""
    if state.stage == 1:
        state.packets, state.stage = state.incoming, 2
        state.picked = [False] * state.seats
    else:
        for seat, cards in enumerate(state.incoming):
            state.hands[seat].extend(cards)
    state.incoming = _empty(state.seats)
    state.passes = 0
