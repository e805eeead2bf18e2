from typing import Literal

PlayerGameEntryResult = Literal["abandoned", "lost", "playing", "won"]

PLAYER_GAME_ENTRY_RESULT_VALUES: set[PlayerGameEntryResult] = {
    "abandoned",
    "lost",
    "playing",
    "won",
}


def check_player_game_entry_result(value: str) -> PlayerGameEntryResult:
    if value in PLAYER_GAME_ENTRY_RESULT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_GAME_ENTRY_RESULT_VALUES!r}")
