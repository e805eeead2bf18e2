from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_game_entry_result import PlayerGameEntryResult, check_player_game_entry_result
from ..models.player_game_entry_status import PlayerGameEntryStatus, check_player_game_entry_status

if TYPE_CHECKING:
    from ..models.player_game_links import PlayerGameLinks


T = TypeVar("T", bound="PlayerGameEntry")


@_attrs_define
class PlayerGameEntry:
    """
    Attributes:
        created_at (str):
        ended_at (None | str):
        game (str):
        id (str):
        last_seq (int | None):
        links (PlayerGameLinks):
        private (bool):
        result (PlayerGameEntryResult):
        score (int | None):
        seat (int):
        seats (int):
        status (PlayerGameEntryStatus):
    """

    created_at: str
    ended_at: None | str
    game: str
    id: str
    last_seq: int | None
    links: PlayerGameLinks
    private: bool
    result: PlayerGameEntryResult
    score: int | None
    seat: int
    seats: int
    status: PlayerGameEntryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        ended_at: None | str
        ended_at = self.ended_at

        game = self.game

        id = self.id

        last_seq: int | None
        last_seq = self.last_seq

        links = self.links.to_dict()

        private = self.private

        result: str = self.result

        score: int | None
        score = self.score

        seat = self.seat

        seats = self.seats

        status: str = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "ended_at": ended_at,
                "game": game,
                "id": id,
                "last_seq": last_seq,
                "links": links,
                "private": private,
                "result": result,
                "score": score,
                "seat": seat,
                "seats": seats,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_game_links import PlayerGameLinks  # noqa: PLC0415

        d = dict(src_dict)
        created_at = d.pop("created_at")

        def _parse_ended_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        game = d.pop("game")

        id = d.pop("id")

        def _parse_last_seq(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_seq = _parse_last_seq(d.pop("last_seq"))

        links = PlayerGameLinks.from_dict(d.pop("links"))

        private = d.pop("private")

        result = check_player_game_entry_result(d.pop("result"))

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        seat = d.pop("seat")

        seats = d.pop("seats")

        status = check_player_game_entry_status(d.pop("status"))

        player_game_entry = cls(
            created_at=created_at,
            ended_at=ended_at,
            game=game,
            id=id,
            last_seq=last_seq,
            links=links,
            private=private,
            result=result,
            score=score,
            seat=seat,
            seats=seats,
            status=status,
        )

        player_game_entry.additional_properties = d
        return player_game_entry

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
