from typing import Literal

ExportPlayerGamesGameType0 = Literal["danger", "danger-13", "danger-danger", "high-voltage"]

EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES: set[ExportPlayerGamesGameType0] = {
    "danger",
    "danger-13",
    "danger-danger",
    "high-voltage",
}


def check_export_player_games_game_type_0(value: str) -> ExportPlayerGamesGameType0:
    if value in EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_PLAYER_GAMES_GAME_TYPE_0_VALUES!r}")
