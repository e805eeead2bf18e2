"""Each operation the clients offer as a request to send and a way to read its answer,
built from the generated operation's own (`_get_kwargs`, `_parse_response`) so that paths,
parameters and models follow the spec; the sync and the async client send the same ones."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, Literal, TypeVar

import httpx

from danger_hall_client import Client as _Parser
from danger_hall_client.api.games import (
    abandon_game,
    create_game,
    get_game,
    join_game,
    list_events,
    list_games,
    send_command,
    start_game,
)
from danger_hall_client.api.players import list_player_games, register_player
from danger_hall_client.api.service import health
from danger_hall_client.models import (
    CommandResult,
    Created,
    CreateDanger13Game,
    CreateDangerDangerGame,
    CreateDangerGame,
    CreateHighVoltageGame,
    EndTurn,
    EventPage,
    Health,
    Joined,
    JoinGame,
    Lobby,
    PlayerGames,
    Problem,
    Registered,
    RegisterPlayer,
)
from danger_hall_client.types import UNSET

from .errors import error_of
from .views import View

T = TypeVar("T")

CREATES: dict[str, Any] = {
    "danger": CreateDangerGame,
    "high-voltage": CreateHighVoltageGame,
    "danger-13": CreateDanger13Game,
    "danger-danger": CreateDangerDangerGame,
}
PLAYER_TOKEN = "dhp_"  # a registered player's token: dhp_<id>_<secret>
_PARSER = _Parser(base_url="")  # the generated parsers ask it only whether to raise


def new_key() -> str:
    """A fresh Idempotency-Key: one per write, kept for all of that write's retries."""
    return uuid.uuid4().hex


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request (httpx.request's arguments) and what its answer reads as."""

    request: dict[str, Any]
    read: Callable[[httpx.Response], T]


def _call(module: ModuleType, token: str | None, *args: Any, **kwargs: Any) -> Call[Any]:
    request = module._get_kwargs(*args, **kwargs)
    if token:
        request.setdefault("headers", {})["Authorization"] = f"Bearer {token}"

    def read(response: httpx.Response) -> Any:
        if not 200 <= response.status_code < 300:
            raise error_of(response)
        parsed = module._parse_response(client=_PARSER, response=response)
        if parsed is None or isinstance(parsed, Problem):
            raise error_of(response)
        return parsed

    return Call(request, read)


def _viewed(call: Call[Any]) -> Call[View]:
    return Call(call.request, lambda response: View(call.read(response)))


def _given(value: T | None) -> T | Any:
    return UNSET if value is None else value


def health_call() -> Call[Health]:
    return _call(health, None)


def create(
    token: str | None,
    game: str,
    seats: int,
    options: Mapping[str, Any] | None,
    visibility: str | None,
    key: str | None,
) -> Call[Created]:
    if game not in CREATES:
        raise ValueError(f"game must be one of {', '.join(CREATES)}, not {game!r}")
    body: dict[str, Any] = {"game": game, "seats": seats}
    if options is not None:
        body["options"] = dict(options)
    if visibility is not None:
        body["visibility"] = visibility
    model = CREATES[game].from_dict(body)
    return _call(create_game, token, body=model, idempotency_key=key or new_key())


def lobby(status: str | None, game: str | None, limit: int, cursor: str | None) -> Call[Lobby]:
    return _call(
        list_games,
        None,
        status=_given(status),
        game=_given(game),
        limit=limit,
        cursor=_given(cursor),
    )


def player_games(
    token: str | None, game: str | None, limit: int, cursor: str | None
) -> Call[PlayerGames]:
    if not token or not token.startswith(PLAYER_TOKEN):
        raise ValueError("mine=True lists a registered player's games: give the player's token")
    player = token.removeprefix(PLAYER_TOKEN).partition("_")[0]
    return _call(
        list_player_games, token, player, game=_given(game), limit=limit, cursor=_given(cursor)
    )


def register(token: str | None, name: str) -> Call[Registered]:
    return _call(register_player, token, body=RegisterPlayer(name=name))


def get(token: str | None, game_id: str) -> Call[View]:
    return _viewed(_call(get_game, token, game_id))


def join(
    token: str | None,
    game_id: str,
    name: str,
    team: str | None,
    invite: str | None,
    bot: Literal["random", "greedy"] | None,
    key: str | None,
) -> Call[Joined]:
    body = JoinGame(name=name, team=_given(team), invite=_given(invite), bot=_given(bot))
    return _call(join_game, token, game_id, body=body, idempotency_key=key or new_key())


def start(token: str | None, game_id: str, key: str | None) -> Call[View]:
    return _viewed(_call(start_game, token, game_id, idempotency_key=key or new_key()))


def abandon(token: str | None, game_id: str, key: str | None) -> Call[View]:
    return _viewed(_call(abandon_game, token, game_id, idempotency_key=key or new_key()))


def command(
    token: str | None,
    game_id: str,
    body: Any,
    if_match: int | None,
    key: str | None,
) -> Call[CommandResult]:
    """`body`: one of a view's `legal` models, or its JSON as a mapping ({"type": "draw"})."""
    payload = dict(body) if isinstance(body, Mapping) else body.to_dict()
    # The generated request takes a model of the union; the payload then replaces its body,
    # so that a mapping is sent as it is (the service says what is wrong with it, if anything).
    call = _call(
        send_command,
        token,
        game_id,
        body=EndTurn(type_="end_turn"),
        idempotency_key=key or new_key(),
        if_match=UNSET if if_match is None else str(if_match),
    )
    call.request["json"] = payload
    return call


def events(token: str | None, game_id: str, after: int, limit: int) -> Call[EventPage]:
    return _call(list_events, token, game_id, after=after, limit=limit)
