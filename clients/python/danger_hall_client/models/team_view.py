from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TeamView")


@_attrs_define
class TeamView:
    """
    Attributes:
        declared (list[int]):
        holder (int | None):
        holding (None | str):
        next_to_draw (int):
        out (bool):
        pile (list[str] | None):
        pile_size (int):
        seats (list[int]):
        swap (None | str):
        trashed (list[str]):
    """

    declared: list[int]
    holder: int | None
    holding: None | str
    next_to_draw: int
    out: bool
    pile: list[str] | None
    pile_size: int
    seats: list[int]
    swap: None | str
    trashed: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        declared = self.declared

        holder: int | None
        holder = self.holder

        holding: None | str
        holding = self.holding

        next_to_draw = self.next_to_draw

        out = self.out

        pile: list[str] | None
        if isinstance(self.pile, list):
            pile = self.pile

        else:
            pile = self.pile

        pile_size = self.pile_size

        seats = self.seats

        swap: None | str
        swap = self.swap

        trashed = self.trashed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "declared": declared,
                "holder": holder,
                "holding": holding,
                "next_to_draw": next_to_draw,
                "out": out,
                "pile": pile,
                "pile_size": pile_size,
                "seats": seats,
                "swap": swap,
                "trashed": trashed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        declared = cast(list[int], d.pop("declared"))

        def _parse_holder(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        holder = _parse_holder(d.pop("holder"))

        def _parse_holding(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        holding = _parse_holding(d.pop("holding"))

        next_to_draw = d.pop("next_to_draw")

        out = d.pop("out")

        def _parse_pile(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                pile_type_0 = cast(list[str], data)

                return pile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        pile = _parse_pile(d.pop("pile"))

        pile_size = d.pop("pile_size")

        seats = cast(list[int], d.pop("seats"))

        def _parse_swap(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        swap = _parse_swap(d.pop("swap"))

        trashed = cast(list[str], d.pop("trashed"))

        team_view = cls(
            declared=declared,
            holder=holder,
            holding=holding,
            next_to_draw=next_to_draw,
            out=out,
            pile=pile,
            pile_size=pile_size,
            seats=seats,
            swap=swap,
            trashed=trashed,
        )

        team_view.additional_properties = d
        return team_view

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
