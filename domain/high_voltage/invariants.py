"""What can never be true of a High Voltage state: the checks a simulation runs after every
event. Each is cheap, since it runs some hundreds of times a game."""

from __future__ import annotations

from .cards import DECKS, HAND, KEEP, TRICKS
from .state import HighVoltageState


def invariants(state: HighVoltageState) -> list[str]:
    """What is wrong with `state`: empty when nothing is."""
    n = state.seats
    problems: list[str] = []
    if state.round == 0:
        return problems
    in_play = [
        c
        for group in (state.hands, state.packets, state.incoming, state.won)
        for cards in group
        for c in cards
    ] + [p.card for p in state.plays]
    # Between round_started and deck_shuffled no card is out yet, and `undealt` is stale.
    if in_play or len(state.undealt) == len(DECKS[n]):
        every = sorted(in_play + state.undealt)
        if every != list(DECKS[n]):
            deck = set(DECKS[n])
            lost = sorted(deck - set(every))
            extra = sorted(c for c in set(every) if c not in deck or every.count(c) > 1)
            problems.append(f"cards not conserved: missing {lost}, extra or doubled {extra}")
    if not 0 <= state.leader < n or not 0 <= state.turn < n:
        problems.append(f"leader {state.leader} or turn {state.turn} is no seat")
    if state.phase == "draft" and in_play:
        problems += _draft(state)
    elif state.phase == "tricks":
        problems += _tricks(state)
    if state.totals and min(state.totals) < 0:
        problems.append(f"a negative total: {state.totals}")
    last = state.last_round
    if last is not None:
        if last.totals != state.totals:
            problems.append(f"totals {state.totals} are not the last round's {last.totals}")
        if last.round == state.round:  # just scored: recount once, not after every event
            for seat_score in last.seats:
                if seat_score.points != _recount(seat_score.won):
                    problems.append(f"seat {seat_score.seat} scored {seat_score.points} wrongly")
    if state.phase == "over":
        if not state.winners:
            problems.append("the game is over without a winner")
        elif set(state.winners) & set(state.resigned):
            problems.append(f"winners {state.winners} include a resigned seat")
        elif not state.options.teams and any(
            state.totals[w] != max(t for s, t in enumerate(state.totals) if s not in state.resigned)
            for w in state.winners
        ):
            problems.append(f"winners {state.winners} do not have the top total {state.totals}")
    return problems


def _draft(state: HighVoltageState) -> list[str]:
    problems = []
    for seat, hand in enumerate(state.hands):
        if len(hand) % KEEP or len(hand) > HAND:
            problems.append(f"seat {seat} holds {len(hand)} cards in the draft")
        offered = len(state.packets[seat])
        if offered and offered + len(hand) != HAND:
            problems.append(f"seat {seat}: {len(hand)} kept and {offered} to choose from")
    return problems


def _tricks(state: HighVoltageState) -> list[str]:
    n = state.seats
    problems = []
    seats_played = [p.seat for p in state.plays]
    order = [(state.leader + i) % n for i in range(len(seats_played))]
    if seats_played != order:
        problems.append(f"trick played by seats {seats_played}, not clockwise from the leader")
    if state.turn != (state.leader + len(seats_played)) % n:
        problems.append(f"turn {state.turn} after {len(seats_played)} plays")
    if not 1 <= state.trick <= TRICKS:
        problems.append(f"trick {state.trick} of {TRICKS}")
    done = {HAND - len(hand) - (seat in seats_played) for seat, hand in enumerate(state.hands)}
    if len(done) != 1:
        problems.append(f"seats have played different numbers of tricks: {done}")
    elif sum(len(w) for w in state.won) != n * done.pop():
        problems.append("the won cards are not whole tricks")
    if any(len(w) % n for w in state.won):
        problems.append("a seat won a part of a trick")
    return problems


def _recount(won: list[int]) -> int:
    """Independently of scoring.py: per colour, the lowest card with no same-colour
    neighbour scores its units."""
    total = 0
    for tens in range(10, 60, 10):
        cards = {x for x in won if x // 10 * 10 == tens}
        free = [x for x in cards if x - 1 not in cards and x + 1 not in cards]
        total += min(free) % 10 if free else 0
    return total
