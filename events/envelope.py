"""The envelope every event travels in, and the hash chain that makes a log tamper-evident.

docs/events.md is the normative description; in short:

- canonical bytes = the JSON object of the envelope's fields except `hash`, keys sorted by
  code point, no insignificant whitespace, strings in UTF-8 (not \\u-escaped except control
  characters), integers in decimal, no floats (equivalent to Python's
  `json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`);
- `hash` = lowercase hex SHA-256 of the canonical bytes; `prev` = the previous event's hash,
  64 zeros for the first event of a game.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

import msgspec

from domain.kernel import Event, builtins, event_type

GENESIS = "0" * 64


class Envelope(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    game: str
    seq: int
    type: str
    data: dict[str, Any]
    at: str
    actor: str
    command: str | None
    cause: dict[str, Any] | None
    salt: str | None
    prev: str
    hash: str
    meta: dict[str, str] | None = None
    """Where the event came from, for an operator (`{"request": "<X-Request-ID>"}`); absent,
    not null, on an event without it, so the canonical bytes of older events are unchanged."""

    @property
    def commanded(self) -> bool:
        """True for the first event of a command (its cause is recorded)."""
        return self.cause is not None


class Folded(msgspec.Struct, frozen=True):
    """The part of a stored envelope that folding needs; the event's fields stay raw JSON
    until they are decoded straight into the event's own type (replay's hot path)."""

    seq: int
    type: str
    data: msgspec.Raw
    at: str
    actor: str
    cause: msgspec.Raw
    hash: str

    @property
    def commanded(self) -> bool:
        """True for the first event of a command (its cause is recorded)."""
        return len(self.cause) != 4  # a recorded cause is an object; else the bytes `null`


read_folded = msgspec.json.Decoder(Folded).decode


def canonical(value: Any) -> bytes:
    return msgspec.json.encode(value, order="sorted")


def event_data(event: Event) -> dict[str, Any]:
    data = builtins(event)
    del data["type"]
    return data


def digest(fields: dict[str, Any]) -> str:
    return hashlib.sha256(canonical(fields)).hexdigest()


def seal(
    game: str,
    seq: int,
    event: Event,
    at: str,
    actor: str,
    command: str | None,
    prev: str,
    cause: dict[str, Any] | None = None,
    salt: str | None = None,
    meta: dict[str, str] | None = None,
) -> Envelope:
    fields: dict[str, Any] = {
        "game": game,
        "seq": seq,
        "type": event_type(event),
        "data": event_data(event),
        "at": at,
        "actor": actor,
        "command": command,
        "cause": cause,
        "salt": salt,
        "prev": prev,
    }
    if meta is not None:
        fields["meta"] = meta
    return Envelope(**fields, hash=digest(fields))


def unsealed(envelope: Envelope) -> dict[str, Any]:
    fields = msgspec.structs.asdict(envelope)
    del fields["hash"]
    if fields["meta"] is None:
        del fields["meta"]
    return fields


def first_break(envelopes: list[Envelope]) -> tuple[int, str] | None:
    """The first event (seq, why) where the chain does not hold, or None."""
    return chain_break(envelopes)[0]


def chain_break(
    envelopes: list[Envelope], excused: Callable[[Envelope], bool] | None = None
) -> tuple[tuple[int, str] | None, list[int]]:
    """The first event (seq, why) where the chain does not hold, or None; and the events
    whose hash did not match but that `excused` accepts (shown redacted to their reader:
    their hash is the whole event's), which the chain passes over."""
    prev = GENESIS
    passed: list[int] = []
    for expected_seq, env in enumerate(envelopes, start=1):
        if env.seq != expected_seq:
            missing = f"event {expected_seq} is missing: seq {env.seq} stands there"
            return (expected_seq, missing), passed
        if env.prev != prev:
            return (env.seq, "prev does not name the previous event's hash"), passed
        if digest(unsealed(env)) != env.hash:
            if excused is None or not excused(env):
                return (env.seq, "hash does not match the event's canonical bytes"), passed
            passed.append(env.seq)
        prev = env.hash
    return None, passed


class EventCodec:
    """Turns one game's envelopes back into its typed events."""

    def __init__(self, event_types: tuple[type[Event], ...]) -> None:
        # By tag, not as one union: msgspec converts to a single struct type some 40 times
        # faster than it picks one out of a union of twenty, and replay is mostly this.
        self._types = {t.__struct_config__.tag: t for t in event_types}
        self._decoders = {tag: msgspec.json.Decoder(t) for tag, t in self._types.items()}
        self.decoders: dict[str, Callable[[bytes], Event]] = {
            str(tag): decoder.decode for tag, decoder in self._decoders.items()
        }
        """Each event type's decoder of its `data`'s bytes, by tag (replay's hot path)."""

    def type_of(self, tag: str) -> type[Event] | None:
        return self._types.get(tag)

    def event(self, envelope: Envelope | Folded) -> Event:
        decoder = self._decoders.get(envelope.type)
        if decoder is None:
            raise msgspec.ValidationError(f"Invalid value {envelope.type!r} - at `$.type`")
        data = envelope.data
        if type(data) is msgspec.Raw:
            return decoder.decode(data)
        return msgspec.convert(data, self._types[envelope.type])


def salt_for(seed: bytes, game: str, seq: int) -> str:
    """The salt of an event with secret fields: without it, a reader could hash every
    candidate (another seat's 9 cards among 11 unseen) and match the event's public hash.
    It is secret with the fields it guards, and re-derivable once the seed is revealed."""
    message = f"danger-hall/salt/{game}/{seq}".encode()
    return hmac.new(seed, message, hashlib.sha256).hexdigest()
