from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Give")


@_attrs_define
class Give:
    """The dealer gives the revealed card to a seat that has no card from this packet.

    Attributes:
        seat (int):
        type_ (Literal['give']):
    """

    seat: int
    type_: Literal["give"]

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "seat": seat,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        type_ = cast(Literal["give"], d.pop("type"))
        if type_ != "give":
            raise ValueError(f"type must match const 'give', got '{type_}'")

        give = cls(
            seat=seat,
            type_=type_,
        )

        return give
