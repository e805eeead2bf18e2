from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delivery_out import DeliveryOut
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    webhook_id: str,
    delivery_id: str,
    *,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/replay".format(
            webhook_id=quote(str(webhook_id), safe=""),
            delivery_id=quote(str(delivery_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeliveryOut | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveryOut.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

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
) -> Response[DeliveryOut | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[DeliveryOut | Problem]:
    """Send a finished delivery again

     A delivery delivered or given up, queued again at the end of the endpoint's queue, with the same
    `webhook-id`.

    Args:
        webhook_id (str): A webhook's id.
        delivery_id (str): A delivery's id (its `webhook-id`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOut | Problem]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        x_request_id=x_request_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> DeliveryOut | Problem | None:
    """Send a finished delivery again

     A delivery delivered or given up, queued again at the end of the endpoint's queue, with the same
    `webhook-id`.

    Args:
        webhook_id (str): A webhook's id.
        delivery_id (str): A delivery's id (its `webhook-id`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOut | Problem
    """

    return sync_detailed(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        client=client,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> Response[DeliveryOut | Problem]:
    """Send a finished delivery again

     A delivery delivered or given up, queued again at the end of the endpoint's queue, with the same
    `webhook-id`.

    Args:
        webhook_id (str): A webhook's id.
        delivery_id (str): A delivery's id (its `webhook-id`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeliveryOut | Problem]
    """

    kwargs = _get_kwargs(
        webhook_id=webhook_id,
        delivery_id=delivery_id,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    webhook_id: str,
    delivery_id: str,
    *,
    client: AuthenticatedClient,
    x_request_id: str | Unset = UNSET,
) -> DeliveryOut | Problem | None:
    """Send a finished delivery again

     A delivery delivered or given up, queued again at the end of the endpoint's queue, with the same
    `webhook-id`.

    Args:
        webhook_id (str): A webhook's id.
        delivery_id (str): A delivery's id (its `webhook-id`).
        x_request_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeliveryOut | Problem
    """

    return (
        await asyncio_detailed(
            webhook_id=webhook_id,
            delivery_id=delivery_id,
            client=client,
            x_request_id=x_request_id,
        )
    ).parsed
