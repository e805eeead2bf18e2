from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_zone_zone import CardZoneZone, check_card_zone_zone

T = TypeVar("T", bound="CardZone")


@_attrs_define
class CardZone:
    """
    Attributes:
        card (int):
        reason (str):
        zone (CardZoneZone):
    """

    card: int
    reason: str
    zone: CardZoneZone
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        card = self.card

        reason = self.reason

        zone: str = self.zone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "card": card,
                "reason": reason,
                "zone": zone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card = d.pop("card")

        reason = d.pop("reason")

        zone = check_card_zone_zone(d.pop("zone"))

        card_zone = cls(
            card=card,
            reason=reason,
            zone=zone,
        )

        card_zone.additional_properties = d
        return card_zone

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
