from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Play")


@_attrs_define
class Play:
    """Play a card from your hand to the trick.

    Attributes:
        card (int):
        type_ (Literal['play']):
    """

    card: int
    type_: Literal["play"]

    def to_dict(self) -> dict[str, Any]:
        card = self.card

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "card": card,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card = d.pop("card")

        type_ = cast(Literal["play"], d.pop("type"))
        if type_ != "play":
            raise ValueError(f"type must match const 'play', got '{type_}'")

        play = cls(
            card=card,
            type_=type_,
        )

        return play
