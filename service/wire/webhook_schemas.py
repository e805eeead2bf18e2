"""What the webhooks API takes and answers (service/http/webhooks_api.py)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from service.wire.schemas import GameName

EventType = Literal[
    "game.created",
    "game.started",
    "seat.joined",
    "seat.left",
    "turn.changed",
    "round.scored",
    "game.finished",
    "game.abandoned",
]
Url = Annotated[str, msgspec.Meta(min_length=8, max_length=2048, description="http(s) only")]
Events = Annotated[list[EventType], msgspec.Meta(min_length=1, max_length=8)]
Kinds = Annotated[
    list[GameName],
    msgspec.Meta(max_length=8, description="The kinds of game heard; empty: every kind."),
]


class WebhookIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    url: Url
    events: Events
    games: Kinds = []


class WebhookChange(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    url: Url | None = None
    events: Events | None = None
    games: Kinds | None = None
    paused: bool | None = None
    """true: hold the deliveries; false: send them again (after a pause for failures too)."""


class WebhookOut(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    url: str
    events: list[str]
    games: list[str]
    created_at: str
    paused: str | None = None
    """Why its deliveries are held: its owner's pause, or every attempt failing."""
    failing_since: str | None = None
    secret: str | None = None
    """The signing secret (`whsec_...`): shown when made and when rotated, never again."""


class AttemptOut(msgspec.Struct, frozen=True, omit_defaults=True):
    at: str
    ms: int
    status: int | None = None
    """The receiver's HTTP status; absent when no answer came."""
    error: str | None = None
    answer: str | None = None
    """The first KiB of the receiver's answer."""


class DeliveryOut(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    """The `webhook-id` it is sent with, the same on every attempt."""
    type: str
    game: str
    seq: int
    status: Literal["queued", "delivered", "failed"]
    attempts: int
    created_at: str
    next_attempt_at: str | None = None
    tried: list[AttemptOut] = []
    """Its attempts, newest first (the last 20)."""
