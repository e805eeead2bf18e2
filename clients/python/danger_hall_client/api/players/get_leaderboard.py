from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.get_leaderboard_game import GetLeaderboardGame
from ...models.leaderboard import Leaderboard
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game: GetLeaderboardGame,
    *,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    player: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_player: None | str | Unset
    if isinstance(player, Unset):
        json_player = UNSET
    else:
        json_player = player
    params["player"] = json_player

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/leaderboards/{game}".format(
            game=quote(str(game), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Leaderboard | Problem | None:
    if response.status_code == 200:
        response_200 = Leaderboard.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[Leaderboard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game: GetLeaderboardGame,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    player: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """A game's leaderboard

     The players rated in this kind of game, highest rating first (Glicko-2; docs/rulings.md, "Ratings"),
    provisional ones too, marked; with `player=`, that player's own row wherever it is (`you`). Page
    with `cursor` (the `next` of the previous page). Fed by the ratings, which take a rated game a few
    seconds after it finished.

    Args:
        game (GetLeaderboardGame): The kind of game.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the players after its last
            one.
        player (None | str | Unset): A player whose own row to add (`you`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        game=game,
        limit=limit,
        cursor=cursor,
        player=player,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game: GetLeaderboardGame,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    player: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """A game's leaderboard

     The players rated in this kind of game, highest rating first (Glicko-2; docs/rulings.md, "Ratings"),
    provisional ones too, marked; with `player=`, that player's own row wherever it is (`you`). Page
    with `cursor` (the `next` of the previous page). Fed by the ratings, which take a rated game a few
    seconds after it finished.

    Args:
        game (GetLeaderboardGame): The kind of game.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the players after its last
            one.
        player (None | str | Unset): A player whose own row to add (`you`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return sync_detailed(
        game=game,
        client=client,
        limit=limit,
        cursor=cursor,
        player=player,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game: GetLeaderboardGame,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    player: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Leaderboard | Problem]:
    """A game's leaderboard

     The players rated in this kind of game, highest rating first (Glicko-2; docs/rulings.md, "Ratings"),
    provisional ones too, marked; with `player=`, that player's own row wherever it is (`you`). Page
    with `cursor` (the `next` of the previous page). Fed by the ratings, which take a rated game a few
    seconds after it finished.

    Args:
        game (GetLeaderboardGame): The kind of game.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the players after its last
            one.
        player (None | str | Unset): A player whose own row to add (`you`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Leaderboard | Problem]
    """

    kwargs = _get_kwargs(
        game=game,
        limit=limit,
        cursor=cursor,
        player=player,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game: GetLeaderboardGame,
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    cursor: None | str | Unset = UNSET,
    player: None | str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Leaderboard | Problem | None:
    """A game's leaderboard

     The players rated in this kind of game, highest rating first (Glicko-2; docs/rulings.md, "Ratings"),
    provisional ones too, marked; with `player=`, that player's own row wherever it is (`you`). Page
    with `cursor` (the `next` of the previous page). Fed by the ratings, which take a rated game a few
    seconds after it finished.

    Args:
        game (GetLeaderboardGame): The kind of game.
        limit (int | Unset):  Default: 20.
        cursor (None | str | Unset): The `next` of the previous page: the players after its last
            one.
        player (None | str | Unset): A player whose own row to add (`you`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Leaderboard | Problem
    """

    return (
        await asyncio_detailed(
            game=game,
            client=client,
            limit=limit,
            cursor=cursor,
            player=player,
            x_request_id=x_request_id,
        )
    ).parsed
