from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    params: dict[str, Any] = {}

    params["after"] = after

    params["view"] = view

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "head",
        "url": "/v1/games/{game_id}/stream".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | None:
    if response.status_code == 200:
        return None

    if response.status_code == 400:
        return None

    if response.status_code == 401:
        return None

    if response.status_code == 403:
        return None

    if response.status_code == 404:
        return None

    if response.status_code == 429:
        return None

    if response.status_code == 503:
        return None

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any]:
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
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: live events and views (Server-Sent Events or NDJSON)

     As the GET of this path, without a body: the same status and headers.

    Args:
        game_id (str): The id returned by POST /v1/games.
        after (int | Unset):  Default: 0.
        view (bool | Unset): Also send the caller's view and legal commands after each write of
            events that leaves the game at rest (ViewMessage). Default: False.
        last_event_id (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        view=view,
        last_event_id=last_event_id,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any]:
    """Headers only: live events and views (Server-Sent Events or NDJSON)

     As the GET of this path, without a body: the same status and headers.

    Args:
        game_id (str): The id returned by POST /v1/games.
        after (int | Unset):  Default: 0.
        view (bool | Unset): Also send the caller's view and legal commands after each write of
            events that leaves the game at rest (ViewMessage). Default: False.
        last_event_id (str | Unset):
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        after=after,
        view=view,
        last_event_id=last_event_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)
