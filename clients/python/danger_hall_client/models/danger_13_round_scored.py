from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Danger13RoundScored")


@_attrs_define
class Danger13RoundScored:
    """
    Attributes:
        discarded (list[list[str]]):
        round_ (int):
        seat (int | None):
        type_ (Literal['round_scored']):
        won_counts (list[int]):
    """

    discarded: list[list[str]]
    round_: int
    seat: int | None
    type_: Literal["round_scored"]
    won_counts: list[int]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        discarded = []
        for discarded_item_data in self.discarded:
            discarded_item = discarded_item_data

            discarded.append(discarded_item)

        round_ = self.round_

        seat: int | None
        seat = self.seat

        type_ = self.type_

        won_counts = self.won_counts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "discarded": discarded,
                "round": round_,
                "seat": seat,
                "type": type_,
                "won_counts": won_counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        discarded = []
        _discarded = d.pop("discarded")
        for discarded_item_data in _discarded:
            discarded_item = cast(list[str], discarded_item_data)

            discarded.append(discarded_item)

        round_ = d.pop("round")

        def _parse_seat(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seat = _parse_seat(d.pop("seat"))

        type_ = cast(Literal["round_scored"], d.pop("type"))
        if type_ != "round_scored":
            raise ValueError(f"type must match const 'round_scored', got '{type_}'")

        won_counts = cast(list[int], d.pop("won_counts"))

        danger_13_round_scored = cls(
            discarded=discarded,
            round_=round_,
            seat=seat,
            type_=type_,
            won_counts=won_counts,
        )

        danger_13_round_scored.additional_properties = d
        return danger_13_round_scored

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
