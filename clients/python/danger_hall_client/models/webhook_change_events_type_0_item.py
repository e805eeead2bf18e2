from typing import Literal

WebhookChangeEventsType0Item = Literal[
    "game.abandoned",
    "game.created",
    "game.finished",
    "game.started",
    "round.scored",
    "seat.joined",
    "seat.left",
    "turn.changed",
]

WEBHOOK_CHANGE_EVENTS_TYPE_0_ITEM_VALUES: set[WebhookChangeEventsType0Item] = {
    "game.abandoned",
    "game.created",
    "game.finished",
    "game.started",
    "round.scored",
    "seat.joined",
    "seat.left",
    "turn.changed",
}


def check_webhook_change_events_type_0_item(value: str) -> WebhookChangeEventsType0Item:
    if value in WEBHOOK_CHANGE_EVENTS_TYPE_0_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_CHANGE_EVENTS_TYPE_0_ITEM_VALUES!r}")
