from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerGameLinks")


@_attrs_define
class PlayerGameLinks:
    """
    Attributes:
        audit (str):
        export (str):
        game (str):
        page (str):
        replay (str):
    """

    audit: str
    export: str
    game: str
    page: str
    replay: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        audit = self.audit

        export = self.export

        game = self.game

        page = self.page

        replay = self.replay

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "audit": audit,
                "export": export,
                "game": game,
                "page": page,
                "replay": replay,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        audit = d.pop("audit")

        export = d.pop("export")

        game = d.pop("game")

        page = d.pop("page")

        replay = d.pop("replay")

        player_game_links = cls(
            audit=audit,
            export=export,
            game=game,
            page=page,
            replay=replay,
        )

        player_game_links.additional_properties = d
        return player_game_links

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
