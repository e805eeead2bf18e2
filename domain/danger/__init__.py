"""Danger (Queen Games, 2001): collect points in four colours without going over 15."""

from domain.kernel import GameRules
from domain.kernel.placings import Side, placings

from .bots import greedy
from .invariants import invariants
from .messages import COMMANDS, EVENTS, DangerOptions, GameEnded
from .rules import REFUSALS, check_options, decide, legal, on_timer, resign, setup, timers
from .state import DangerState, evolve, initial
from .view import DangerView, view


def standings(state: DangerState) -> list[tuple[int, bool]]:
    return [(total, seat in (state.winners or [])) for seat, total in enumerate(state.totals)]


def final_placings(state: DangerState) -> list[Side]:
    """Each seat by its total, the highest first, as the winners are found
    (scoring.winners)."""
    sides = [[seat] for seat in range(len(state.totals))]
    return placings(sides, [(total,) for total in state.totals], state.resigned)


RULES = GameRules(
    name="danger",
    title="Danger",
    min_seats=2,
    max_seats=6,
    options_type=DangerOptions,
    commands=COMMANDS,
    events=EVENTS,
    final_event=GameEnded,
    setup=setup,
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    view_type=DangerView,
    legal=legal,
    check_options=check_options,
    standings=standings,
    placings=final_placings,
    timers=timers,
    on_timer=on_timer,
    greedy=greedy,
    invariants=invariants,
    resign=resign,
    refusals=REFUSALS,
)

__all__ = ["RULES", "DangerOptions", "DangerState"]
