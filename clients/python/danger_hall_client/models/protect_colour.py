from typing import Literal

ProtectColour = Literal["blue", "green", "red", "yellow"]

PROTECT_COLOUR_VALUES: set[ProtectColour] = {
    "blue",
    "green",
    "red",
    "yellow",
}


def check_protect_colour(value: str) -> ProtectColour:
    if value in PROTECT_COLOUR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PROTECT_COLOUR_VALUES!r}")
