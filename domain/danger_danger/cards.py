"""The Danger Danger decks: 32 cards a team, numbers 1 to 8, most showing 1 Case.

Card notation: the team's initial, the number, then "x5" or "x10" for a card showing that
many Cases, and "n" for a New Stack card: "P3" is a pink 3 (1 Case), "Y4x10" a yellow 4
showing 10 Cases, "P6n" a pink New Stack 6. A deck composition is written without the
initial ({"3n": 1, "4x10": 1, ...}) and is the same for both teams.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from domain.kernel.errors import INVALID_DECK, OPTION_OUT_OF_RANGE

Team = Literal["pink", "yellow"]
TEAMS: tuple[Team, Team] = ("pink", "yellow")
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
FACES: tuple[str, ...] = tuple(
    f"{n}{cases}{new}"
    for n in range(1, HIGHEST + 1)
    for cases in ("", "x5", "x10")
    for new in ("", "n")
)


def number_of(face: str) -> int:
    m = _FACE.match(face)
    if m is None:
        raise ValueError(f"not a Danger Danger face: {face!r}")
    return int(m.group(1))


def cases_of(face: str) -> int:
    m = _FACE.match(face)
    return int(m.group(2)) if m and m.group(2) else 1


def kinds(face: str) -> list[str]:
    """The kinds of card docs/rulings.md ("danger-danger") counts that a face belongs to: its
    number, showing 5 or 10 Cases, New Stack."""
    out = [f"number {number_of(face)}"]
    if cases_of(face) > 1:
        out.append(f"showing {cases_of(face)} Cases")
    if face.endswith("n"):
        out.append("New Stack")
    return out


def _count_kinds(composition: dict[str, int]) -> Counter[str]:
    counted: Counter[str] = Counter()
    for face, n in composition.items():
        for kind in kinds(face):
            counted[kind] += n
    return counted


# A deck option holds at most twice the default deck's count of each kind: 8 of each number
# (so 64 cards at most), 6 showing 5 Cases, 2 showing 10, 4 New Stack cards; a face at most
# what the scarcest of its kinds allows.
KIND_MAXIMA: dict[str, int] = {k: 2 * n for k, n in _count_kinds(DEFAULT_DECK).items()}
MAXIMA: dict[str, int] = {f: min(KIND_MAXIMA[k] for k in kinds(f)) for f in FACES}
MAX_DECK = sum(KIND_MAXIMA[f"number {n}"] for n in range(1, HIGHEST + 1))


def face(card: str) -> str:
    return card[1:]


def team_of(card: str) -> Team:
    return "pink" if card[0] == "P" else "yellow"


def number(card: str) -> int:
    return number_of(face(card))


def cases(card: str) -> int:
    return cases_of(face(card))


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
    bad = [f for f in composition if f not in MAXIMA]
    if bad:
        raise INVALID_DECK(f"Unknown card {bad[0]!r}: write 1-8, then x5 or x10, then n.")
    over = [f for f, n in composition.items() if n > MAXIMA[f]]
    if over:
        raise OPTION_OUT_OF_RANGE(
            f"At most {MAXIMA[over[0]]} {over[0]!r} cards (twice the default deck's).",
        )
    many = [(k, n) for k, n in _count_kinds(composition).items() if n > KIND_MAXIMA[k]]
    if many:
        kind, n = many[0]
        raise OPTION_OUT_OF_RANGE(
            f"{n} cards of {kind}: at most {KIND_MAXIMA[kind]} (twice the default deck's).",
        )
    if any(n < 0 for n in composition.values()) or sum(composition.values()) < 8:
        raise INVALID_DECK("A team's deck needs 8 or more cards.")
