"""The Danger deck: 108 cards, four colours, numbers 1 to 9 three times each.

Card notation: the colour's initial and the number, e.g. "R7" is a red seven, "Y1" a
yellow one (R red, B blue, G green, Y yellow). A deck is a list of these, top first.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from domain.kernel.errors import INVALID_DECK

Colour = Literal["red", "blue", "green", "yellow"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "green", "yellow")
INITIAL: dict[str, Colour] = {"R": "red", "B": "blue", "G": "green", "Y": "yellow"}
LIMIT = 15  # "The limit of 15 points may not be exceeded."
COPIES = 3
NUMBERS = range(1, 10)

FULL_DECK: tuple[str, ...] = tuple(
    f"{c[0].upper()}{n}" for c in COLOURS for n in NUMBERS for _ in range(COPIES)
)


def colour(card: str) -> Colour:
    return INITIAL[card[0]]


def value(card: str) -> int:
    return int(card[1:])


def check_deck(deck: list[str]) -> None:
    """A sandbox deck must be the complete stack: each of the 108 cards exactly once."""
    bad = [c for c in deck if len(c) != 2 or c[0] not in INITIAL or c[1] not in "123456789"]
    if bad:
        raise INVALID_DECK(f"Unknown card {bad[0]!r}: write cards as R7, B1, G9, Y3.")
    if Counter(deck) != Counter(FULL_DECK):
        missing = Counter(FULL_DECK) - Counter(deck)
        extra = Counter(deck) - Counter(FULL_DECK)
        raise INVALID_DECK(
            f"A deck has 108 cards, each colour 1-9 three times; "
            f"missing {sorted(missing.elements())}, extra {sorted(extra.elements())}."
        )
