"""Danger Danger's commands (requests) and events (facts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, Literal, TypeAlias

import msgspec

from domain.kernel import Command, Event, Secret
from domain.kernel.composition import Composition, composition_type
from domain.kernel.messages import IdleMinutes, Seed

from .cards import DEFAULT_DECK, FACES, MAX_DECK, MAXIMA, Team

if TYPE_CHECKING:  # the struct is made at run time; to the type checker it is a Composition
    DangerDangerDeck: TypeAlias = Composition
else:
    DangerDangerDeck = composition_type(
        "DangerDangerDeck",
        MAXIMA,
        DEFAULT_DECK,
        "Each team's deck, written without the initial (notation in docs/events.md). At most "
        "twice the default deck's count of each kind of card: 8 of each number (64 cards in "
        "all), 6 showing 5 Cases, 2 showing 10, 4 New Stack cards. A card left out counts 0.",
    )
CARD_NAME_MAX = 1 + max(len(face) for face in FACES)


Pile = Annotated[
    list[Annotated[str, msgspec.Meta(max_length=CARD_NAME_MAX)]], msgspec.Meta(max_length=MAX_DECK)
]


class TeamPiles(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Sandbox only: each team's draw pile, top first."""

    pink: Pile
    yellow: Pile

    def __getitem__(self, team: Team) -> list[str]:
        return self.pink if team == "pink" else self.yellow


def _default_deck() -> DangerDangerDeck:
    return DangerDangerDeck.of(DEFAULT_DECK)


class DangerDangerOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    deck: DangerDangerDeck = msgspec.field(default_factory=_default_deck)
    """Each team's deck (notation in docs/events.md), at most twice the default deck's
    count of each kind of card (8 of each number: 64 cards in all). Left out: the default
    deck, 32 cards (each card's count is in its description)."""
    round_seconds: Annotated[float, msgspec.Meta(ge=0.5, le=3600)] = 60.0
    """The hidden round timer ("Set a 60-second timer")."""
    idle_minutes: IdleMinutes = 60.0
    """A game in which no seat has sent a command for this many minutes ends as abandoned
    (timers ringing do not count)."""
    seed: Seed | None = None
    """Sandbox only: the server seed as hex, for a reproducible shuffle."""
    stack: TeamPiles | None = None
    """Sandbox only: each team's draw pile, top first, for every round (e.g. {"pink": ["P3",
    ...], "yellow": [...]}); the first 3 cards become stacks, the 4th the swap card."""


# Commands ---------------------------------------------------------------------------


class DrawCard(Command, frozen=True, tag="draw_card"):
    """Draw your team's next card (your turn in the relay, your team holding none)."""


class PlayCard(Command, frozen=True, tag="play_card"):
    """Play the card you hold on stack `stack`, whose top card you saw as `on`."""

    stack: int
    on: str
    example: ClassVar[dict[str, object]] = {"type": "play_card", "stack": 2, "on": "Y4"}


class NewStack(Command, frozen=True, tag="new_stack"):
    """Start a new stack with the New Stack card you hold."""


class Swap(Command, frozen=True, tag="swap"):
    """Swap the card you hold with your team's Swap Card."""


class Trash(Command, frozen=True, tag="trash"):
    """Trash the card you hold: it counts as played, its Cases go to the other team."""


class GoOut(Command, frozen=True, tag="go_out"):
    """Put your hands flat: your team is out when all its members have and it holds no card."""


COMMANDS = (DrawCard, PlayCard, NewStack, Swap, Trash, GoOut)


# Events -----------------------------------------------------------------------------


class TeamsFormed(Event, frozen=True, tag="teams_formed"):
    pink: list[int]
    yellow: list[int]
    """Each team's seats, in relay order."""


class RoundStarted(Event, frozen=True, tag="round_started"):
    round: int
    attempt: int
    """1, or more when a round is replayed."""


class DeckShuffled(Event, frozen=True, tag="deck_shuffled"):
    team: Team
    size: int
    counter: int | None
    order: list[str] | None
    """Top first; secret until the game ends."""
    secret = Secret(fields=("order",))


class StacksLaid(Event, frozen=True, tag="stacks_laid"):
    """ "Place the top 3 cards from your Draw Pile face up": both teams' three."""

    stacks: list[str]


class SwapCardLaid(Event, frozen=True, tag="swap_card_laid"):
    team: Team
    card: str


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    team: Team
    seat: int
    card: str


class CardPlayed(Event, frozen=True, tag="card_played"):
    team: Team
    seat: int
    card: str
    stack: int
    on: str


class StackStarted(Event, frozen=True, tag="stack_started"):
    team: Team
    seat: int
    card: str
    stack: int


class CardsSwapped(Event, frozen=True, tag="cards_swapped"):
    team: Team
    seat: int
    took: str
    left: str


class CardTrashed(Event, frozen=True, tag="card_trashed"):
    team: Team
    seat: int
    card: str


class OutDeclared(Event, frozen=True, tag="out_declared"):
    team: Team
    seat: int


class DeclarationsCleared(Event, frozen=True, tag="declarations_cleared"):
    """A member drew: not every hand of the team is flat any more."""

    team: Team


class TeamOut(Event, frozen=True, tag="team_out"):
    team: Team


class TimerRang(Event, frozen=True, tag="timer_rang"):
    round: int
    attempt: int


ScoreReason = Literal["both_out", "timer"]


class RoundScored(Event, frozen=True, tag="round_scored"):
    round: int
    attempt: int
    reason: ScoreReason
    cases: dict[str, int] | None
    """Both out: each team's Cases (tops of its colour plus what the other team trashed)."""
    winner: Team | None
    """None: the round is replayed (a tie, or the timer rang with both teams in)."""
    tokens: dict[str, int]


class GameEnded(Event, frozen=True, tag="game_ended"):
    tokens: dict[str, int]
    winner: Team


EVENTS = (
    TeamsFormed,
    RoundStarted,
    DeckShuffled,
    StacksLaid,
    SwapCardLaid,
    CardDrawn,
    CardPlayed,
    StackStarted,
    CardsSwapped,
    CardTrashed,
    OutDeclared,
    DeclarationsCleared,
    TeamOut,
    TimerRang,
    RoundScored,
    GameEnded,
)
