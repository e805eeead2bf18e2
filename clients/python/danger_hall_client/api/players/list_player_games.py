from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_player_games_game_type_0 import ListPlayerGamesGameType0
from ...models.list_player_games_result_type_0 import ListPlayerGamesResultType0
from ...models.player_games import PlayerGames
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    player_id: str,
    *,
    game: ListPlayerGamesGameType0 | None | Unset = UNSET,
    result: ListPlayerGamesResultType0 | None | Unset = UNSET,
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
        "method": "get",
        "url": "/v1/players/{player_id}/games".format(
            player_id=quote(str(player_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerGames | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerGames.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[PlayerGames | Problem]:
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
    game: ListPlayerGamesGameType0 | None | Unset = UNSET,
    result: ListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[PlayerGames | Problem]:
    """A registered player's games

     The games the player joined with their token, newest first: each with its kind, status, the player's
    seat, when it was created and ended, the player's result and score, and where to read, replay,
    export and audit it. Filter by `game` and `result`; page with `cursor` (the `next` of the previous
    page: stable while games are created). A seat given up before the start takes the game off the list;
    anonymous seats are in no one's. A private game is listed only to the player themselves, when the
    request carries their own token (`Authorization: Bearer dhp_...`): its id, which lets anyone watch
    it, goes only to those its admin gives it to (docs/rulings.md, "A player's games"). Fed by the
    player_games projection, so a game shows here a moment after it changes.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (ListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (ListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
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


def sync(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    game: ListPlayerGamesGameType0 | None | Unset = UNSET,
    result: ListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> PlayerGames | Problem | None:
    """A registered player's games

     The games the player joined with their token, newest first: each with its kind, status, the player's
    seat, when it was created and ended, the player's result and score, and where to read, replay,
    export and audit it. Filter by `game` and `result`; page with `cursor` (the `next` of the previous
    page: stable while games are created). A seat given up before the start takes the game off the list;
    anonymous seats are in no one's. A private game is listed only to the player themselves, when the
    request carries their own token (`Authorization: Bearer dhp_...`): its id, which lets anyone watch
    it, goes only to those its admin gives it to (docs/rulings.md, "A player's games"). Fed by the
    player_games projection, so a game shows here a moment after it changes.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (ListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (ListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return sync_detailed(
        player_id=player_id,
        client=client,
        game=game,
        result=result,
        limit=limit,
        cursor=cursor,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    game: ListPlayerGamesGameType0 | None | Unset = UNSET,
    result: ListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[PlayerGames | Problem]:
    """A registered player's games

     The games the player joined with their token, newest first: each with its kind, status, the player's
    seat, when it was created and ended, the player's result and score, and where to read, replay,
    export and audit it. Filter by `game` and `result`; page with `cursor` (the `next` of the previous
    page: stable while games are created). A seat given up before the start takes the game off the list;
    anonymous seats are in no one's. A private game is listed only to the player themselves, when the
    request carries their own token (`Authorization: Bearer dhp_...`): its id, which lets anyone watch
    it, goes only to those its admin gives it to (docs/rulings.md, "A player's games"). Fed by the
    player_games projection, so a game shows here a moment after it changes.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (ListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (ListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerGames | Problem]
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


async def asyncio(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    game: ListPlayerGamesGameType0 | None | Unset = UNSET,
    result: ListPlayerGamesResultType0 | None | Unset = UNSET,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> PlayerGames | Problem | None:
    """A registered player's games

     The games the player joined with their token, newest first: each with its kind, status, the player's
    seat, when it was created and ended, the player's result and score, and where to read, replay,
    export and audit it. Filter by `game` and `result`; page with `cursor` (the `next` of the previous
    page: stable while games are created). A seat given up before the start takes the game off the list;
    anonymous seats are in no one's. A private game is listed only to the player themselves, when the
    request carries their own token (`Authorization: Bearer dhp_...`): its id, which lets anyone watch
    it, goes only to those its admin gives it to (docs/rulings.md, "A player's games"). Fed by the
    player_games projection, so a game shows here a moment after it changes.

    Args:
        player_id (str): The id returned by POST /v1/players.
        game (ListPlayerGamesGameType0 | None | Unset): Only games of this kind.
        result (ListPlayerGamesResultType0 | None | Unset): Only the games of this result:
            `playing` (open or active), `won`, `lost` or `abandoned`.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the games created before its
            last one.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerGames | Problem
    """

    return (
        await asyncio_detailed(
            player_id=player_id,
            client=client,
            game=game,
            result=result,
            limit=limit,
            cursor=cursor,
            x_request_id=x_request_id,
        )
    ).parsed
