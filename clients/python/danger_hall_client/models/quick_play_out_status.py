from typing import Literal

QuickPlayOutStatus = Literal["cancelled", "expired", "seated", "seating", "waiting"]

QUICK_PLAY_OUT_STATUS_VALUES: set[QuickPlayOutStatus] = {
    "cancelled",
    "expired",
    "seated",
    "seating",
    "waiting",
}


def check_quick_play_out_status(value: str) -> QuickPlayOutStatus:
    if value in QUICK_PLAY_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUICK_PLAY_OUT_STATUS_VALUES!r}")
