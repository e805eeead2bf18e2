from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TreeHead")


@_attrs_define
class TreeHead:
    """
    Attributes:
        at (str):
        key (str):
        origin (str):
        root (str):
        signature (str):
        size (int):
    """

    at: str
    key: str
    origin: str
    root: str
    signature: str
    size: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        key = self.key

        origin = self.origin

        root = self.root

        signature = self.signature

        size = self.size

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "key": key,
                "origin": origin,
                "root": root,
                "signature": signature,
                "size": size,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        key = d.pop("key")

        origin = d.pop("origin")

        root = d.pop("root")

        signature = d.pop("signature")

        size = d.pop("size")

        tree_head = cls(
            at=at,
            key=key,
            origin=origin,
            root=root,
            signature=signature,
            size=size,
        )

        tree_head.additional_properties = d
        return tree_head

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
