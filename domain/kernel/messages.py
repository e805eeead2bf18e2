"""Base types for commands and events, and the per-event declaration of what is secret."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, cast

import msgspec

SPECTATOR: Literal["spectator"] = "spectator"
AUDITOR: Literal["auditor"] = "auditor"
# The sandbox option `seed`: 16 to 64 bytes as hex.
Seed = Annotated[str, msgspec.Meta(pattern="^([0-9a-fA-F]{2}){16,64}$", max_length=128)]
# The option `idle_minutes` of every game (RULINGS "Liveness and lifecycle"): 3 s to a week.
IdleMinutes = Annotated[float, msgspec.Meta(ge=0.05, le=10080)]
# A reader of a game: a seat number, a spectator (no token), or the auditor (sees all).
Viewer = int | Literal["spectator", "auditor"]


class Secret(msgspec.Struct, frozen=True):
    """What an event hides while the game runs.

    `fields` are blanked (set to None) in the public form; the seats named by the event's
    `owners` fields, if any, see the full form. The auditor, and everyone once the game is
    over, sees the full form.
    """

    fields: tuple[str, ...]
    owners: tuple[str, ...] = ()


class Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A fact in the past tense. Subclasses set `tag` to their snake_case name."""

    secret: ClassVar[Secret | None] = None
    # Fields added after logs were written, left out of the log when null (see `builtins`).
    absent_if_none: ClassVar[tuple[str, ...]] = ()


class Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A request in the imperative. Subclasses set `tag` to their snake_case name."""

    absent_if_none: ClassVar[tuple[str, ...]] = ()


def builtins(message: Event | Command) -> dict[str, Any]:
    """The message as JSON-ready values, as the log keeps it: a field a message type names in
    `absent_if_none` (one added after logs were written) is left out when null, so that a
    message without it encodes, and hashes, as it did before the field existed."""
    data: dict[str, Any] = msgspec.to_builtins(message)
    for name in message.absent_if_none:
        if data.get(name, 0) is None:
            del data[name]
    return data


def event_type(event: Event) -> str:
    return cast(str, type(event).__struct_config__.tag)  # every event is tagged by name


def visible(event: Event, viewer: Viewer, revealed: bool) -> Event:
    """The form of `event` that `viewer` may read: the one place redaction happens."""
    secret = type(event).secret
    if secret is None or revealed or viewer == AUDITOR:
        return event
    if any(getattr(event, owner) == viewer for owner in secret.owners):
        return event
    return msgspec.structs.replace(event, **{name: None for name in secret.fields})
