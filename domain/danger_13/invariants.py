"""What can never be true of a Danger 13 state: checked after every event of a simulation.

Inside a chain of events a state may be between two steps: a card given (or drawn, or
accepted) is in no pile until the event that resolves it, and a seat that reached its limit
holds its row until the scoring. So the strict checks apply when the game waits for a
command (a card revealed, or a seat deciding) and the lenient ones in between.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from domain.kernel.composition import Composition

from .cards import HIGH_LIMIT, LIMIT, cards_of, plus_signs, value
from .state import Danger13State

_value = cache(value)
_plus = cache(plus_signs)


@cache
def _deck(composition: Composition) -> Counter[str]:
    return Counter(cards_of(composition.counts()))


def invariants(state: Danger13State) -> list[str]:
    """Every problem with `state`, as a sentence (empty when there is none)."""
    problems: list[str] = []
    n = state.seats
    if len(state.rows) != n or len(state.won) != n or len(state.received) != n:
        problems.append(f"{len(state.rows)} rows, {len(state.won)} won piles for {n} seats")
    if not (0 <= state.dealer < n and 0 <= state.first < n):
        problems.append(f"dealer {state.dealer} / first {state.first} is no seat")
    waiting = state.phase == "decide" or state.revealed  # the game waits for a command
    # A resignation that leaves one seat able to win ends the game where it stands: before a
    # scoring, even on a hand's decision.
    conceded = n - len(state.resigned) <= 1

    everywhere = state.pile + state.discard + state.packet
    if state.pending is not None:
        everywhere.append(state.pending.card)
    for group in (state.rows, state.won):
        for cs in group:
            everywhere += cs
    cards = Counter(everywhere)
    full = _deck(state.options.deck)
    if cards and not dict.__eq__(cards, full):  # before setup nothing is dealt
        extra, missing = cards - full, full - cards
        # between two events of a chain one card may be on its way to a seat
        if extra or missing.total() > (0 if waiting or state.phase == "over" else 1):
            problems.append(f"cards not the deck: {dict(extra)} extra, {dict(missing)} missing")

    over = [s for s, row in enumerate(state.rows) if _room(row) <= 0]
    if over and (waiting or len(over) > 1):
        problems.append(f"seats {over} reached their limit and play goes on")
    if state.phase == "over" and any(state.rows) and not conceded:
        problems.append("the game is over with cards in a row")
    for seat, won in enumerate(state.won):
        if not all(c[0] == "+" for c in won):
            problems.append(f"seat {seat} won a card without a '+': {won}")

    if (state.phase == "decide") != (state.pending is not None) and not conceded:
        problems.append(f"phase {state.phase} with pending {state.pending}")
    if state.pending is not None and "hand" not in state.rows[state.pending.seat]:
        problems.append(f"seat {state.pending.seat} decides on a card without a hand")
    if state.revealed and (not state.packet or all(state.received)):
        problems.append("a card is revealed with no card or no seat to give it to")
    if sum(state.received) + len(state.packet) > n:
        problems.append(f"{sum(state.received)} given and {len(state.packet)} left for {n} seats")
    if state.round > 0 and not state.pile and not state.final:
        problems.append("the pile is exhausted and the game is not in its last round")

    if state.phase == "over":
        left = [s for s in range(n) if s not in state.resigned]
        best = max((_signs(state.won[s]), _worth(state.won[s])) for s in left)
        expected = [s for s in left if (_signs(state.won[s]), _worth(state.won[s])) == best]
        if state.winners != expected:
            problems.append(f"winners {state.winners}, the won cards make {expected}")
    elif state.winners is not None:
        problems.append("winners before the game is over")
    return problems


def _room(row: list[str]) -> int:
    return (HIGH_LIMIT if "limit18" in row else LIMIT) - sum(map(_value, row))


def _signs(cards: list[str]) -> int:
    return sum(map(_plus, cards))


def _worth(cards: list[str]) -> int:
    return sum(map(_value, cards))
