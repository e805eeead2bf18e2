"""Base types for commands and events, and the per-event declaration of what is secret."""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

SPECTATOR: Literal["spectator"] = "spectator"
AUDITOR: Literal["auditor"] = "auditor"
# A reader of a game: a seat number, a spectator (no token), or the auditor (sees all).
Viewer = int | Literal["spectator", "auditor"]


class Secret(msgspec.Struct, frozen=True):
    """What an event hides while the game runs.

    `fields` are blanked (set to None) in the public form; the seat named by the event's
    `owner` field, if any, sees the full form. The auditor, and everyone once the game is
    over, sees the full form.
    """

    fields: tuple[str, ...]
    owner: str | None = None


class Event(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A fact in the past tense. Subclasses set `tag` to their snake_case name."""

    secret: ClassVar[Secret | None] = None


class Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """A request in the imperative. Subclasses set `tag` to their snake_case name."""


def event_type(event: Event) -> str:
    return type(event).__struct_config__.tag  # type: ignore[return-value]


def visible(event: Event, viewer: Viewer, revealed: bool) -> Event:
    """The form of `event` that `viewer` may read: the one place redaction happens."""
    secret = type(event).secret
    if secret is None or revealed or viewer == AUDITOR:
        return event
    if secret.owner is not None and getattr(event, secret.owner) == viewer:
        return event
    return msgspec.structs.replace(event, **{name: None for name in secret.fields})
