from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.log_leaf import LogLeaf
    from ..models.tree_head import TreeHead


T = TypeVar("T", bound="InclusionProof")


@_attrs_define
class InclusionProof:
    """
    Attributes:
        index (int):
        leaf (LogLeaf):
        path (list[str]):
        size (int):
        head (None | TreeHead | Unset):
    """

    index: int
    leaf: LogLeaf
    path: list[str]
    size: int
    head: None | TreeHead | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.tree_head import TreeHead  # noqa: PLC0415

        index = self.index

        leaf = self.leaf.to_dict()

        path = self.path

        size = self.size

        head: dict[str, Any] | None | Unset
        if isinstance(self.head, Unset):
            head = UNSET
        elif isinstance(self.head, TreeHead):
            head = self.head.to_dict()
        else:
            head = self.head

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "index": index,
                "leaf": leaf,
                "path": path,
                "size": size,
            }
        )
        if head is not UNSET:
            field_dict["head"] = head

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.log_leaf import LogLeaf  # noqa: PLC0415
        from ..models.tree_head import TreeHead  # noqa: PLC0415

        d = dict(src_dict)
        index = d.pop("index")

        leaf = LogLeaf.from_dict(d.pop("leaf"))

        path = cast(list[str], d.pop("path"))

        size = d.pop("size")

        def _parse_head(data: object) -> None | TreeHead | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                head_type_0 = TreeHead.from_dict(data)

                return head_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TreeHead | Unset, data)

        head = _parse_head(d.pop("head", UNSET))

        inclusion_proof = cls(
            index=index,
            leaf=leaf,
            path=path,
            size=size,
            head=head,
        )

        inclusion_proof.additional_properties = d
        return inclusion_proof

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
