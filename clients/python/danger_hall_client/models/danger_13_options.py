from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.danger_13_deck import Danger13Deck


T = TypeVar("T", bound="Danger13Options")


@_attrs_define
class Danger13Options:
    """
    Attributes:
        deck (Danger13Deck | Unset): How many of each card (notation in docs/events.md): at most twice the default count
            of each. A card left out counts 0. Names: `+` (at most 12), `++` (at most 6), `++1` (at most 8), `++2` (at most
            8), `++3` (at most 8), `++4` (at most 6), `++5` (at most 6), `+0` (at most 10), `+1` (at most 8), `+2` (at most
            8), `+3` (at most 8), `+4` (at most 8), `1` (at most 12), `2` (at most 10), `3` (at most 10), `4` (at most 10),
            `arrow` (at most 12), `draw0` (at most 10), `draw1` (at most 8), `draw2` (at most 8), `draw3` (at most 8),
            `draw4` (at most 8), `hand` (at most 16), `limit18` (at most 10).
        idle_minutes (float | Unset): A game in which no seat has sent a command for this many minutes ends as abandoned
            (timers ringing do not count). Default: 60.0.
        seed (None | str | Unset): Sandbox only: the server seed as hex, for a reproducible shuffle.
        stack (list[str] | None | Unset): Sandbox only: the whole draw pile, top first (the deck's cards, each as often
            as the deck has it).
        turn_seconds (float | None | Unset): A turn clock: a dealer who lets it run out gives the card to the first seat
            (in seat order) without one; a seat deciding on a card accepts it. Its deadline is public.
    """

    deck: Danger13Deck | Unset = UNSET
    idle_minutes: float | Unset = 60.0
    seed: None | str | Unset = UNSET
    stack: list[str] | None | Unset = UNSET
    turn_seconds: float | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        deck: dict[str, Any] | Unset = UNSET
        if not isinstance(self.deck, Unset):
            deck = self.deck.to_dict()

        idle_minutes = self.idle_minutes

        seed: None | str | Unset
        if isinstance(self.seed, Unset):
            seed = UNSET
        else:
            seed = self.seed

        stack: list[str] | None | Unset
        if isinstance(self.stack, Unset):
            stack = UNSET
        elif isinstance(self.stack, list):
            stack = self.stack

        else:
            stack = self.stack

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
        if stack is not UNSET:
            field_dict["stack"] = stack
        if turn_seconds is not UNSET:
            field_dict["turn_seconds"] = turn_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.danger_13_deck import Danger13Deck  # noqa: PLC0415

        d = dict(src_dict)
        _deck = d.pop("deck", UNSET)
        deck: Danger13Deck | Unset
        if isinstance(_deck, Unset):
            deck = UNSET
        else:
            deck = Danger13Deck.from_dict(_deck)

        idle_minutes = d.pop("idle_minutes", UNSET)

        def _parse_seed(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        seed = _parse_seed(d.pop("seed", UNSET))

        def _parse_stack(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                stack_type_0 = cast(list[str], data)

                return stack_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        stack = _parse_stack(d.pop("stack", UNSET))

        def _parse_turn_seconds(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds", UNSET))

        danger_13_options = cls(
            deck=deck,
            idle_minutes=idle_minutes,
            seed=seed,
            stack=stack,
            turn_seconds=turn_seconds,
        )

        return danger_13_options
