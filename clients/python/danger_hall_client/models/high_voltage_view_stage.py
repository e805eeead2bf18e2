from typing import Literal

HighVoltageViewStage = Literal[1, 2]

HIGH_VOLTAGE_VIEW_STAGE_VALUES: set[HighVoltageViewStage] = {
    1,
    2,
}


def check_high_voltage_view_stage(value: int) -> HighVoltageViewStage:
    if value in HIGH_VOLTAGE_VIEW_STAGE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {HIGH_VOLTAGE_VIEW_STAGE_VALUES!r}")
