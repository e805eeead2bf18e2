"""The concepts every game's view carries under the same names and types, so that a client
reads them alike in each game (docs/views.md): `round`, `turn`, `to_act`, `totals` and
`winners`, beside the game's own fields."""

from __future__ import annotations

from typing import Any

import msgspec

SHARED_FIELDS = ("round", "turn", "to_act", "totals", "winners")


def waiting_on(to_act: list[int]) -> int | None:
    """`turn`: the one seat the game waits on; None when several may act, or none."""
    return to_act[0] if len(to_act) == 1 else None


def nobody_acts(view: Any) -> Any:
    """A game's view of a table that takes no command (open, finished or abandoned): its
    state may stand where a seat was to act, but no seat may act any more."""
    return msgspec.structs.replace(view, turn=None, to_act=[])
