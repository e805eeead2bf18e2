"""What quick play takes and answers (service/http/quick_play_api.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from domain.kernel.table import ENTROPY_MAX
from service.wire.schemas import GameName

Seats = Annotated[int, msgspec.Meta(ge=2, le=8)]


class SeatRange(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    min: Seats
    max: Seats


class QuickPlayIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    game: GameName
    """The kind of game."""
    seats: Seats | SeatRange
    """How many seats: a number, or a range (`{"min": 3, "max": 4}`): the player is seated
    as soon as enough waiting players fit, as many as the range allows."""
    band: Annotated[int, msgspec.Meta(ge=50, le=2000)] | None = None
    """Rating points either side of the player's rating (1500 unrated) that an opponent's
    may differ by; it widens by 5 a second of waiting. Absent: anyone."""
    options: dict[str, Any] = {}
    """The game's options, as a create takes them (sandbox options refused); only requests
    with the same options are seated together."""
    entropy: Annotated[str, msgspec.Meta(max_length=ENTROPY_MAX)] = ""
    """Optional: mixed into every shuffle of the game, as a join's."""
    player: (
        Annotated[str, msgspec.Meta(min_length=16, max_length=16, pattern="^[a-z0-9]+$")] | None
    ) = None
    """With an app key: the player it registered whom this request is for."""


class SeatOut(msgspec.Struct, frozen=True):
    game: str
    """The new game's id."""
    seat: int
    token: str
    """The seat's token: the player plays with it (Authorization: Bearer)."""


class QuickPlayOut(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    status: Literal["waiting", "seating", "seated", "expired", "cancelled"]
    """`seating`: a game is being made for it; `seated`: `seated` says where."""
    game: str
    """The kind of game asked for."""
    seats: SeatRange
    player: str
    rating: float
    """The player's rating in the kind when they asked (1500 unrated)."""
    made_at: str
    expires_at: str
    band: int | None = None
    seated: SeatOut | None = None
    """Once seated: the game, the seat and its token (only to the player, or the app key
    that registered them)."""
