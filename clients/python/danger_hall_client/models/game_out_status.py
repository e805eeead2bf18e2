from typing import Literal

GameOutStatus = Literal["abandoned", "active", "finished", "open"]

GAME_OUT_STATUS_VALUES: set[GameOutStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_game_out_status(value: str) -> GameOutStatus:
    if value in GAME_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_OUT_STATUS_VALUES!r}")
