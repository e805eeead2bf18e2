"""Refusals the rules give, with a stable machine code.

A game's refusal codes are declared once, beside the rule that gives each (a `Refusal`, which
the rule raises), and the game names them all in its `GameRules.refusals`: the service's spec
lists them from the registry of games (service/spec/error_codes.py), with what each means and
an example of its message. The codes several games give are declared here.
"""

from __future__ import annotations

from dataclasses import dataclass


class RuleViolation(Exception):
    """A command the rules forbid now. `code` is stable; `message` is for a player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidOptions(ValueError):
    """Options (or a sandbox deck) that no game can be set up with."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Refusal:
    """A refusal code, declared once: `RULE("message")` is the RuleViolation to raise."""

    code: str
    meaning: str
    """What it says, for a client. A command's or a start's refusal is written to follow the
    names of the games that give it (the spec shows `Danger: that row is protected already.`);
    an option's refusal is a whole sentence."""
    example: str
    """A message the rule gives with it, as the spec's example answer shows it
    (tests/domain/test_refusals.py holds it to the messages of the places that raise it)."""

    def __call__(self, message: str) -> RuleViolation:
        return RuleViolation(self.code, message)


@dataclass(frozen=True)
class OptionsRefusal(Refusal):
    """A refusal of a game's options (its `check_options`): `RULE("message")` is the
    InvalidOptions to raise."""

    def __call__(self, message: str) -> InvalidOptions:  # type: ignore[override]  # an option's
        return InvalidOptions(self.code, message)


@dataclass(frozen=True)
class Refusals:
    """Every refusal a game's rules give, by the function of its GameRules that gives it: a
    client meets `decide`'s when a seat sends a command, `setup`'s when the game starts,
    `check_options`' when it is created. In the order the spec lists them."""

    decide: tuple[Refusal, ...] = ()
    setup: tuple[Refusal, ...] = ()
    check_options: tuple[OptionsRefusal, ...] = ()

    def all(self) -> tuple[Refusal, ...]:
        return (*self.decide, *self.setup, *self.check_options)


# Given by several games ---------------------------------------------------------------

NOT_YOUR_TURN = Refusal("not_your_turn", "another seat is to play.", "It is seat 1's turn.")

INVALID_DECK = OptionsRefusal(
    "invalid_deck",
    "A deck no game can be played with: an unknown card, too few cards, a Danger 13 "
    "deck whose rounds might never end, a sandbox `deck` (Danger, High Voltage) that is "
    "not the whole deck.",
    "A deck for 3 seats needs 9+ cards.",
)
INVALID_STACK = OptionsRefusal(
    "invalid_stack",
    "A sandbox `stack` (Danger 13, Danger Danger) that is not the deck's cards.",
    "The stack must hold exactly the deck's cards, in any order.",
)
OPTION_OUT_OF_RANGE = OptionsRefusal(
    "option_out_of_range",
    "An option beyond the bounds its schema gives, or a deck holding more of a kind of "
    "card than it allows.",
    # The service gives it too, for an option beyond its schema's bounds, checked first and
    # worded by msgspec (service/wire/bodies.py): the example is that one.
    "Expected `float` >= 1.0 - at `$.options.turn_seconds`",
)

# Given by every game's `decide`, and met by no client: the table refuses a command to a game
# that is not being played (`game_not_active`), and the service another game's command
# (`not_this_games_command`), first. Named by no game's `refusals`.
GAME_OVER = Refusal("game_over", "the game is over.", "The game is over.")
UNKNOWN_COMMAND = Refusal(
    "unknown_command", "not a command of this game.", "Danger has no command Pick."
)
MET_FIRST = (GAME_OVER, UNKNOWN_COMMAND)
