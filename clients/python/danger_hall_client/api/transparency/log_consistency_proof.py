from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.consistency_proof import ConsistencyProof
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    first: int,
    second: int,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["first"] = first

    params["second"] = second

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/log/consistency",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ConsistencyProof | Problem | None:
    if response.status_code == 200:
        response_200 = ConsistencyProof.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ConsistencyProof | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,
    x_request_id: str | Unset = UNSET,
) -> Response[ConsistencyProof | Problem]:
    """The proof that a larger tree holds a smaller one unchanged

     The consistency proof (RFC 9162, 2.1.4) from the tree of `first` leaves to the tree of `second`: a
    monitor that kept the first head checks the second against it.

    Args:
        first (int):
        second (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsistencyProof | Problem]
    """

    kwargs = _get_kwargs(
        first=first,
        second=second,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,
    x_request_id: str | Unset = UNSET,
) -> ConsistencyProof | Problem | None:
    """The proof that a larger tree holds a smaller one unchanged

     The consistency proof (RFC 9162, 2.1.4) from the tree of `first` leaves to the tree of `second`: a
    monitor that kept the first head checks the second against it.

    Args:
        first (int):
        second (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsistencyProof | Problem
    """

    return sync_detailed(
        client=client,
        first=first,
        second=second,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,
    x_request_id: str | Unset = UNSET,
) -> Response[ConsistencyProof | Problem]:
    """The proof that a larger tree holds a smaller one unchanged

     The consistency proof (RFC 9162, 2.1.4) from the tree of `first` leaves to the tree of `second`: a
    monitor that kept the first head checks the second against it.

    Args:
        first (int):
        second (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ConsistencyProof | Problem]
    """

    kwargs = _get_kwargs(
        first=first,
        second=second,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,
    x_request_id: str | Unset = UNSET,
) -> ConsistencyProof | Problem | None:
    """The proof that a larger tree holds a smaller one unchanged

     The consistency proof (RFC 9162, 2.1.4) from the tree of `first` leaves to the tree of `second`: a
    monitor that kept the first head checks the second against it.

    Args:
        first (int):
        second (int):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ConsistencyProof | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            first=first,
            second=second,
            x_request_id=x_request_id,
        )
    ).parsed
