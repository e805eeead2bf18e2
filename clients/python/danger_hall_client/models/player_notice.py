from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_notice_type import PlayerNoticeType, check_player_notice_type

T = TypeVar("T", bound="PlayerNotice")


@_attrs_define
class PlayerNotice:
    """
    Attributes:
        game (str):
        kind (str):
        seat (int):
        seq (int):
        status (str):
        type_ (PlayerNoticeType):
    """

    game: str
    kind: str
    seat: int
    seq: int
    status: str
    type_: PlayerNoticeType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game = self.game

        kind = self.kind

        seat = self.seat

        seq = self.seq

        status = self.status

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "kind": kind,
                "seat": seat,
                "seq": seq,
                "status": status,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        game = d.pop("game")

        kind = d.pop("kind")

        seat = d.pop("seat")

        seq = d.pop("seq")

        status = d.pop("status")

        type_ = check_player_notice_type(d.pop("type"))

        player_notice = cls(
            game=game,
            kind=kind,
            seat=seat,
            seq=seq,
            status=status,
            type_=type_,
        )

        player_notice.additional_properties = d
        return player_notice

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
