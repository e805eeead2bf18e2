from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Pick")


@_attrs_define
class Pick:
    """Keep 3 cards of those you are choosing from in the draft; the rest pass left.

    Attributes:
        cards (list[int]):
        type_ (Literal['pick']):
    """

    cards: list[int]
    type_: Literal["pick"]

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cards": cards,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cards = cast(list[int], d.pop("cards"))

        type_ = cast(Literal["pick"], d.pop("type"))
        if type_ != "pick":
            raise ValueError(f"type must match const 'pick', got '{type_}'")

        pick = cls(
            cards=cards,
            type_=type_,
        )

        return pick
