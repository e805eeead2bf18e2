from typing import Literal

TaskStatusState = Literal["failed", "retrying", "running"]

TASK_STATUS_STATE_VALUES: set[TaskStatusState] = {
    "failed",
    "retrying",
    "running",
}


def check_task_status_state(value: str) -> TaskStatusState:
    if value in TASK_STATUS_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TASK_STATUS_STATE_VALUES!r}")
