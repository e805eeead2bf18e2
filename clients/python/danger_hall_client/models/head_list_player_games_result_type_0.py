from typing import Literal

HeadListPlayerGamesResultType0 = Literal["abandoned", "lost", "playing", "won"]

HEAD_LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES: set[HeadListPlayerGamesResultType0] = {
    "abandoned",
    "lost",
    "playing",
    "won",
}


def check_head_list_player_games_result_type_0(value: str) -> HeadListPlayerGamesResultType0:
    if value in HEAD_LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEAD_LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES!r}")
