from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.head_list_games_game_type_0 import HeadListGamesGameType0
from ...models.head_list_games_status_type_0 import HeadListGamesStatusType0
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    mine: bool | Unset = False,
    status: HeadListGamesStatusType0 | None | Unset = UNSET,
    game: HeadListGamesGameType0 | None | Unset = UNSET,
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
        "method": "head",
        "url": "/v1/games",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | None:
    if response.status_code == 200:
        return None

    if response.status_code == 400:
        return None

    if response.status_code == 401:
        return None

    if response.status_code == 429:
        return None

    if response.status_code == 503:
        return None

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any]:
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
    status: HeadListGamesStatusType0 | None | Unset = UNSET,
    game: HeadListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: the lobby, or the caller's own games

     As the GET of this path, without a body: the same status and headers.

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (HeadListGamesStatusType0 | None | Unset):
        game (HeadListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
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


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    mine: bool | Unset = False,
    status: HeadListGamesStatusType0 | None | Unset = UNSET,
    game: HeadListGamesGameType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: the lobby, or the caller's own games

     As the GET of this path, without a body: the same status and headers.

    Args:
        mine (bool | Unset): The caller's own games (by its app key, else its address), private
            ones too, instead of the lobby's. Default: False.
        status (HeadListGamesStatusType0 | None | Unset):
        game (HeadListGamesGameType0 | None | Unset):
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
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
