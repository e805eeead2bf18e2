from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.quick_play_out import QuickPlayOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    request_id: str,
    *,
    wait: int | Unset = 0,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/quick-play/{request_id}".format(
            request_id=quote(str(request_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | QuickPlayOut | None:
    if response.status_code == 200:
        response_200 = QuickPlayOut.from_dict(response.json())

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
) -> Response[Problem | QuickPlayOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    request_id: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = 0,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | QuickPlayOut]:
    """A quick-play request: waiting, or where its player was seated

     With `wait` (seconds, at most 30), the answer waits until the request is no longer waiting (seated,
    expired or cancelled) or the time is up: a long poll. Once seated, `seated` has the game, the seat
    and its token.

    Args:
        request_id (str): The id a quick-play request was answered with.
        wait (int | Unset): Seconds to wait for a change before answering (a long poll). Default:
            0.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuickPlayOut]
    """

    kwargs = _get_kwargs(
        request_id=request_id,
        wait=wait,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    request_id: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = 0,
    x_request_id: str | Unset = UNSET,
) -> Problem | QuickPlayOut | None:
    """A quick-play request: waiting, or where its player was seated

     With `wait` (seconds, at most 30), the answer waits until the request is no longer waiting (seated,
    expired or cancelled) or the time is up: a long poll. Once seated, `seated` has the game, the seat
    and its token.

    Args:
        request_id (str): The id a quick-play request was answered with.
        wait (int | Unset): Seconds to wait for a change before answering (a long poll). Default:
            0.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuickPlayOut
    """

    return sync_detailed(
        request_id=request_id,
        client=client,
        wait=wait,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    request_id: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = 0,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | QuickPlayOut]:
    """A quick-play request: waiting, or where its player was seated

     With `wait` (seconds, at most 30), the answer waits until the request is no longer waiting (seated,
    expired or cancelled) or the time is up: a long poll. Once seated, `seated` has the game, the seat
    and its token.

    Args:
        request_id (str): The id a quick-play request was answered with.
        wait (int | Unset): Seconds to wait for a change before answering (a long poll). Default:
            0.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | QuickPlayOut]
    """

    kwargs = _get_kwargs(
        request_id=request_id,
        wait=wait,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    request_id: str,
    *,
    client: AuthenticatedClient,
    wait: int | Unset = 0,
    x_request_id: str | Unset = UNSET,
) -> Problem | QuickPlayOut | None:
    """A quick-play request: waiting, or where its player was seated

     With `wait` (seconds, at most 30), the answer waits until the request is no longer waiting (seated,
    expired or cancelled) or the time is up: a long poll. Once seated, `seated` has the game, the seat
    and its token.

    Args:
        request_id (str): The id a quick-play request was answered with.
        wait (int | Unset): Seconds to wait for a change before answering (a long poll). Default:
            0.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | QuickPlayOut
    """

    return (
        await asyncio_detailed(
            request_id=request_id,
            client=client,
            wait=wait,
            x_request_id=x_request_id,
        )
    ).parsed
