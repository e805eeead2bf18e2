from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.danger_danger_deck import DangerDangerDeck
    from ..models.team_piles import TeamPiles


T = TypeVar("T", bound="DangerDangerOptions")


@_attrs_define
class DangerDangerOptions:
    """
    Attributes:
        deck (DangerDangerDeck | Unset): Each team's deck, written without the initial (notation in docs/events.md). At
            most twice the default deck's count of each kind of card: 8 of each number (64 cards in all), 6 showing 5 Cases,
            2 showing 10, 4 New Stack cards. A card left out counts 0.
        idle_minutes (float | Unset): A game in which no seat has sent a command for this many minutes ends as abandoned
            (timers ringing do not count). Default: 60.0.
        round_seconds (float | Unset): The hidden round timer ("Set a 60-second timer"). Default: 60.0.
        seed (None | str | Unset): Sandbox only: the server seed as hex, for a reproducible shuffle.
        stack (None | TeamPiles | Unset): Sandbox only: each team's draw pile, top first, for every round (e.g. {"pink":
            ["P3", ...], "yellow": [...]}); the first 3 cards become stacks, the 4th the swap card.
    """

    deck: DangerDangerDeck | Unset = UNSET
    idle_minutes: float | Unset = 60.0
    round_seconds: float | Unset = 60.0
    seed: None | str | Unset = UNSET
    stack: None | TeamPiles | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.team_piles import TeamPiles  # noqa: PLC0415

        deck: dict[str, Any] | Unset = UNSET
        if not isinstance(self.deck, Unset):
            deck = self.deck.to_dict()

        idle_minutes = self.idle_minutes

        round_seconds = self.round_seconds

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        stack: dict[str, Any] | None | Unset
        if isinstance(self.stack, Unset):
            stack = UNSET
        elif isinstance(self.stack, TeamPiles):
            stack = self.stack.to_dict()
        else:
            stack = self.stack

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if deck is not UNSET:
            field_dict["deck"] = deck
        if idle_minutes is not UNSET:
            field_dict["idle_minutes"] = idle_minutes
        if round_seconds is not UNSET:
            field_dict["round_seconds"] = round_seconds
        if seed is not UNSET:
            field_dict["seed"] = seed
        if stack is not UNSET:
            field_dict["stack"] = stack

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_danger_deck import DangerDangerDeck  # noqa: PLC0415
        from ..models.team_piles import TeamPiles  # noqa: PLC0415

        d = dict(src_dict)
        _deck = d.pop("deck", UNSET)
        deck: DangerDangerDeck | Unset
        if isinstance(_deck, Unset):
            deck = UNSET
        else:
            deck = DangerDangerDeck.from_dict(_deck)

        idle_minutes = d.pop("idle_minutes", UNSET)

        round_seconds = d.pop("round_seconds", UNSET)

        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        def _parse_stack(data: object) -> None | TeamPiles | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                stack_type_0 = TeamPiles.from_dict(data)

                return stack_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamPiles | Unset, data)

        stack = _parse_stack(d.pop("stack", UNSET))

        danger_danger_options = cls(
            deck=deck,
            idle_minutes=idle_minutes,
            round_seconds=round_seconds,
            seed=seed,
            stack=stack,
        )

        return danger_danger_options
