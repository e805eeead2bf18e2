from typing import Literal

ListPlayerGamesGameType0 = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES: set[ListPlayerGamesGameType0] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_list_player_games_game_type_0(value: str) -> ListPlayerGamesGameType0:
    if value in LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES!r}")
