"""Hypothesis plays random legal Danger games and checks the invariants after every event."""

from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger import RULES, DangerOptions
from domain.danger.cards import COLOURS, FULL_DECK, LIMIT, value
from domain.danger.messages import (
    DeckShuffled,
    Draw,
    EndTurn,
    GameEnded,
    Protect,
    RoundScored,
    TakeDiscard,
)
from domain.danger.scoring import score_round
from domain.kernel import RuleViolation, Shuffler
from tests.domain.replaying import replayed
from tests.domain.shared_view import shared_views

EVERY_COMMAND = [Draw(), TakeDiscard(), EndTurn(), *(Protect(colour=c) for c in COLOURS)]


def snapshot(state) -> bytes:
    return msgspec.json.encode(state)


def recount(rows) -> list[int]:
    """An independent count: in each colour the (sum, cards) pair that is least discards;
    a closed row counts (0, its cards) and scores nothing."""
    points = [0] * len(rows)
    for colour in COLOURS:
        keys = [(0 if r[colour].closed else r[colour].sum, len(r[colour].cards)) for r in rows]
        for seat, key in enumerate(keys):
            if key != min(keys):
                points[seat] += key[0]
    return points


def check_shared_view(state) -> None:
    for seen in shared_views(RULES, state).values():
        assert seen.totals == state.totals
        assert seen.turn == (state.turn if state.phase in ("draw", "protect") else None)
        assert seen.winners == state.winners


def check_invariants(state) -> None:
    on_table = [card for rows in state.rows for row in rows.values() for card in row.cards]
    assert Counter(state.stack + state.discard + on_table) == Counter(FULL_DECK)
    for rows in state.rows:
        for row in rows.values():
            assert row.sum == sum(value(c) for c in row.cards)
            assert row.closed == (row.sum > LIMIT)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 6),
    seed=st.binary(min_size=32, max_size=32),
    fourth=st.sampled_from(["row", "total"]),
    data=st.data(),
)
def test_random_legal_games_keep_every_invariant(seats, seed, fourth, data):
    options = DangerOptions(fourth_row_needs=fourth)
    shuffler = Shuffler(seed)
    state = RULES.initial(options, seats)
    log = RULES.setup(options, seats, shuffler)
    for event in log:
        RULES.evolve(state, event)
    scored_totals = [0] * seats
    while state.phase != "over":
        seat = state.turn
        moves = RULES.legal(state, seat)
        assert moves, "the seat to act always has a move"
        # legal lists exactly the commands the rules accept, and others are refused
        before = snapshot(state)
        for command in EVERY_COMMAND:
            try:
                RULES.decide(state, command, seat, shuffler)
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == (command in moves), command
            other = (seat + 1) % seats
            try:
                RULES.decide(state, command, other, shuffler)
                raise AssertionError("a seat acted out of turn")
            except RuleViolation as refusal:
                assert refusal.code == "not_your_turn"
        assert snapshot(state) == before, "decide must not change the state"

        command = data.draw(st.sampled_from(moves))
        rows_before = msgspec.structs.replace(state).rows
        for event in RULES.decide(state, command, seat, shuffler):
            if isinstance(event, RoundScored):
                scores, points = score_round(rows_before)
                assert event.points == points == recount(rows_before)
                assert event.rows == scores
                scored_totals = [t + p for t, p in zip(scored_totals, points, strict=True)]
                assert event.totals == scored_totals
            if isinstance(event, DeckShuffled) and event.counter is not None:
                assert event.order == shuffler.shuffle(
                    state.discard if event.reason == "reshuffle" else FULL_DECK, event.counter
                )
            RULES.evolve(state, event)
            log.append(event)
            rows_before = state.rows
        check_invariants(state)
        check_shared_view(state)

    assert isinstance(log[-1], GameEnded)
    assert state.round == 5
    assert state.winners == [s for s, t in enumerate(state.totals) if t == max(state.totals)]
    assert replayed(RULES, options, seats, log) == snapshot(state)
