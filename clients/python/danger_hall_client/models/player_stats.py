from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_stats_by_game import PlayerStatsByGame
    from ..models.player_stats_ratings import PlayerStatsRatings


T = TypeVar("T", bound="PlayerStats")


@_attrs_define
class PlayerStats:
    """
    Attributes:
        by_game (PlayerStatsByGame):
        games (int):
        id (str):
        name (str):
        wins (int):
        ratings (PlayerStatsRatings | Unset):
    """

    by_game: PlayerStatsByGame
    games: int
    id: str
    name: str
    wins: int
    ratings: PlayerStatsRatings | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        by_game = self.by_game.to_dict()

        games = self.games

        id = self.id

        name = self.name

        wins = self.wins

        ratings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.ratings, Unset):
            ratings = self.ratings.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "by_game": by_game,
                "games": games,
                "id": id,
                "name": name,
                "wins": wins,
            }
        )
        if ratings is not UNSET:
            field_dict["ratings"] = ratings

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_stats_by_game import PlayerStatsByGame  # noqa: PLC0415
        from ..models.player_stats_ratings import PlayerStatsRatings  # noqa: PLC0415

        d = dict(src_dict)
        by_game = PlayerStatsByGame.from_dict(d.pop("by_game"))

        games = d.pop("games")

        id = d.pop("id")

        name = d.pop("name")

        wins = d.pop("wins")

        _ratings = d.pop("ratings", UNSET)
        ratings: PlayerStatsRatings | Unset
        if isinstance(_ratings, Unset):
            ratings = UNSET
        else:
            ratings = PlayerStatsRatings.from_dict(_ratings)

        player_stats = cls(
            by_game=by_game,
            games=games,
            id=id,
            name=name,
            wins=wins,
            ratings=ratings,
        )

        player_stats.additional_properties = d
        return player_stats

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
