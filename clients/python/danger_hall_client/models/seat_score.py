from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_zone import CardZone
    from ..models.colour_zones import ColourZones


T = TypeVar("T", bound="SeatScore")


@_attrs_define
class SeatScore:
    """
    Attributes:
        cards (list[CardZone]):
        points (int):
        seat (int):
        won (list[int]):
        zones (list[ColourZones]):
    """

    cards: list[CardZone]
    points: int
    seat: int
    won: list[int]
    zones: list[ColourZones]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards = []
        for cards_item_data in self.cards:
            cards_item = cards_item_data.to_dict()
            cards.append(cards_item)

        points = self.points

        seat = self.seat

        won = self.won

        zones = []
        for zones_item_data in self.zones:
            zones_item = zones_item_data.to_dict()
            zones.append(zones_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "points": points,
                "seat": seat,
                "won": won,
                "zones": zones,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_zone import CardZone  # noqa: PLC0415
        from ..models.colour_zones import ColourZones  # noqa: PLC0415

        d = dict(src_dict)
        cards = []
        _cards = d.pop("cards")
        for cards_item_data in _cards:
            cards_item = CardZone.from_dict(cards_item_data)

            cards.append(cards_item)

        points = d.pop("points")

        seat = d.pop("seat")

        won = cast(list[int], d.pop("won"))

        zones = []
        _zones = d.pop("zones")
        for zones_item_data in _zones:
            zones_item = ColourZones.from_dict(zones_item_data)

            zones.append(zones_item)

        seat_score = cls(
            cards=cards,
            points=points,
            seat=seat,
            won=won,
            zones=zones,
        )

        seat_score.additional_properties = d
        return seat_score

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
