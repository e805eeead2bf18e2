"""The parameters of API v1's operations, with their bounds, and the security schemes: one
definition each, read by the Litestar routes and by the command route beside them
(service/http/command_route.py)."""

from __future__ import annotations

from typing import Annotated

from litestar import Request
from litestar.di import NamedDependency
from litestar.openapi.spec import Reference, SecurityScheme
from litestar.params import HeaderParameter, PathParameter

from service.http.guards.app_keys import looks_like_key
from service.infra.errors import ApiError
from service.play.games import GameService

MAX_GAME_ID = 64
MAX_IDEMPOTENCY_KEY = 128
MAX_PREFER = 256
MAX_SEQ = 2**53

GameId = Annotated[
    str,
    PathParameter(
        title="game_id", description="The id returned by POST /v1/games.", max_length=MAX_GAME_ID
    ),
]
IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        max_length=MAX_IDEMPOTENCY_KEY,
        description="A retry with the same key and body returns the first answer (kept 24 h, "
        "DANGER_IDEMPOTENCY_HOURS) and changes nothing; the same key with another body, or on "
        "a command another If-Match, is 422 `idempotency_key_reused`. A key is its client's "
        "(create, join) or its token's (start, abandon, commands), within the game: send a "
        "random one (a UUID) per request.",
    ),
]
Service = NamedDependency[GameService]
# The bearer token of the request, or None (`Authorization: Bearer <token>`, read by
# `bearer_token`): documented as each operation's `security`, not as a header parameter,
# which OpenAPI tools ignore for Authorization.
Token = NamedDependency[str | None]
SECURITY_SCHEMES: dict[str, SecurityScheme | Reference] = {
    "seatToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="A seat's token, returned once by joinGame (`token`): the seat reads its "
        "own cards and sends its commands.",
    ),
    "playerToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="A registered player's token (`dhp_...`), returned once by "
        "registerPlayer: sent with a join, it credits the seat to the player; sent with a "
        "read of the player's games, it lists their private games too.",
    ),
    "appKey": SecurityScheme(
        type="http",
        scheme="bearer",
        description="An app key (`dhk_...`), made by the operator with `danger keys create`: "
        "needed to create games when the server runs with DANGER_AUTH=keys; a create or join "
        "that carries one counts against the key's limits, not the address's. A read that "
        "carries one reads as anyone does (a spectator): an app may send its key with every "
        "request.",
    ),
    "adminToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="The game's admin token, returned once by createGame (`admin_token`): "
        "starts or abandons the game; it reads the game as a spectator does.",
    ),
    "operatorToken": SecurityScheme(
        type="http",
        scheme="bearer",
        description="The operators' token, DANGER_METRICS_TOKEN: a fresh /health (and "
        "/metrics, outside the spec) where the metrics are not open on this port.",
    ),
}
SEAT: list[dict[str, list[str]]] = [{"seatToken": []}]
ADMIN: list[dict[str, list[str]]] = [{"adminToken": []}]
READER: list[dict[str, list[str]]] = [
    {"seatToken": []},
    {"adminToken": []},
    {"appKey": []},
    {},
]
READS = frozenset({"GET", "HEAD"})
Prefer = Annotated[
    str | None,
    HeaderParameter(
        name="Prefer",
        required=False,
        max_length=MAX_PREFER,
        description="`return=minimal` (RFC 7240): answer 204 with the game's new seq in `ETag` "
        "and no body, for a client that follows the game's stream and has the events and its "
        "view from there. Cheaper for both sides. Other preferences are ignored.",
    ),
]


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "token_invalid", "Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def bearer_token(request: Request, service: Service) -> str | None:
    """The request's bearer token (the app's `token` dependency). It names `service` so that
    Litestar resolves the two one after the other: two dependencies of one level are resolved
    concurrently, in an anyio task group of their own, which cost more than both together
    (docs/performance.md, "What a command costs, counted"). An app key on a read is no
    token: it says which app asks, not who sits where, and a read needs no one to sit."""
    token = bearer(request.headers.get("authorization"))
    if looks_like_key(token) and request.method in READS:
        return None
    return token


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    seq = seq_number(value.strip().removeprefix("W/").strip('"'))
    if seq is None:
        raise ApiError(400, "invalid_if_match", "If-Match takes the game's seq, e.g. If-Match: 12.")
    return seq


def seq_number(text: str) -> int | None:
    """A seq as a client may write it: 1 to 16 ASCII digits (isdigit() alone admits "²")."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 16 else None


def check_idempotency_key(value: str | None) -> str | None:
    printable = value is not None and value.isascii() and value.isprintable()
    if value is not None and not (0 < len(value) <= MAX_IDEMPOTENCY_KEY and printable):
        raise ApiError(400, "invalid_idempotency_key", "Idempotency-Key: 1-128 printable chars.")
    return value


def wants_minimal(prefer: str | None) -> bool:
    """Whether a `Prefer` header (RFC 7240: comma-separated preferences, tokens compared
    without regard to case, a value possibly quoted) asks for `return=minimal`."""
    if not prefer:
        return False
    for preference in prefer.split(","):
        name, _, value = preference.split(";", 1)[0].partition("=")
        if name.strip().lower() == "return":
            return value.strip().strip('"').lower() == "minimal"
    return False
