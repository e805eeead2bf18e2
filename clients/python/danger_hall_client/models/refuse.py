from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Refuse")


@_attrs_define
class Refuse:
    """Refuse the card reaching you: your hand and the card go to the discard pile.

    Attributes:
        type_ (Literal['refuse']):
    """

    type_: Literal["refuse"]

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
        type_ = cast(Literal["refuse"], d.pop("type"))
        if type_ != "refuse":
            raise ValueError(f"type must match const 'refuse', got '{type_}'")

        refuse = cls(
            type_=type_,
        )

        return refuse
