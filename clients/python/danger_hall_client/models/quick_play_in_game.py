from typing import Literal

QuickPlayInGame = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

QUICK_PLAY_IN_GAME_VALUES: set[QuickPlayInGame] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_quick_play_in_game(value: str) -> QuickPlayInGame:
    if value in QUICK_PLAY_IN_GAME_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUICK_PLAY_IN_GAME_VALUES!r}")
