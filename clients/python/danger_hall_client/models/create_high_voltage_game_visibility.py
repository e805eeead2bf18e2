from typing import Literal

CreateHighVoltageGameVisibility = Literal["private", "public"]

CREATE_HIGH_VOLTAGE_GAME_VISIBILITY_VALUES: set[CreateHighVoltageGameVisibility] = {
    "private",
    "public",
}


def check_create_high_voltage_game_visibility(value: str) -> CreateHighVoltageGameVisibility:
    if value in CREATE_HIGH_VOLTAGE_GAME_VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CREATE_HIGH_VOLTAGE_GAME_VISIBILITY_VALUES!r}")
