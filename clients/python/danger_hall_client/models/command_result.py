from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_out import EventOut
    from ..models.receipt import Receipt
    from ..models.table_view import TableView


T = TypeVar("T", bound="CommandResult")


@_attrs_define
class CommandResult:
    """
    Attributes:
        events (list[EventOut]):
        receipt (Receipt):
        seq (int):
        view (TableView):
    """

    events: list[EventOut]
    receipt: Receipt
    seq: int
    view: TableView
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        receipt = self.receipt.to_dict()

        seq = self.seq

        view = self.view.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events": events,
                "receipt": receipt,
                "seq": seq,
                "view": view,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_out import EventOut  # noqa: PLC0415
        from ..models.receipt import Receipt  # noqa: PLC0415
        from ..models.table_view import TableView  # noqa: PLC0415

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventOut.from_dict(events_item_data)

            events.append(events_item)

        receipt = Receipt.from_dict(d.pop("receipt"))

        seq = d.pop("seq")

        view = TableView.from_dict(d.pop("view"))

        command_result = cls(
            events=events,
            receipt=receipt,
            seq=seq,
            view=view,
        )

        command_result.additional_properties = d
        return command_result

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
