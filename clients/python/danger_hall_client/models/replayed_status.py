from typing import Literal

ReplayedStatus = Literal["abandoned", "active", "finished", "open"]

REPLAYED_STATUS_VALUES: set[ReplayedStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_replayed_status(value: str) -> ReplayedStatus:
    if value in REPLAYED_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPLAYED_STATUS_VALUES!r}")
