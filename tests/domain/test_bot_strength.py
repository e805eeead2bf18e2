"""The greedy bot of every game is clearly stronger than the random one (issue: at least
1.5 times its fair share at the largest table, at least 65% at two seats). The sample is
smaller than the 1,000 games of docs/bots.md, and seeded, so the figures are the same on
every run; the margins are wide enough that the smaller sample still says something."""

import pytest

from domain.registry import GAMES
from service.cli.simulate import Run, greedy_against_random, simulate

GAMES_PLAYED = 120


CASES = [(name, seats) for name, rules in GAMES.items() for seats in (2, rules.max_seats)]


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{s}" for g, s in CASES])
def test_greedy_beats_random(game, seats):
    summary, played = simulate(
        Run(
            game,
            seats,
            GAMES_PLAYED,
            greedy_against_random(game, seats),
            seed="strength",
            rotate=True,
        )
    )
    assert len(played) == GAMES_PLAYED
    fair = 1 / (len(GAMES[game].teams) or seats)
    target = 0.65 if seats == 2 else 1.5 * fair
    assert summary.wins_by_bot["greedy"] >= target, summary
    assert summary.wins_by_bot["greedy"] > summary.wins_by_bot["random"]
