from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="DrawCard")


@_attrs_define
class DrawCard:
    """Draw your team's next card (your turn in the relay, your team holding none).

    Attributes:
        type_ (Literal['draw_card']):
    """

    type_: Literal["draw_card"]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["draw_card"], d.pop("type"))
        if type_ != "draw_card":
            raise ValueError(f"type must match const 'draw_card', got '{type_}'")

        draw_card = cls(
            type_=type_,
        )

        return draw_card
