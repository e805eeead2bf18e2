"""Danger 13's commands (requests) and events (facts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, ClassVar, TypeAlias

import msgspec

from domain.kernel import Command, Event, Secret
from domain.kernel.composition import Composition, composition_type
from domain.kernel.messages import IdleMinutes, Seed

from .cards import DEFAULT_DECK, MAXIMA

if TYPE_CHECKING:  # the struct is made at run time; to the type checker it is a Composition
    Danger13Deck: TypeAlias = Composition
else:
    Danger13Deck = composition_type(
        "Danger13Deck",
        MAXIMA,
        DEFAULT_DECK,
        "How many of each card (notation in docs/events.md): at most twice the default count "
        "of each. A card left out counts 0.",
    )
CARD_NAME_MAX = max(len(card) for card in MAXIMA)
MAX_DECK = sum(MAXIMA.values())


def _default_deck() -> Danger13Deck:
    return Danger13Deck.of(DEFAULT_DECK)


class Danger13Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    deck: Danger13Deck = msgspec.field(default_factory=_default_deck)
    """How many of each card (notation in docs/events.md), at most twice the default count
    of each (218 cards in all). Left out: the default deck, 109 cards (each card's count is
    in its description). A deck whose rounds might never end is refused (422 invalid_deck,
    docs/rulings.md)."""
    turn_seconds: Annotated[float, msgspec.Meta(ge=1, le=86400)] | None = None
    """A turn clock: a dealer who lets it run out gives the card to the first seat (in seat
    order) without one; a seat deciding on a card accepts it. Its deadline is public."""
    idle_minutes: IdleMinutes = 60.0
    """A game in which no seat has sent a command for this many minutes ends as abandoned
    (timers ringing do not count)."""
    seed: Seed | None = None
    """Sandbox only: the server seed as hex, for a reproducible shuffle."""
    stack: (
        Annotated[
            list[Annotated[str, msgspec.Meta(max_length=CARD_NAME_MAX)]],
            msgspec.Meta(max_length=MAX_DECK),
        ]
        | None
    ) = None
    """Sandbox only: the whole draw pile, top first (the deck's cards, each as often as the
    deck has it)."""


# Commands ---------------------------------------------------------------------------


class Give(Command, frozen=True, tag="give"):
    """The dealer gives the revealed card to a seat that has no card from this packet."""

    seat: int
    example: ClassVar[dict[str, object]] = {"type": "give", "seat": 1}


class Refuse(Command, frozen=True, tag="refuse"):
    """Refuse the card reaching you: your hand and the card go to the discard pile."""


class Accept(Command, frozen=True, tag="accept"):
    """Take the card reaching you although you could refuse it with your hand."""


COMMANDS = (Give, Refuse, Accept)


# Events -----------------------------------------------------------------------------


class PileShuffled(Event, frozen=True, tag="pile_shuffled"):
    """A new face-down draw pile (on a reshuffle, laid under what is left of the old one).
    `order` is secret until the game ends; `counter` is None for a sandbox stack."""

    reason: str
    size: int
    counter: int | None
    order: list[str] | None
    secret = Secret(fields=("order",))


class RoundStarted(Event, frozen=True, tag="round_started"):
    round: int
    first: int
    """The seat holding the 1st-player card: the first dealer of the round."""


class PacketDrawn(Event, frozen=True, tag="packet_drawn"):
    """ "Nobody may see the front of the cards, including the dealer!" """

    dealer: int
    size: int
    cards: list[str] | None
    secret = Secret(fields=("cards",))


class CardRevealed(Event, frozen=True, tag="card_revealed"):
    dealer: int
    card: str


class CardGiven(Event, frozen=True, tag="card_given"):
    dealer: int
    seat: int
    card: str
    forced: bool
    """The packet's last card goes to the only seat without one: no choice."""


class CardDrawn(Event, frozen=True, tag="card_drawn"):
    """A card-draw card's extra card, drawn from the pile face up, to be resolved."""

    seat: int
    card: str


class DecisionPending(Event, frozen=True, tag="decision_pending"):
    """A seat holding a hand must refuse or accept the card reaching it."""

    seat: int
    card: str


class CardRefused(Event, frozen=True, tag="card_refused"):
    seat: int
    card: str


class CardAccepted(Event, frozen=True, tag="card_accepted"):
    seat: int
    card: str


class CardPlaced(Event, frozen=True, tag="card_placed"):
    seat: int
    card: str
    sum: int
    limit: int


class CardWon(Event, frozen=True, tag="card_won"):
    """A pure "+" card: won at once, safe for ever."""

    seat: int
    card: str


class ArrowResolved(Event, frozen=True, tag="arrow_resolved"):
    """The arrow and the rightmost card of the row (None: an empty row) are discarded."""

    seat: int
    removed: str | None
    sum: int
    limit: int


class LimitReached(Event, frozen=True, tag="limit_reached"):
    seat: int
    sum: int
    limit: int


class PacketReturned(Event, frozen=True, tag="packet_returned"):
    """The packet's undealt cards go back on top of the pile, in order, unseen."""

    count: int
    cards: list[str] | None
    secret = Secret(fields=("cards",))


class CardsWon(Event, frozen=True, tag="cards_won"):
    """At a scoring a seat turns its "+" row cards face down: only it sees which."""

    seat: int
    count: int
    cards: list[str] | None
    secret = Secret(fields=("cards",), owners=("seat",))


class RoundScored(Event, frozen=True, tag="round_scored"):
    round: int
    seat: int | None
    """The seat that reached its limit (None: no card was left to deal)."""
    discarded: list[list[str]]
    """Per seat, the row cards discarded (all of the busting seat's; the others' without "+")."""
    won_counts: list[int]


class GameEnded(Event, frozen=True, tag="game_ended"):
    plus_signs: list[int]
    values: list[int]
    winners: list[int]
    """Most "+" signs; a tie goes to the highest total value of won cards; then shared."""


EVENTS = (
    PileShuffled,
    RoundStarted,
    PacketDrawn,
    CardRevealed,
    CardGiven,
    CardDrawn,
    DecisionPending,
    CardRefused,
    CardAccepted,
    CardPlaced,
    CardWon,
    ArrowResolved,
    LimitReached,
    PacketReturned,
    CardsWon,
    RoundScored,
    GameEnded,
)
