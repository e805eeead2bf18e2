from typing import Literal

DangerViewPhase = Literal["draw", "over", "protect", "scoring"]

DANGER_VIEW_PHASE_VALUES: set[DangerViewPhase] = {
    "draw",
    "over",
    "protect",
    "scoring",
}


def check_danger_view_phase(value: str) -> DangerViewPhase:
    if value in DANGER_VIEW_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_VIEW_PHASE_VALUES!r}")
