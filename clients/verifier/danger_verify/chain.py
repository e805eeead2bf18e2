"""A game's export (JSON Lines, one event envelope a line), its hash chain and its seed
commitment (docs/events.md, docs/fairness.md).

- The chain: seq runs 1, 2, 3 ...; every `prev` is the previous event's `hash` (64 zeros for
  the first); every `hash` is lowercase hex SHA-256 of the canonical bytes of the event's
  other fields.
- The commitment: SHA-256 of the seed published by `seed_revealed` is the
  `seed_commitment` of the first event, `game_created`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .canonical import canonical, loads
from .report import Failure, InputError

GENESIS = "0" * 64

SECRET_TYPES = frozenset(
    {
        "deck_shuffled",
        "pile_shuffled",
        "hand_dealt",
        "cards_picked",
        "cards_passed",
        "packet_drawn",
        "packet_returned",
        "cards_won",
    }
)
"""The event types docs/events.md marks secret: while a game runs, a reader may see them
redacted (secret fields null, `salt` null), their `hash` being the whole event's."""


@dataclass
class Export:
    events: list[dict[str, Any]]
    unreadable: Failure | None = None
    """The first line that is not an event (the export stops being read there): a changed
    byte can break the JSON itself."""

    @property
    def game(self) -> str | None:
        game = self.events[0].get("game") if self.events else None
        return game if isinstance(game, str) else None

    @property
    def over(self) -> bool:
        """True once the log holds `seed_revealed`, its last event: it is complete for
        everyone."""
        return any(e.get("type") == "seed_revealed" for e in self.events)

    def at(self, seq: int) -> dict[str, Any] | None:
        """The event at `seq`, where the export holds it at its place."""
        if 1 <= seq <= len(self.events) and self.events[seq - 1].get("seq") == seq:
            return self.events[seq - 1]
        return next((e for e in self.events if e.get("seq") == seq), None)


def parse_export(data: bytes) -> Export:
    lines = [line for line in data.splitlines() if line.strip()]
    if not lines:
        raise InputError("the export holds no events")
    events: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        try:
            event = loads(line)
        except (ValueError, UnicodeDecodeError) as exc:
            return Export(events, Failure(number, f"line {number} is not an event: {exc}"))
        if not isinstance(event, dict):
            return Export(events, Failure(number, f"line {number} is not an event (an object)"))
        events.append(event)
    if not events:
        raise InputError("the export holds no events")
    return Export(events)


def event_hash(event: dict[str, Any]) -> str:
    """SHA-256 of the canonical bytes of every field but `hash`."""
    return hashlib.sha256(canonical({k: v for k, v in event.items() if k != "hash"})).hexdigest()


def _may_be_redacted(event: dict[str, Any]) -> bool:
    """An event a running game's export may show redacted for its reader: a secret event
    without its salt, or a seat's event without its command (a seat's command is its own
    until the game is over)."""
    if event.get("type") in SECRET_TYPES and event.get("salt") is None:
        return True
    actor = event.get("actor")
    return isinstance(actor, str) and actor.startswith("seat:") and event.get("cause") is None


def first_chain_break(export: Export) -> tuple[Failure | None, list[int]]:
    """The first event where the chain fails, or None; and, for a game that is not over,
    the events whose hash could not be checked because the export shows them redacted."""
    prev = GENESIS
    excused: list[int] = []
    over = export.over
    for expected, event in enumerate(export.events, 1):
        seq = event.get("seq")
        if type(seq) is not int or seq != expected:
            missing = f"event {expected} is missing: seq {seq!r} stands there"
            return Failure(expected, missing), excused
        for name in ("prev", "hash"):
            if not isinstance(event.get(name), str):
                return Failure(seq, f"event {seq} has no {name}"), excused
        if event["prev"] != prev:
            return Failure(seq, "prev does not name the previous event's hash"), excused
        if event_hash(event) != event["hash"]:
            if over or not _may_be_redacted(event):
                return Failure(seq, "hash does not match the event's canonical bytes"), excused
            excused.append(seq)
        prev = event["hash"]
    if export.unreadable is not None:
        return export.unreadable, excused
    return None, excused


def chain_passed(export: Export, excused: list[int]) -> str:
    count = len(export.events)
    if not excused:
        return f"every event chained and hashed ({count} events)"
    return (
        f"every event chained, and every event shown whole hashed; {len(excused)} events are "
        "redacted for this export's reader (the game is not over): export it again once it "
        f"is over to check their hashes too (the first is event {excused[0]})"
    )


def revealed_seed(export: Export) -> tuple[bytes | None, Failure | None]:
    """The seed `seed_revealed` publishes, or why there is none to use."""
    revealed = next((e for e in export.events if e.get("type") == "seed_revealed"), None)
    if revealed is None:
        return None, Failure(None, "the game is not over: its seed is still secret")
    data = revealed.get("data")
    seed = data.get("seed") if isinstance(data, dict) else None
    try:
        if not isinstance(seed, str):
            raise ValueError
        return bytes.fromhex(seed), None
    except ValueError:
        return None, Failure(revealed.get("seq"), "seed_revealed holds no seed in hex")


def first_commitment_failure(export: Export) -> Failure | None:
    """SHA-256 of the revealed seed is the seed_commitment of game_created."""
    first = export.events[0]
    data = first.get("data")
    if first.get("type") != "game_created" or not isinstance(data, dict):
        return Failure(first.get("seq"), "the log does not begin with a game_created")
    seed, missing = revealed_seed(export)
    if seed is None:
        return missing
    revealed = next(e for e in export.events if e.get("type") == "seed_revealed")
    if hashlib.sha256(seed).hexdigest() != data.get("seed_commitment"):
        return Failure(
            revealed.get("seq"),
            "SHA-256 of the revealed seed is not the seed_commitment of the first event",
        )
    return None
