"""The Decider contract every game package fulfils, and the registry of games."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .bots import Bot, random_bot
from .errors import Refusals
from .fairness import Shuffler
from .messages import Command, Event, Viewer
from .placings import Side


class Timer(msgspec.Struct, frozen=True):
    """A timer the game needs running now. `name` is the game's; the table makes it unique
    (`name@n`, n = the number of events when it began) so a timer fires once per start."""

    name: str
    seconds: float
    public: bool
    """A turn clock's deadline is public; Danger Danger's round timer is not."""


@dataclass(frozen=True)
class GameRules:
    """One game as data: its messages and its pure functions.

    - `setup(options, seats, shuffler)`: the events that start a game whose seats are filled
      (a game played in teams is also given `teams=`, each seat's team).
    - `initial(options, seats)`: the state before any of the game's own events.
    - `decide(state, command, seat, shuffler)`: events, or raise RuleViolation; never mutates.
    - `evolve(state, event)`: the only way state changes (in place, returned for folding).
    - `view(state, viewer)`: what that reader may see, as plain data.
    - `legal(state, seat)`: every command that seat may send now.
    - `check_options(options, seats)`: raise InvalidOptions for a deck or setting that cannot be.
    - `final_event`: the event type that ends the game (the table's `game_abandoned` ends
      it too, with no winner).
    - `timers(state)`: the timers the game needs running now.
    - `on_timer(state, name, shuffler)`: the events when a current timer rings.
    - `teams`: the teams a seat may join (empty: no teams).
    - `greedy`: the game's heuristic bot (domain/kernel/bots.py has the contract).
    - `invariants(state)`: what is wrong with a state (empty when nothing is): the checks a
      simulation runs after every event.
    - `resign(state, seat)`: the events a seat's resignation sets off, decided on the state
      that has folded `seat_resigned` already: the final event when it leaves one side that
      can win, else none (docs/rulings.md, "Resigning").
    - `refusals`: every refusal code its rules give, each declared beside its rule
      (domain/kernel/errors.py).
    """

    name: str
    title: str
    """The game's name as people write it: `Danger 13`."""
    min_seats: int
    max_seats: int
    options_type: type[msgspec.Struct]
    commands: tuple[type[Command], ...]
    events: tuple[type[Event], ...]
    final_event: type[Event]
    setup: Callable[..., list[Event]]  # (options, seats, shuffler), and `teams=` for teams
    initial: Callable[[Any, int], Any]
    decide: Callable[[Any, Command, int, Shuffler], list[Event]]
    evolve: Callable[[Any, Event], Any]
    view: Callable[[Any, Viewer], msgspec.Struct]
    view_type: type[msgspec.Struct]
    legal: Callable[[Any, int], list[Command]]
    check_options: Callable[[Any, int], None]
    standings: Callable[[Any], list[tuple[int, bool]]] | None = None
    """Per seat, once the game is finished by its final event: (its score as the game counts
    it, did it win). Never asked of an abandoned game: it has no winner, and its view shows
    the scores as they stood."""
    placings: Callable[[Any], list[Side]] | None = None
    """Once the game is finished by its final event: its sides (seats alone, or teams) and
    where each placed (domain/kernel/placings.py), what ratings are computed from."""
    timers: Callable[[Any], list[Timer]] | None = None
    on_timer: Callable[[Any, str, Shuffler], list[Event]] | None = None
    teams: tuple[str, ...] = ()
    greedy: Bot | None = None
    invariants: Callable[[Any], list[str]] | None = None
    resign: Callable[[Any, int], list[Event]] | None = None
    refusals: Refusals = field(default_factory=Refusals)
    stack_option: str = "deck"
    """The sandbox option that fixes the order of the cards (a game so set up is not
    verifiable); games whose `deck` option is a composition name it `stack`."""

    def bot(self, name: str) -> Bot:
        """The bot called `name` ("random" or "greedy") for this game."""
        if name == "random":
            return random_bot
        if name == "greedy" and self.greedy is not None:
            return self.greedy
        raise KeyError(name)

    @property
    def sandbox_options(self) -> Sequence[str]:
        """Options accepted only by a server in sandbox mode."""
        return ("seed", self.stack_option)


def scratch_copy(state: Any) -> Any:
    """A deep copy of a state struct, to decide a chain of steps without touching it."""
    return msgspec.json.decode(msgspec.json.encode(state), type=type(state))


def default_moves(
    state: Any,
    decide: Callable[[Any, Command, int, Shuffler], list[Event]],
    evolve: Callable[[Any, Event], Any],
    choose: Callable[[Any], tuple[int, Command] | None],
    shuffler: Shuffler,
) -> list[Event]:
    """The events of the moves a turn clock makes for a seat that let it run out: `choose`
    names the next (seat, command) on a scratch copy of the state, until it returns None."""
    scratch = scratch_copy(state)
    events: list[Event] = []
    while (step := choose(scratch)) is not None:
        seat, command = step
        for event in decide(scratch, command, seat, shuffler):
            evolve(scratch, event)
            events.append(event)
    return events
