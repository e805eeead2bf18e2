from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.event_out_cause_type_0 import EventOutCauseType0
    from ..models.event_out_data import EventOutData
    from ..models.event_out_meta_type_0 import EventOutMetaType0


T = TypeVar("T", bound="EventOut")


@_attrs_define
class EventOut:
    """
    Attributes:
        actor (str):
        at (str):
        cause (EventOutCauseType0 | None):
        command (None | str):
        data (EventOutData):
        hash_ (str):
        prev (str):
        salt (None | str):
        seq (int):
        type_ (str):
        meta (EventOutMetaType0 | None | Unset):
    """

    actor: str
    at: str
    cause: EventOutCauseType0 | None
    command: None | str
    data: EventOutData
    hash_: str
    prev: str
    salt: None | str
    seq: int
    type_: str
    meta: EventOutMetaType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.event_out_cause_type_0 import EventOutCauseType0  # noqa: PLC0415
        from ..models.event_out_meta_type_0 import EventOutMetaType0  # noqa: PLC0415

        actor = self.actor

        at = self.at

        cause: dict[str, Any] | None
        if isinstance(self.cause, EventOutCauseType0):
            cause = self.cause.to_dict()
        else:
            cause = self.cause

        command: None | str
        command = self.command

        data = self.data.to_dict()

        hash_ = self.hash_

        prev = self.prev

        salt: None | str
        salt = self.salt

        seq = self.seq

        type_ = self.type_

        meta: dict[str, Any] | None | Unset
        if isinstance(self.meta, Unset):
            meta = UNSET
        elif isinstance(self.meta, EventOutMetaType0):
            meta = self.meta.to_dict()
        else:
            meta = self.meta

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "actor": actor,
                "at": at,
                "cause": cause,
                "command": command,
                "data": data,
                "hash": hash_,
                "prev": prev,
                "salt": salt,
                "seq": seq,
                "type": type_,
            }
        )
        if meta is not UNSET:
            field_dict["meta"] = meta

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.event_out_cause_type_0 import EventOutCauseType0  # noqa: PLC0415
        from ..models.event_out_data import EventOutData  # noqa: PLC0415
        from ..models.event_out_meta_type_0 import EventOutMetaType0  # noqa: PLC0415

        d = dict(src_dict)
        actor = d.pop("actor")

        at = d.pop("at")

        def _parse_cause(data: object) -> EventOutCauseType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                cause_type_0 = EventOutCauseType0.from_dict(data)

                return cause_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventOutCauseType0 | None, data)

        cause = _parse_cause(d.pop("cause"))

        def _parse_command(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        command = _parse_command(d.pop("command"))

        data = EventOutData.from_dict(d.pop("data"))

        hash_ = d.pop("hash")

        prev = d.pop("prev")

        def _parse_salt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        salt = _parse_salt(d.pop("salt"))

        seq = d.pop("seq")

        type_ = d.pop("type")

        def _parse_meta(data: object) -> EventOutMetaType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                meta_type_0 = EventOutMetaType0.from_dict(data)

                return meta_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventOutMetaType0 | None | Unset, data)

        meta = _parse_meta(d.pop("meta", UNSET))

        event_out = cls(
            actor=actor,
            at=at,
            cause=cause,
            command=command,
            data=data,
            hash_=hash_,
            prev=prev,
            salt=salt,
            seq=seq,
            type_=type_,
            meta=meta,
        )

        event_out.additional_properties = d
        return event_out

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
