from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.protect_colour import ProtectColour, check_protect_colour

T = TypeVar("T", bound="Protect")


@_attrs_define
class Protect:
    """Protect one of your rows, after drawing and placing a card.

    Attributes:
        colour (ProtectColour):
        type_ (Literal['protect']):
    """

    colour: ProtectColour
    type_: Literal["protect"]

    def to_dict(self) -> dict[str, Any]:
        colour: str = self.colour

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "colour": colour,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        colour = check_protect_colour(d.pop("colour"))

        type_ = cast(Literal["protect"], d.pop("type"))
        if type_ != "protect":
            raise ValueError(f"type must match const 'protect', got '{type_}'")

        protect = cls(
            colour=colour,
            type_=type_,
        )

        return protect
