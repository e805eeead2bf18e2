"""The High Voltage deck: cards 10 to 59 in five colours (10s ... 50s).

A card is its power, an integer: its colour is the tens (25 is a 20s card) and it scores its
units digit (25 scores 5) when it sits in the Safe Zone. A deck is a list of these, top first.
"""

from __future__ import annotations

from domain.kernel.errors import INVALID_DECK

# "3 players: discard the 7s, 8s, 9s and all 50s"; "4 players: discard all 50s";
# "5 players: discard nothing"; 2 players: "discard the 5s, 6s, 7s, 8s, 9s and 50s".
DECKS: dict[int, tuple[int, ...]] = {
    2: tuple(c for c in range(10, 50) if c % 10 <= 4),
    3: tuple(c for c in range(10, 50) if c % 10 <= 6),
    4: tuple(range(10, 50)),
    5: tuple(range(10, 60)),
}
HAND = 9  # "deal 9 cards to each player"
KEEP = 3  # "Each player picks 3 cards"
TRICKS = 8  # "each consisting of 8 tricks"


def colour(card: int) -> int:
    """The colour as its tens: 20 for the 20s."""
    return card // 10 * 10


def points(card: int) -> int:
    return card % 10


def colour_name(c: int) -> str:
    return f"{c}s"


def check_deck(deck: list[int], seats: int) -> None:
    """A sandbox deck is the seat count's whole deck, each card once, top first."""
    if sorted(deck) != sorted(DECKS[seats]):
        raise INVALID_DECK(
            f"A {seats}-seat deck holds exactly the cards {min(DECKS[seats])}-"
            f"{max(DECKS[seats])} of the rulebook's setup ({len(DECKS[seats])} cards), once each.",
        )
