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
    player_id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/players/{player_id}/stream".format(
            player_id=quote(str(player_id), safe=""),
        ),
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
    player_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[File | Problem]:
    """A player's live notices across their games (Server-Sent Events or NDJSON)

     With the player's own token: a notice whenever one of their games needs them, so that a client
    follows all of a player's games on one connection (as Lichess's /api/stream/event): `game_joined`
    (the player took a seat), `game_started`, `your_turn` (the player's seat may act now), `game_ended`
    and `game_left` (their seat given up or taken from them), each a `PlayerNotice` with the game's id,
    kind, the player's seat, its status and seq. It begins with the games open or running now (the
    newest `DANGER_PLAYER_STREAM_GAMES`), each as it stands, so a reconnect needs no resume. A notice
    says what the game is when it is made: a turn that came and went before it is not told. Follow a
    game itself with streamEvents (`view=true`). With `Accept: application/x-ndjson`, one notice a line;
    comments (or empty lines) keep the line alive. It counts as one stream against the caps.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    player_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> File | Problem | None:
    """A player's live notices across their games (Server-Sent Events or NDJSON)

     With the player's own token: a notice whenever one of their games needs them, so that a client
    follows all of a player's games on one connection (as Lichess's /api/stream/event): `game_joined`
    (the player took a seat), `game_started`, `your_turn` (the player's seat may act now), `game_ended`
    and `game_left` (their seat given up or taken from them), each a `PlayerNotice` with the game's id,
    kind, the player's seat, its status and seq. It begins with the games open or running now (the
    newest `DANGER_PLAYER_STREAM_GAMES`), each as it stands, so a reconnect needs no resume. A notice
    says what the game is when it is made: a turn that came and went before it is not told. Follow a
    game itself with streamEvents (`view=true`). With `Accept: application/x-ndjson`, one notice a line;
    comments (or empty lines) keep the line alive. It counts as one stream against the caps.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return sync_detailed(
        player_id=player_id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    player_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[File | Problem]:
    """A player's live notices across their games (Server-Sent Events or NDJSON)

     With the player's own token: a notice whenever one of their games needs them, so that a client
    follows all of a player's games on one connection (as Lichess's /api/stream/event): `game_joined`
    (the player took a seat), `game_started`, `your_turn` (the player's seat may act now), `game_ended`
    and `game_left` (their seat given up or taken from them), each a `PlayerNotice` with the game's id,
    kind, the player's seat, its status and seq. It begins with the games open or running now (the
    newest `DANGER_PLAYER_STREAM_GAMES`), each as it stands, so a reconnect needs no resume. A notice
    says what the game is when it is made: a turn that came and went before it is not told. Follow a
    game itself with streamEvents (`view=true`). With `Accept: application/x-ndjson`, one notice a line;
    comments (or empty lines) keep the line alive. It counts as one stream against the caps.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[File | Problem]
    """

    kwargs = _get_kwargs(
        player_id=player_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    player_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> File | Problem | None:
    """A player's live notices across their games (Server-Sent Events or NDJSON)

     With the player's own token: a notice whenever one of their games needs them, so that a client
    follows all of a player's games on one connection (as Lichess's /api/stream/event): `game_joined`
    (the player took a seat), `game_started`, `your_turn` (the player's seat may act now), `game_ended`
    and `game_left` (their seat given up or taken from them), each a `PlayerNotice` with the game's id,
    kind, the player's seat, its status and seq. It begins with the games open or running now (the
    newest `DANGER_PLAYER_STREAM_GAMES`), each as it stands, so a reconnect needs no resume. A notice
    says what the game is when it is made: a turn that came and went before it is not told. Follow a
    game itself with streamEvents (`view=true`). With `Accept: application/x-ndjson`, one notice a line;
    comments (or empty lines) keep the line alive. It counts as one stream against the caps.

    Args:
        player_id (str): The id returned by POST /v1/players.
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        File | Problem
    """

    return (
        await asyncio_detailed(
            player_id=player_id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
