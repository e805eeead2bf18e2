from typing import Literal

CreateDanger13GameVisibility = Literal["private", "public"]

CREATE_DANGER_13_GAME_VISIBILITY_VALUES: set[CreateDanger13GameVisibility] = {
    "private",
    "public",
}


def check_create_danger_13_game_visibility(value: str) -> CreateDanger13GameVisibility:
    if value in CREATE_DANGER_13_GAME_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_DANGER_13_GAME_VISIBILITY_VALUES!r}")
