"""Danger 13 (Ravensburger, 2007): deal the packet's cards one by one, keep the "+" signs,
and make the others reach 13."""

from domain.kernel import GameRules
from domain.kernel.placings import Side, placings

from .bots import greedy
from .cards import value
from .invariants import invariants
from .messages import COMMANDS, EVENTS, Danger13Options, GameEnded
from .rules import REFUSALS, check_options, decide, legal, on_timer, resign, setup, timers
from .state import Danger13State, evolve, initial, signs
from .view import Danger13View, view


def standings(state: Danger13State) -> list[tuple[int, bool]]:
    """The score is the "+" signs won."""
    return [(signs(won), seat in (state.winners or [])) for seat, won in enumerate(state.won)]


def final_placings(state: Danger13State) -> list[Side]:
    """Each seat by its "+" signs, then by its cards' value, as the winners are found
    (rules._game_ended)."""
    keys = [(signs(won), sum(value(c) for c in won)) for won in state.won]
    return placings([[seat] for seat in range(len(state.won))], keys, state.resigned)


RULES = GameRules(
    name="danger-13",
    title="Danger 13",
    min_seats=2,
    max_seats=5,
    options_type=Danger13Options,
    commands=COMMANDS,
    events=EVENTS,
    final_event=GameEnded,
    setup=setup,
    initial=initial,
    decide=decide,
    evolve=evolve,
    view=view,
    view_type=Danger13View,
    legal=legal,
    check_options=check_options,
    standings=standings,
    placings=final_placings,
    timers=timers,
    on_timer=on_timer,
    greedy=greedy,
    invariants=invariants,
    resign=resign,
    stack_option="stack",
    refusals=REFUSALS,
)

__all__ = ["RULES", "Danger13Options", "Danger13State"]
