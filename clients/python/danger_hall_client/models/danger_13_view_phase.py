from typing import Literal

Danger13ViewPhase = Literal["decide", "give", "over"]

DANGER_13_VIEW_PHASE_VALUES: set[Danger13ViewPhase] = {
    "decide",
    "give",
    "over",
}


def check_danger_13_view_phase(value: str) -> Danger13ViewPhase:
    if value in DANGER_13_VIEW_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DANGER_13_VIEW_PHASE_VALUES!r}")
