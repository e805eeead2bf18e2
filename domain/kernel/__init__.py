"""The shared kernel: seats and the table, shuffles, redaction, the Decider contract."""

from .errors import InvalidOptions, OptionsRefusal, Refusal, Refusals, RuleViolation
from .fairness import ALGORITHM, Shuffler, commitment
from .game import GameRules
from .messages import (
    AUDITOR,
    SPECTATOR,
    Command,
    Event,
    Secret,
    Viewer,
    builtins,
    event_type,
    visible,
)

__all__ = [
    "ALGORITHM",
    "AUDITOR",
    "SPECTATOR",
    "Command",
    "Event",
    "GameRules",
    "InvalidOptions",
    "OptionsRefusal",
    "Refusal",
    "Refusals",
    "RuleViolation",
    "Secret",
    "Shuffler",
    "Viewer",
    "builtins",
    "commitment",
    "event_type",
    "visible",
]
