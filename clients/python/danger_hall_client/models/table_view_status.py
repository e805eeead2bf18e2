from typing import Literal

TableViewStatus = Literal["abandoned", "active", "finished", "open"]

TABLE_VIEW_STATUS_VALUES: set[TableViewStatus] = {
    "abandoned",
    "active",
    "finished",
    "open",
}


def check_table_view_status(value: str) -> TableViewStatus:
    if value in TABLE_VIEW_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TABLE_VIEW_STATUS_VALUES!r}")
