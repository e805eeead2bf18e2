from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_games_game_type_0 import ListGamesGameType0
from ...models.list_games_status_type_0 import ListGamesStatusType0
from ...models.lobby import Lobby
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    mine: bool | Unset = False,
    status: ListGamesStatusType0 | None | Unset = UNSET,
    game: ListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["mine"] = mine

    json_status: None | str | Unset
    if isinstance(status, Unset):
        json_status = UNSET
    elif isinstance(status, str):
        json_status = status
    else:
        json_status = status
    params["status"] = json_status

    json_game: None | str | Unset
    if isinstance(game, Unset):
        json_game = UNSET
    elif isinstance(game, str):
        json_game = game
    else:
        json_game = game
    params["game"] = json_game

    params["limit"] = limit

    params["offset"] = offset

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Lobby | Problem | None:
    if response.status_code == 200:
        response_200 = Lobby.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Lobby | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    mine: bool | Unset = False,
    status: ListGamesStatusType0 | None | Unset = UNSET,
    game: ListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Lobby | Problem]:
    """The lobby, or the caller's own games

     Games newest first, filtered by status and kind of game; fed by the event feeds, so a game shows
    here a moment after it changes. Page with `cursor` (the `next` of the previous page: stable while
    games are created) or `offset`.

    With `mine=true`, the games the caller created instead, private ones too: by the app key it sends,
    else by its address (the client the open-games cap counts), its newest DANGER_CREATED_KEPT (200) for
    a week after its last create. A client that lost a game's admin token finds its games here, and may
    abandon those that have not started (abandonGame).

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (ListGamesStatusType0 | None | Unset):
        game (ListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        mine=mine,
        status=status,
        game=game,
        limit=limit,
        offset=offset,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    mine: bool | Unset = False,
    status: ListGamesStatusType0 | None | Unset = UNSET,
    game: ListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Lobby | Problem | None:
    """The lobby, or the caller's own games

     Games newest first, filtered by status and kind of game; fed by the event feeds, so a game shows
    here a moment after it changes. Page with `cursor` (the `next` of the previous page: stable while
    games are created) or `offset`.

    With `mine=true`, the games the caller created instead, private ones too: by the app key it sends,
    else by its address (the client the open-games cap counts), its newest DANGER_CREATED_KEPT (200) for
    a week after its last create. A client that lost a game's admin token finds its games here, and may
    abandon those that have not started (abandonGame).

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (ListGamesStatusType0 | None | Unset):
        game (ListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return sync_detailed(
        client=client,
        mine=mine,
        status=status,
        game=game,
        limit=limit,
        offset=offset,
        cursor=cursor,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    mine: bool | Unset = False,
    status: ListGamesStatusType0 | None | Unset = UNSET,
    game: ListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Lobby | Problem]:
    """The lobby, or the caller's own games

     Games newest first, filtered by status and kind of game; fed by the event feeds, so a game shows
    here a moment after it changes. Page with `cursor` (the `next` of the previous page: stable while
    games are created) or `offset`.

    With `mine=true`, the games the caller created instead, private ones too: by the app key it sends,
    else by its address (the client the open-games cap counts), its newest DANGER_CREATED_KEPT (200) for
    a week after its last create. A client that lost a game's admin token finds its games here, and may
    abandon those that have not started (abandonGame).

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (ListGamesStatusType0 | None | Unset):
        game (ListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Lobby | Problem]
    """

    kwargs = _get_kwargs(
        mine=mine,
        status=status,
        game=game,
        limit=limit,
        offset=offset,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    mine: bool | Unset = False,
    status: ListGamesStatusType0 | None | Unset = UNSET,
    game: ListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Lobby | Problem | None:
    """The lobby, or the caller's own games

     Games newest first, filtered by status and kind of game; fed by the event feeds, so a game shows
    here a moment after it changes. Page with `cursor` (the `next` of the previous page: stable while
    games are created) or `offset`.

    With `mine=true`, the games the caller created instead, private ones too: by the app key it sends,
    else by its address (the client the open-games cap counts), its newest DANGER_CREATED_KEPT (200) for
    a week after its last create. A client that lost a game's admin token finds its games here, and may
    abandon those that have not started (abandonGame).

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (ListGamesStatusType0 | None | Unset):
        game (ListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Lobby | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            mine=mine,
            status=status,
            game=game,
            limit=limit,
            offset=offset,
            cursor=cursor,
            x_request_id=x_request_id,
        )
    ).parsed
