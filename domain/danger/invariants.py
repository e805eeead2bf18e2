"""What can never be true of a Danger state: checked after every event of a simulation."""

from __future__ import annotations

from .cards import COLOURS, FULL_DECK, LIMIT, Colour, colour, value
from .state import DangerState

_DECK = sorted(FULL_DECK)
_OFF_COLOUR = 1000
# Per row colour, what each card adds to a row's sum: a card of another colour adds so much
# that one sum checks both the sum and the colours (the fast path; details only on failure).
_WEIGHT = {
    c: {card: value(card) if colour(card) == c else _OFF_COLOUR for card in FULL_DECK}
    for c in COLOURS
}


def invariants(state: DangerState) -> list[str]:
    """Every problem with `state`, as a sentence (empty when there is none)."""
    problems: list[str] = []
    seats = state.seats
    if len(state.rows) != seats or len(state.totals) != seats:
        problems.append(f"{len(state.rows)} boards and {len(state.totals)} totals for {seats}")
    if not (0 <= state.turn < seats and 0 <= state.starter < seats):
        problems.append(f"turn {state.turn} / starter {state.starter} is no seat")
    if not 0 <= state.round <= 5:
        problems.append(f"round {state.round} is not 0-5")
    if min(state.totals, default=0) < 0:
        problems.append(f"a negative total: {state.totals}")
    if state.takeable and not state.discard:
        problems.append("a discard is takeable, but the discard pile is empty")

    cards = state.stack + state.discard
    for seat, rows in enumerate(state.rows):
        for c, row in rows.items():
            if row.cards:
                cards += row.cards
                weight = _WEIGHT[c]
                fine = (
                    row.sum == sum(map(weight.__getitem__, row.cards))
                    and (row.closed == (row.sum > LIMIT) or _just_over(state, seat, c))
                    and not (row.protected and row.closed)
                )
            else:
                fine = not (row.sum or row.protected or row.closed)
            if not fine:
                problems += _row_problems(state, seat, c)

    # Between CardDrawn and the event that places or discards it, the drawn card is in hand.
    if state.phase == "draw" and state.drawn is not None and len(cards) == len(_DECK) - 1:
        cards.append(state.drawn)
    before_setup = state.round == 0 and not cards
    if not before_setup and sorted(cards) != _DECK:
        problems.append(f"{len(cards)} cards in play are not the deck, each card once")

    if state.phase == "over":
        left = [s for s in range(seats) if s not in state.resigned]
        best = max(state.totals[s] for s in left)
        if state.winners != [s for s in left if state.totals[s] == best]:
            problems.append(f"winners {state.winners} for totals {state.totals}")
    elif state.winners is not None:
        problems.append("winners before the game is over")
    return problems


def _just_over(state: DangerState, seat: int, c: Colour) -> bool:
    """The row of the card just placed, between its CardPlaced and the RowClosed that follows:
    the one moment a row is over 15 and still open."""
    row = state.rows[seat][c]
    return (
        seat == state.turn
        and state.phase == "protect"
        and row.cards[-1] == state.drawn
        and not row.closed
    )


def _row_problems(state: DangerState, seat: int, c: Colour) -> list[str]:
    row = state.rows[seat][c]
    where = f"seat {seat} {c}"
    problems = []
    strays = [card for card in row.cards if colour(card) != c]
    if strays:
        problems.append(f"{where} holds cards of another colour: {strays}")
    total = sum(value(card) for card in row.cards)
    if row.sum != total:
        problems.append(f"{where} sum is {row.sum}, its cards make {total}")
    if row.closed and row.sum <= LIMIT:
        problems.append(f"{where} is closed at {row.sum}")
    if row.sum > LIMIT and not row.closed and not _just_over(state, seat, c):
        problems.append(f"{where} is at {row.sum} and not closed")
    if row.protected and row.closed:
        problems.append(f"{where} is both protected and closed")
    if not row.cards and (row.sum or row.protected or row.closed):
        problems.append(f"{where} has no card, yet is summed, protected or closed")
    return problems
