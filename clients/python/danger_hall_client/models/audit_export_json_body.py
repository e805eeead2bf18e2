from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receipt import Receipt


T = TypeVar("T", bound="AuditExportJsonBody")


@_attrs_define
class AuditExportJsonBody:
    """
    Attributes:
        export (str): The export, JSON Lines, as GET /v1/games/{id}/export answered.
        receipts (list[Receipt] | Unset): Receipts of the game its client kept (each answer's `receipt`).
    """

    export: str
    receipts: list[Receipt] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        export = self.export

        receipts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.receipts, Unset):
            receipts = []
            for receipts_item_data in self.receipts:
                receipts_item = receipts_item_data.to_dict()
                receipts.append(receipts_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "export": export,
            }
        )
        if receipts is not UNSET:
            field_dict["receipts"] = receipts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receipt import Receipt  # noqa: PLC0415

        d = dict(src_dict)
        export = d.pop("export")

        _receipts = d.pop("receipts", UNSET)
        receipts: list[Receipt] | Unset = UNSET
        if _receipts is not UNSET:
            receipts = []
            for receipts_item_data in _receipts:
                receipts_item = Receipt.from_dict(receipts_item_data)

                receipts.append(receipts_item)

        audit_export_json_body = cls(
            export=export,
            receipts=receipts,
        )

        return audit_export_json_body
