from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.health import Health
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    fresh: bool | Unset = False,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["fresh"] = fresh

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/health",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Health | Problem | None:
    if response.status_code == 200:
        response_200 = Health.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Health.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Health | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    fresh: bool | Unset = False,
    x_request_id: str | Unset = UNSET,
) -> Response[Health | Problem]:
    """Liveness: the store, each queue server and its workers' heartbeat, this process's background tasks,
    each projection's lag, errors and dead letters, and the durability in force

     200 when all is well; 503, with the same body, when degraded. Each process answers from what it
    found at most a second before.

    Args:
        fresh (bool | Unset): Found now, not from the snapshot: the operators' check (open where
            the metrics are, DANGER_METRICS=open; else `Authorization: Bearer
            <DANGER_METRICS_TOKEN>`). Its own finding begins after the request does. Default: False.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Health | Problem]
    """

    kwargs = _get_kwargs(
        fresh=fresh,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    fresh: bool | Unset = False,
    x_request_id: str | Unset = UNSET,
) -> Health | Problem | None:
    """Liveness: the store, each queue server and its workers' heartbeat, this process's background tasks,
    each projection's lag, errors and dead letters, and the durability in force

     200 when all is well; 503, with the same body, when degraded. Each process answers from what it
    found at most a second before.

    Args:
        fresh (bool | Unset): Found now, not from the snapshot: the operators' check (open where
            the metrics are, DANGER_METRICS=open; else `Authorization: Bearer
            <DANGER_METRICS_TOKEN>`). Its own finding begins after the request does. Default: False.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Health | Problem
    """

    return sync_detailed(
        client=client,
        fresh=fresh,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    fresh: bool | Unset = False,
    x_request_id: str | Unset = UNSET,
) -> Response[Health | Problem]:
    """Liveness: the store, each queue server and its workers' heartbeat, this process's background tasks,
    each projection's lag, errors and dead letters, and the durability in force

     200 when all is well; 503, with the same body, when degraded. Each process answers from what it
    found at most a second before.

    Args:
        fresh (bool | Unset): Found now, not from the snapshot: the operators' check (open where
            the metrics are, DANGER_METRICS=open; else `Authorization: Bearer
            <DANGER_METRICS_TOKEN>`). Its own finding begins after the request does. Default: False.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Health | Problem]
    """

    kwargs = _get_kwargs(
        fresh=fresh,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    fresh: bool | Unset = False,
    x_request_id: str | Unset = UNSET,
) -> Health | Problem | None:
    """Liveness: the store, each queue server and its workers' heartbeat, this process's background tasks,
    each projection's lag, errors and dead letters, and the durability in force

     200 when all is well; 503, with the same body, when degraded. Each process answers from what it
    found at most a second before.

    Args:
        fresh (bool | Unset): Found now, not from the snapshot: the operators' check (open where
            the metrics are, DANGER_METRICS=open; else `Authorization: Bearer
            <DANGER_METRICS_TOKEN>`). Its own finding begins after the request does. Default: False.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Health | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            fresh=fresh,
            x_request_id=x_request_id,
        )
    ).parsed
