from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rating_point import RatingPoint


T = TypeVar("T", bound="PlayerRating")


@_attrs_define
class PlayerRating:
    """
    Attributes:
        deviation (float):
        games (int):
        history (list[RatingPoint]):
        provisional (bool):
        rank (int):
        rating (float):
        volatility (float):
    """

    deviation: float
    games: int
    history: list[RatingPoint]
    provisional: bool
    rank: int
    rating: float
    volatility: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deviation = self.deviation

        games = self.games

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        provisional = self.provisional

        rank = self.rank

        rating = self.rating

        volatility = self.volatility

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deviation": deviation,
                "games": games,
                "history": history,
                "provisional": provisional,
                "rank": rank,
                "rating": rating,
                "volatility": volatility,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rating_point import RatingPoint  # noqa: PLC0415

        d = dict(src_dict)
        deviation = d.pop("deviation")

        games = d.pop("games")

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = RatingPoint.from_dict(history_item_data)

            history.append(history_item)

        provisional = d.pop("provisional")

        rank = d.pop("rank")

        rating = d.pop("rating")

        volatility = d.pop("volatility")

        player_rating = cls(
            deviation=deviation,
            games=games,
            history=history,
            provisional=provisional,
            rank=rank,
            rating=rating,
            volatility=volatility,
        )

        player_rating.additional_properties = d
        return player_rating

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
