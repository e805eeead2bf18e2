"""Danger 13's heuristic bot.

A seat's row is worth the "+" signs it will bank at the scoring: its signs (and a little for
the signs still to come this round) times the chance it survives, which grows with the
headroom left under its limit (a hand counts as extra headroom). A bust ends the round, so
everyone else banks his row as it is. The dealer gives the revealed card to the seat where it
beats, by the most, the average card that seat would get instead: good cards to itself, bad
ones to the opponents who lose most by them. A seat holding a hand refuses a card when that
leaves it better off than taking it. Everything is judged relative to the other seats.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from domain.kernel import Command
from domain.kernel.bots import Dice

from .cards import DEFAULT_DECK, HIGH_LIMIT, LIMIT, kind, plus_signs, value
from .messages import Accept, Give, Refuse
from .view import Danger13View

FUTURE = 1.0
"""Signs a row may still gather this round: what keeps headroom worth having on an empty row."""
HEADROOM = 13.0
"""The headroom at which a row is taken to be safe."""
HAND = 4
"""A hand refuses one fatal card: worth this much headroom."""

_total = sum(DEFAULT_DECK.values())
# The published spread stands in for the pile: which cards are left is the dealer's guess too.
_DECK = tuple((card, n / _total) for card, n in DEFAULT_DECK.items())


class Row(NamedTuple):
    """What of a row its future depends on (few enough to cache every judgement)."""

    signs: int
    total: int
    highs: int  # 13-to-18 cards
    hands: int
    last: str | None  # what an arrow takes away; "?" once unknown (no chain needs it then)


EMPTY = Row(0, 0, 0, 0, None)


def greedy(view: Danger13View, seat: int, moves: list[Command], dice: Dice) -> Command:
    rows = [_row(r) for r in view.rows]
    judge = _Judge(rows, seat)
    if view.pending is not None and Accept() in moves:
        row, offered = rows[seat], view.pending.card
        refused = judge.utility(seat, _worth(_less_hand(row)), 0.0)
        accepted = judge.utility(seat, *_outcome(row, offered, 1, False))
        return Refuse() if refused > accepted else Accept()
    card = view.revealed
    assert card is not None, "a dealer gives only a revealed card"

    def score(give: Give) -> float:
        target = give.seat
        # Every seat without a card gets one: what matters is how much better (or worse)
        # this card is for that seat than the card it would get otherwise.
        gain = judge.utility(target, *_outcome(rows[target], card, 1, True))
        usual = judge.utility(target, *_average(rows[target], 1))
        return gain - usual + dice.random() * 1e-9

    return max((m for m in moves if isinstance(m, Give)), key=score)


class _Judge:
    """The worth of the table for `seat` once a card has reached `target`."""

    def __init__(self, rows: list[Row], seat: int) -> None:
        self.seat = seat
        self.worth = [_worth(r) for r in rows]
        self.banked = [float(r.signs) for r in rows]  # what the others keep if someone busts
        self.weight = 1 / max(1, len(rows) - 1)

    def utility(self, target: int, worth: float, bust: float) -> float:
        """Our worth less the opponents' average, `target` now worth `worth` and busting
        (ending the round) with chance `bust`."""
        total = 0.0
        for s, (before, banked) in enumerate(zip(self.worth, self.banked, strict=True)):
            after = worth if s == target else before + bust * (banked - before)
            total += after if s == self.seat else -self.weight * after
        return total


def _row(cards: list[str]) -> Row:
    row = EMPTY
    for card in cards:
        row = _plus(row, card)
    return row


def _plus(row: Row, card: str) -> Row:
    return Row(
        row.signs + plus_signs(card),
        row.total + value(card),
        row.highs + (card == "limit18"),
        row.hands + (card == "hand"),
        card,
    )


def _less_last(row: Row) -> Row:
    card = row.last
    if card is None:
        return row
    return Row(
        row.signs - plus_signs(card),
        row.total - value(card),
        row.highs - (card == "limit18"),
        row.hands - (card == "hand"),
        "?",
    )


def _less_hand(row: Row) -> Row:
    return row._replace(hands=row.hands - 1, last="?" if row.last == "hand" else row.last)


def _room(row: Row) -> int:
    """How far the row's sum is below its limit (0 or less: the seat is out)."""
    return (HIGH_LIMIT if row.highs else LIMIT) - row.total


@lru_cache(maxsize=1 << 16)
def _worth(row: Row) -> float:
    """The signs this row is expected to bank."""
    headroom = _room(row) + (HAND if row.hands else 0)
    return (row.signs + FUTURE) * min(1.0, headroom / HEADROOM)


@lru_cache(maxsize=1 << 16)
def _outcome(row: Row, card: str, depth: int, choose: bool) -> tuple[float, float]:
    """(the seat's worth, the chance it busts) once `card` reaches a seat with `row`;
    `choose`: a seat holding a hand takes or refuses it, whichever leaves it better off."""
    if choose and row.hands:
        taken = _outcome(row, card, depth, False)
        refused = (_worth(_less_hand(row)), 0.0)
        return max(taken, refused)
    what = kind(card)
    if what == "plus":
        return _worth(row) + plus_signs(card), 0.0
    after = _less_last(row) if what == "arrow" else _plus(row, card)
    if _room(after) <= 0:
        return 0.0, 1.0
    if what == "draw" and depth > 0:
        return _average(after, depth - 1)
    return _worth(after), 0.0


@lru_cache(maxsize=1 << 16)
def _average(row: Row, depth: int) -> tuple[float, float]:
    """`_outcome` of a card off the pile."""
    worth = bust = 0.0
    for card, p in _DECK:
        w, b = _outcome(row, card, depth, True)
        worth += p * w
        bust += p * b
    return worth, bust
