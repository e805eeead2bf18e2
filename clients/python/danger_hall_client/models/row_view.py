from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RowView")


@_attrs_define
class RowView:
    """
    Attributes:
        cards (list[str]):
        closed (bool):
        protected (bool):
        sum_ (int):
    """

    cards: list[str]
    closed: bool
    protected: bool
    sum_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards

        closed = self.closed

        protected = self.protected

        sum_ = self.sum_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "closed": closed,
                "protected": protected,
                "sum": sum_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cards = cast(list[str], d.pop("cards"))

        closed = d.pop("closed")

        protected = d.pop("protected")

        sum_ = d.pop("sum")

        row_view = cls(
            cards=cards,
            closed=closed,
            protected=protected,
            sum_=sum_,
        )

        row_view.additional_properties = d
        return row_view

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
