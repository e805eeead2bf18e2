from typing import Literal

PlayerGameEntryStatus = Literal["abandoned", "active", "finished", "open"]

PLAYER_GAME_ENTRY_STATUS_VALUES: set[PlayerGameEntryStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_player_game_entry_status(value: str) -> PlayerGameEntryStatus:
    if value in PLAYER_GAME_ENTRY_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_GAME_ENTRY_STATUS_VALUES!r}")
