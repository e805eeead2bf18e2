from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.created_status import CreatedStatus, check_created_status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.receipt import Receipt


T = TypeVar("T", bound="Created")


@_attrs_define
class Created:
    """
    Attributes:
        admin_token (str):
        game (str):
        id (str):
        sandbox (bool):
        seats (int):
        seed_commitment (str):
        seq (int):
        status (CreatedStatus):
        invite (None | str | Unset):
        receipt (None | Receipt | Unset):
    """

    admin_token: str
    game: str
    id: str
    sandbox: bool
    seats: int
    seed_commitment: str
    seq: int
    status: CreatedStatus
    invite: None | str | Unset = UNSET
    receipt: None | Receipt | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.receipt import Receipt  # noqa: PLC0415

        admin_token = self.admin_token

        game = self.game

        id = self.id

        sandbox = self.sandbox

        seats = self.seats

        seed_commitment = self.seed_commitment

        seq = self.seq

        status: str = self.status

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
                "admin_token": admin_token,
                "game": game,
                "id": id,
                "sandbox": sandbox,
                "seats": seats,
                "seed_commitment": seed_commitment,
                "seq": seq,
                "status": status,
            }
        )
        if invite is not UNSET:
            field_dict["invite"] = invite
        if receipt is not UNSET:
            field_dict["receipt"] = receipt

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.receipt import Receipt  # noqa: PLC0415

        d = dict(src_dict)
        admin_token = d.pop("admin_token")

        game = d.pop("game")

        id = d.pop("id")

        sandbox = d.pop("sandbox")

        seats = d.pop("seats")

        seed_commitment = d.pop("seed_commitment")

        seq = d.pop("seq")

        status = check_created_status(d.pop("status"))

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

        created = cls(
            admin_token=admin_token,
            game=game,
            id=id,
            sandbox=sandbox,
            seats=seats,
            seed_commitment=seed_commitment,
            seq=seq,
            status=status,
            invite=invite,
            receipt=receipt,
        )

        created.additional_properties = d
        return created

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
