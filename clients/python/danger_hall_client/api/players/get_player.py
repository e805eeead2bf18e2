from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.player_stats import PlayerStats
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    player_id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/players/{player_id}".format(
            player_id=quote(str(player_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> PlayerStats | Problem | None:
    if response.status_code == 200:
        response_200 = PlayerStats.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[PlayerStats | Problem]:
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
    x_request_id: str | Unset = UNSET,
) -> Response[PlayerStats | Problem]:
    """A registered player's record

     Finished games, wins and average score per kind of game, of the games the player joined with their
    token (fed by the players projection), and their rating in each kind they were rated in, with its
    rank and history. Anonymous seats count in no one's record; an abandoned game counts in nobody's.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerStats | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
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
    x_request_id: str | Unset = UNSET,
) -> PlayerStats | Problem | None:
    """A registered player's record

     Finished games, wins and average score per kind of game, of the games the player joined with their
    token (fed by the players projection), and their rating in each kind they were rated in, with its
    rank and history. Anonymous seats count in no one's record; an abandoned game counts in nobody's.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerStats | Problem
    """

    return sync_detailed(
        player_id=player_id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[PlayerStats | Problem]:
    """A registered player's record

     Finished games, wins and average score per kind of game, of the games the player joined with their
    token (fed by the players projection), and their rating in each kind they were rated in, with its
    rank and history. Anonymous seats count in no one's record; an abandoned game counts in nobody's.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PlayerStats | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    player_id: str,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> PlayerStats | Problem | None:
    """A registered player's record

     Finished games, wins and average score per kind of game, of the games the player joined with their
    token (fed by the players projection), and their rating in each kind they were rated in, with its
    rank and history. Anonymous seats count in no one's record; an abandoned game counts in nobody's.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PlayerStats | Problem
    """

    return (
        await asyncio_detailed(
            player_id=player_id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
