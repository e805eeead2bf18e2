from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Receipt")


@_attrs_define
class Receipt:
    """
    Attributes:
        at (str):
        game (str):
        hash_ (str):
        key (str):
        seq (int):
        signature (str):
    """

    at: str
    game: str
    hash_: str
    key: str
    seq: int
    signature: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        game = self.game

        hash_ = self.hash_

        key = self.key

        seq = self.seq

        signature = self.signature

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "game": game,
                "hash": hash_,
                "key": key,
                "seq": seq,
                "signature": signature,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        game = d.pop("game")

        hash_ = d.pop("hash")

        key = d.pop("key")

        seq = d.pop("seq")

        signature = d.pop("signature")

        receipt = cls(
            at=at,
            game=game,
            hash_=hash_,
            key=key,
            seq=seq,
            signature=signature,
        )

        receipt.additional_properties = d
        return receipt

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
