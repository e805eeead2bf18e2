from typing import Literal

ListGamesGameType0 = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

LIST_GAMES_GAME_TYPE_0_VALUES: set[ListGamesGameType0] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_list_games_game_type_0(value: str) -> ListGamesGameType0:
    if value in LIST_GAMES_GAME_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_GAMES_GAME_TYPE_0_VALUES!r}")
