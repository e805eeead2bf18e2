from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...types import UNSET, File, Response, Unset


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
        "method": "get",
        "url": "/v1/games/{game_id}/stream".format(
            game_id=quote(str(game_id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> File | Problem | None:
    if response.status_code == 200:
        response_200 = File(payload=BytesIO(response.content))

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[File | Problem]:
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
) -> Response[File | Problem]:
    """Live events and views (Server-Sent Events or NDJSON)

     The same envelopes as /events as they are appended; each message's id is its seq, so a reconnect
    with Last-Event-ID (or `after`) resumes with no gap and no duplicate. Comments keep the line alive.
    The stream ends after the game's last event (`seed_revealed`); opened on a game that is over, it
    sends what follows and ends. Opened with a seat's token, it also ends after the event that withdraws
    the token (`seat_left` or `seat_token_reissued` naming the seat); opened again with that token, it
    is refused (401 `token_invalid`).

    With `view=true` it also carries the caller's view (a `ViewMessage`: what GET /v1/games/{game_id}
    answers, with `"type": "view"`): once the backlog is sent, and after each write of events that
    leaves the game at rest (a command's events and the bot moves and timers they set off at once come
    as one write, then one view). A client renders the last view and sends one of its `legal` commands:
    it never needs to read the game again. The SSE event of a view is `view`, its id the seq it shows.

    With `Accept: application/x-ndjson` the same messages come as JSON Lines: one object a line (an
    event's `type` is its event type; a view's is `view`), empty lines keep the connection alive; resume
    with `after` = the last seq read.

    HEAD answers the headers a GET would, opens no stream and holds no stream slot.

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
        Response[File | Problem]
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


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> File | Problem | None:
    """Live events and views (Server-Sent Events or NDJSON)

     The same envelopes as /events as they are appended; each message's id is its seq, so a reconnect
    with Last-Event-ID (or `after`) resumes with no gap and no duplicate. Comments keep the line alive.
    The stream ends after the game's last event (`seed_revealed`); opened on a game that is over, it
    sends what follows and ends. Opened with a seat's token, it also ends after the event that withdraws
    the token (`seat_left` or `seat_token_reissued` naming the seat); opened again with that token, it
    is refused (401 `token_invalid`).

    With `view=true` it also carries the caller's view (a `ViewMessage`: what GET /v1/games/{game_id}
    answers, with `"type": "view"`): once the backlog is sent, and after each write of events that
    leaves the game at rest (a command's events and the bot moves and timers they set off at once come
    as one write, then one view). A client renders the last view and sends one of its `legal` commands:
    it never needs to read the game again. The SSE event of a view is `view`, its id the seq it shows.

    With `Accept: application/x-ndjson` the same messages come as JSON Lines: one object a line (an
    event's `type` is its event type; a view's is `view`), empty lines keep the connection alive; resume
    with `after` = the last seq read.

    HEAD answers the headers a GET would, opens no stream and holds no stream slot.

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
        File | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        after=after,
        view=view,
        last_event_id=last_event_id,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[File | Problem]:
    """Live events and views (Server-Sent Events or NDJSON)

     The same envelopes as /events as they are appended; each message's id is its seq, so a reconnect
    with Last-Event-ID (or `after`) resumes with no gap and no duplicate. Comments keep the line alive.
    The stream ends after the game's last event (`seed_revealed`); opened on a game that is over, it
    sends what follows and ends. Opened with a seat's token, it also ends after the event that withdraws
    the token (`seat_left` or `seat_token_reissued` naming the seat); opened again with that token, it
    is refused (401 `token_invalid`).

    With `view=true` it also carries the caller's view (a `ViewMessage`: what GET /v1/games/{game_id}
    answers, with `"type": "view"`): once the backlog is sent, and after each write of events that
    leaves the game at rest (a command's events and the bot moves and timers they set off at once come
    as one write, then one view). A client renders the last view and sends one of its `legal` commands:
    it never needs to read the game again. The SSE event of a view is `view`, its id the seq it shows.

    With `Accept: application/x-ndjson` the same messages come as JSON Lines: one object a line (an
    event's `type` is its event type; a view's is `view`), empty lines keep the connection alive; resume
    with `after` = the last seq read.

    HEAD answers the headers a GET would, opens no stream and holds no stream slot.

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
        Response[File | Problem]
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


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient | Client,
    after: int | Unset = 0,
    view: bool | Unset = False,
    last_event_id: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> File | Problem | None:
    """Live events and views (Server-Sent Events or NDJSON)

     The same envelopes as /events as they are appended; each message's id is its seq, so a reconnect
    with Last-Event-ID (or `after`) resumes with no gap and no duplicate. Comments keep the line alive.
    The stream ends after the game's last event (`seed_revealed`); opened on a game that is over, it
    sends what follows and ends. Opened with a seat's token, it also ends after the event that withdraws
    the token (`seat_left` or `seat_token_reissued` naming the seat); opened again with that token, it
    is refused (401 `token_invalid`).

    With `view=true` it also carries the caller's view (a `ViewMessage`: what GET /v1/games/{game_id}
    answers, with `"type": "view"`): once the backlog is sent, and after each write of events that
    leaves the game at rest (a command's events and the bot moves and timers they set off at once come
    as one write, then one view). A client renders the last view and sends one of its `legal` commands:
    it never needs to read the game again. The SSE event of a view is `view`, its id the seq it shows.

    With `Accept: application/x-ndjson` the same messages come as JSON Lines: one object a line (an
    event's `type` is its event type; a view's is `view`), empty lines keep the connection alive; resume
    with `after` = the last seq read.

    HEAD answers the headers a GET would, opens no stream and holds no stream slot.

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
        File | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            after=after,
            view=view,
            last_event_id=last_event_id,
            x_request_id=x_request_id,
        )
    ).parsed
