from typing import Literal

ListGamesStatusType0 = Literal["abandoned", "active", "finished", "open"]

LIST_GAMES_STATUS_TYPE_0_VALUES: set[ListGamesStatusType0] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_list_games_status_type_0(value: str) -> ListGamesStatusType0:
    if value in LIST_GAMES_STATUS_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LIST_GAMES_STATUS_TYPE_0_VALUES!r}")
