from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Trash")


@_attrs_define
class Trash:
    """Trash the card you hold: it counts as played, its Cases go to the other team.

    Attributes:
        type_ (Literal['trash']):
    """

    type_: Literal["trash"]

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
        type_ = cast(Literal["trash"], d.pop("type"))
        if type_ != "trash":
            raise ValueError(f"type must match const 'trash', got '{type_}'")

        trash = cls(
            type_=type_,
        )

        return trash
