from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.durability_in_force_mode import DurabilityInForceMode, check_durability_in_force_mode
from ..types import UNSET, Unset

T = TypeVar("T", bound="DurabilityInForce")


@_attrs_define
class DurabilityInForce:
    """
    Attributes:
        checked (bool):
        mode (DurabilityInForceMode):
        replicas (int):
        store (str):
        alone (list[str] | Unset):
    """

    checked: bool
    mode: DurabilityInForceMode
    replicas: int
    store: str
    alone: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        checked = self.checked

        mode: str = self.mode

        replicas = self.replicas

        store = self.store

        alone: list[str] | Unset = UNSET
        if not isinstance(self.alone, Unset):
            alone = self.alone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "checked": checked,
                "mode": mode,
                "replicas": replicas,
                "store": store,
            }
        )
        if alone is not UNSET:
            field_dict["alone"] = alone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        checked = d.pop("checked")

        mode = check_durability_in_force_mode(d.pop("mode"))

        replicas = d.pop("replicas")

        store = d.pop("store")

        alone = cast(list[str], d.pop("alone", UNSET))

        durability_in_force = cls(
            checked=checked,
            mode=mode,
            replicas=replicas,
            store=store,
            alone=alone,
        )

        durability_in_force.additional_properties = d
        return durability_in_force

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
