from typing import Literal

CreateDangerGameVisibility = Literal["private", "public"]

CREATE_DANGER_GAME_VISIBILITY_VALUES: set[CreateDangerGameVisibility] = {
    "private",
    "public",
}


def check_create_danger_game_visibility(value: str) -> CreateDangerGameVisibility:
    if value in CREATE_DANGER_GAME_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_DANGER_GAME_VISIBILITY_VALUES!r}")
