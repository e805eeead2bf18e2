from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.leaderboard_row import LeaderboardRow


T = TypeVar("T", bound="Leaderboard")


@_attrs_define
class Leaderboard:
    """
    Attributes:
        game (str):
        limit (int):
        players (list[LeaderboardRow]):
        total (int):
        next_ (None | str | Unset):
        you (LeaderboardRow | None | Unset):
    """

    game: str
    limit: int
    players: list[LeaderboardRow]
    total: int
    next_: None | str | Unset = UNSET
    you: LeaderboardRow | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.leaderboard_row import LeaderboardRow  # noqa: PLC0415

        game = self.game

        limit = self.limit

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        total = self.total

        next_: None | str | Unset
        if isinstance(self.next_, Unset):
            next_ = UNSET
        else:
            next_ = self.next_

        you: dict[str, Any] | None | Unset
        if isinstance(self.you, Unset):
            you = UNSET
        elif isinstance(self.you, LeaderboardRow):
            you = self.you.to_dict()
        else:
            you = self.you

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "limit": limit,
                "players": players,
                "total": total,
            }
        )
        if next_ is not UNSET:
            field_dict["next"] = next_
        if you is not UNSET:
            field_dict["you"] = you

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_row import LeaderboardRow  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        limit = d.pop("limit")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = LeaderboardRow.from_dict(players_item_data)

            players.append(players_item)

        total = d.pop("total")

        def _parse_next_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_ = _parse_next_(d.pop("next", UNSET))

        def _parse_you(data: object) -> LeaderboardRow | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                you_type_0 = LeaderboardRow.from_dict(data)

                return you_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LeaderboardRow | None | Unset, data)

        you = _parse_you(d.pop("you", UNSET))

        leaderboard = cls(
            game=game,
            limit=limit,
            players=players,
            total=total,
            next_=next_,
            you=you,
        )

        leaderboard.additional_properties = d
        return leaderboard

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
