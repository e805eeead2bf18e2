from typing import Literal

PlayerNoticeType = Literal["game_ended", "game_joined", "game_left", "game_started", "your_turn"]

PLAYER_NOTICE_TYPE_VALUES: set[PlayerNoticeType] = {
    "game_ended",
    "game_joined",
    "game_left",
    "game_started",
    "your_turn",
}


def check_player_notice_type(value: str) -> PlayerNoticeType:
    if value in PLAYER_NOTICE_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_NOTICE_TYPE_VALUES!r}")
