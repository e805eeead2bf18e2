from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.replayed_status import ReplayedStatus, check_replayed_status

if TYPE_CHECKING:
    from ..models.table_view import TableView


T = TypeVar("T", bound="Replayed")


@_attrs_define
class Replayed:
    """
    Attributes:
        id (str):
        seq (int):
        status (ReplayedStatus):
        view (TableView):
    """

    id: str
    seq: int
    status: ReplayedStatus
    view: TableView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        seq = self.seq

        status: str = self.status

        view = self.view.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "seq": seq,
                "status": status,
                "view": view,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.table_view import TableView  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        seq = d.pop("seq")

        status = check_replayed_status(d.pop("status"))

        view = TableView.from_dict(d.pop("view"))

        replayed = cls(
            id=id,
            seq=seq,
            status=status,
            view=view,
        )

        replayed.additional_properties = d
        return replayed

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
