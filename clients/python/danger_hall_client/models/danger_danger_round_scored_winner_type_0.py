from typing import Literal

DangerDangerRoundScoredWinnerType0 = Literal["pink", "yellow"]

DANGER_DANGER_ROUND_SCORED_WINNER_TYPE_0_VALUES: set[DangerDangerRoundScoredWinnerType0] = {
    "pink",
    "yellow",
}


def check_danger_danger_round_scored_winner_type_0(value: str) -> DangerDangerRoundScoredWinnerType0:
    if value in DANGER_DANGER_ROUND_SCORED_WINNER_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_DANGER_ROUND_SCORED_WINNER_TYPE_0_VALUES!r}")
