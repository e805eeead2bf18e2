from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Seat")


@_attrs_define
class Seat:
    """
    Attributes:
        bot (None | str):
        name (str):
        player (None | str):
        seat (int):
        team (None | str):
        resigned (bool | Unset):  Default: False.
    """

    bot: None | str
    name: str
    player: None | str
    seat: int
    team: None | str
    resigned: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bot: None | str
        bot = self.bot

        name = self.name

        player: None | str
        player = self.player

        seat = self.seat

        team: None | str
        team = self.team

        resigned = self.resigned

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bot": bot,
                "name": name,
                "player": player,
                "seat": seat,
                "team": team,
            }
        )
        if resigned is not UNSET:
            field_dict["resigned"] = resigned

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_bot(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        bot = _parse_bot(d.pop("bot"))

        name = d.pop("name")

        def _parse_player(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        player = _parse_player(d.pop("player"))

        seat = d.pop("seat")

        def _parse_team(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        team = _parse_team(d.pop("team"))

        resigned = d.pop("resigned", UNSET)

        seat = cls(
            bot=bot,
            name=name,
            player=player,
            seat=seat,
            team=team,
            resigned=resigned,
        )

        seat.additional_properties = d
        return seat

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
