from typing import Literal

GetLeaderboardGame = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

GET_LEADERBOARD_GAME_VALUES: set[GetLeaderboardGame] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_get_leaderboard_game(value: str) -> GetLeaderboardGame:
    if value in GET_LEADERBOARD_GAME_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_LEADERBOARD_GAME_VALUES!r}")
