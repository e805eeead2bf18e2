"""Replay for the property tests: the log through JSON and back, folded from the start."""

from typing import Any

import msgspec

from domain.kernel import Event, GameRules


def replayed(rules: GameRules, options: Any, seats: int, log: list[Event]) -> bytes:
    """The state folded from `log` after a JSON round trip, encoded for comparison."""
    union: Any = rules.events[0]
    for event_type in rules.events[1:]:
        union = union | event_type
    state = rules.initial(options, seats)
    for event in msgspec.json.decode(msgspec.json.encode(log), type=list[union]):
        rules.evolve(state, event)
    return msgspec.json.encode(state)
