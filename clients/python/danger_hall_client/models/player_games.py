from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_game_entry import PlayerGameEntry


T = TypeVar("T", bound="PlayerGames")


@_attrs_define
class PlayerGames:
    """
    Attributes:
        games (list[PlayerGameEntry]):
        includes_private (bool):
        limit (int):
        player (str):
        total (int):
        next_ (None | str | Unset):
    """

    games: list[PlayerGameEntry]
    includes_private: bool
    limit: int
    player: str
    total: int
    next_: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        includes_private = self.includes_private

        limit = self.limit

        player = self.player

        total = self.total

        next_: None | str | Unset
        if isinstance(self.next_, Unset):
            next_ = UNSET
        else:
            next_ = self.next_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games": games,
                "includes_private": includes_private,
                "limit": limit,
                "player": player,
                "total": total,
            }
        )
        if next_ is not UNSET:
            field_dict["next"] = next_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_game_entry import PlayerGameEntry  # noqa: PLC0415

        d = dict(src_dict)
        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = PlayerGameEntry.from_dict(games_item_data)

            games.append(games_item)

        includes_private = d.pop("includes_private")

        limit = d.pop("limit")

        player = d.pop("player")

        total = d.pop("total")

        def _parse_next_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_ = _parse_next_(d.pop("next", UNSET))

        player_games = cls(
            games=games,
            includes_private=includes_private,
            limit=limit,
            player=player,
            total=total,
            next_=next_,
        )

        player_games.additional_properties = d
        return player_games

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
