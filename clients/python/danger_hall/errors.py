"""A refusal as an exception: `DangerError` carries the problem details the service answered
(RFC 9457: `status`, `code`, `detail`), and its subclass says what kind of refusal it was, so
that a caller catches `NotFound` or `Conflict` rather than testing numbers. `code` is the
finer answer (`not_your_turn`, `game_full`, ...): the spec lists each operation's, by status."""

from __future__ import annotations

import json
from typing import Any

import httpx

from danger_hall_extras.retry import retry_after


class DangerError(Exception):
    """The service refused a request. `problem` holds the whole answer as sent (fields beyond
    `status`, `code` and `detail`, such as `seq`), `retry_after` its Retry-After in seconds."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        problem: dict[str, Any] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status, self.code, self.detail = status, code, detail
        self.problem = problem or {}
        self.retry_after = retry_after


class BadRequest(DangerError):
    """400 or 413/415/422: the request itself is wrong; sent again it fails again."""


class Unauthorized(DangerError):
    """401: no token, or not one this service issued for this (`token_invalid`, `key_revoked`)."""


class Forbidden(DangerError):
    """403: the token is good but may not do this (`admin_only`, `seat_only`)."""


class NotFound(DangerError):
    """404: no such game, player, round or event."""


class Conflict(DangerError):
    """409/412: the game's state refuses it now (`not_your_turn`, `game_full`, `stale_seq`): read
    the game (or its stream) and decide again."""


class RateLimited(DangerError):
    """429 that outlasted the client's retries (`rate_limited`, `too_many_streams`)."""


class Unavailable(DangerError):
    """503 that outlasted the client's retries (`store_unavailable`, `not_replicated`, ...):
    a write may or may not have been applied, and sent again under its Idempotency-Key it is
    applied once."""


BY_STATUS: dict[int, type[DangerError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    412: Conflict,
    413: BadRequest,
    415: BadRequest,
    422: BadRequest,
    429: RateLimited,
    503: Unavailable,
}


def error_of(response: httpx.Response) -> DangerError:
    """The exception for a refusal; an answer that holds no problem details (a proxy's page)
    still becomes one, its code `http_<status>`."""
    try:
        problem = json.loads(response.content)
    except ValueError:
        problem = None
    if not isinstance(problem, dict):
        problem = None
    status = response.status_code
    code = str(problem.get("code", "")) if problem else ""
    detail = str(problem.get("detail", "")) if problem else ""
    kind = BY_STATUS.get(status, DangerError)
    return kind(
        status,
        code or f"http_{status}",
        detail or response.text[:200] or response.reason_phrase,
        problem,
        retry_after(response.headers.get("Retry-After")),
    )
