"""`POST /v1/audit`: the audit of an exported log sent in the request, exactly as
`danger audit FILE` checks it, for whoever holds an export and not the tools (the web
client's audit page). Nothing is stored: the answer is computed in the process pool for
audits (service/play/offload.py) and forgotten."""

from __future__ import annotations

import msgspec
from litestar import Request, post
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Response

from service.http.answers import (
    offloaded,
)
from service.http.problems import responses
from service.infra.errors import ApiError
from service.play import offload
from service.wire.bodies import decode
from service.wire.schemas import AuditReport, AuditUpload

MEDIA_TYPES = ("application/x-ndjson", "application/jsonl", "text/plain")
"""Accepted bodies: what `GET .../export` answers, and the names other tools give it."""
WITH_RECEIPTS = "application/json"
"""The export and the receipts a client kept, as one JSON object (AuditUpload)."""


def upload_handler(max_bytes: int) -> HTTPRouteHandler:
    """The handler, bounded to `max_bytes` of export (DANGER_AUDIT_UPLOAD_MB)."""

    @post(
        "/v1/audit",
        operation_id="auditExport",
        tags=["audit"],
        summary="Check an exported log",
        description="The body is a game's export (`GET /v1/games/{id}/export`, JSON Lines, "
        "one envelope a line), or, as `application/json`, the export with the receipts the "
        'client kept (`{"export": ..., "receipts": [...]}`). The answer is the audit '
        "`danger audit FILE` gives: the hash chain, the seed against its commitment, every "
        "shuffle, every command decided again, every score, and with receipts a check "
        "`receipts`: each signed by a key GET /v1/keys lists, each naming the hash the export "
        "has at its seq (else the log was rewritten after the service acknowledged it). A "
        "line that is not an event fails `hash_chain` at that line. Nothing is stored. At "
        f"most {max_bytes // 2**20} MiB (DANGER_AUDIT_UPLOAD_MB).",
        request_max_body_size=max_bytes,
        status_code=200,
        responses={
            200: ResponseSpec(
                data_container=AuditReport, description="The report, passing or failing."
            ),
            **responses(
                400,
                413,
                415,
                s400="No export in the body, or a JSON body that is not an export with receipts.",
                s413=f"The export is larger than {max_bytes // 2**20} MiB.",
                s415="A body that is not JSON Lines.",
            ),
        },
        include_in_schema=True,
    )
    async def audit_export(request: Request) -> Response[bytes]:
        media = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media not in (*MEDIA_TYPES, WITH_RECEIPTS):
            raise ApiError(
                415,
                "unsupported_media_type",
                f"Send the export as {MEDIA_TYPES[0]}, one event a line, or with receipts as "
                f"{WITH_RECEIPTS} (not {media or 'none'}).",
            )
        data = await request.body()
        receipts, keys = None, None
        if media == WITH_RECEIPTS:
            upload = decode(data, AuditUpload)
            data = upload.export.encode()
            receipts = [msgspec.to_builtins(r) for r in upload.receipts]
            listed = await request.app.state.receipts.listed(request.app.state.redis)
            keys = {k.id: k.public_key for k in listed.keys}
        if not data.strip():
            raise ApiError(400, "empty_export", "The body holds no event: send a game's export.")
        report = await offloaded(request, offload.audit_of_export, data, receipts, keys)
        return Response(report, media_type="application/json")

    return audit_export
