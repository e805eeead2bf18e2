from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_danger_danger_game_visibility import (
    CreateDangerDangerGameVisibility,
    check_create_danger_danger_game_visibility,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.danger_danger_options import DangerDangerOptions


T = TypeVar("T", bound="CreateDangerDangerGame")


@_attrs_define
class CreateDangerDangerGame:
    """
    Attributes:
        game (Literal['danger-danger']):
        seats (int):
        options (DangerDangerOptions | Unset):
        rated (bool | None | Unset): true: rate the game's registered players (bots and anonymous seats are never
            rated); false: never rate it; absent: rate it if every seat is a registered player (docs/rulings.md, "Ratings").
        visibility (CreateDangerDangerGameVisibility | Unset): "private": the game is not in the lobby, and a join needs
            the `invite` the create answers with. Default: 'public'.
    """

    game: Literal["danger-danger"]
    seats: int
    options: DangerDangerOptions | Unset = UNSET
    rated: bool | None | Unset = UNSET
    visibility: CreateDangerDangerGameVisibility | Unset = "public"

    def to_dict(self) -> dict[str, Any]:
        game = self.game

        seats = self.seats

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        rated: bool | None | Unset
        if isinstance(self.rated, Unset):
            rated = UNSET
        else:
            rated = self.rated

        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
                "seats": seats,
            }
        )
        if options is not UNSET:
            field_dict["options"] = options
        if rated is not UNSET:
            field_dict["rated"] = rated
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_danger_options import DangerDangerOptions  # noqa: PLC0415

        d = dict(src_dict)
        game = cast(Literal["danger-danger"], d.pop("game"))
        if game != "danger-danger":
            raise ValueError(f"game must match const 'danger-danger', got '{game}'")

        seats = d.pop("seats")

        _options = d.pop("options", UNSET)
        options: DangerDangerOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = DangerDangerOptions.from_dict(_options)

        def _parse_rated(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        rated = _parse_rated(d.pop("rated", UNSET))

        _visibility = d.pop("visibility", UNSET)
        visibility: CreateDangerDangerGameVisibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = check_create_danger_danger_game_visibility(_visibility)

        create_danger_danger_game = cls(
            game=game,
            seats=seats,
            options=options,
            rated=rated,
            visibility=visibility,
        )

        return create_danger_danger_game
