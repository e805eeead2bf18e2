from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.seat_score import SeatScore


T = TypeVar("T", bound="HighVoltageRoundScored")


@_attrs_define
class HighVoltageRoundScored:
    """
    Attributes:
        points (list[int]):
        round_ (int):
        seats (list[SeatScore]):
        team_totals (list[int] | None):
        totals (list[int]):
        type_ (Literal['round_scored']):
    """

    points: list[int]
    round_: int
    seats: list[SeatScore]
    team_totals: list[int] | None
    totals: list[int]
    type_: Literal["round_scored"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = self.points

        round_ = self.round_

        seats = []
        for seats_item_data in self.seats:
            seats_item = seats_item_data.to_dict()
            seats.append(seats_item)

        team_totals: list[int] | None
        if isinstance(self.team_totals, list):
            team_totals = self.team_totals

        else:
            team_totals = self.team_totals

        totals = self.totals

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "round": round_,
                "seats": seats,
                "team_totals": team_totals,
                "totals": totals,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_score import SeatScore  # noqa: PLC0415

        d = dict(src_dict)
        points = cast(list[int], d.pop("points"))

        round_ = d.pop("round")

        seats = []
        _seats = d.pop("seats")
        for seats_item_data in _seats:
            seats_item = SeatScore.from_dict(seats_item_data)

            seats.append(seats_item)

        def _parse_team_totals(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                team_totals_type_0 = cast(list[int], data)

                return team_totals_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        team_totals = _parse_team_totals(d.pop("team_totals"))

        totals = cast(list[int], d.pop("totals"))

        type_ = cast(Literal["round_scored"], d.pop("type"))
        if type_ != "round_scored":
            raise ValueError(f"type must match const 'round_scored', got '{type_}'")

        high_voltage_round_scored = cls(
            points=points,
            round_=round_,
            seats=seats,
            team_totals=team_totals,
            totals=totals,
            type_=type_,
        )

        high_voltage_round_scored.additional_properties = d
        return high_voltage_round_scored

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
