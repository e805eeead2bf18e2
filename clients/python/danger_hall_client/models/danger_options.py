from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.danger_options_fourth_row_needs import DangerOptionsFourthRowNeeds, check_danger_options_fourth_row_needs
from ..types import UNSET, Unset

T = TypeVar("T", bound="DangerOptions")


@_attrs_define
class DangerOptions:
    """
    Attributes:
        deck (list[str] | None | Unset): Sandbox only: the complete stack, top first, e.g. ["R7", "B1", ...] (108
            cards).
        fourth_row_needs (DangerOptionsFourthRowNeeds | Unset): What protecting a player's fourth row needs: "row", 6 or
            more cards in that row (the rulebook); "total", 6 or more cards in front of the player (the German original).
            Default: 'row'.
        idle_minutes (float | Unset): A game in which no seat has sent a command for this many minutes ends as abandoned
            (timers ringing do not count). Default: 60.0.
        seed (None | str | Unset): Sandbox only: the server seed as hex, for a reproducible shuffle.
        turn_seconds (float | None | Unset): A turn clock: a seat that has not finished its turn in time draws from the
            stack and protects nothing. Its deadline is public.
    """

    deck: list[str] | None | Unset = UNSET
    fourth_row_needs: DangerOptionsFourthRowNeeds | Unset = "row"
    idle_minutes: float | Unset = 60.0
    seed: None | str | Unset = UNSET
    turn_seconds: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        deck: list[str] | None | Unset
        if isinstance(self.deck, Unset):
            deck = UNSET
        elif isinstance(self.deck, list):
            deck = self.deck

        else:
            deck = self.deck

        fourth_row_needs: str | Unset = UNSET
        if not isinstance(self.fourth_row_needs, Unset):
            fourth_row_needs = self.fourth_row_needs

        idle_minutes = self.idle_minutes

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        turn_seconds: float | None | Unset
        if isinstance(self.turn_seconds, Unset):
            turn_seconds = UNSET
        else:
            turn_seconds = self.turn_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if deck is not UNSET:
            field_dict["deck"] = deck
        if fourth_row_needs is not UNSET:
            field_dict["fourth_row_needs"] = fourth_row_needs
        if idle_minutes is not UNSET:
            field_dict["idle_minutes"] = idle_minutes
        if seed is not UNSET:
            field_dict["seed"] = seed
        if turn_seconds is not UNSET:
            field_dict["turn_seconds"] = turn_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_deck(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                deck_type_0 = cast(list[str], data)

                return deck_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        deck = _parse_deck(d.pop("deck", UNSET))

        _fourth_row_needs = d.pop("fourth_row_needs", UNSET)
        fourth_row_needs: DangerOptionsFourthRowNeeds | Unset
        if isinstance(_fourth_row_needs, Unset):
            fourth_row_needs = UNSET
        else:
            fourth_row_needs = check_danger_options_fourth_row_needs(_fourth_row_needs)

        idle_minutes = d.pop("idle_minutes", UNSET)

        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        def _parse_turn_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds", UNSET))

        danger_options = cls(
            deck=deck,
            fourth_row_needs=fourth_row_needs,
            idle_minutes=idle_minutes,
            seed=seed,
            turn_seconds=turn_seconds,
        )

        return danger_options
