from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Swap")


@_attrs_define
class Swap:
    """Swap the card you hold with your team's Swap Card.

    Attributes:
        type_ (Literal['swap']):
    """

    type_: Literal["swap"]

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
        type_ = cast(Literal["swap"], d.pop("type"))
        if type_ != "swap":
            raise ValueError(f"type must match const 'swap', got '{type_}'")

        swap = cls(
            type_=type_,
        )

        return swap
