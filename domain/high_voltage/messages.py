"""High Voltage's commands (requests) and events (facts)."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

import msgspec

from domain.kernel import Command, Event, Secret
from domain.kernel.messages import IdleMinutes, Seed

from .scoring import CardZone, ColourZones


class HighVoltageOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    teams: bool = False
    """Team mode, 4 seats only: seats 0 and 2 play against seats 1 and 3."""
    tiebreak_round: bool = False
    """A tie for the win after round 3 plays one more round (else the victory is shared)."""
    turn_seconds: Annotated[float, msgspec.Meta(ge=1, le=86400)] | None = None
    """A turn clock: in the draft, each seat still choosing keeps its 3 lowest cards when it
    runs out; in a trick, the seat to play plays its lowest card. Its deadline is public."""
    idle_minutes: IdleMinutes = 60.0
    """A game in which no seat has sent a command for this many minutes ends as abandoned
    (timers ringing do not count)."""
    seed: Seed | None = None
    """Sandbox only: the server seed as hex, for a reproducible shuffle."""
    deck: (
        Annotated[
            list[Annotated[int, msgspec.Meta(ge=10, le=59)]],
            msgspec.Meta(min_length=20, max_length=50),
        ]
        | None
    ) = None
    """Sandbox only: the whole deck for the seat count, top first, dealt anew every round."""


# Commands ---------------------------------------------------------------------------


class Pick(Command, frozen=True, tag="pick"):
    """Keep 3 cards of those you are choosing from in the draft; the rest pass left."""

    cards: list[int]
    example: ClassVar[dict[str, object]] = {"type": "pick", "cards": [13, 27, 44]}


class Play(Command, frozen=True, tag="play"):
    """Play a card from your hand to the trick."""

    card: int
    example: ClassVar[dict[str, object]] = {"type": "play", "card": 38}


COMMANDS = (Pick, Play)


# Events -----------------------------------------------------------------------------


class RoundStarted(Event, frozen=True, tag="round_started"):
    round: int
    leader: int


class DeckShuffled(Event, frozen=True, tag="deck_shuffled"):
    """The round's deck, top first: secret until the game ends. Cards past the dealt ones
    leave unseen. `counter` is None for a sandbox deck."""

    round: int
    size: int
    counter: int | None
    order: list[int] | None
    secret = Secret(fields=("order",))


class HandDealt(Event, frozen=True, tag="hand_dealt"):
    seat: int
    cards: list[int] | None
    secret = Secret(fields=("cards",), owners=("seat",))


class CardsPicked(Event, frozen=True, tag="cards_picked"):
    """A seat kept 3 cards; which ones only it knows (a pick is hidden from the others)."""

    seat: int
    stage: Literal[1, 2]
    cards: list[int] | None
    secret = Secret(fields=("cards",), owners=("seat",))


class CardsPassed(Event, frozen=True, tag="cards_passed"):
    """Once every seat has picked: the cards a seat passes to its left neighbour."""

    stage: Literal[1, 2]
    seat: int
    to: int
    cards: list[int] | None
    secret = Secret(fields=("cards",), owners=("seat", "to"))


class TrickStarted(Event, frozen=True, tag="trick_started"):
    trick: int
    leader: int


class CardPlayed(Event, frozen=True, tag="card_played"):
    seat: int
    card: int


class TrickWon(Event, frozen=True, tag="trick_won"):
    trick: int
    seat: int
    card: int
    cards: list[int]


class SeatScore(msgspec.Struct, frozen=True):
    seat: int
    won: list[int]
    zones: list[ColourZones]
    cards: list[CardZone]
    points: int


class HighVoltageRoundScored(Event, frozen=True, tag="round_scored"):
    round: int
    seats: list[SeatScore]
    points: list[int]
    totals: list[int]
    team_totals: list[int] | None


class LeaderDrawn(Event, frozen=True, tag="leader_drawn"):
    """A tie for the lead settled by lot: `tied[index]` leads, `index` drawn uniformly from
    the game's random stream at `counter`."""

    round: int
    tied: list[int]
    counter: int
    index: int
    leader: int


class GameEnded(Event, frozen=True, tag="game_ended"):
    totals: list[int]
    team_totals: list[int] | None
    winners: list[int]
    """Every winning seat (in team mode, both seats of each winning team)."""


EVENTS = (
    RoundStarted,
    DeckShuffled,
    HandDealt,
    CardsPicked,
    CardsPassed,
    TrickStarted,
    CardPlayed,
    TrickWon,
    HighVoltageRoundScored,
    LeaderDrawn,
    GameEnded,
)
