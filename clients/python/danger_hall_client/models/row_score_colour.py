from typing import Literal

RowScoreColour = Literal["blue", "green", "red", "yellow"]

ROW_SCORE_COLOUR_VALUES: set[RowScoreColour] = {
    "blue",
    "green",
    "red",
    "yellow",
}


def check_row_score_colour(value: str) -> RowScoreColour:
    if value in ROW_SCORE_COLOUR_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROW_SCORE_COLOUR_VALUES!r}")
