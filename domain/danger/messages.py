"""Danger's commands (requests) and events (facts)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.kernel import Command, Event, Secret
from domain.kernel.messages import IdleMinutes, Seed

from .cards import Colour


class DangerOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    fourth_row_needs: Literal["row", "total"] = "row"
    """What protecting a player's fourth row needs: "row", 6 or more cards in that row (the
    rulebook); "total", 6 or more cards in front of the player (the German original)."""
    turn_seconds: Annotated[float, msgspec.Meta(ge=1, le=86400)] | None = None
    """A turn clock: a seat that has not finished its turn in time draws from the stack and
    protects nothing. Its deadline is public."""
    idle_minutes: IdleMinutes = 60.0
    """A game in which no seat has sent a command for this many minutes ends as abandoned
    (timers ringing do not count)."""
    seed: Seed | None = None
    """Sandbox only: the server seed as hex, for a reproducible shuffle."""
    deck: (
        Annotated[
            list[Annotated[str, msgspec.Meta(max_length=2)]],
            msgspec.Meta(min_length=108, max_length=108),
        ]
        | None
    ) = None
    """Sandbox only: the complete stack, top first, e.g. ["R7", "B1", ...] (108 cards)."""


# Commands ---------------------------------------------------------------------------


class Draw(Command, frozen=True, tag="draw"):
    """Draw the top card of the stack."""


class TakeDiscard(Command, frozen=True, tag="take_discard"):
    """Take the card the previous player discarded on the turn just before."""


class Protect(Command, frozen=True, tag="protect"):
    """Protect one of your rows, after drawing and placing a card."""

    colour: Colour


class EndTurn(Command, frozen=True, tag="end_turn"):
    """End your turn without protecting a row."""


COMMANDS = (Draw, TakeDiscard, Protect, EndTurn)


# Events -----------------------------------------------------------------------------


class DeckShuffled(Event, frozen=True, tag="deck_shuffled"):
    """A new face-down stack. `order` (top first) stays secret until the game ends;
    `counter` is the shuffle's index in the game's random stream (None: a sandbox deck)."""

    reason: Literal["setup", "reshuffle"]
    size: int
    counter: int | None
    order: list[str] | None
    secret = Secret(fields=("order",))


class RoundStarted(Event, frozen=True, tag="round_started"):
    round: int
    starter: int


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    seat: int
    card: str
    source: Literal["stack", "discard"]


class CardPlaced(Event, frozen=True, tag="card_placed"):
    seat: int
    card: str
    colour: Colour
    sum: int


class RowClosed(Event, frozen=True, tag="row_closed"):
    seat: int
    colour: Colour
    sum: int


DiscardReason = Literal["row_protected", "row_closed"]
RoundEndReason = Literal["fourth_row_protected", "fourth_row_closed", "no_cards"]
RowReason = Literal[
    "scored", "closed", "smallest", "smallest_fewer_cards", "smallest_tied", "more_cards"
]


class CardDiscarded(Event, frozen=True, tag="card_discarded"):
    seat: int
    card: str
    reason: DiscardReason


class RowProtected(Event, frozen=True, tag="row_protected"):
    seat: int
    colour: Colour


class TurnEnded(Event, frozen=True, tag="turn_ended"):
    seat: int
    next: int


class RoundEnded(Event, frozen=True, tag="round_ended"):
    round: int
    seat: int | None
    reason: RoundEndReason


class RowScore(msgspec.Struct, frozen=True):
    seat: int
    colour: Colour
    cards: list[str]
    sum: int
    closed: bool
    protected: bool
    discarded: bool
    points: int
    reason: RowReason
    note: str


class RoundScored(Event, frozen=True, tag="round_scored"):
    round: int
    rows: list[RowScore]
    points: list[int]
    totals: list[int]


class GameEnded(Event, frozen=True, tag="game_ended"):
    totals: list[int]
    winners: list[int]


EVENTS = (
    DeckShuffled,
    RoundStarted,
    CardDrawn,
    CardPlaced,
    RowClosed,
    CardDiscarded,
    RowProtected,
    TurnEnded,
    RoundEnded,
    RoundScored,
    GameEnded,
)
