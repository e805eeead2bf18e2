from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="HighVoltageOptions")


@_attrs_define
class HighVoltageOptions:
    """
    Attributes:
        deck (list[int] | None | Unset): Sandbox only: the whole deck for the seat count, top first, dealt anew every
            round.
        idle_minutes (float | Unset): A game in which no seat has sent a command for this many minutes ends as abandoned
            (timers ringing do not count). Default: 60.0.
        seed (None | str | Unset): Sandbox only: the server seed as hex, for a reproducible shuffle.
        teams (bool | Unset): Team mode, 4 seats only: seats 0 and 2 play against seats 1 and 3. Default: False.
        tiebreak_round (bool | Unset): A tie for the win after round 3 plays one more round (else the victory is
            shared). Default: False.
        turn_seconds (float | None | Unset): A turn clock: in the draft, each seat still choosing keeps its 3 lowest
            cards when it runs out; in a trick, the seat to play plays its lowest card. Its deadline is public.
    """

    deck: list[int] | None | Unset = UNSET
    idle_minutes: float | Unset = 60.0
    seed: None | str | Unset = UNSET
    teams: bool | Unset = False
    tiebreak_round: bool | Unset = False
    turn_seconds: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        deck: list[int] | None | Unset
        if isinstance(self.deck, Unset):
            deck = UNSET
        elif isinstance(self.deck, list):
            deck = self.deck

        else:
            deck = self.deck

        idle_minutes = self.idle_minutes

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        teams = self.teams

        tiebreak_round = self.tiebreak_round

        turn_seconds: float | None | Unset
        if isinstance(self.turn_seconds, Unset):
            turn_seconds = UNSET
        else:
            turn_seconds = self.turn_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if deck is not UNSET:
            field_dict["deck"] = deck
        if idle_minutes is not UNSET:
            field_dict["idle_minutes"] = idle_minutes
        if seed is not UNSET:
            field_dict["seed"] = seed
        if teams is not UNSET:
            field_dict["teams"] = teams
        if tiebreak_round is not UNSET:
            field_dict["tiebreak_round"] = tiebreak_round
        if turn_seconds is not UNSET:
            field_dict["turn_seconds"] = turn_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_deck(data: object) -> list[int] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                deck_type_0 = cast(list[int], data)

                return deck_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None | Unset, data)

        deck = _parse_deck(d.pop("deck", UNSET))

        idle_minutes = d.pop("idle_minutes", UNSET)

        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        teams = d.pop("teams", UNSET)

        tiebreak_round = d.pop("tiebreak_round", UNSET)

        def _parse_turn_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds", UNSET))

        high_voltage_options = cls(
            deck=deck,
            idle_minutes=idle_minutes,
            seed=seed,
            teams=teams,
            tiebreak_round=tiebreak_round,
            turn_seconds=turn_seconds,
        )

        return high_voltage_options
