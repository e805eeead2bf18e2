from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.new_seat_token import NewSeatToken
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    seat: int,
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
        "url": "/v1/games/{game_id}/players/{seat}/token".format(
            game_id=quote(str(game_id), safe=""),
            seat=quote(str(seat), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> NewSeatToken | Problem | None:
    if response.status_code == 201:
        response_201 = NewSeatToken.from_dict(response.json())

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
) -> Response[NewSeatToken | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[NewSeatToken | Problem]:
    """A new token for a seat

     With the seat's own token, until the game is over (a token it fears was seen); with the admin token,
    before the start only (for a player who lost theirs: once cards are dealt, a token the admin gave
    would show the admin the seat's hidden cards). The seat's old token stops working at once, and every
    seat sees `seat_token_reissued`. Each call gives another token (the last one given works). A seat
    asking for its own sends an `Idempotency-Key`: if the answer is lost, the same request again (the
    same key, the old token) answers the new token again, and the old token opens nothing else.

    Args:
        game_id (str): The id returned by POST /v1/games.
        seat (int): The seat, from 0.
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
        Response[NewSeatToken | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        seat=seat,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> NewSeatToken | Problem | None:
    """A new token for a seat

     With the seat's own token, until the game is over (a token it fears was seen); with the admin token,
    before the start only (for a player who lost theirs: once cards are dealt, a token the admin gave
    would show the admin the seat's hidden cards). The seat's old token stops working at once, and every
    seat sees `seat_token_reissued`. Each call gives another token (the last one given works). A seat
    asking for its own sends an `Idempotency-Key`: if the answer is lost, the same request again (the
    same key, the old token) answers the new token again, and the old token opens nothing else.

    Args:
        game_id (str): The id returned by POST /v1/games.
        seat (int): The seat, from 0.
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
        NewSeatToken | Problem
    """

    return sync_detailed(
        game_id=game_id,
        seat=seat,
        client=client,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[NewSeatToken | Problem]:
    """A new token for a seat

     With the seat's own token, until the game is over (a token it fears was seen); with the admin token,
    before the start only (for a player who lost theirs: once cards are dealt, a token the admin gave
    would show the admin the seat's hidden cards). The seat's old token stops working at once, and every
    seat sees `seat_token_reissued`. Each call gives another token (the last one given works). A seat
    asking for its own sends an `Idempotency-Key`: if the answer is lost, the same request again (the
    same key, the old token) answers the new token again, and the old token opens nothing else.

    Args:
        game_id (str): The id returned by POST /v1/games.
        seat (int): The seat, from 0.
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
        Response[NewSeatToken | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        seat=seat,
        idempotency_key=idempotency_key,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    idempotency_key: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> NewSeatToken | Problem | None:
    """A new token for a seat

     With the seat's own token, until the game is over (a token it fears was seen); with the admin token,
    before the start only (for a player who lost theirs: once cards are dealt, a token the admin gave
    would show the admin the seat's hidden cards). The seat's old token stops working at once, and every
    seat sees `seat_token_reissued`. Each call gives another token (the last one given works). A seat
    asking for its own sends an `Idempotency-Key`: if the answer is lost, the same request again (the
    same key, the old token) answers the new token again, and the old token opens nothing else.

    Args:
        game_id (str): The id returned by POST /v1/games.
        seat (int): The seat, from 0.
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
        NewSeatToken | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            seat=seat,
            client=client,
            idempotency_key=idempotency_key,
            x_request_id=x_request_id,
        )
    ).parsed
