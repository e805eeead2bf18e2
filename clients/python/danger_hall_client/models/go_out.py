from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="GoOut")


@_attrs_define
class GoOut:
    """Put your hands flat: your team is out when all its members have and it holds no card.

    Attributes:
        type_ (Literal['go_out']):
    """

    type_: Literal["go_out"]

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
        type_ = cast(Literal["go_out"], d.pop("type"))
        if type_ != "go_out":
            raise ValueError(f"type must match const 'go_out', got '{type_}'")

        go_out = cls(
            type_=type_,
        )

        return go_out
