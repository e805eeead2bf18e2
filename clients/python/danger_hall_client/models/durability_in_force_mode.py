from typing import Literal

DurabilityInForceMode = Literal["declared", "fsync", "replicas", "weak"]

DURABILITY_IN_FORCE_MODE_VALUES: set[DurabilityInForceMode] = {
    "declared",
    "fsync",
    "replicas",
    "weak",
}


def check_durability_in_force_mode(value: str) -> DurabilityInForceMode:
    if value in DURABILITY_IN_FORCE_MODE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DURABILITY_IN_FORCE_MODE_VALUES!r}")
