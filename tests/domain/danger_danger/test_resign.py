"""Danger Danger: a member who resigns is played on by the service in the team's relay and
cannot win; a team all of whose members resigned concedes, and the other team wins at once
(docs/rulings.md, "Resigning")."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.danger_danger import RULES
from domain.danger_danger.messages import GameEnded
from domain.kernel import table as tables
from tests.domain.resigning import check_resigned_game, resignations
from tests.domain.scenario import SHUFFLER, applied, started


def by_team(seats, teams):
    return [[s for s in range(seats) if teams[s] == team] for team in ("pink", "yellow")]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 8), seed=st.binary(min_size=8, max_size=8), data=st.data())
def test_random_games_with_resignations_end_legally(seats, seed, data):
    check_resigned_game(RULES, seats, seed, data.draw(resignations(seats)), sides=by_team)


def test_the_team_plays_on_while_a_member_has_not_resigned_then_concedes():
    table = started(RULES, 3)  # pink 0 and 2, yellow 1
    applied(table, RULES, tables.decide(table, RULES, tables.Resign(seat=0), 0, SHUFFLER))
    assert table.status == "active"
    events = tables.decide(table, RULES, tables.Resign(seat=2), 2, SHUFFLER)
    assert events[1] == GameEnded(tokens={"pink": 0, "yellow": 0}, winner="yellow")
    applied(table, RULES, events)
    assert table.status == "finished"
    assert [won for _, won in RULES.standings(table.state)] == [False, True, False]
