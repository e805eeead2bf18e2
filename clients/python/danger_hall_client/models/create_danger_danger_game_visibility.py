from typing import Literal

CreateDangerDangerGameVisibility = Literal["private", "public"]

CREATE_DANGER_DANGER_GAME_VISIBILITY_VALUES: set[CreateDangerDangerGameVisibility] = {
    "private",
    "public",
}


def check_create_danger_danger_game_visibility(value: str) -> CreateDangerDangerGameVisibility:
    if value in CREATE_DANGER_DANGER_GAME_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_DANGER_DANGER_GAME_VISIBILITY_VALUES!r}")
