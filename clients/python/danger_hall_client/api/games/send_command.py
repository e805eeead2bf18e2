from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.accept import Accept
from ...models.command_result import CommandResult
from ...models.draw import Draw
from ...models.draw_card import DrawCard
from ...models.end_turn import EndTurn
from ...models.give import Give
from ...models.go_out import GoOut
from ...models.new_stack import NewStack
from ...models.pick import Pick
from ...models.play import Play
from ...models.play_card import PlayCard
from ...models.problem import Problem
from ...models.protect import Protect
from ...models.refuse import Refuse
from ...models.swap import Swap
from ...models.take_discard import TakeDiscard
from ...models.trash import Trash
from ...types import UNSET, Response, Unset


def _get_kwargs(
    game_id: str,
    *,
    body: Accept
    | Draw
    | DrawCard
    | EndTurn
    | Give
    | GoOut
    | NewStack
    | Pick
    | Play
    | PlayCard
    | Protect
    | Refuse
    | Swap
    | TakeDiscard
    | Trash,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    if not isinstance(prefer, Unset):
        headers["Prefer"] = prefer

    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{game_id}/commands".format(
            game_id=quote(str(game_id), safe=""),
        ),
    }

    if isinstance(body, Draw):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, TakeDiscard):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Protect):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, EndTurn):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Pick):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Play):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Give):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Refuse):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Accept):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, DrawCard):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, PlayCard):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, NewStack):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Swap):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Trash):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | CommandResult | Problem | None:
    if response.status_code == 200:
        response_200 = CommandResult.from_dict(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

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


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | CommandResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept
    | Draw
    | DrawCard
    | EndTurn
    | Give
    | GoOut
    | NewStack
    | Pick
    | Play
    | PlayCard
    | Protect
    | Refuse
    | Swap
    | TakeDiscard
    | Trash,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | CommandResult | Problem]:
    """Send a game command

     The body is one of the game's commands, tagged by `type`; `legal` in GET /v1/games/{id} lists the
    ones allowed now. `Idempotency-Key` makes a retry safe; `If-Match: <seq>` refuses the command if the
    game has moved on.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        if_match (str | Unset): The seq the command was decided against; 412 if it moved on.
        prefer (str | Unset): `return=minimal` (RFC 7240): answer 204 with the game's new seq in
            `ETag` and no body, for a client that follows the game's stream and has the events and its
            view from there. Cheaper for both sides. Other preferences are ignored.
        x_request_id (str | Unset):
        body (Accept | Draw | DrawCard | EndTurn | Give | GoOut | NewStack | Pick | Play |
            PlayCard | Protect | Refuse | Swap | TakeDiscard | Trash):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CommandResult | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        prefer=prefer,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept
    | Draw
    | DrawCard
    | EndTurn
    | Give
    | GoOut
    | NewStack
    | Pick
    | Play
    | PlayCard
    | Protect
    | Refuse
    | Swap
    | TakeDiscard
    | Trash,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Any | CommandResult | Problem | None:
    """Send a game command

     The body is one of the game's commands, tagged by `type`; `legal` in GET /v1/games/{id} lists the
    ones allowed now. `Idempotency-Key` makes a retry safe; `If-Match: <seq>` refuses the command if the
    game has moved on.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        if_match (str | Unset): The seq the command was decided against; 412 if it moved on.
        prefer (str | Unset): `return=minimal` (RFC 7240): answer 204 with the game's new seq in
            `ETag` and no body, for a client that follows the game's stream and has the events and its
            view from there. Cheaper for both sides. Other preferences are ignored.
        x_request_id (str | Unset):
        body (Accept | Draw | DrawCard | EndTurn | Give | GoOut | NewStack | Pick | Play |
            PlayCard | Protect | Refuse | Swap | TakeDiscard | Trash):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CommandResult | Problem
    """

    return sync_detailed(
        game_id=game_id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        prefer=prefer,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept
    | Draw
    | DrawCard
    | EndTurn
    | Give
    | GoOut
    | NewStack
    | Pick
    | Play
    | PlayCard
    | Protect
    | Refuse
    | Swap
    | TakeDiscard
    | Trash,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Any | CommandResult | Problem]:
    """Send a game command

     The body is one of the game's commands, tagged by `type`; `legal` in GET /v1/games/{id} lists the
    ones allowed now. `Idempotency-Key` makes a retry safe; `If-Match: <seq>` refuses the command if the
    game has moved on.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        if_match (str | Unset): The seq the command was decided against; 412 if it moved on.
        prefer (str | Unset): `return=minimal` (RFC 7240): answer 204 with the game's new seq in
            `ETag` and no body, for a client that follows the game's stream and has the events and its
            view from there. Cheaper for both sides. Other preferences are ignored.
        x_request_id (str | Unset):
        body (Accept | Draw | DrawCard | EndTurn | Give | GoOut | NewStack | Pick | Play |
            PlayCard | Protect | Refuse | Swap | TakeDiscard | Trash):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CommandResult | Problem]
    """

    kwargs = _get_kwargs(
        game_id=game_id,
        body=body,
        idempotency_key=idempotency_key,
        if_match=if_match,
        prefer=prefer,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    game_id: str,
    *,
    client: AuthenticatedClient,
    body: Accept
    | Draw
    | DrawCard
    | EndTurn
    | Give
    | GoOut
    | NewStack
    | Pick
    | Play
    | PlayCard
    | Protect
    | Refuse
    | Swap
    | TakeDiscard
    | Trash,
    idempotency_key: str | Unset = UNSET,
    if_match: str | Unset = UNSET,
    prefer: str | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Any | CommandResult | Problem | None:
    """Send a game command

     The body is one of the game's commands, tagged by `type`; `legal` in GET /v1/games/{id} lists the
    ones allowed now. `Idempotency-Key` makes a retry safe; `If-Match: <seq>` refuses the command if the
    game has moved on.

    Args:
        game_id (str): The id returned by POST /v1/games.
        idempotency_key (str | Unset): A retry with the same key and body returns the first answer
            (kept 24 h, DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body,
            or on a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's
            (create, join) or its token's (start, abandon, commands), within the game: send a random
            one (a UUID) per request.
        if_match (str | Unset): The seq the command was decided against; 412 if it moved on.
        prefer (str | Unset): `return=minimal` (RFC 7240): answer 204 with the game's new seq in
            `ETag` and no body, for a client that follows the game's stream and has the events and its
            view from there. Cheaper for both sides. Other preferences are ignored.
        x_request_id (str | Unset):
        body (Accept | Draw | DrawCard | EndTurn | Give | GoOut | NewStack | Pick | Play |
            PlayCard | Protect | Refuse | Swap | TakeDiscard | Trash):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CommandResult | Problem
    """

    return (
        await asyncio_detailed(
            game_id=game_id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
            if_match=if_match,
            prefer=prefer,
            x_request_id=x_request_id,
        )
    ).parsed
