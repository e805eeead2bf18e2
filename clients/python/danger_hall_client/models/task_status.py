from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.task_status_state import TaskStatusState, check_task_status_state

T = TypeVar("T", bound="TaskStatus")


@_attrs_define
class TaskStatus:
    """
    Attributes:
        errors (int):
        failing_seconds (float | None):
        last_error (None | str):
        restarts (int):
        state (TaskStatusState):
    """

    errors: int
    failing_seconds: float | None
    last_error: None | str
    restarts: int
    state: TaskStatusState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        errors = self.errors

        failing_seconds: float | None
        failing_seconds = self.failing_seconds

        last_error: None | str
        last_error = self.last_error

        restarts = self.restarts

        state: str = self.state

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "errors": errors,
                "failing_seconds": failing_seconds,
                "last_error": last_error,
                "restarts": restarts,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        errors = d.pop("errors")

        def _parse_failing_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        failing_seconds = _parse_failing_seconds(d.pop("failing_seconds"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("last_error"))

        restarts = d.pop("restarts")

        state = check_task_status_state(d.pop("state"))

        task_status = cls(
            errors=errors,
            failing_seconds=failing_seconds,
            last_error=last_error,
            restarts=restarts,
            state=state,
        )

        task_status.additional_properties = d
        return task_status

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
