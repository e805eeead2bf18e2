"""The Danger Danger decks: 32 cards a team, numbers 1 to 8, most showing 1 Case.

Card notation: the team's initial, the number, then "x5" or "x10" for a card showing that
many Cases, and "n" for a New Stack card: "P3" is a pink 3 (1 Case), "Y4x10" a yellow 4
showing 10 Cases, "P6n" a pink New Stack 6. A deck composition is written without the
initial ({"3n": 1, "4x10": 1, ...}) and is the same for both teams.
"""

from __future__ import annotations

import re

from domain.kernel import InvalidOptions

TEAMS = ("pink", "yellow")
INITIAL = {"pink": "P", "yellow": "Y"}
HIGHEST = 8  # "The cards are numbered 1 through 8, and they wrap around."

# RULINGS [house]: numbers 1-8 x4; 28 show 1 Case, 3 show 5, 1 shows 10; one 3 and one 6
# (1 Case each) are New Stack cards. Which numbers carry the 5s and the 10 is ours.
DEFAULT_DECK: dict[str, int] = {
    "1": 4,
    "2": 3,
    "2x5": 1,
    "3": 3,
    "3n": 1,
    "4": 3,
    "4x10": 1,
    "5": 3,
    "5x5": 1,
    "6": 3,
    "6n": 1,
    "7": 3,
    "7x5": 1,
    "8": 4,
}
_FACE = re.compile(r"^([1-8])(?:x(5|10))?(n?)$")


def face(card: str) -> str:
    return card[1:]


def team_of(card: str) -> str:
    return "pink" if card[0] == "P" else "yellow"


def number(card: str) -> int:
    return int(_FACE.match(face(card)).group(1))  # type: ignore[union-attr]


def cases(card: str) -> int:
    m = _FACE.match(face(card))
    return int(m.group(2)) if m and m.group(2) else 1  # type: ignore[union-attr]


def is_new_stack(card: str) -> bool:
    return card.endswith("n")


def fits(card: str, top: str) -> bool:
    """ "a number 1 higher or 1 lower than your card ... you can play a 1 on an 8" """
    a, b = number(card), number(top)
    return abs(a - b) == 1 or {a, b} == {1, HIGHEST}


def team_deck(team: str, composition: dict[str, int]) -> list[str]:
    """A team's cards in a fixed order (the input of its shuffle)."""
    return [INITIAL[team] + f for f, n in sorted(composition.items()) for _ in range(n)]


def check_deck(composition: dict[str, int]) -> None:
    bad = [f for f in composition if not _FACE.match(f)]
    if bad:
        raise InvalidOptions(
            "invalid_deck", f"Unknown card {bad[0]!r}: write 1-8, then x5 or x10, then n."
        )
    if any(n < 0 for n in composition.values()) or sum(composition.values()) < 8:
        raise InvalidOptions("invalid_deck", "A team's deck needs 8 or more cards.")
