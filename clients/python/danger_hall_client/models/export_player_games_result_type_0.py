from typing import Literal

ExportPlayerGamesResultType0 = Literal["abandoned", "lost", "playing", "won"]

EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES: set[ExportPlayerGamesResultType0] = {
    "abandoned",
    "lost",
    "playing",
    "won",
}


def check_export_player_games_result_type_0(value: str) -> ExportPlayerGamesResultType0:
    if value in EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EXPORT_PLAYER_GAMES_RESULT_TYPE_0_VALUES!r}")
