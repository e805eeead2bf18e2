from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.receipt import Receipt


T = TypeVar("T", bound="Joined")


@_attrs_define
class Joined:
    """
    Attributes:
        receipt (Receipt):
        seat (int):
        seq (int):
        token (None | str):
    """

    receipt: Receipt
    seat: int
    seq: int
    token: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        receipt = self.receipt.to_dict()

        seat = self.seat

        seq = self.seq

        token: None | str
        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "receipt": receipt,
                "seat": seat,
                "seq": seq,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receipt import Receipt  # noqa: PLC0415

        d = dict(src_dict)
        receipt = Receipt.from_dict(d.pop("receipt"))

        seat = d.pop("seat")

        seq = d.pop("seq")

        def _parse_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        token = _parse_token(d.pop("token"))

        joined = cls(
            receipt=receipt,
            seat=seat,
            seq=seq,
            token=token,
        )

        joined.additional_properties = d
        return joined

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
