from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_export_json_body import AuditExportJsonBody
from ...models.problem import Problem
from ...models.report import Report
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: AuditExportJsonBody | File | File | File | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_request_id, Unset):
        headers["X-Request-ID"] = x_request_id

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/audit",
    }

    if isinstance(body, AuditExportJsonBody):
        _kwargs["json"] = body.to_dict()

        headers["Content-Type"] = "application/json"
    if isinstance(body, File):
        _kwargs["content"] = body.payload
        headers["Content-Type"] = "application/jsonl"
    if isinstance(body, File):
        _kwargs["content"] = body.payload
        headers["Content-Type"] = "application/x-ndjson"
    if isinstance(body, File):
        _kwargs["content"] = body.payload
        headers["Content-Type"] = "text/plain"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Report | None:
    if response.status_code == 200:
        response_200 = Report.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Report]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AuditExportJsonBody | File | File | File | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | Report]:
    """Check an exported log

     The body is a game's export (`GET /v1/games/{id}/export`, JSON Lines, one envelope a line), or, as
    `application/json`, the export with the receipts the client kept (`{"export": ..., "receipts":
    [...]}`). The answer is the audit `danger audit FILE` gives: the hash chain, the seed against its
    commitment, every shuffle, every command decided again, every score, and with receipts a check
    `receipts`: each signed by a key GET /v1/keys lists, each naming the hash the export has at its seq
    (else the log was rewritten after the service acknowledged it). A line that is not an event fails
    `hash_chain` at that line. Nothing is stored. At most 8 MiB (DANGER_AUDIT_UPLOAD_MB).

    Args:
        x_request_id (str | Unset):
        body (AuditExportJsonBody):
        body (File):
        body (File):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Report]
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
    client: AuthenticatedClient | Client,
    body: AuditExportJsonBody | File | File | File | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Problem | Report | None:
    """Check an exported log

     The body is a game's export (`GET /v1/games/{id}/export`, JSON Lines, one envelope a line), or, as
    `application/json`, the export with the receipts the client kept (`{"export": ..., "receipts":
    [...]}`). The answer is the audit `danger audit FILE` gives: the hash chain, the seed against its
    commitment, every shuffle, every command decided again, every score, and with receipts a check
    `receipts`: each signed by a key GET /v1/keys lists, each naming the hash the export has at its seq
    (else the log was rewritten after the service acknowledged it). A line that is not an event fails
    `hash_chain` at that line. Nothing is stored. At most 8 MiB (DANGER_AUDIT_UPLOAD_MB).

    Args:
        x_request_id (str | Unset):
        body (AuditExportJsonBody):
        body (File):
        body (File):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Report
    """

    return sync_detailed(
        client=client,
        body=body,
        x_request_id=x_request_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: AuditExportJsonBody | File | File | File | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Response[Problem | Report]:
    """Check an exported log

     The body is a game's export (`GET /v1/games/{id}/export`, JSON Lines, one envelope a line), or, as
    `application/json`, the export with the receipts the client kept (`{"export": ..., "receipts":
    [...]}`). The answer is the audit `danger audit FILE` gives: the hash chain, the seed against its
    commitment, every shuffle, every command decided again, every score, and with receipts a check
    `receipts`: each signed by a key GET /v1/keys lists, each naming the hash the export has at its seq
    (else the log was rewritten after the service acknowledged it). A line that is not an event fails
    `hash_chain` at that line. Nothing is stored. At most 8 MiB (DANGER_AUDIT_UPLOAD_MB).

    Args:
        x_request_id (str | Unset):
        body (AuditExportJsonBody):
        body (File):
        body (File):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Report]
    """

    kwargs = _get_kwargs(
        body=body,
        x_request_id=x_request_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: AuditExportJsonBody | File | File | File | Unset = UNSET,
    x_request_id: str | Unset = UNSET,
) -> Problem | Report | None:
    """Check an exported log

     The body is a game's export (`GET /v1/games/{id}/export`, JSON Lines, one envelope a line), or, as
    `application/json`, the export with the receipts the client kept (`{"export": ..., "receipts":
    [...]}`). The answer is the audit `danger audit FILE` gives: the hash chain, the seed against its
    commitment, every shuffle, every command decided again, every score, and with receipts a check
    `receipts`: each signed by a key GET /v1/keys lists, each naming the hash the export has at its seq
    (else the log was rewritten after the service acknowledged it). A line that is not an event fails
    `hash_chain` at that line. Nothing is stored. At most 8 MiB (DANGER_AUDIT_UPLOAD_MB).

    Args:
        x_request_id (str | Unset):
        body (AuditExportJsonBody):
        body (File):
        body (File):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Report
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_request_id=x_request_id,
        )
    ).parsed
