"""Hypothesis plays random legal High Voltage games (every seat count, team mode) and checks
the invariants after every command."""

from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.high_voltage import RULES, HighVoltageOptions
from domain.high_voltage.cards import DECKS
from domain.high_voltage.messages import (
    CardPlayed,
    GameEnded,
    HighVoltageRoundScored,
    Pick,
    Play,
    TrickWon,
)
from domain.kernel import RuleViolation, Shuffler
from tests.domain.replaying import replayed
from tests.domain.shared_view import shared_views


def recount(won: list[int]) -> int:
    """Independently: per colour, the lowest card with no same-colour neighbour scores its units."""
    total = 0
    for tens in range(10, 60, 10):
        cards = [x for x in won if x // 10 * 10 == tens]
        free = [x for x in cards if x - 1 not in cards and x + 1 not in cards]
        total += min(free) % 10 if free else 0
    return total


def conserved(state) -> bool:
    held = [
        c
        for group in (state.hands, state.packets, state.incoming, state.won)
        for h in group
        for c in h
    ]
    held += state.undealt + [p.card for p in state.plays]
    return Counter(held) == Counter(DECKS[state.seats])


def check_shared_view(state) -> None:
    """`turn` is the seat to play in a trick, or the one seat still picking in the draft;
    the totals are each seat's own, a team's total their sum."""
    for seen in shared_views(RULES, state).values():
        assert seen.totals == state.totals
        assert seen.winners == state.winners
        if seen.phase == "tricks":
            assert seen.turn == state.turn
        if seen.phase == "draft":
            assert seen.to_act == [s for s, done in enumerate(seen.picked) if not done]
        if seen.teams is not None:
            assert seen.team_totals == [sum(seen.totals[s] for s in side) for side in seen.teams]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from([(2, False), (3, False), (4, False), (4, True), (5, False)]),
    tiebreak=st.booleans(),
    seed=st.binary(min_size=32, max_size=32),
    data=st.data(),
)
def test_random_legal_games_keep_every_invariant(table, tiebreak, seed, data):
    seats, teams = table
    options = HighVoltageOptions(teams=teams, tiebreak_round=tiebreak)
    shuffler = Shuffler(seed)
    state = RULES.initial(options, seats)
    log = RULES.setup(options, seats, shuffler)
    for event in log:
        RULES.evolve(state, event)
    while state.phase != "over":
        assert conserved(state)
        movers = [s for s in range(seats) if RULES.legal(state, s)]
        assert movers, "someone can always act"
        seat = data.draw(st.sampled_from(movers))
        moves = RULES.legal(state, seat)
        before = msgspec.json.encode(state)
        for stranger in (s for s in range(seats) if s not in movers):
            probe = Pick(cards=[0, 1, 2]) if state.phase == "draft" else Play(card=0)
            try:
                RULES.decide(state, probe, stranger, shuffler)
                raise AssertionError("a seat without a legal move acted")
            except RuleViolation:
                pass
        for move in moves:  # every legal command is accepted
            RULES.decide(state, move, seat, shuffler)
        command = data.draw(st.sampled_from(moves))
        events = RULES.decide(state, command, seat, shuffler)
        assert msgspec.json.encode(state) == before, "decide must not change the state"
        plays = {p.seat: p.card for p in state.plays}
        for event in events:
            if isinstance(event, CardPlayed):
                plays[event.seat] = event.card
            if isinstance(event, TrickWon):
                assert event.card == max(event.cards) == plays[event.seat]
                plays = {}
            if isinstance(event, HighVoltageRoundScored):
                for seat_score in event.seats:
                    assert seat_score.points == recount(seat_score.won)
                assert event.points == [s.points for s in event.seats]
                assert event.totals == [
                    t + p for t, p in zip(state.totals, event.points, strict=True)
                ]
            RULES.evolve(state, event)
            log.append(event)
        check_shared_view(state)
    assert conserved(state)
    ended = log[-1]
    assert isinstance(ended, GameEnded)
    assert state.round in (3, 4) and (state.round == 3 or tiebreak)
    assert replayed(RULES, options, seats, log) == msgspec.json.encode(state)
