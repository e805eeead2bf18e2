from typing import Literal

DangerDangerRoundScoredReason = Literal["both_out", "timer"]

DANGER_DANGER_ROUND_SCORED_REASON_VALUES: set[DangerDangerRoundScoredReason] = {
    "both_out",
    "timer",
}


def check_danger_danger_round_scored_reason(value: str) -> DangerDangerRoundScoredReason:
    if value in DANGER_DANGER_ROUND_SCORED_REASON_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_DANGER_ROUND_SCORED_REASON_VALUES!r}")
