from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ColourZones")


@_attrs_define
class ColourZones:
    """
    Attributes:
        catastrophic (list[int]):
        colour (str):
        danger (list[int]):
        points (int):
        safe (int | None):
    """

    catastrophic: list[int]
    colour: str
    danger: list[int]
    points: int
    safe: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        catastrophic = self.catastrophic

        colour = self.colour

        danger = self.danger

        points = self.points

        safe: int | None
        safe = self.safe

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "catastrophic": catastrophic,
                "colour": colour,
                "danger": danger,
                "points": points,
                "safe": safe,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        catastrophic = cast(list[int], d.pop("catastrophic"))

        colour = d.pop("colour")

        danger = cast(list[int], d.pop("danger"))

        points = d.pop("points")

        def _parse_safe(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        safe = _parse_safe(d.pop("safe"))

        colour_zones = cls(
            catastrophic=catastrophic,
            colour=colour,
            danger=danger,
            points=points,
            safe=safe,
        )

        colour_zones.additional_properties = d
        return colour_zones

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
