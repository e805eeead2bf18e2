from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.rematch_out_status import RematchOutStatus, check_rematch_out_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receipt import Receipt


T = TypeVar("T", bound="RematchOut")


@_attrs_define
class RematchOut:
    """
    Attributes:
        game (str):
        id (str):
        rematch_of (str):
        seats (int):
        seq (int):
        status (RematchOutStatus):
        admin_token (None | str | Unset):
        invite (None | str | Unset):
        receipt (None | Receipt | Unset):
    """

    game: str
    id: str
    rematch_of: str
    seats: int
    seq: int
    status: RematchOutStatus
    admin_token: None | str | Unset = UNSET
    invite: None | str | Unset = UNSET
    receipt: None | Receipt | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.receipt import Receipt  # noqa: PLC0415

        game = self.game

        id = self.id

        rematch_of = self.rematch_of

        seats = self.seats

        seq = self.seq

        status: str = self.status

        admin_token: None | str | Unset
        if isinstance(self.admin_token, Unset):
            admin_token = UNSET
        else:
            admin_token = self.admin_token

        invite: None | str | Unset
        if isinstance(self.invite, Unset):
            invite = UNSET
        else:
            invite = self.invite

        receipt: dict[str, Any] | None | Unset
        if isinstance(self.receipt, Unset):
            receipt = UNSET
        elif isinstance(self.receipt, Receipt):
            receipt = self.receipt.to_dict()
        else:
            receipt = self.receipt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "id": id,
                "rematch_of": rematch_of,
                "seats": seats,
                "seq": seq,
                "status": status,
            }
        )
        if admin_token is not UNSET:
            field_dict["admin_token"] = admin_token
        if invite is not UNSET:
            field_dict["invite"] = invite
        if receipt is not UNSET:
            field_dict["receipt"] = receipt

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receipt import Receipt  # noqa: PLC0415

        d = dict(src_dict)
        game = d.pop("game")

        id = d.pop("id")

        rematch_of = d.pop("rematch_of")

        seats = d.pop("seats")

        seq = d.pop("seq")

        status = check_rematch_out_status(d.pop("status"))

        def _parse_admin_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        admin_token = _parse_admin_token(d.pop("admin_token", UNSET))

        def _parse_invite(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        invite = _parse_invite(d.pop("invite", UNSET))

        def _parse_receipt(data: object) -> None | Receipt | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                receipt_type_0 = Receipt.from_dict(data)

                return receipt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Receipt | Unset, data)

        receipt = _parse_receipt(d.pop("receipt", UNSET))

        rematch_out = cls(
            game=game,
            id=id,
            rematch_of=rematch_of,
            seats=seats,
            seq=seq,
            status=status,
            admin_token=admin_token,
            invite=invite,
            receipt=receipt,
        )

        rematch_out.additional_properties = d
        return rematch_out

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
