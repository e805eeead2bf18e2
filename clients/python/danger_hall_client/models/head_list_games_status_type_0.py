from typing import Literal

HeadListGamesStatusType0 = Literal["abandoned", "active", "finished", "open"]

HEAD_LIST_GAMES_STATUS_TYPE_0_VALUES: set[HeadListGamesStatusType0] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_head_list_games_status_type_0(value: str) -> HeadListGamesStatusType0:
    if value in HEAD_LIST_GAMES_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HEAD_LIST_GAMES_STATUS_TYPE_0_VALUES!r}")
