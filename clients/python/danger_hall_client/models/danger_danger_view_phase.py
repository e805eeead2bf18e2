from typing import Literal

DangerDangerViewPhase = Literal["over", "playing"]

DANGER_DANGER_VIEW_PHASE_VALUES: set[DangerDangerViewPhase] = {
    "over",
    "playing",
}


def check_danger_danger_view_phase(value: str) -> DangerDangerViewPhase:
    if value in DANGER_DANGER_VIEW_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_DANGER_VIEW_PHASE_VALUES!r}")
