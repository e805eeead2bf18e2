from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.quick_play_in_game import QuickPlayInGame, check_quick_play_in_game
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quick_play_in_options import QuickPlayInOptions
    from ..models.seat_range import SeatRange


T = TypeVar("T", bound="QuickPlayIn")


@_attrs_define
class QuickPlayIn:
    """
    Attributes:
        game (QuickPlayInGame): The kind of game.
        seats (int | SeatRange): How many seats: a number, or a range (`{"min": 3, "max": 4}`): the player is seated as
            soon as enough waiting players fit, as many as the range allows.
        band (int | None | Unset): Rating points either side of the player's rating (1500 unrated) that an opponent's
            may differ by; it widens by 5 a second of waiting. Absent: anyone.
        entropy (str | Unset): Optional: mixed into every shuffle of the game, as a join's. Default: ''.
        options (QuickPlayInOptions | Unset): The game's options, as a create takes them (sandbox options refused); only
            requests with the same options are seated together.
        player (None | str | Unset): With an app key: the player it registered whom this request is for.
    """

    game: QuickPlayInGame
    seats: int | SeatRange
    band: int | None | Unset = UNSET
    entropy: str | Unset = ""
    options: QuickPlayInOptions | Unset = UNSET
    player: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.seat_range import SeatRange  # noqa: PLC0415

        game: str = self.game

        seats: dict[str, Any] | int
        if isinstance(self.seats, SeatRange):
            seats = self.seats.to_dict()
        else:
            seats = self.seats

        band: int | None | Unset
        if isinstance(self.band, Unset):
            band = UNSET
        else:
            band = self.band

        entropy = self.entropy

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        player: None | str | Unset
        if isinstance(self.player, Unset):
            player = UNSET
        else:
            player = self.player

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "game": game,
                "seats": seats,
            }
        )
        if band is not UNSET:
            field_dict["band"] = band
        if entropy is not UNSET:
            field_dict["entropy"] = entropy
        if options is not UNSET:
            field_dict["options"] = options
        if player is not UNSET:
            field_dict["player"] = player

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quick_play_in_options import QuickPlayInOptions  # noqa: PLC0415
        from ..models.seat_range import SeatRange  # noqa: PLC0415

        d = dict(src_dict)
        game = check_quick_play_in_game(d.pop("game"))

        def _parse_seats(data: object) -> int | SeatRange:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                seats_type_1 = SeatRange.from_dict(data)

                return seats_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | SeatRange, data)

        seats = _parse_seats(d.pop("seats"))

        def _parse_band(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        band = _parse_band(d.pop("band", UNSET))

        entropy = d.pop("entropy", UNSET)

        _options = d.pop("options", UNSET)
        options: QuickPlayInOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = QuickPlayInOptions.from_dict(_options)

        def _parse_player(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        player = _parse_player(d.pop("player", UNSET))

        quick_play_in = cls(
            game=game,
            seats=seats,
            band=band,
            entropy=entropy,
            options=options,
            player=player,
        )

        return quick_play_in
