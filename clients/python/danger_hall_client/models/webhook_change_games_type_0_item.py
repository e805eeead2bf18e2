from typing import Literal

WebhookChangeGamesType0Item = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

WEBHOOK_CHANGE_GAMES_TYPE_0_ITEM_VALUES: set[WebhookChangeGamesType0Item] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_webhook_change_games_type_0_item(value: str) -> WebhookChangeGamesType0Item:
    if value in WEBHOOK_CHANGE_GAMES_TYPE_0_ITEM_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {WEBHOOK_CHANGE_GAMES_TYPE_0_ITEM_VALUES!r}")
