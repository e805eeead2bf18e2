"""Ratings (domain/ratings): Glicko-2 held to its author's worked example, the reduction of a
game of several sides to pairwise results, and the places each game gives its sides."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.kernel.placings import Side, placings
from domain.ratings import PROVISIONAL_DEVIATION, composite, rate_game
from domain.ratings.glicko2 import START_DEVIATION, Rating, rate


def test_glickmans_worked_example():
    """ "Example of the Glicko-2 system", section "Example calculation": a player rated 1500,
    RD 200, volatility 0.06 (tau 0.5) beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a
    1700 (RD 300): "r' = 1464.06 and RD' = 151.52", "sigma' = 0.05999"."""
    after = rate(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    )
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500 and after.volatility == 0.06
    assert after.deviation == pytest.approx(math.hypot(200, 0.06 * 173.7178))
    assert rate(Rating(1500, 349.9, 0.06), []).deviation == START_DEVIATION  # never wider


def test_two_seats_are_rated_as_glicko_2_rates_one_game():
    a, b = Rating(1620, 80, 0.06), Rating(1480, 150, 0.059)
    after = rate_game([Side((0,), 1), Side((1,), 0)], {0: a, 1: b})
    assert after == {0: rate(a, [(b, 0.0)]), 1: rate(b, [(a, 1.0)])}


def test_each_seat_meets_every_other_side_by_place():
    new = Rating()
    sides = [Side((2,), 0), Side((0,), 1), Side((3,), 1), Side((1,), 3)]
    after = rate_game(sides, dict.fromkeys(range(4), new))
    assert after[2] == rate(new, [(new, 1.0)] * 3)
    assert after[0] == rate(new, [(new, 0.0), (new, 0.5), (new, 1.0)])
    assert after[0] == after[3]  # tied
    assert after[2].rating > 1500 > after[1].rating
    assert after[0].rating == pytest.approx(1500)  # a win, a draw and a loss against equals
    assert all(r.deviation < START_DEVIATION for r in after.values())


def test_a_team_wins_as_one_and_meets_the_other_as_its_composite():
    ratings = {0: Rating(1700, 60), 1: Rating(1500, 200), 2: Rating(1400, 100), 3: Rating(1600)}
    after = rate_game([Side((0, 2), 0), Side((1, 3), 1)], ratings)
    losers = composite([ratings[1], ratings[3]])
    winners = composite([ratings[0], ratings[2]])
    assert losers.rating == 1550 and losers.deviation == pytest.approx(
        math.sqrt((200**2 + 350**2) / 2)
    )
    assert after[0] == rate(ratings[0], [(losers, 1.0)])
    assert after[3] == rate(ratings[3], [(winners, 0.0)])
    assert after[0].rating > 1700 and after[2].rating > 1400
    assert after[1].rating < 1500 and after[3].rating < 1600


def test_unrated_seats_are_neither_rated_nor_met():
    new = Rating()
    sides = [Side((0, 1), 0), Side((2,), 1), Side((3,), 2)]
    after = rate_game(sides, {0: new, 3: new})  # 1 and 2: a bot, an anonymous seat
    assert set(after) == {0, 3}
    assert after[0] == rate(new, [(new, 1.0)])
    assert rate_game(sides, {0: new, 1: new}) == {}  # no rated opponent


def test_a_new_player_is_provisional_until_some_games_narrow_it():
    assert Rating().deviation > PROVISIONAL_DEVIATION
    player, opponent = Rating(), Rating(1500, 60)
    games = 0
    while player.deviation > PROVISIONAL_DEVIATION:
        player = rate(player, [(opponent, games % 2)])
        games += 1
    assert 5 <= games <= 20


@given(
    st.lists(
        st.tuples(
            st.floats(100, 3000), st.floats(30, 350), st.floats(0.03, 0.1), st.integers(0, 7)
        ),
        min_size=2,
        max_size=8,
    ),
    st.integers(1, 4),
)
def test_any_game_leaves_every_rating_finite_and_its_deviation_bounded(seats, teams):
    ratings = {i: Rating(r, d, v) for i, (r, d, v, _) in enumerate(seats)}
    grouped: dict[int, list[int]] = {}
    for i in range(len(seats)):
        grouped.setdefault(i % teams if teams > 1 else i, []).append(i)
    sides = [Side(tuple(group), seats[group[0]][3]) for group in grouped.values()]
    for seat, after in rate_game(sides, ratings).items():
        assert math.isfinite(after.rating) and math.isfinite(after.volatility)
        assert 0 < after.deviation <= START_DEVIATION
        assert 0 < after.volatility < 1
        assert seat in ratings


def test_places_tie_skip_and_put_resigned_seats_last():
    found = placings([[0], [1], [2], [3], [4]], [(10,), (30,), (10,), (5,), (99,)], [4])
    assert {s.seats: s.place for s in found} == {(1,): 0, (0,): 1, (2,): 1, (3,): 3, (4,): 4}
    teams = placings([[0, 2], [1, 3]], [(True,), (False,)], [2])
    assert {s.seats: s.place for s in teams} == {(0,): 0, (1, 3): 1, (2,): 2}
