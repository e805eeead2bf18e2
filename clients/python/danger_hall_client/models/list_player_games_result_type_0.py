from typing import Literal

ListPlayerGamesResultType0 = Literal["abandoned", "lost", "playing", "won"]

LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES: set[ListPlayerGamesResultType0] = {
    "abandoned",
    "lost",
    "playing",
    "won",
}


def check_list_player_games_result_type_0(value: str) -> ListPlayerGamesResultType0:
    if value in LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_PLAYER_GAMES_RESULT_TYPE_0_VALUES!r}")
