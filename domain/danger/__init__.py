"""Danger (Queen Games, 2001): collect points in four colours without going over 15."""

from domain.kernel import GameRules

from .bots import greedy
from .invariants import invariants
from .messages import COMMANDS, EVENTS, DangerOptions, GameEnded
from .rules import REFUSALS, check_options, decide, legal, on_timer, resign, setup, timers
from .state import DangerState, evolve, initial
from .view import DangerView, view


def standings(state: DangerState) -> list[tuple[int, bool]]:
    return [(total, seat in (state.winners or [])) for seat, total in enumerate(state.totals)]


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
    timers=timers,
    on_timer=on_timer,
    greedy=greedy,
    invariants=invariants,
    resign=resign,
    refusals=REFUSALS,
)

__all__ = ["RULES", "DangerOptions", "DangerState"]
