from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Lag")


@_attrs_define
class Lag:
    """
    Attributes:
        dead_letters (int):
        entries (int):
        errors (int):
        ms (int):
    """

    dead_letters: int
    entries: int
    errors: int
    ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        dead_letters = self.dead_letters

        entries = self.entries

        errors = self.errors

        ms = self.ms

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "dead_letters": dead_letters,
                "entries": entries,
                "errors": errors,
                "ms": ms,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dead_letters = d.pop("dead_letters")

        entries = d.pop("entries")

        errors = d.pop("errors")

        ms = d.pop("ms")

        lag = cls(
            dead_letters=dead_letters,
            entries=entries,
            errors=errors,
            ms=ms,
        )

        lag.additional_properties = d
        return lag

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
