"""The Danger 13 deck: 109 cards, each a kind, maybe a value and maybe "+" signs.

Card notation (a card is its name):
- "1" ... "4": a number card of that value;
- "+0" ... "+4", "++1" ... "++5": a number card with one or two "+" signs;
- "draw0" ... "draw4": a card-draw card of that value;
- "arrow", "limit18" (the 13-to-18 card), "hand": no value;
- "+" and "++": a pure "+" card with one or two signs, won at once.

The composition (how many of each) is not published: `DEFAULT_DECK` is RULINGS.md's spread,
and the game option `deck` replaces it.
"""

from __future__ import annotations

from typing import Literal

from domain.kernel import InvalidOptions

Kind = Literal["number", "draw", "arrow", "limit18", "hand", "plus"]

DEFAULT_DECK: dict[str, int] = {
    **{"1": 6, "2": 5, "3": 5, "4": 5},
    **{"+0": 5, "+1": 4, "+2": 4, "+3": 4, "+4": 4},
    **{"++1": 4, "++2": 4, "++3": 4, "++4": 3, "++5": 3},
    **{"draw0": 5, "draw1": 4, "draw2": 4, "draw3": 4, "draw4": 4},
    "arrow": 6,
    "limit18": 5,
    "hand": 8,
    "+": 6,
    "++": 3,
}
LIMIT = 13  # "everyone checks whether the sum of his cards reaches or exceeds 13"
HIGH_LIMIT = 18  # "This player's fatal limit passes from 13 to 18"
SPECIAL = {"arrow", "limit18", "hand"}


def kind(card: str) -> Kind:
    if card in SPECIAL:
        return card  # type: ignore[return-value]
    if card.startswith("draw"):
        return "draw"
    if card in ("+", "++"):
        return "plus"
    return "number"


def value(card: str) -> int:
    """RULINGS: arrow, 13-to-18, hand and pure "+" cards carry no value."""
    digits = card.lstrip("+").removeprefix("draw")
    return int(digits) if digits.isdigit() else 0


def plus_signs(card: str) -> int:
    return len(card) - len(card.lstrip("+"))


def is_card(card: str) -> bool:
    body = card.lstrip("+")
    signs = plus_signs(card)
    if card in SPECIAL or card in ("+", "++"):
        return True
    if card.startswith("draw"):
        return card[4:] in ("0", "1", "2", "3", "4")
    return signs <= 2 and body.isdigit() and len(body) == 1


def cards_of(deck: dict[str, int]) -> list[str]:
    """The composition as a list, in a fixed order (the input of the first shuffle)."""
    return [card for card, count in sorted(deck.items()) for _ in range(count)]


def check_deck(deck: dict[str, int], seats: int) -> None:
    bad = [c for c in deck if not is_card(c)]
    if bad:
        raise InvalidOptions(
            "invalid_deck",
            f"Unknown card {bad[0]!r}: write 1-4, +0-+4, ++1-++5, draw0-draw4, arrow, "
            "limit18, hand, + or ++.",
        )
    if any(n < 0 for n in deck.values()):
        raise InvalidOptions("invalid_deck", "A card count cannot be negative.")
    if sum(deck.values()) < 3 * seats:
        raise InvalidOptions("invalid_deck", f"A deck for {seats} seats needs {3 * seats}+ cards.")
