from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.head_list_player_games_game_type_0 import (
    HeadListPlayerGamesGameType0,
)
from ...models.head_list_player_games_result_type_0 import (
    HeadListPlayerGamesResultType0,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    player_id: str,
    *,
    game: HeadListPlayerGamesGameType0 | None | Unset = UNSET,
    result: HeadListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    json_game: None | str | Unset
    if isinstance(game, Unset):
        json_game = UNSET
    elif isinstance(game, str):
        json_game = game
    else:
        json_game = game
    params["game"] = json_game

    json_result: None | str | Unset
    if isinstance(result, Unset):
        json_result = UNSET
    elif isinstance(result, str):
        json_result = result
    else:
        json_result = result
    params["result"] = json_result

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "head",
        "url": "/v1/players/{player_id}/games".format(
            player_id=quote(str(player_id), safe=""),
        ),
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

    if response.status_code == 404:
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
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    game: HeadListPlayerGamesGameType0 | None | Unset = UNSET,
    result: HeadListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: a registered player's games

     As the GET of this path, without a body: the same status and headers.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (HeadListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (HeadListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
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
        player_id=player_id,
        game=game,
        result=result,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


async def asyncio_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    game: HeadListPlayerGamesGameType0 | None | Unset = UNSET,
    result: HeadListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: a registered player's games

     As the GET of this path, without a body: the same status and headers.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (HeadListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (HeadListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
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
        player_id=player_id,
        game=game,
        result=result,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)
