from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Danger13Deck")


@_attrs_define
class Danger13Deck:
    """How many of each card (notation in docs/events.md): at most twice the default count of each. A card left out counts
    0. Names: `+` (at most 12), `++` (at most 6), `++1` (at most 8), `++2` (at most 8), `++3` (at most 8), `++4` (at
    most 6), `++5` (at most 6), `+0` (at most 10), `+1` (at most 8), `+2` (at most 8), `+3` (at most 8), `+4` (at most
    8), `1` (at most 12), `2` (at most 10), `3` (at most 10), `4` (at most 10), `arrow` (at most 12), `draw0` (at most
    10), `draw1` (at most 8), `draw2` (at most 8), `draw3` (at most 8), `draw4` (at most 8), `hand` (at most 16),
    `limit18` (at most 10).

    """

    additional_properties: dict[str, int] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        danger_13_deck = cls()

        danger_13_deck.additional_properties = d
        return danger_13_deck

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> int:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: int) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
