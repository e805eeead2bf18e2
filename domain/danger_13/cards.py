"""The Danger 13 deck: 109 cards, each a kind, maybe a value and maybe "+" signs.

Card notation (a card is its name):
- "1" ... "4": a number card of that value;
- "+0" ... "+4", "++1" ... "++5": a number card with one or two "+" signs;
- "draw0" ... "draw4": a card-draw card of that value;
- "arrow", "limit18" (the 13-to-18 card), "hand": no value;
- "+" and "++": a pure "+" card with one or two signs, won at once.

The composition (how many of each) is not published: `DEFAULT_DECK` is the spread of
docs/rulings.md ("danger-13"), and the game option `deck` replaces it, with at most twice
the default count of each card (`MAXIMA`): 218 cards at most.
"""

from __future__ import annotations

from typing import Literal, cast

from domain.kernel.errors import INVALID_DECK, OPTION_OUT_OF_RANGE

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
MAXIMA: dict[str, int] = {card: 2 * n for card, n in DEFAULT_DECK.items()}
LIMIT = 13  # "everyone checks whether the sum of his cards reaches or exceeds 13"
HIGH_LIMIT = 18  # "This player's fatal limit passes from 13 to 18"
SPECIAL = {"arrow", "limit18", "hand"}


def kind(card: str) -> Kind:
    if card in SPECIAL:
        return cast(Kind, card)  # "arrow", "limit18" or "hand": a kind of its own
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
    """One of the kinds of card of the notation above."""
    return card in MAXIMA


def cards_of(deck: dict[str, int]) -> list[str]:
    """The composition as a list, in a fixed order (the input of the first shuffle)."""
    return [card for card, count in sorted(deck.items()) for _ in range(count)]


def check_deck(deck: dict[str, int], seats: int) -> None:
    bad = [c for c in deck if not is_card(c)]
    if bad:
        raise INVALID_DECK(
            f"Unknown card {bad[0]!r}: write 1-4, +0-+4, ++1-++5, draw0-draw4, arrow, "
            "limit18, hand, + or ++.",
        )
    if any(n < 0 for n in deck.values()):
        raise INVALID_DECK("A card count cannot be negative.")
    over = [c for c, n in deck.items() if n > MAXIMA[c]]
    if over:
        raise OPTION_OUT_OF_RANGE(
            f"At most {MAXIMA[over[0]]} {over[0]!r} cards (twice the default deck's).",
        )
    if sum(deck.values()) < 3 * seats:
        raise INVALID_DECK(f"A deck for {seats} seats needs {3 * seats}+ cards.")
    _check_rounds_can_end(deck, seats)


def _check_rounds_can_end(deck: dict[str, int], seats: int) -> None:
    """RULINGS "Liveness and lifecycle": a game must be able to end. Arrows and refused cards
    go to the discard pile and come back in the next pile, so with them the cards go round
    until a seat reaches its limit ("The game continues until the next scoring"). If every
    seat can hold all the cards of value below its limit, a round may never end."""
    if not (deck.get("arrow", 0) or deck.get("hand", 0)):
        return  # every card stays where it lands: the pile runs out and the round ends
    worth = sum(value(card) * n for card, n in deck.items())
    holds = seats * (LIMIT - 1) + min(seats, deck.get("limit18", 0)) * (HIGH_LIMIT - LIMIT)
    if worth <= holds:
        raise INVALID_DECK(
            f"With arrows or hands the cards go round until a seat reaches its limit, but "
            f"this deck's cards are worth {worth} in all and {seats} seats can hold {holds} "
            "below their limits: add cards of value, or leave out arrows and hands.",
        )
