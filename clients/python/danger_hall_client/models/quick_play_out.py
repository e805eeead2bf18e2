from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.quick_play_out_status import QuickPlayOutStatus, check_quick_play_out_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.seat_out import SeatOut
    from ..models.seat_range import SeatRange


T = TypeVar("T", bound="QuickPlayOut")


@_attrs_define
class QuickPlayOut:
    """
    Attributes:
        expires_at (str):
        game (str):
        id (str):
        made_at (str):
        player (str):
        rating (float):
        seats (SeatRange):
        status (QuickPlayOutStatus):
        band (int | None | Unset):
        seated (None | SeatOut | Unset):
    """

    expires_at: str
    game: str
    id: str
    made_at: str
    player: str
    rating: float
    seats: SeatRange
    status: QuickPlayOutStatus
    band: int | None | Unset = UNSET
    seated: None | SeatOut | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_out import SeatOut  # noqa: PLC0415

        expires_at = self.expires_at

        game = self.game

        id = self.id

        made_at = self.made_at

        player = self.player

        rating = self.rating

        seats = self.seats.to_dict()

        status: str = self.status

        band: int | None | Unset
        if isinstance(self.band, Unset):
            band = UNSET
        else:
            band = self.band

        seated: dict[str, Any] | None | Unset
        if isinstance(self.seated, Unset):
            seated = UNSET
        elif isinstance(self.seated, SeatOut):
            seated = self.seated.to_dict()
        else:
            seated = self.seated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_at": expires_at,
                "game": game,
                "id": id,
                "made_at": made_at,
                "player": player,
                "rating": rating,
                "seats": seats,
                "status": status,
            }
        )
        if band is not UNSET:
            field_dict["band"] = band
        if seated is not UNSET:
            field_dict["seated"] = seated

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.seat_out import SeatOut  # noqa: PLC0415
        from ..models.seat_range import SeatRange  # noqa: PLC0415

        d = dict(src_dict)
        expires_at = d.pop("expires_at")

        game = d.pop("game")

        id = d.pop("id")

        made_at = d.pop("made_at")

        player = d.pop("player")

        rating = d.pop("rating")

        seats = SeatRange.from_dict(d.pop("seats"))

        status = check_quick_play_out_status(d.pop("status"))

        def _parse_band(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        band = _parse_band(d.pop("band", UNSET))

        def _parse_seated(data: object) -> None | SeatOut | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                seated_type_0 = SeatOut.from_dict(data)

                return seated_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SeatOut | Unset, data)

        seated = _parse_seated(d.pop("seated", UNSET))

        quick_play_out = cls(
            expires_at=expires_at,
            game=game,
            id=id,
            made_at=made_at,
            player=player,
            rating=rating,
            seats=seats,
            status=status,
            band=band,
            seated=seated,
        )

        quick_play_out.additional_properties = d
        return quick_play_out

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
