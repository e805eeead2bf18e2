from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rows import Rows


T = TypeVar("T", bound="Board")


@_attrs_define
class Board:
    """
    Attributes:
        cards_in_front (int):
        rows (Rows):
        seat (int):
    """

    cards_in_front: int
    rows: Rows
    seat: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards_in_front = self.cards_in_front

        rows = self.rows.to_dict()

        seat = self.seat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards_in_front": cards_in_front,
                "rows": rows,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rows import Rows  # noqa: PLC0415

        d = dict(src_dict)
        cards_in_front = d.pop("cards_in_front")

        rows = Rows.from_dict(d.pop("rows"))

        seat = d.pop("seat")

        board = cls(
            cards_in_front=cards_in_front,
            rows=rows,
            seat=seat,
        )

        board.additional_properties = d
        return board

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
