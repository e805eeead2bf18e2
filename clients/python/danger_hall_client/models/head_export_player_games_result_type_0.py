from typing import Literal

HeadExportPlayerGamesResultType0 = Literal["abandoned", "lost", "playing", "won"]

HEAD_EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES: set[HeadExportPlayerGamesResultType0] = {
    "abandoned",
    "lost",
    "playing",
    "won",
}


def check_head_export_player_games_result_type_0(value: str) -> HeadExportPlayerGamesResultType0:
    if value in HEAD_EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEAD_EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES!r}")
