from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.game_out import GameOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
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
        "url": "/v1/games/{game_id}/abandon".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GameOut | Problem | None:
    if response.status_code == 200:
        response_200 = GameOut.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GameOut | Problem]:
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
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[GameOut | Problem]:
    """Abandon a game that has not started

     While the game is open, with its admin token, or without one by the client that created it (the app
    key it created it with, else the address it created it from: the games `GET /v1/games?mine=true`
    lists): it ends with `game_abandoned` (no winner), leaves the lobby's open games and frees its place
    under the creator's open-games cap. A started game cannot be abandoned by anyone: it ends by its
    rules, or as abandoned when no seat has acted for its `idle_minutes`. `Idempotency-Key` makes a
    retry safe.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameOut | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
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
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> GameOut | Problem | None:
    """Abandon a game that has not started

     While the game is open, with its admin token, or without one by the client that created it (the app
    key it created it with, else the address it created it from: the games `GET /v1/games?mine=true`
    lists): it ends with `game_abandoned` (no winner), leaves the lobby's open games and frees its place
    under the creator's open-games cap. A started game cannot be abandoned by anyone: it ends by its
    rules, or as abandoned when no seat has acted for its `idle_minutes`. `Idempotency-Key` makes a
    retry safe.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameOut | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[GameOut | Problem]:
    """Abandon a game that has not started

     While the game is open, with its admin token, or without one by the client that created it (the app
    key it created it with, else the address it created it from: the games `GET /v1/games?mine=true`
    lists): it ends with `game_abandoned` (no winner), leaves the lobby's open games and frees its place
    under the creator's open-games cap. A started game cannot be abandoned by anyone: it ends by its
    rules, or as abandoned when no seat has acted for its `idle_minutes`. `Idempotency-Key` makes a
    retry safe.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameOut | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> GameOut | Problem | None:
    """Abandon a game that has not started

     While the game is open, with its admin token, or without one by the client that created it (the app
    key it created it with, else the address it created it from: the games `GET /v1/games?mine=true`
    lists): it ends with `game_abandoned` (no winner), leaves the lobby's open games and frees its place
    under the creator's open-games cap. A started game cannot be abandoned by anyone: it ends by its
    rules, or as abandoned when no seat has acted for its `idle_minutes`. `Idempotency-Key` makes a
    retry safe.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameOut | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            idempotency_key=idempotency_key,
            x_request_id=x_request_id,
        )
    ).parsed
