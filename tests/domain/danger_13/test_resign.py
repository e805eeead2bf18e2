"""Danger 13: a seat that resigns is played on by the service (a packet holds a card for
every seat) and cannot win; the last seat left able to win wins at once (docs/rulings.md,
"Resigning")."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger_13 import RULES
from domain.kernel import table as tables
from tests.domain.resigning import check_resigned_game, resignations
from tests.domain.scenario import SHUFFLER, started


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 5), seed=st.binary(min_size=8, max_size=8), data=st.data())
def test_random_games_with_resignations_end_legally(seats, seed, data):
    check_resigned_game(RULES, seats, seed, data.draw(resignations(seats)))


def test_in_a_two_seat_game_the_other_seat_wins_at_once():
    table = started(RULES, 2)
    events = tables.decide(table, RULES, tables.Resign(seat=1), 1, SHUFFLER)
    assert [type(e).__name__ for e in events] == ["SeatResigned", "GameEnded", "SeedRevealed"]
    assert events[1].winners == [0]
