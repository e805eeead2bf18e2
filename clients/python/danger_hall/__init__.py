"""Danger Hall's Python SDK: a client by resource over the generated `danger_hall_client`.

    from danger_hall import Client

    with Client("http://127.0.0.1:8000") as client:
        created = client.games.create("danger", seats=3)
        game = client.game(created.id, token=created.admin_token)

`Client` blocks, `AsyncClient` is its asyncio twin (a seat per task, a stream beside them).
A refusal raises DangerError (by kind: NotFound, Conflict, RateLimited, ...), never returns;
429 and 503 are retried after Retry-After within the bounds of `Retry`. Hand-written:
`make client` regenerates `danger_hall_client` and leaves this package alone.
"""

from danger_hall_client.models import EventOut

from .aio import AsyncClient, AsyncGame, AsyncGames
from .calls import new_key
from .errors import (
    BadRequest,
    Conflict,
    DangerError,
    Forbidden,
    NotFound,
    RateLimited,
    Unauthorized,
    Unavailable,
)
from .retrying import Retry
from .stream import Message
from .sync import Client, Game, Games
from .views import View

__all__ = [
    "AsyncClient",
    "AsyncGame",
    "AsyncGames",
    "BadRequest",
    "Client",
    "Conflict",
    "DangerError",
    "EventOut",
    "Forbidden",
    "Game",
    "Games",
    "Message",
    "NotFound",
    "RateLimited",
    "Retry",
    "Unauthorized",
    "Unavailable",
    "View",
    "new_key",
]
