"""High Voltage: a seat that resigns is played on by the service (the deck, the deal and
the passes are sized by the seats) and cannot win; in team mode a team plays on while one
of its seats has not resigned (docs/rulings.md, "Resigning")."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.high_voltage import RULES
from domain.high_voltage.messages import GameEnded, HighVoltageOptions
from domain.high_voltage.rules import _best_seats
from domain.kernel import table as tables
from tests.domain.resigning import check_resigned_game, resignations
from tests.domain.scenario import SHUFFLER, applied, started


def by_team(seats, teams):
    return [[0, 2], [1, 3]]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 5), seed=st.binary(min_size=8, max_size=8), data=st.data())
def test_random_games_with_resignations_end_legally(seats, seed, data):
    check_resigned_game(RULES, seats, seed, data.draw(resignations(seats)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=8, max_size=8), data=st.data())
def test_random_team_games_with_resignations_end_legally(seed, data):
    check_resigned_game(
        RULES,
        4,
        seed,
        data.draw(resignations(4)),
        sides=by_team,
        options=HighVoltageOptions(teams=True),
    )


def test_a_team_both_of_whose_seats_resign_concedes_to_the_other_teams_seats():
    table = started(RULES, 4, teams=True)
    applied(table, RULES, tables.decide(table, RULES, tables.Resign(seat=3), 3, SHUFFLER))
    assert table.status == "active"
    events = tables.decide(table, RULES, tables.Resign(seat=1), 1, SHUFFLER)
    assert events[1] == GameEnded(totals=[0] * 4, team_totals=[0, 0], winners=[0, 2])


def test_a_resigned_partner_does_not_share_the_teams_win():
    table = started(RULES, 4, teams=True)
    applied(table, RULES, tables.decide(table, RULES, tables.Resign(seat=2), 2, SHUFFLER))
    events = tables.decide(table, RULES, tables.Resign(seat=1), 1, SHUFFLER)
    assert events == [tables.SeatResigned(seat=1)]  # each team has a seat still playing
    assert _best_seats([9, 1, 9, 1], [18, 2], [[0, 2], [1, 3]], [2, 1]) == [0]
