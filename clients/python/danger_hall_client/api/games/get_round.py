from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.round_summary import RoundSummary
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    n: int,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{game_id}/rounds/{n}".format(
            game_id=quote(str(game_id), safe=""),
            n=quote(str(n), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RoundSummary | None:
    if response.status_code == 200:
        response_200 = RoundSummary.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

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
) -> Response[Problem | RoundSummary]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    n: int,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | RoundSummary]:
    """A round's summary

     Every event of round n (dealt, passed, played, scored) with the scoring and its reason for every
    point; redacted for the caller while the game runs. Fed by the rounds projection, so a round shows a
    moment after it changes.

    Args:
        game_id (str): The id returned by POST /v1/games.
        n (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoundSummary]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        n=n,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    n: int,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Problem | RoundSummary | None:
    """A round's summary

     Every event of round n (dealt, passed, played, scored) with the scoring and its reason for every
    point; redacted for the caller while the game runs. Fed by the rounds projection, so a round shows a
    moment after it changes.

    Args:
        game_id (str): The id returned by POST /v1/games.
        n (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoundSummary
    """

    return sync_detailed(
        game_id=game_id,
        n=n,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    n: int,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | RoundSummary]:
    """A round's summary

     Every event of round n (dealt, passed, played, scored) with the scoring and its reason for every
    point; redacted for the caller while the game runs. Fed by the rounds projection, so a round shows a
    moment after it changes.

    Args:
        game_id (str): The id returned by POST /v1/games.
        n (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoundSummary]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        n=n,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    n: int,
    *,
    client: AuthenticatedClient | Client,
    x_request_id: str | Unset = UNSET,
) -> Problem | RoundSummary | None:
    """A round's summary

     Every event of round n (dealt, passed, played, scored) with the scoring and its reason for every
    point; redacted for the caller while the game runs. Fed by the rounds projection, so a round shows a
    moment after it changes.

    Args:
        game_id (str): The id returned by POST /v1/games.
        n (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoundSummary
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            n=n,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
