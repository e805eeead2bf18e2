"""Seats the service plays itself: the contract of a bot, and the one every game shares.

A bot sees exactly what its seat may see (the game's view for that seat) and the commands
that seat may send now; it returns one of those commands. Chance comes in from the caller
as `dice`, so a bot is a pure function of its inputs and a seeded game replays the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .messages import Command

T = TypeVar("T")


class Dice(Protocol):
    """The part of `random.Random` a bot may use."""

    def random(self) -> float: ...

    def choice(self, seq: Sequence[T]) -> T: ...


Bot = Callable[[Any, int, list[Command], Dice], Command]
"""(the seat's view, the seat, its legal commands (never empty), dice) -> one of them."""


def random_bot(view: Any, seat: int, moves: list[Command], dice: Dice) -> Command:
    """Any legal command, uniformly: the baseline every heuristic must beat."""
    return dice.choice(moves)


BOT_NAMES = ("random", "greedy")
