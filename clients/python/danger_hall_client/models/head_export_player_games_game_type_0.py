from typing import Literal

HeadExportPlayerGamesGameType0 = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

HEAD_EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES: set[HeadExportPlayerGamesGameType0] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_head_export_player_games_game_type_0(value: str) -> HeadExportPlayerGamesGameType0:
    if value in HEAD_EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEAD_EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES!r}")
