from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.register_player import RegisterPlayer
from ...models.registered import Registered
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: RegisterPlayer,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/players",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Registered | None:
    if response.status_code == 201:
        response_201 = Registered.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[Problem | Registered]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterPlayer,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | Registered]:
    """Register a player

     A player identity for an app's user: its `token` (shown once) seats them in a join, and their
    finished games then count in their record, whatever name they join under. Names need not be unique.
    With DANGER_AUTH=keys, an app key is needed.

    Args:
        x_request_id (str | Unset):
        body (RegisterPlayer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Registered]
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
    client: AuthenticatedClient | Client,
    body: RegisterPlayer,
    x_request_id: str | Unset = UNSET,
) -> Problem | Registered | None:
    """Register a player

     A player identity for an app's user: its `token` (shown once) seats them in a join, and their
    finished games then count in their record, whatever name they join under. Names need not be unique.
    With DANGER_AUTH=keys, an app key is needed.

    Args:
        x_request_id (str | Unset):
        body (RegisterPlayer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Registered
    """

    return sync_detailed(
        client=client,
        body=body,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterPlayer,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | Registered]:
    """Register a player

     A player identity for an app's user: its `token` (shown once) seats them in a join, and their
    finished games then count in their record, whatever name they join under. Names need not be unique.
    With DANGER_AUTH=keys, an app key is needed.

    Args:
        x_request_id (str | Unset):
        body (RegisterPlayer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Registered]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: RegisterPlayer,
    x_request_id: str | Unset = UNSET,
) -> Problem | Registered | None:
    """Register a player

     A player identity for an app's user: its `token` (shown once) seats them in a join, and their
    finished games then count in their record, whatever name they join under. Names need not be unique.
    With DANGER_AUTH=keys, an app key is needed.

    Args:
        x_request_id (str | Unset):
        body (RegisterPlayer):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Registered
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_request_id=x_request_id,
        )
    ).parsed
