from typing import Literal

WebhookInEventsItem = Literal[
    "game.abandoned",
    "game.created",
    "game.finished",
    "game.started",
    "round.scored",
    "seat.joined",
    "seat.left",
    "turn.changed",
]

WEBHOOK_IN_EVENTS_ITEM_VALUES: set[WebhookInEventsItem] = {
    "game.abandoned",
    "game.created",
    "game.finished",
    "game.started",
    "round.scored",
    "seat.joined",
    "seat.left",
    "turn.changed",
}


def check_webhook_in_events_item(value: str) -> WebhookInEventsItem:
    if value in WEBHOOK_IN_EVENTS_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_IN_EVENTS_ITEM_VALUES!r}")
