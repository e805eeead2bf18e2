"""The spec's `webhooks` (OpenAPI 3.1): what an endpoint is sent for each event type, with
the headers Standard Webhooks signs it with (docs/webhooks.md)."""

from __future__ import annotations

from typing import Any

from service.play.webhooks import EVENT_TYPES

SAID: dict[str, tuple[str, dict[str, Any]]] = {
    "game.created": ("A game of the key's was created", {"seats": {"type": "integer"}}),
    "game.started": ("The game started", {}),
    "seat.joined": (
        "A seat was taken",
        {
            "seat": {"type": "integer"},
            "name": {"type": "string"},
            "player": {"type": "string", "description": "A registered player's id."},
            "bot": {"type": "string", "description": "A bot's kind."},
        },
    ),
    "seat.left": (
        "A seat was given up or resigned",
        {"seat": {"type": "integer"}, "why": {"enum": ["seat_left", "seat_resigned"]}},
    ),
    "turn.changed": (
        "Whose turn it is changed: the seats that may act now, as a spectator sees it",
        {"to_act": {"type": "array", "items": {"type": "integer"}}},
    ),
    "round.scored": (
        "A round was scored: the event's data as a spectator reads it (docs/events.md)",
        {"scoring": {"type": "object"}},
    ),
    "game.finished": (
        "The game ended by its rules",
        {
            "winners": {"type": ["array", "null"], "items": {"type": "integer"}},
            "totals": {"type": ["array", "null"], "items": {"type": "integer"}},
        },
    ),
    "game.abandoned": (
        'The game was abandoned (docs/rulings.md, "Liveness and lifecycle")',
        {"reason": {"type": "string"}},
    ),
}

HEADERS = [
    {
        "name": "webhook-id",
        "in": "header",
        "required": True,
        "description": "The delivery's id, the same on every attempt: drop one already taken.",
        "schema": {"type": "string", "pattern": "^msg_[0-9a-f]{24}$"},
    },
    {
        "name": "webhook-timestamp",
        "in": "header",
        "required": True,
        "description": "Unix seconds when it was sent; refuse one far from your clock.",
        "schema": {"type": "string", "pattern": "^[0-9]+$"},
    },
    {
        "name": "webhook-signature",
        "in": "header",
        "required": True,
        "description": "`v1,<base64>` per secret in use, separated by spaces: HMAC-SHA256 of "
        "`<webhook-id>.<webhook-timestamp>.<body>` under the secret's key (after `whsec_`, "
        "base64). Two while a secret is rotated. The SDK checks it: "
        "`danger_hall.webhooks.verify`.",
        "schema": {"type": "string"},
    },
]


def delivery_schema(event_type: str) -> dict[str, Any]:
    _, fields = SAID[event_type]
    return {
        "type": "object",
        "required": ["type", "timestamp", "data"],
        "properties": {
            "type": {"const": event_type},
            "timestamp": {"type": "string", "description": "When it happened (the event's `at`)."},
            "data": {
                "type": "object",
                "required": ["game", "kind", "seq"],
                "properties": {
                    "game": {"type": "string"},
                    "kind": {"type": "string"},
                    "seq": {
                        "type": "integer",
                        "description": "The game's seq it reflects: order and de-duplicate by it.",
                    },
                    **fields,
                },
            },
        },
    }


def webhooks() -> dict[str, Any]:
    out = {}
    for event_type in EVENT_TYPES:
        summary, _ = SAID[event_type]
        out[event_type] = {
            "post": {
                "operationId": "webhook_" + event_type.replace(".", "_"),
                "summary": summary,
                "description": "Sent to each endpoint of the app key that listens to it, for "
                "the games the key created and those of the players it registered. Answer "
                "any 2xx within 5 s; anything else is tried again after 5 s, 30 s, 2 min, "
                "10 min, then hourly, for DANGER_WEBHOOK_RETRY_HOURS (72 h), and an endpoint "
                "failing all that time is paused. An endpoint hears its deliveries in order.",
                "parameters": HEADERS,
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": delivery_schema(event_type)}},
                },
                "responses": {"2XX": {"description": "Taken."}},
            }
        }
    return out
