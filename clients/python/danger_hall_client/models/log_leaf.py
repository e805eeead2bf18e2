from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LogLeaf")


@_attrs_define
class LogLeaf:
    """
    Attributes:
        final (bool):
        game (str):
        hash_ (str):
        seq (int):
    """

    final: bool
    game: str
    hash_: str
    seq: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        final = self.final

        game = self.game

        hash_ = self.hash_

        seq = self.seq

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "final": final,
                "game": game,
                "hash": hash_,
                "seq": seq,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        final = d.pop("final")

        game = d.pop("game")

        hash_ = d.pop("hash")

        seq = d.pop("seq")

        log_leaf = cls(
            final=final,
            game=game,
            hash_=hash_,
            seq=seq,
        )

        log_leaf.additional_properties = d
        return log_leaf

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
