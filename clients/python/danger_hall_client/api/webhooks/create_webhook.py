from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.webhook_in import WebhookIn
from ...models.webhook_out import WebhookOut
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: WebhookIn,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | WebhookOut | None:
    if response.status_code == 201:
        response_201 = WebhookOut.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Problem | WebhookOut]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookIn,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | WebhookOut]:
    """Hear of this key's games at a URL

     A new endpoint of the app key sent: deliveries of the event types named, for the games the key
    created and the games of the players it registered (of the kinds named, or every kind), each signed
    as Standard Webhooks asks with the secret answered here, shown only now. The URL is http(s), and
    every address its host resolves to is on the internet (loopback and private networks only where the
    server allows them, DANGER_WEBHOOK_PRIVATE). An endpoint hears nothing from before it was made. At
    most DANGER_WEBHOOKS_PER_KEY (10) per key.

    Args:
        x_request_id (str | Unset):
        body (WebhookIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookOut]
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
    client: AuthenticatedClient,
    body: WebhookIn,
    x_request_id: str | Unset = UNSET,
) -> Problem | WebhookOut | None:
    """Hear of this key's games at a URL

     A new endpoint of the app key sent: deliveries of the event types named, for the games the key
    created and the games of the players it registered (of the kinds named, or every kind), each signed
    as Standard Webhooks asks with the secret answered here, shown only now. The URL is http(s), and
    every address its host resolves to is on the internet (loopback and private networks only where the
    server allows them, DANGER_WEBHOOK_PRIVATE). An endpoint hears nothing from before it was made. At
    most DANGER_WEBHOOKS_PER_KEY (10) per key.

    Args:
        x_request_id (str | Unset):
        body (WebhookIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookOut
    """

    return sync_detailed(
        client=client,
        body=body,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WebhookIn,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | WebhookOut]:
    """Hear of this key's games at a URL

     A new endpoint of the app key sent: deliveries of the event types named, for the games the key
    created and the games of the players it registered (of the kinds named, or every kind), each signed
    as Standard Webhooks asks with the secret answered here, shown only now. The URL is http(s), and
    every address its host resolves to is on the internet (loopback and private networks only where the
    server allows them, DANGER_WEBHOOK_PRIVATE). An endpoint hears nothing from before it was made. At
    most DANGER_WEBHOOKS_PER_KEY (10) per key.

    Args:
        x_request_id (str | Unset):
        body (WebhookIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookOut]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WebhookIn,
    x_request_id: str | Unset = UNSET,
) -> Problem | WebhookOut | None:
    """Hear of this key's games at a URL

     A new endpoint of the app key sent: deliveries of the event types named, for the games the key
    created and the games of the players it registered (of the kinds named, or every kind), each signed
    as Standard Webhooks asks with the secret answered here, shown only now. The URL is http(s), and
    every address its host resolves to is on the internet (loopback and private networks only where the
    server allows them, DANGER_WEBHOOK_PRIVATE). An endpoint hears nothing from before it was made. At
    most DANGER_WEBHOOKS_PER_KEY (10) per key.

    Args:
        x_request_id (str | Unset):
        body (WebhookIn):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookOut
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_request_id=x_request_id,
        )
    ).parsed
