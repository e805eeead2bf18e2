from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.create_high_voltage_game_visibility import (
    CreateHighVoltageGameVisibility,
    check_create_high_voltage_game_visibility,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.high_voltage_options import HighVoltageOptions


T = TypeVar("T", bound="CreateHighVoltageGame")


@_attrs_define
class CreateHighVoltageGame:
    """
    Attributes:
        game (Literal['high-voltage']):
        seats (int):
        options (HighVoltageOptions | Unset):
        visibility (CreateHighVoltageGameVisibility | Unset): "private": the game is not in the lobby, and a join needs
            the `invite` the create answers with. Default: 'public'.
    """

    game: Literal["high-voltage"]
    seats: int
    options: HighVoltageOptions | Unset = UNSET
    visibility: CreateHighVoltageGameVisibility | Unset = "public"

    def to_dict(self) -> dict[str, Any]:
        game = self.game

        seats = self.seats

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

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
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.high_voltage_options import HighVoltageOptions  # noqa: PLC0415

        d = dict(src_dict)
        game = cast(Literal["high-voltage"], d.pop("game"))
        if game != "high-voltage":
            raise ValueError(f"game must match const 'high-voltage', got '{game}'")

        seats = d.pop("seats")

        _options = d.pop("options", UNSET)
        options: HighVoltageOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = HighVoltageOptions.from_dict(_options)

        _visibility = d.pop("visibility", UNSET)
        visibility: CreateHighVoltageGameVisibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = check_create_high_voltage_game_visibility(_visibility)

        create_high_voltage_game = cls(
            game=game,
            seats=seats,
            options=options,
            visibility=visibility,
        )

        return create_high_voltage_game
