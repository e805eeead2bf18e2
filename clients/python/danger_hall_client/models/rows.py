from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.row_view import RowView


T = TypeVar("T", bound="Rows")


@_attrs_define
class Rows:
    """
    Attributes:
        blue (RowView):
        green (RowView):
        red (RowView):
        yellow (RowView):
    """

    blue: RowView
    green: RowView
    red: RowView
    yellow: RowView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blue = self.blue.to_dict()

        green = self.green.to_dict()

        red = self.red.to_dict()

        yellow = self.yellow.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blue": blue,
                "green": green,
                "red": red,
                "yellow": yellow,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_view import RowView  # noqa: PLC0415

        d = dict(src_dict)
        blue = RowView.from_dict(d.pop("blue"))

        green = RowView.from_dict(d.pop("green"))

        red = RowView.from_dict(d.pop("red"))

        yellow = RowView.from_dict(d.pop("yellow"))

        rows = cls(
            blue=blue,
            green=green,
            red=red,
            yellow=yellow,
        )

        rows.additional_properties = d
        return rows

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
