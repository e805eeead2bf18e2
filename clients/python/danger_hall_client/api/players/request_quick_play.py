from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.quick_play_in import QuickPlayIn
from ...models.quick_play_out import QuickPlayOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: QuickPlayIn,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/quick-play",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | QuickPlayOut | None:
    if response.status_code == 201:
        response_201 = QuickPlayOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
) -> Response[Problem | QuickPlayOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: QuickPlayIn,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | QuickPlayOut]:
    """Ask for a game: seated with other waiting players as soon as enough wait

     A registered player (their token, or the app key that registered them with `player`) asks for a game
    of a kind and a number of seats (or a range), with an optional rating band and the game's options.
    As soon as enough compatible requests wait, the service makes the game, seats them (each seat taken
    as the player's, from the client that asked), starts it, and marks each request `seated` with the
    game, the seat and its token: poll `GET /v1/quick-play/{id}?wait=30` for the token (the player's
    stream tells `game_joined`, then `game_started`). A player holds one request at a time; it expires
    after DANGER_QUICK_PLAY_SECONDS (300).

    Args:
        x_request_id (str | Unset):
        body (QuickPlayIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuickPlayOut]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: QuickPlayIn,
    x_request_id: str | Unset = UNSET,
) -> Problem | QuickPlayOut | None:
    """Ask for a game: seated with other waiting players as soon as enough wait

     A registered player (their token, or the app key that registered them with `player`) asks for a game
    of a kind and a number of seats (or a range), with an optional rating band and the game's options.
    As soon as enough compatible requests wait, the service makes the game, seats them (each seat taken
    as the player's, from the client that asked), starts it, and marks each request `seated` with the
    game, the seat and its token: poll `GET /v1/quick-play/{id}?wait=30` for the token (the player's
    stream tells `game_joined`, then `game_started`). A player holds one request at a time; it expires
    after DANGER_QUICK_PLAY_SECONDS (300).

    Args:
        x_request_id (str | Unset):
        body (QuickPlayIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuickPlayOut
    """

    return sync_detailed(
        client=client,
        body=body,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: QuickPlayIn,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | QuickPlayOut]:
    """Ask for a game: seated with other waiting players as soon as enough wait

     A registered player (their token, or the app key that registered them with `player`) asks for a game
    of a kind and a number of seats (or a range), with an optional rating band and the game's options.
    As soon as enough compatible requests wait, the service makes the game, seats them (each seat taken
    as the player's, from the client that asked), starts it, and marks each request `seated` with the
    game, the seat and its token: poll `GET /v1/quick-play/{id}?wait=30` for the token (the player's
    stream tells `game_joined`, then `game_started`). A player holds one request at a time; it expires
    after DANGER_QUICK_PLAY_SECONDS (300).

    Args:
        x_request_id (str | Unset):
        body (QuickPlayIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuickPlayOut]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: QuickPlayIn,
    x_request_id: str | Unset = UNSET,
) -> Problem | QuickPlayOut | None:
    """Ask for a game: seated with other waiting players as soon as enough wait

     A registered player (their token, or the app key that registered them with `player`) asks for a game
    of a kind and a number of seats (or a range), with an optional rating band and the game's options.
    As soon as enough compatible requests wait, the service makes the game, seats them (each seat taken
    as the player's, from the client that asked), starts it, and marks each request `seated` with the
    game, the seat and its token: poll `GET /v1/quick-play/{id}?wait=30` for the token (the player's
    stream tells `game_joined`, then `game_started`). A player holds one request at a time; it expires
    after DANGER_QUICK_PLAY_SECONDS (300).

    Args:
        x_request_id (str | Unset):
        body (QuickPlayIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuickPlayOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_request_id=x_request_id,
        )
    ).parsed
