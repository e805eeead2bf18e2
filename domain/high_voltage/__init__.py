"""DANGER: The High Voltage Game (BrainPicnic 2024): draft a hand, then win only the tricks
whose cards keep your lowest card of each colour safe."""

from domain.kernel import GameRules
from domain.kernel.placings import Side, placings

from .bots import greedy
from .invariants import invariants
from .messages import COMMANDS, EVENTS, GameEnded, HighVoltageOptions
from .rules import REFUSALS, check_options, decide, legal, on_timer, resign, setup, teams, timers
from .state import HighVoltageState, evolve, initial
from .view import HighVoltageView, view


def standings(state: HighVoltageState) -> list[tuple[int, bool]]:
    return [(total, seat in (state.winners or [])) for seat, total in enumerate(state.totals)]


def final_placings(state: HighVoltageState) -> list[Side]:
    """The highest total first; in team mode each team by its seats' totals together, as
    the winners are found (rules.winners)."""
    sides = teams(state.options, state.seats) or [[seat] for seat in range(state.seats)]
    keys = [(sum(state.totals[s] for s in side),) for side in sides]
    return placings(sides, keys, state.resigned)


RULES = GameRules(
    name="high-voltage",
    title="High Voltage",
    min_seats=2,
    max_seats=5,
    options_type=HighVoltageOptions,
    commands=COMMANDS,
    events=EVENTS,
    final_event=GameEnded,
    setup=setup,
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    view_type=HighVoltageView,
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

__all__ = ["RULES", "HighVoltageOptions", "HighVoltageState"]
