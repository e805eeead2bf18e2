from typing import Literal

HighVoltageViewPhase = Literal["draft", "over", "tricks"]

HIGH_VOLTAGE_VIEW_PHASE_VALUES: set[HighVoltageViewPhase] = {
    "draft",
    "over",
    "tricks",
}


def check_high_voltage_view_phase(value: str) -> HighVoltageViewPhase:
    if value in HIGH_VOLTAGE_VIEW_PHASE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HIGH_VOLTAGE_VIEW_PHASE_VALUES!r}")
