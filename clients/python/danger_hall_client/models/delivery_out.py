from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.delivery_out_status import DeliveryOutStatus, check_delivery_out_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt_out import AttemptOut


T = TypeVar("T", bound="DeliveryOut")


@_attrs_define
class DeliveryOut:
    """
    Attributes:
        attempts (int):
        created_at (str):
        game (str):
        id (str):
        seq (int):
        status (DeliveryOutStatus):
        type_ (str):
        next_attempt_at (None | str | Unset):
        tried (list[AttemptOut] | Unset):
    """

    attempts: int
    created_at: str
    game: str
    id: str
    seq: int
    status: DeliveryOutStatus
    type_: str
    next_attempt_at: None | str | Unset = UNSET
    tried: list[AttemptOut] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        created_at = self.created_at

        game = self.game

        id = self.id

        seq = self.seq

        status: str = self.status

        type_ = self.type_

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = self.next_attempt_at

        tried: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.tried, Unset):
            tried = []
            for tried_item_data in self.tried:
                tried_item = tried_item_data.to_dict()
                tried.append(tried_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "game": game,
                "id": id,
                "seq": seq,
                "status": status,
                "type": type_,
            }
        )
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at
        if tried is not UNSET:
            field_dict["tried"] = tried

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_out import AttemptOut  # noqa: PLC0415

        d = dict(src_dict)
        attempts = d.pop("attempts")

        created_at = d.pop("created_at")

        game = d.pop("game")

        id = d.pop("id")

        seq = d.pop("seq")

        status = check_delivery_out_status(d.pop("status"))

        type_ = d.pop("type")

        def _parse_next_attempt_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at", UNSET))

        _tried = d.pop("tried", UNSET)
        tried: list[AttemptOut] | Unset = UNSET
        if _tried is not UNSET:
            tried = []
            for tried_item_data in _tried:
                tried_item = AttemptOut.from_dict(tried_item_data)

                tried.append(tried_item)

        delivery_out = cls(
            attempts=attempts,
            created_at=created_at,
            game=game,
            id=id,
            seq=seq,
            status=status,
            type_=type_,
            next_attempt_at=next_attempt_at,
            tried=tried,
        )

        delivery_out.additional_properties = d
        return delivery_out

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
