from typing import Literal

RowScoreReason = Literal["closed", "more_cards", "scored", "smallest", "smallest_fewer_cards", "smallest_tied"]

ROW_SCORE_REASON_VALUES: set[RowScoreReason] = {
    "closed",
    "more_cards",
    "scored",
    "smallest",
    "smallest_fewer_cards",
    "smallest_tied",
}


def check_row_score_reason(value: str) -> RowScoreReason:
    if value in ROW_SCORE_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ROW_SCORE_REASON_VALUES!r}")
