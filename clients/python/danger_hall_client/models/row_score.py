from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.row_score_colour import RowScoreColour, check_row_score_colour
from ..models.row_score_reason import RowScoreReason, check_row_score_reason

T = TypeVar("T", bound="RowScore")


@_attrs_define
class RowScore:
    """
    Attributes:
        cards (list[str]):
        closed (bool):
        colour (RowScoreColour):
        discarded (bool):
        note (str):
        points (int):
        protected (bool):
        reason (RowScoreReason):
        seat (int):
        sum_ (int):
    """

    cards: list[str]
    closed: bool
    colour: RowScoreColour
    discarded: bool
    note: str
    points: int
    protected: bool
    reason: RowScoreReason
    seat: int
    sum_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards

        closed = self.closed

        colour: str = self.colour

        discarded = self.discarded

        note = self.note

        points = self.points

        protected = self.protected

        reason: str = self.reason

        seat = self.seat

        sum_ = self.sum_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "closed": closed,
                "colour": colour,
                "discarded": discarded,
                "note": note,
                "points": points,
                "protected": protected,
                "reason": reason,
                "seat": seat,
                "sum": sum_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cards = cast(list[str], d.pop("cards"))

        closed = d.pop("closed")

        colour = check_row_score_colour(d.pop("colour"))

        discarded = d.pop("discarded")

        note = d.pop("note")

        points = d.pop("points")

        protected = d.pop("protected")

        reason = check_row_score_reason(d.pop("reason"))

        seat = d.pop("seat")

        sum_ = d.pop("sum")

        row_score = cls(
            cards=cards,
            closed=closed,
            colour=colour,
            discarded=discarded,
            note=note,
            points=points,
            protected=protected,
            reason=reason,
            seat=seat,
            sum_=sum_,
        )

        row_score.additional_properties = d
        return row_score

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
