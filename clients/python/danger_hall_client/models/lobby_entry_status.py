from typing import Literal

LobbyEntryStatus = Literal["abandoned", "active", "finished", "open"]

LOBBY_ENTRY_STATUS_VALUES: set[LobbyEntryStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_lobby_entry_status(value: str) -> LobbyEntryStatus:
    if value in LOBBY_ENTRY_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LOBBY_ENTRY_STATUS_VALUES!r}")
