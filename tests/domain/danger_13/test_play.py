"""Hypothesis plays random legal Danger 13 games and checks the invariants after every command."""

from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger_13 import RULES, Danger13Options
from domain.danger_13.cards import cards_of
from domain.danger_13.messages import Accept, GameEnded, Give, Refuse, RoundScored
from domain.kernel import AUDITOR, RuleViolation, Shuffler
from tests.domain.replaying import replayed
from tests.domain.shared_view import shared_views


def everywhere(state) -> Counter:
    cards = state.pile + state.discard + state.packet
    if state.pending is not None:  # a card waiting for its receiver's decision
        cards.append(state.pending.card)
    for group in (state.rows, state.won):
        for cs in group:
            cards += cs
    return Counter(cards)


def worth(card: str) -> int:
    digits = card.lstrip("+").removeprefix("draw")
    return int(digits) if digits.isdigit() else 0


def recount_signs(won: list[str]) -> int:
    return sum(2 if c.startswith("++") else 1 if c.startswith("+") else 0 for c in won)


def check_shared_view(state) -> None:
    """The dealer or the deciding seat is `turn`; the totals are the "+" signs, shown to all
    only once the game is over (won cards lie face down until then)."""
    views = shared_views(RULES, state)
    whole = views[AUDITOR]
    assert whole.totals == whole.plus_signs == [recount_signs(w) for w in state.won]
    for viewer, seen in views.items():
        shown = viewer == AUDITOR or state.phase == "over"
        assert seen.totals == (whole.totals if shown else None), viewer
        if seen.turn is not None:
            waiting = seen.pending.seat if seen.phase == "decide" else seen.dealer
            assert seen.turn == waiting and seen.phase != "over"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 5), seed=st.binary(min_size=32, max_size=32), data=st.data())
def test_random_legal_games_keep_every_invariant(seats, seed, data):
    options = Danger13Options()
    shuffler = Shuffler(seed)
    state = RULES.initial(options, seats)
    log = RULES.setup(options, seats, shuffler)
    for event in log:
        RULES.evolve(state, event)
    full = Counter(cards_of(options.deck.counts()))
    while state.phase != "over":
        assert everywhere(state) == full
        for seat, row in enumerate(state.rows):  # a seat at its limit would have stopped
            assert sum(worth(c) for c in row) < (18 if "limit18" in row else 13), (seat, row)
        movers = [s for s in range(seats) if RULES.legal(state, s)]
        assert len(movers) == 1, "exactly one seat acts: the dealer, or the seat deciding"
        seat = movers[0]
        moves = RULES.legal(state, seat)
        before = msgspec.json.encode(state)
        for probe in [Give(seat=s) for s in range(seats)] + [Refuse(), Accept()]:
            try:
                RULES.decide(state, probe, seat, shuffler)
                assert probe in moves, probe
            except RuleViolation:
                assert probe not in moves, probe
            for other in range(seats):
                if other != seat:
                    try:
                        RULES.decide(state, probe, other, shuffler)
                        raise AssertionError("a seat acted out of turn")
                    except RuleViolation:
                        pass
        assert msgspec.json.encode(state) == before, "decide must not change the state"
        for event in RULES.decide(state, data.draw(st.sampled_from(moves)), seat, shuffler):
            RULES.evolve(state, event)
            log.append(event)
            if isinstance(event, RoundScored):
                assert event.won_counts == [len(w) for w in state.won]
        check_shared_view(state)
    assert everywhere(state) == full
    ended = log[-1]
    assert isinstance(ended, GameEnded)
    assert ended.plus_signs == [recount_signs(w) for w in state.won]
    best = max(zip(ended.plus_signs, ended.values, strict=True))
    assert ended.winners == [
        s for s in range(seats) if (ended.plus_signs[s], ended.values[s]) == best
    ]
    assert replayed(RULES, options, seats, log) == msgspec.json.encode(state)
