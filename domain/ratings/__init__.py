"""Ratings of players from finished games: Glicko-2 (glicko2.py) over the pairwise results of
the final placings (docs/rulings.md, "Ratings").

A game of several sides is, for each rated seat, one rating period with one result against
each other side: a win against a side placed after its own, a draw against one placed the
same, a loss against one placed before. A side of several seats (a team) is met as one
opponent, its composite: the mean of its seats' ratings and the root mean square of their
deviations. Teammates are not opponents: a team wins and loses as one, and each of its seats
is moved by its own rating and deviation. Seats that are not rated (anonymous, bots) are
neither rated nor met.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from domain.kernel.placings import Side

from .glicko2 import START_DEVIATION, Rating, rate

PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional (the threshold Lichess shows a
"?" at): too few games to say much yet."""

__all__ = ["PROVISIONAL_DEVIATION", "START_DEVIATION", "Rating", "composite", "rate_game"]


def composite(ratings: Sequence[Rating]) -> Rating:
    """A team met as one opponent: its mean rating, the root mean square of its deviations."""
    n = len(ratings)
    return Rating(
        sum(r.rating for r in ratings) / n,
        math.sqrt(sum(r.deviation * r.deviation for r in ratings) / n),
        sum(r.volatility for r in ratings) / n,
    )


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def rate_game(sides: Sequence[Side], ratings: Mapping[int, Rating]) -> dict[int, Rating]:
    """Each rated seat's rating after the game (`ratings`: the rated seats' ratings before
    it). Nothing when fewer than two sides have a rated seat: nobody met a rated opponent."""
    rated = [(side.place, [seat for seat in side.seats if seat in ratings]) for side in sides]
    rated = [(place, seats) for place, seats in rated if seats]
    if len(rated) < 2:
        return {}
    teams = [(place, composite([ratings[s] for s in seats])) for place, seats in rated]
    after: dict[int, Rating] = {}
    for i, (place, seats) in enumerate(rated):
        results = [
            (team, _score(place, their_place))
            for j, (their_place, team) in enumerate(teams)
            if j != i
        ]
        for seat in seats:
            after[seat] = rate(ratings[seat], results)
    return after
