from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.inclusion_proof import InclusionProof
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    size: int | None | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    json_size: int | None | Unset
    if isinstance(size, Unset):
        json_size = UNSET
    else:
        json_size = size
    params["size"] = json_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/log/proof/{game_id}".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> InclusionProof | Problem | None:
    if response.status_code == 200:
        response_200 = InclusionProof.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

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
) -> Response[InclusionProof | Problem]:
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
    size: int | None | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[InclusionProof | Problem]:
    """The proof that a game's head is in the log

     The game's latest leaf in the tree of `size` leaves (default: the latest signed head's, which the
    answer carries) and its audit path (RFC 9162, 2.1.3).

    Args:
        game_id (str): The id returned by POST /v1/games.
        size (int | None | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InclusionProof | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        size=size,
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
    size: int | None | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> InclusionProof | Problem | None:
    """The proof that a game's head is in the log

     The game's latest leaf in the tree of `size` leaves (default: the latest signed head's, which the
    answer carries) and its audit path (RFC 9162, 2.1.3).

    Args:
        game_id (str): The id returned by POST /v1/games.
        size (int | None | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InclusionProof | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        size=size,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    size: int | None | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[InclusionProof | Problem]:
    """The proof that a game's head is in the log

     The game's latest leaf in the tree of `size` leaves (default: the latest signed head's, which the
    answer carries) and its audit path (RFC 9162, 2.1.3).

    Args:
        game_id (str): The id returned by POST /v1/games.
        size (int | None | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[InclusionProof | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        size=size,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    size: int | None | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> InclusionProof | Problem | None:
    """The proof that a game's head is in the log

     The game's latest leaf in the tree of `size` leaves (default: the latest signed head's, which the
    answer carries) and its audit path (RFC 9162, 2.1.3).

    Args:
        game_id (str): The id returned by POST /v1/games.
        size (int | None | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        InclusionProof | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            size=size,
            x_request_id=x_request_id,
        )
    ).parsed
