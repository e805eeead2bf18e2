from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="NewStack")


@_attrs_define
class NewStack:
    """Start a new stack with the New Stack card you hold.

    Attributes:
        type_ (Literal['new_stack']):
    """

    type_: Literal["new_stack"]

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
        type_ = cast(Literal["new_stack"], d.pop("type"))
        if type_ != "new_stack":
            raise ValueError(f"type must match const 'new_stack', got '{type_}'")

        new_stack = cls(
            type_=type_,
        )

        return new_stack
