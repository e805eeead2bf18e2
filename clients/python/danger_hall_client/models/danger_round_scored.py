from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.row_score import RowScore


T = TypeVar("T", bound="DangerRoundScored")


@_attrs_define
class DangerRoundScored:
    """
    Attributes:
        points (list[int]):
        round_ (int):
        rows (list[RowScore]):
        totals (list[int]):
        type_ (Literal['round_scored']):
    """

    points: list[int]
    round_: int
    rows: list[RowScore]
    totals: list[int]
    type_: Literal["round_scored"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = self.points

        round_ = self.round_

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        totals = self.totals

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "round": round_,
                "rows": rows,
                "totals": totals,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.row_score import RowScore  # noqa: PLC0415

        d = dict(src_dict)
        points = cast(list[int], d.pop("points"))

        round_ = d.pop("round")

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = RowScore.from_dict(rows_item_data)

            rows.append(rows_item)

        totals = cast(list[int], d.pop("totals"))

        type_ = cast(Literal["round_scored"], d.pop("type"))
        if type_ != "round_scored":
            raise ValueError(f"type must match const 'round_scored', got '{type_}'")

        danger_round_scored = cls(
            points=points,
            round_=round_,
            rows=rows,
            totals=totals,
            type_=type_,
        )

        danger_round_scored.additional_properties = d
        return danger_round_scored

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
