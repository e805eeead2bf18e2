from typing import Literal

WebhookInGamesItem = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

WEBHOOK_IN_GAMES_ITEM_VALUES: set[WebhookInGamesItem] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_webhook_in_games_item(value: str) -> WebhookInGamesItem:
    if value in WEBHOOK_IN_GAMES_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_IN_GAMES_ITEM_VALUES!r}")
