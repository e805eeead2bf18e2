from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SigningKey")


@_attrs_define
class SigningKey:
    """
    Attributes:
        added (str):
        algorithm (Literal['ed25519']):
        id (str):
        public_key (str):
    """

    added: str
    algorithm: Literal["ed25519"]
    id: str
    public_key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        added = self.added

        algorithm = self.algorithm

        id = self.id

        public_key = self.public_key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "added": added,
                "algorithm": algorithm,
                "id": id,
                "public_key": public_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        added = d.pop("added")

        algorithm = cast(Literal["ed25519"], d.pop("algorithm"))
        if algorithm != "ed25519":
            raise ValueError(f"algorithm must match const 'ed25519', got '{algorithm}'")

        id = d.pop("id")

        public_key = d.pop("public_key")

        signing_key = cls(
            added=added,
            algorithm=algorithm,
            id=id,
            public_key=public_key,
        )

        signing_key.additional_properties = d
        return signing_key

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
