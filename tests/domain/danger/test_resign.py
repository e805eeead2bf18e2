"""Danger: a seat that resigns is played on by the service and cannot win; the last seat
left able to win wins at once (docs/rulings.md, "Resigning")."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger import RULES
from domain.danger.messages import GameEnded
from domain.danger.scoring import winners
from domain.kernel import table as tables
from tests.domain.resigning import check_resigned_game, resignations
from tests.domain.scenario import SHUFFLER, applied, started


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), seed=st.binary(min_size=8, max_size=8), data=st.data())
def test_random_games_with_resignations_end_legally(seats, seed, data):
    check_resigned_game(RULES, seats, seed, data.draw(resignations(seats)))


def test_in_a_two_seat_game_the_other_seat_wins_at_once_with_the_totals_as_they_stand():
    table = started(RULES, 2)
    events = tables.decide(table, RULES, tables.Resign(seat=0), 0, SHUFFLER)
    assert [type(e).__name__ for e in events] == ["SeatResigned", "GameEnded", "SeedRevealed"]
    assert events[1] == GameEnded(totals=[0, 0], winners=[1])


def test_with_three_seats_the_game_goes_on_and_the_seat_is_played_by_the_greedy_bot():
    table = started(RULES, 3)
    events = tables.decide(table, RULES, tables.Resign(seat=1), 1, SHUFFLER)
    assert events == [tables.SeatResigned(seat=1)]
    applied(table, RULES, events)
    assert (table.status, table.players[1].bot, table.players[1].resigned) == (
        "active",
        "greedy",
        True,
    )
    assert table.state.resigned == [1]


def test_a_resigned_seat_with_the_top_total_does_not_win():
    assert winners([30, 20, 25], [0]) == [2]
    assert winners([30, 25, 25], [0]) == [1, 2]
