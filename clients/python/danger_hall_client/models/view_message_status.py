from typing import Literal

ViewMessageStatus = Literal["abandoned", "active", "finished", "open"]

VIEW_MESSAGE_STATUS_VALUES: set[ViewMessageStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_view_message_status(value: str) -> ViewMessageStatus:
    if value in VIEW_MESSAGE_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VIEW_MESSAGE_STATUS_VALUES!r}")
