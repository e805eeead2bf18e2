from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_danger_13_game import CreateDanger13Game
from ...models.create_danger_danger_game import CreateDangerDangerGame
from ...models.create_danger_game import CreateDangerGame
from ...models.create_high_voltage_game import CreateHighVoltageGame
from ...models.created import Created
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame | CreateHighVoltageGame,
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
        "url": "/v1/games",
    }

    if isinstance(body, CreateDangerGame):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, CreateHighVoltageGame):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, CreateDanger13Game):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Created | Problem | None:
    if response.status_code == 201:
        response_201 = Created.from_dict(response.json())

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Created | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame | CreateHighVoltageGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Created | Problem]:
    """Create a game

     Creates a game with open seats; the answer carries the admin token that starts it. Every option has
    its bounds in the schema. The options that fix the order of the cards (`seed`; Danger's and High
    Voltage's `deck`; Danger 13's and Danger Danger's `stack`) need a server started with
    DANGER_SANDBOX=1; a deck composition (Danger 13's and Danger Danger's `deck`) does not.

    Args:
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame |
            CreateHighVoltageGame): The game, its number of seats and its options.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Created | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame | CreateHighVoltageGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Created | Problem | None:
    """Create a game

     Creates a game with open seats; the answer carries the admin token that starts it. Every option has
    its bounds in the schema. The options that fix the order of the cards (`seed`; Danger's and High
    Voltage's `deck`; Danger 13's and Danger Danger's `stack`) need a server started with
    DANGER_SANDBOX=1; a deck composition (Danger 13's and Danger Danger's `deck`) does not.

    Args:
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame |
            CreateHighVoltageGame): The game, its number of seats and its options.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Created | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame | CreateHighVoltageGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Created | Problem]:
    """Create a game

     Creates a game with open seats; the answer carries the admin token that starts it. Every option has
    its bounds in the schema. The options that fix the order of the cards (`seed`; Danger's and High
    Voltage's `deck`; Danger 13's and Danger Danger's `stack`) need a server started with
    DANGER_SANDBOX=1; a deck composition (Danger 13's and Danger Danger's `deck`) does not.

    Args:
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame |
            CreateHighVoltageGame): The game, its number of seats and its options.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Created | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame | CreateHighVoltageGame,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Created | Problem | None:
    """Create a game

     Creates a game with open seats; the answer carries the admin token that starts it. Every option has
    its bounds in the schema. The options that fix the order of the cards (`seed`; Danger's and High
    Voltage's `deck`; Danger 13's and Danger Danger's `stack`) need a server started with
    DANGER_SANDBOX=1; a deck composition (Danger 13's and Danger Danger's `deck`) does not.

    Args:
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        x_request_id (str | Unset):
        body (CreateDanger13Game | CreateDangerDangerGame | CreateDangerGame |
            CreateHighVoltageGame): The game, its number of seats and its options.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Created | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            x_request_id=x_request_id,
        )
    ).parsed
