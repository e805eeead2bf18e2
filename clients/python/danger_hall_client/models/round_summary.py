from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_out import EventOut


T = TypeVar("T", bound="RoundSummary")


@_attrs_define
class RoundSummary:
    """
    Attributes:
        complete (bool):
        events (list[EventOut]):
        first_seq (int):
        last_seq (int):
        round_ (int):
    """

    complete: bool
    events: list[EventOut]
    first_seq: int
    last_seq: int
    round_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        complete = self.complete

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        first_seq = self.first_seq

        last_seq = self.last_seq

        round_ = self.round_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "complete": complete,
                "events": events,
                "first_seq": first_seq,
                "last_seq": last_seq,
                "round": round_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_out import EventOut  # noqa: PLC0415

        d = dict(src_dict)
        complete = d.pop("complete")

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = EventOut.from_dict(events_item_data)

            events.append(events_item)

        first_seq = d.pop("first_seq")

        last_seq = d.pop("last_seq")

        round_ = d.pop("round")

        round_summary = cls(
            complete=complete,
            events=events,
            first_seq=first_seq,
            last_seq=last_seq,
            round_=round_,
        )

        round_summary.additional_properties = d
        return round_summary

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
