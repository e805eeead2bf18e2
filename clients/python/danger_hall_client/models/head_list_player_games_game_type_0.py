from typing import Literal

HeadListPlayerGamesGameType0 = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

HEAD_LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES: set[HeadListPlayerGamesGameType0] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_head_list_player_games_game_type_0(value: str) -> HeadListPlayerGamesGameType0:
    if value in HEAD_LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEAD_LIST_PLAYER_GAMES_GAME_TYPE_0_VALUES!r}")
