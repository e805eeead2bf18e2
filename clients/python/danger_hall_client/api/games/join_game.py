from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.join_game import JoinGame
from ...models.joined import Joined
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: JoinGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/players".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Joined | Problem | None:
    if response.status_code == 201:
        response_201 = Joined.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Joined | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: JoinGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Joined | Problem]:
    """Join a game

     Takes the lowest open seat and returns its bearer token (shown once). With a player's token
    (registerPlayer), the seat is theirs: the game counts in their record; a player takes one seat of a
    game at most (409 already_seated). With `bot`, the seat is played by the service itself ("random" or
    "greedy"), through the same command path, by its workers; no token is issued for it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (JoinGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Joined | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: JoinGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Joined | Problem | None:
    """Join a game

     Takes the lowest open seat and returns its bearer token (shown once). With a player's token
    (registerPlayer), the seat is theirs: the game counts in their record; a player takes one seat of a
    game at most (409 already_seated). With `bot`, the seat is played by the service itself ("random" or
    "greedy"), through the same command path, by its workers; no token is issued for it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (JoinGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Joined | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: JoinGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Joined | Problem]:
    """Join a game

     Takes the lowest open seat and returns its bearer token (shown once). With a player's token
    (registerPlayer), the seat is theirs: the game counts in their record; a player takes one seat of a
    game at most (409 already_seated). With `bot`, the seat is played by the service itself ("random" or
    "greedy"), through the same command path, by its workers; no token is issued for it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (JoinGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Joined | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    body: JoinGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Joined | Problem | None:
    """Join a game

     Takes the lowest open seat and returns its bearer token (shown once). With a player's token
    (registerPlayer), the seat is theirs: the game counts in their record; a player takes one seat of a
    game at most (409 already_seated). With `bot`, the seat is played by the service itself ("random" or
    "greedy"), through the same command path, by its workers; no token is issued for it.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (JoinGame):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Joined | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            x_request_id=x_request_id,
        )
    ).parsed
