from typing import Literal

DangerOptionsFourthRowNeeds = Literal["row", "total"]

DANGER_OPTIONS_FOURTH_ROW_NEEDS_VALUES: set[DangerOptionsFourthRowNeeds] = {
    "row",
    "total",
}


def check_danger_options_fourth_row_needs(value: str) -> DangerOptionsFourthRowNeeds:
    if value in DANGER_OPTIONS_FOURTH_ROW_NEEDS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_OPTIONS_FOURTH_ROW_NEEDS_VALUES!r}")
