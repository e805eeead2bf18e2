"""The state Danger Danger's fold builds, and `evolve`, the only way it changes."""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.kernel import Event
from domain.kernel.table import SeatResigned

from .cards import TEAMS, Team, cases, team_of
from .messages import (
    CardDrawn,
    CardPlayed,
    CardsSwapped,
    CardTrashed,
    DangerDangerOptions,
    DeckShuffled,
    DeclarationsCleared,
    GameEnded,
    OutDeclared,
    RoundScored,
    RoundStarted,
    StacksLaid,
    StackStarted,
    SwapCardLaid,
    TeamOut,
    TeamsFormed,
    TimerRang,
)

TOKENS_TO_WIN = 3  # "The first team to collect 3 Point Tokens wins the game!"
NO_PLAY_REPLAYS = 3
"""RULINGS [house, liveness]: three consecutive rounds replayed because the timer rang with
no command at all from either team end the game as abandoned."""


class TeamState(msgspec.Struct):
    seats: list[int]
    pile: list[str] = msgspec.field(default_factory=list)  # top first
    swap: str | None = None
    holding: str | None = None
    holder: int | None = None
    relay: int = 0  # index in `seats` of the member who draws next
    declared: list[int] = msgspec.field(default_factory=list)
    out: bool = False
    trashed: list[str] = msgspec.field(default_factory=list)  # cards this team trashed


class DangerDangerState(msgspec.Struct):
    options: DangerDangerOptions
    seats: int
    teams: dict[Team, TeamState] = msgspec.field(default_factory=dict)
    stacks: list[list[str]] = msgspec.field(default_factory=list)  # bottom first
    round: int = 0
    attempt: int = 0
    phase: Literal["playing", "over"] = "playing"
    tokens: dict[str, int] = msgspec.field(default_factory=lambda: dict.fromkeys(TEAMS, 0))
    shuffles: int = 0
    last_round: RoundScored | None = None
    winner: Team | None = None
    commanded: bool = False
    """A seat has sent a command since this round (or its replay) was dealt."""
    idle_replays: int = 0
    """Rounds in a row replayed because the timer rang with no command at all."""
    resigned: list[int] = msgspec.field(default_factory=list)
    """Seats that resigned: they play on by the service's hand and cannot win."""

    def team_of(self, seat: int) -> Team:
        return next(name for name, t in self.teams.items() if seat in t.seats)

    def conceded(self) -> list[Team]:
        """The teams every member of which has resigned (docs/rulings.md, "Resigning")."""
        return [
            name for name, t in self.teams.items() if all(s in self.resigned for s in t.seats)
        ]


def initial(options: DangerDangerOptions, seats: int) -> DangerDangerState:
    return DangerDangerState(options=options, seats=seats)


def evolve(state: DangerDangerState, event: Event) -> DangerDangerState:
    match event:
        case TeamsFormed(pink=pink, yellow=yellow):
            state.teams = {
                "pink": TeamState(seats=list(pink)),
                "yellow": TeamState(seats=list(yellow)),
            }
        case RoundStarted(round=r, attempt=a):
            state.round, state.attempt, state.phase = r, a, "playing"
            state.commanded = False
            state.stacks = []
            for team in state.teams.values():
                team.pile, team.swap, team.holding, team.holder = [], None, None, None
                team.relay, team.declared, team.out, team.trashed = 0, [], False, []
        case DeckShuffled(team=name, order=order, counter=counter):
            assert order is not None, "the fold needs the full event"
            state.teams[name].pile = list(order)
            if counter is not None:
                state.shuffles = counter + 1
        case StacksLaid(stacks=cards):
            for card in cards:
                _take(state, card)
                state.stacks.append([card])
        case SwapCardLaid(team=name, card=card):
            _take(state, card)
            state.teams[name].swap = card
        case CardDrawn(team=name, seat=seat, card=card):
            _commanded(state)
            _take(state, card)
            team = state.teams[name]
            team.holding, team.holder = card, seat
        case CardPlayed(team=name, card=card, stack=i):
            _commanded(state)
            state.stacks[i].append(card)
            _played(state.teams[name])
        case StackStarted(team=name, card=card):
            _commanded(state)
            state.stacks.append([card])
            _played(state.teams[name])
        case CardsSwapped(team=name, took=took, left=left):
            _commanded(state)
            team = state.teams[name]
            team.holding, team.swap = took, left
        case CardTrashed(team=name, card=card):
            _commanded(state)
            state.teams[name].trashed.append(card)
            _played(state.teams[name])
        case OutDeclared(team=name, seat=seat):
            _commanded(state)
            state.teams[name].declared.append(seat)
        case DeclarationsCleared(team=name):
            state.teams[name].declared = []
        case TeamOut(team=name):
            state.teams[name].out = True
        case TimerRang():
            pass  # the scoring that follows says what it costs
        case RoundScored(tokens=tokens, reason=reason):
            state.tokens = dict(tokens)
            state.last_round = event
            if reason == "timer" and not state.commanded:
                state.idle_replays += 1
                if state.idle_replays >= NO_PLAY_REPLAYS:
                    state.phase = "over"  # abandoned: the table records `game_abandoned`
        case GameEnded(winner=winner):
            state.phase, state.winner = "over", winner
        case SeatResigned(seat=seat):
            state.resigned.append(seat)
        case _:
            raise ValueError(f"danger-danger cannot fold {type(event).__name__}")
    return state


def _commanded(state: DangerDangerState) -> None:
    """Every command of a seat begins with one of the events that call this: a draw, a play,
    a new stack, a swap, a trash, or a member's hands laid flat."""
    state.commanded = True
    state.idle_replays = 0


def _take(state: DangerDangerState, card: str) -> None:
    """A card leaves the top of its team's pile."""
    taken = state.teams[team_of(card)].pile.pop(0)
    assert taken == card, f"took {card}, but {taken} was on top"


def _played(team: TeamState) -> None:
    """The card left the hand: the relay passes to the next member."""
    team.holding, team.holder = None, None
    team.relay = (team.relay + 1) % len(team.seats)


def cases_showing(state: DangerDangerState) -> dict[str, int]:
    """ "add up the Cases on each of your team's cards on top of a Stack. Then take any
    cards the other team trashed and add those Cases to your total." """
    out: dict[str, int] = dict.fromkeys(TEAMS, 0)
    for stack in state.stacks:
        out[team_of(stack[-1])] += cases(stack[-1])
    for name, team in state.teams.items():
        other = "yellow" if name == "pink" else "pink"
        out[other] += sum(cases(c) for c in team.trashed)
    return out
