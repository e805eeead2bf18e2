from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.queue_server_status_state import QueueServerStatusState, check_queue_server_status_state

T = TypeVar("T", bound="QueueServerStatus")


@_attrs_define
class QueueServerStatus:
    """
    Attributes:
        server (str):
        state (QueueServerStatusState):
        worker (None | str):
    """

    server: str
    state: QueueServerStatusState
    worker: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        server = self.server

        state: str = self.state

        worker: None | str
        worker = self.worker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "server": server,
                "state": state,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        server = d.pop("server")

        state = check_queue_server_status_state(d.pop("state"))

        def _parse_worker(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        worker = _parse_worker(d.pop("worker"))

        queue_server_status = cls(
            server=server,
            state=state,
            worker=worker,
        )

        queue_server_status.additional_properties = d
        return queue_server_status

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
