from typing import Literal

RematchOutStatus = Literal["abandoned", "active", "finished", "open"]

REMATCH_OUT_STATUS_VALUES: set[RematchOutStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_rematch_out_status(value: str) -> RematchOutStatus:
    if value in REMATCH_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REMATCH_OUT_STATUS_VALUES!r}")
