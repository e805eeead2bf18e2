from typing import Literal

CardZoneZone = Literal["catastrophic", "danger", "safe"]

CARD_ZONE_ZONE_VALUES: set[CardZoneZone] = {
    "catastrophic",
    "danger",
    "safe",
}


def check_card_zone_zone(value: str) -> CardZoneZone:
    if value in CARD_ZONE_ZONE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CARD_ZONE_ZONE_VALUES!r}")
