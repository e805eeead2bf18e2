from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lobby_entry_status import LobbyEntryStatus, check_lobby_entry_status
from ..types import UNSET, Unset

T = TypeVar("T", bound="LobbyEntry")


@_attrs_define
class LobbyEntry:
    """
    Attributes:
        created_at (str):
        game (str):
        id (str):
        players (list[str]):
        seats (int):
        seq (int):
        status (LobbyEntryStatus):
        private (bool | Unset):  Default: False.
    """

    created_at: str
    game: str
    id: str
    players: list[str]
    seats: int
    seq: int
    status: LobbyEntryStatus
    private: bool | Unset = False
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        game = self.game

        id = self.id

        players = self.players

        seats = self.seats

        seq = self.seq

        status: str = self.status

        private = self.private

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "game": game,
                "id": id,
                "players": players,
                "seats": seats,
                "seq": seq,
                "status": status,
            }
        )
        if private is not UNSET:
            field_dict["private"] = private

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        game = d.pop("game")

        id = d.pop("id")

        players = cast(list[str], d.pop("players"))

        seats = d.pop("seats")

        seq = d.pop("seq")

        status = check_lobby_entry_status(d.pop("status"))

        private = d.pop("private", UNSET)

        lobby_entry = cls(
            created_at=created_at,
            game=game,
            id=id,
            players=players,
            seats=seats,
            seq=seq,
            status=status,
            private=private,
        )

        lobby_entry.additional_properties = d
        return lobby_entry

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
