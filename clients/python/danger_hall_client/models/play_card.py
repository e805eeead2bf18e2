from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayCard")


@_attrs_define
class PlayCard:
    """Play the card you hold on stack `stack`, whose top card you saw as `on`.

    Attributes:
        on (str):
        stack (int):
        type_ (Literal['play_card']):
    """

    on: str
    stack: int
    type_: Literal["play_card"]

    def to_dict(self) -> dict[str, Any]:
        on = self.on

        stack = self.stack

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "on": on,
                "stack": stack,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        on = d.pop("on")

        stack = d.pop("stack")

        type_ = cast(Literal["play_card"], d.pop("type"))
        if type_ != "play_card":
            raise ValueError(f"type must match const 'play_card', got '{type_}'")

        play_card = cls(
            on=on,
            stack=stack,
            type_=type_,
        )

        return play_card
