from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.rematch_out import RematchOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/rematch".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | RematchOut | None:
    if response.status_code == 200:
        response_200 = RematchOut.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | RematchOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | RematchOut]:
    """Play again: the table's next game

     With a token of a seat of the game or its admin's, once the game is over (finished or abandoned):
    the new game of the same kind, seat count, options (sandbox-only ones aside: its seed is new) and
    visibility. The first request makes it and is given its admin token (and a private game's invite),
    as a create is; every later one, from anyone at the table and through any API process, is given the
    same game without them. `GET /v1/games/{id}` of the old game names it as `rematch`. Each former seat
    joins it as any game is joined, with `seat` to keep its old seat. The new game counts among the open
    games of the client that made it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RematchOut]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Problem | RematchOut | None:
    """Play again: the table's next game

     With a token of a seat of the game or its admin's, once the game is over (finished or abandoned):
    the new game of the same kind, seat count, options (sandbox-only ones aside: its seed is new) and
    visibility. The first request makes it and is given its admin token (and a private game's invite),
    as a create is; every later one, from anyone at the table and through any API process, is given the
    same game without them. `GET /v1/games/{id}` of the old game names it as `rematch`. Each former seat
    joins it as any game is joined, with `seat` to keep its old seat. The new game counts among the open
    games of the client that made it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RematchOut
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | RematchOut]:
    """Play again: the table's next game

     With a token of a seat of the game or its admin's, once the game is over (finished or abandoned):
    the new game of the same kind, seat count, options (sandbox-only ones aside: its seed is new) and
    visibility. The first request makes it and is given its admin token (and a private game's invite),
    as a create is; every later one, from anyone at the table and through any API process, is given the
    same game without them. `GET /v1/games/{id}` of the old game names it as `rematch`. Each former seat
    joins it as any game is joined, with `seat` to keep its old seat. The new game counts among the open
    games of the client that made it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RematchOut]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Problem | RematchOut | None:
    """Play again: the table's next game

     With a token of a seat of the game or its admin's, once the game is over (finished or abandoned):
    the new game of the same kind, seat count, options (sandbox-only ones aside: its seed is new) and
    visibility. The first request makes it and is given its admin token (and a private game's invite),
    as a create is; every later one, from anyone at the table and through any API process, is given the
    same game without them. `GET /v1/games/{id}` of the old game names it as `rematch`. Each former seat
    joins it as any game is joined, with `seat` to keep its old seat. The new game counts among the open
    games of the client that made it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RematchOut
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
