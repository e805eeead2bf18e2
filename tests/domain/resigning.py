"""The property every game's resignation keeps (docs/rulings.md, "Resigning"): a game in
which seats resign at random points of play, each played on by the bot the table names,
still ends by its rules, with every invariant kept after every event and its log replaying
to the same state; no resigned seat wins; and a resignation that leaves one side able to
win ends the game there, that side the winner."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence

import msgspec
from hypothesis import assume
from hypothesis import strategies as st

from domain.kernel import Command, GameRules
from domain.kernel import table as tables
from domain.simulation import play

Sides = Callable[[int, Sequence[str | None]], list[list[int]]]
"""The sides that play for a win, as lists of seats, given the seat count and teams."""


def individual(seats: int, teams: Sequence[str | None]) -> list[list[int]]:
    return [[s] for s in range(seats)]


@st.composite
def resignations(draw: st.DrawFn, seats: int) -> list[tuple[int, int]]:
    """(step, seat): up to one for every seat, at random steps of play, the first early
    enough that no game is over by then (random bots end a Danger Danger round in a few)."""
    who = draw(st.lists(st.integers(0, seats - 1), min_size=1, max_size=seats, unique=True))
    return [(draw(st.integers(0, 3 if i == 0 else 60)), seat) for i, seat in enumerate(who)]


def check_resigned_game(
    rules: GameRules,
    seats: int,
    seed: bytes,
    plan: list[tuple[int, int]],
    sides: Sides = individual,
    options: msgspec.Struct | None = None,
    teams: Sequence[str | None] | None = None,
    bots: Sequence[str] | None = None,
) -> None:
    record: list[tuple[int | str, Command]] = []
    played = play(
        rules,
        list(bots or ["random"] * seats),
        hashlib.sha256(seed).digest(),
        random.Random(seed),
        options=options,
        teams=teams,
        record=record,
        resignations=plan,
    )  # raises unless the game finished, every invariant kept, and its replay agreed
    resigned = {seat for seat, out in enumerate(played.resigned) if out}
    # Random bots may end a game in a handful of commands: one over before its first
    # resignation is no case of resigning.
    assume(resigned)
    assert any(played.won), "a finished game has a winner"
    assert not any(played.won[s] for s in resigned), "a resigned seat never wins"
    running = [side for side in sides(seats, played.teams) if set(side) - resigned]
    if len(running) == 1:
        assert isinstance(record[-1][1], tables.Resign), "the last resignation ends the game"
        assert [s for s in running[0] if s not in resigned] == [
            s for s, won in enumerate(played.won) if won
        ]
    else:
        assert not isinstance(record[-1][1], tables.Resign), "the game went on"
