from typing import Literal

QueueServerStatusState = Literal["idle", "ok", "unreachable"]

QUEUE_SERVER_STATUS_STATE_VALUES: set[QueueServerStatusState] = {
    "idle",
    "ok",
    "unreachable",
}


def check_queue_server_status_state(value: str) -> QueueServerStatusState:
    if value in QUEUE_SERVER_STATUS_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {QUEUE_SERVER_STATUS_STATE_VALUES!r}")
