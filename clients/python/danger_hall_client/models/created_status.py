from typing import Literal

CreatedStatus = Literal["abandoned", "active", "finished", "open"]

CREATED_STATUS_VALUES: set[CreatedStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_created_status(value: str) -> CreatedStatus:
    if value in CREATED_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATED_STATUS_VALUES!r}")
