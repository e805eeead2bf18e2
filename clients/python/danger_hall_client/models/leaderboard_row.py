from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LeaderboardRow")


@_attrs_define
class LeaderboardRow:
    """
    Attributes:
        deviation (float):
        games (int):
        name (str):
        player (str):
        provisional (bool):
        rank (int):
        rating (float):
    """

    deviation: float
    games: int
    name: str
    player: str
    provisional: bool
    rank: int
    rating: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deviation = self.deviation

        games = self.games

        name = self.name

        player = self.player

        provisional = self.provisional

        rank = self.rank

        rating = self.rating

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deviation": deviation,
                "games": games,
                "name": name,
                "player": player,
                "provisional": provisional,
                "rank": rank,
                "rating": rating,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        deviation = d.pop("deviation")

        games = d.pop("games")

        name = d.pop("name")

        player = d.pop("player")

        provisional = d.pop("provisional")

        rank = d.pop("rank")

        rating = d.pop("rating")

        leaderboard_row = cls(
            deviation=deviation,
            games=games,
            name=name,
            player=player,
            provisional=provisional,
            rank=rank,
            rating=rating,
        )

        leaderboard_row.additional_properties = d
        return leaderboard_row

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
