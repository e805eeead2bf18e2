"""Every error leaves as RFC 9457 `application/problem+json` with a stable `code`."""

from __future__ import annotations

import logging

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from redis.exceptions import ClusterDownError, TryAgainError
from redis.exceptions import ConnectionError as StoreConnectionError
from redis.exceptions import TimeoutError as StoreTimeoutError

from events.store import Unconfirmed
from service.infra.errors import TITLES, ApiError
from service.wire.schemas import Problem

log = logging.getLogger("danger.api")
MEDIA = "application/problem+json"

_HTTP_CODES = {
    400: "invalid_body",  # Litestar's own 400s are bodies it could not parse
    401: "token_missing",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}


def problem(
    status: int,
    code: str,
    detail: str,
    seq: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response[Problem]:
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": www_authenticate(code)}
    return Response(
        body(status, code, detail, seq), status_code=status, media_type=MEDIA, headers=headers
    )


def body(status: int, code: str, detail: str, seq: int | None = None) -> Problem:
    """The problem details of an answer; the spec's examples are made by it too."""
    return Problem(
        type=f"https://danger-hall.invalid/problems/{code}",
        title=TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        code=code,
        seq=seq,
    )


def www_authenticate(code: str) -> str:
    """The challenge of a 401 (RFC 6750): a bearer token, and whether the one sent was bad
    (no error when none was sent)."""
    challenge = 'Bearer realm="danger-hall"'
    if code == "token_invalid":
        challenge += ', error="invalid_token"'
    return challenge


def api_error(_: Request, exc: ApiError) -> Response[Problem]:
    return problem(exc.status, exc.code, exc.detail, exc.extra.get("seq"), exc.extra.get("headers"))


def http_error(_: Request, exc: HTTPException) -> Response[Problem]:
    if isinstance(exc, ValidationException):
        extra = "; ".join(
            f"{e.get('key', '')}: {e.get('message', '')}".strip(": ")
            for e in (exc.extra or [])
            if isinstance(e, dict)
        )
        detail = f"{exc.detail}{': ' + extra if extra else ''}"
        sources = {str(e.get("source", "body")) for e in (exc.extra or []) if isinstance(e, dict)}
        # Litestar names a missing parameter (a replay without `seq`) in the detail alone,
        # with no source: it is not the body's fault.
        missing = not exc.extra and str(exc.detail).startswith("Missing required ")
        in_body = sources <= {"body"} and not missing
        return problem(400, "invalid_body" if in_body else "invalid_parameter", detail)
    code = _HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}")
    return problem(exc.status_code, code, str(exc.detail), headers=dict(exc.headers or {}))


def too_deep(_: Request, exc: RecursionError) -> Response[Problem]:
    """msgspec refuses JSON nested deeper than the interpreter's recursion limit."""
    return problem(400, "invalid_body", "The body is nested too deeply to be a request.")


def not_replicated(_: Request, exc: Unconfirmed) -> Response[Problem]:
    """The append is on the primary, but fewer replicas than `DANGER_DURABILITY=replicas:N`
    asks confirmed it in time: it is not acknowledged, and may or may not be kept."""
    return problem(
        503,
        "not_replicated",
        f"The command was written but not confirmed by enough replicas ({exc}), so it may "
        "or may not be kept. Retry with the same Idempotency-Key: you get its answer once "
        "the replicas confirm it, and it is never applied twice. Without a key, the same "
        "body sent again from the same seat gets this command's result while nothing else "
        "has happened in the game.",
        headers={"Retry-After": "1"},
    )


def store_unavailable(_: Request, exc: Exception) -> Response[Problem]:
    """The store is away (a restart, a failover, a full connection pool): the request is not
    the server's failure, and a retry soon may well succeed."""
    log.warning("the store could not be reached: %s", exc)
    return problem(
        503,
        "store_unavailable",
        "The store cannot be reached now; retry shortly. A write may or may not have been "
        "applied: retry it with the same Idempotency-Key, or read the game first.",
        headers={"Retry-After": "1"},
    )


def unexpected(_: Request, exc: Exception) -> Response[Problem]:
    log.exception("unhandled error", exc_info=exc)
    return problem(500, "internal", "The server failed; the request changed nothing it reports.")


HANDLERS = {
    ApiError: api_error,
    Unconfirmed: not_replicated,
    StoreConnectionError: store_unavailable,
    StoreTimeoutError: store_unavailable,
    # A cluster node refusing while a failover is under way: nothing was done.
    ClusterDownError: store_unavailable,
    TryAgainError: store_unavailable,
    HTTPException: http_error,
    RecursionError: too_deep,
    Exception: unexpected,
}


def responses(*statuses: int, **meanings: str) -> dict[int, ResponseSpec]:
    """The problem answers of an operation; `meanings` (`s422="..."`) replace the general
    description of a status where the operation means something narrower by it. Every
    operation under /v1 may answer 429 (service/http/guards/ratelimit.py) and, while the store is
    away, 503 `store_unavailable`: both are always listed, and 415 beside 413. Each description is
    a lead: the spec lists after it the codes the operation answers with the status
    (service/spec/error_codes.py), each with an example (service/spec/spec_examples.py), applied by
    service/spec/openapi_spec.py."""
    meaning = {
        400: "The request is malformed or invalid; `code` names what.",
        401: "A token is needed, or the one sent is not valid here.",
        403: "The token sent may not do this.",
        404: "What the path names does not exist.",
        409: "The game's state or its rules forbid it now; `code` names the rule.",
        412: "`If-Match` named a seq the game has moved past; `seq` is the game's.",
        413: "The body is larger than this operation takes.",
        415: "The body is of a media type this operation does not take.",
        422: "Well-formed, but refused as it stands; `code` names why.",
        429: "Too many requests of this kind from this client: wait `Retry-After` seconds. "
        "`RateLimit` and `RateLimit-Policy` describe the limit.",
        503: "Not now: retry, after `Retry-After` seconds where it is sent. A write may or "
        "may not have been applied: retry it with the same Idempotency-Key, or read the "
        "game first.",
    }
    meaning.update({int(key[1:]): text for key, text in meanings.items()})
    # An operation that takes a body (it may be too large) takes it as one media type only.
    media = {415} if 413 in statuses else set()
    return {
        s: ResponseSpec(Problem, description=meaning[s], media_type=MEDIA, generate_examples=False)
        for s in sorted({*statuses, *media, 429, 503})
    }
