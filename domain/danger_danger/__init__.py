"""Danger Danger (Exploding Kittens, 2023): two teams play at once against a hidden
60-second timer, covering each other's Cases, and must go out before it rings."""

from domain.kernel import GameRules
from domain.kernel.placings import Side, placings

from .bots import greedy
from .cards import TEAMS
from .invariants import invariants
from .messages import COMMANDS, EVENTS, DangerDangerOptions, GameEnded
from .rules import REFUSALS, check_options, decide, legal, on_timer, resign, setup, timers
from .state import DangerDangerState, evolve, initial
from .view import DangerDangerView, view


def standings(state: DangerDangerState) -> list[tuple[int, bool]]:
    """The score is the team's tokens."""
    return [
        (
            state.tokens[state.team_of(seat)],
            state.team_of(seat) == state.winner and seat not in state.resigned,
        )
        for seat in range(state.seats)
    ]


def final_placings(state: DangerDangerState) -> list[Side]:
    """Two teams: the one that won the game first, the other second (both first when no
    team won)."""
    sides = [[s for s in range(state.seats) if state.team_of(s) == team] for team in TEAMS]
    keys = [(team == state.winner,) for team in TEAMS]
    return placings(sides, keys, state.resigned)


RULES = GameRules(
    name="danger-danger",
    title="Danger Danger",
    min_seats=2,
    max_seats=8,
    options_type=DangerDangerOptions,
    commands=COMMANDS,
    events=EVENTS,
    final_event=GameEnded,
    setup=setup,
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    view_type=DangerDangerView,
    legal=legal,
    check_options=check_options,
    standings=standings,
    placings=final_placings,
    timers=timers,
    on_timer=on_timer,
    teams=TEAMS,
    greedy=greedy,
    invariants=invariants,
    resign=resign,
    stack_option="stack",
    refusals=REFUSALS,
)

__all__ = ["RULES", "DangerDangerOptions", "DangerDangerState"]
