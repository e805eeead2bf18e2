"""Given / when / then for Danger Danger: both teams' piles chosen, seats in teams."""

from __future__ import annotations

from collections import Counter

from domain.danger_danger import RULES, DangerDangerOptions, DangerDangerState
from domain.danger_danger.cards import DEFAULT_DECK, INITIAL, team_deck
from domain.danger_danger.messages import TeamPiles
from domain.kernel import Command, Event
from domain.kernel.table import GameAbandoned
from tests.domain.scenario import SHUFFLER, decided, refusing, set_up


def pile(team: str, *top: str) -> list[str]:
    """A team's whole pile whose first cards are `top` (written without the initial)."""
    cards = [INITIAL[team] + c for c in top]
    rest = Counter(team_deck(team, DEFAULT_DECK)) - Counter(cards)
    return [*cards, *sorted(rest.elements())]


def given(
    pink: tuple[str, ...] = (),
    yellow: tuple[str, ...] = (),
    teams: tuple[str, ...] = ("pink", "yellow"),
) -> DangerDangerState:
    options = DangerDangerOptions(
        stack=TeamPiles(pink=pile("pink", *pink), yellow=pile("yellow", *yellow))
    )
    return set_up(RULES, options, len(teams), teams=list(teams))


def when(state: DangerDangerState, seat: int, command: Command) -> list[Event]:
    return decided(RULES, state, seat, command)


refused = refusing(when)


def ring(state: DangerDangerState) -> list[Event]:
    """The round timer rings; its events are folded (but for `game_abandoned`, the table's)."""
    events = RULES.on_timer(state, f"round:{state.round}:{state.attempt}", SHUFFLER)  # type: ignore[misc]  # it has one
    for event in events:
        if not isinstance(event, GameAbandoned):
            RULES.evolve(state, event)
    return events
