"""`POST /v1/games/{id}/commands` answered beside Litestar's per-request machinery.

A command is most of what the service is asked, and Litestar's layers around its handler (the
router's lookup, the parameters' extraction and validation, the dependencies, the response's
rendering, two exception-handling layers) cost it more CPU than the game's own work
(docs/performance.md, "The command route"). Here a command whose request is plainly well
formed is served directly: its headers read in one pass, its body decoded strictly into the
command (service/wire/bodies.py), the client's rate limit taken, the command run, the answer
encoded as Litestar would. Everything else (a header or a body that is refused, a CORS
request, a body whose length is not given up front) goes to Litestar's route with the body
as it was received, so that every refusal is the route's own, word for word. The route stays
the one the spec documents; `tests/api/test_command_route.py` holds the two answers equal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar.serialization import encode_json

from service.http.games_api import _check_idempotency_key, _parse_if_match, _result, bearer
from service.http.guards.ratelimit import Limiter
from service.http.observe import COMMANDS_ROUTE
from service.http.play_api import wants_minimal
from service.http.problems import HANDLERS
from service.infra.errors import ApiError
from service.wire.bodies import decode
from service.wire.schemas import GameCommand

ASGI = Callable[[Any, Any, Any], Awaitable[None]]
PREFIX, SUFFIX = "/v1/games/", "/commands"
MAX_GAME_ID = 64  # the path parameter's bound in the spec (service/http/games_api.py, GameId)
MAX_IDEMPOTENCY_KEY, MAX_PREFER = 128, 256  # the header parameters' bounds in the spec
_READ = frozenset(
    {
        b"authorization",
        b"idempotency-key",
        b"if-match",
        b"prefer",
        b"content-type",
        b"content-length",
        b"transfer-encoding",
        b"origin",
    }
)
_JSON = [(b"content-type", b"application/json")]


def game_of(scope: Any) -> str | None:
    """The game a `POST /v1/games/{id}/commands` names, or None for any other request."""
    path: str = scope["path"]
    if scope["method"] != "POST" or not path.startswith(PREFIX) or not path.endswith(SUFFIX):
        return None
    game_id = path[len(PREFIX) : -len(SUFFIX)]
    if not 0 < len(game_id) <= MAX_GAME_ID or "/" in game_id:
        return None
    return game_id


class CommandRoute:
    """Serves the plainly well-formed commands; hands every other request to `app`."""

    def __init__(self, limiter: Limiter | None, max_body: int) -> None:
        self.limiter, self.max_body = limiter, max_body
        self.app: ASGI
        self.state: Any
        self.served = 0  # commands answered here rather than by the route

    def beside(self, app: ASGI, state: Any) -> CommandRoute:
        """This route in front of `app` (the Litestar app), with the app's state."""
        self.app, self.state = app, state
        return self

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        game_id = game_of(scope)
        headers = _headers(scope) if game_id is not None else None
        if headers is None or not self._plain(headers):
            await self.app(scope, receive, send)
            return
        length = int(headers[b"content-length"])
        received: list[Any] = []
        body = b""
        while True:
            message = await receive()
            received.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False) or len(body) > length:
                break
        command = self._parsed(received, body, length, headers)
        if command is None:
            await self.app(scope, _replay(received, receive), send)
            return
        token, key, if_match, full = command[1:]
        self.served += 1
        scope["path_template"] = COMMANDS_ROUTE  # as the route would: for the log and metrics
        scope["path_params"] = {"game_id": game_id}
        extra: list[tuple[bytes, bytes]] = []
        try:
            if self.limiter is not None:
                extra = await self._limit(scope)
            outcome = await self.state.service.command(
                game_id, token, command[0], key, if_match, full
            )
        except Exception as exc:
            await _problem(scope, receive, send, exc, extra)
            return
        if full:
            payload = encode_json(_result(outcome))
            start = [
                *_JSON,
                (b"content-length", str(len(payload)).encode()),
                *extra,
            ]
            await send({"type": "http.response.start", "status": 200, "headers": start})
            await send({"type": "http.response.body", "body": payload, "more_body": False})
            return
        minimal = [
            (b"etag", f'"{outcome.seq}"'.encode()),
            (b"preference-applied", b"return=minimal"),
            *extra,
        ]
        await send({"type": "http.response.start", "status": 204, "headers": minimal})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _plain(self, headers: dict[bytes, bytes]) -> bool:
        """Whether the headers are ones the route would surely take (else it answers)."""
        length = headers.get(b"content-length", b"")
        return (
            headers.get(b"content-type") == b"application/json"
            and b"origin" not in headers
            and b"transfer-encoding" not in headers
            and length.isdigit()
            and 0 < int(length) <= self.max_body
            and len(headers.get(b"idempotency-key", b"")) <= MAX_IDEMPOTENCY_KEY
            and len(headers.get(b"prefer", b"")) <= MAX_PREFER
        )

    def _parsed(
        self, received: list[Any], body: bytes, length: int, headers: dict[bytes, bytes]
    ) -> tuple[Any, str | None, str | None, int | None, bool] | None:
        """The command and its parameters, or None where the route is to answer."""
        if received[-1]["type"] != "http.request" or len(body) != length:
            return None
        text = {k.decode(): v.decode("latin-1") for k, v in headers.items()}
        try:
            command = decode(body, GameCommand)
            token = bearer(text.get("authorization"))
            key = _check_idempotency_key(text.get("idempotency-key"))
            if_match = _parse_if_match(text.get("if-match"))
        except (ApiError, RecursionError):
            return None
        return command, token, key, if_match, not wants_minimal(text.get("prefer"))

    async def _limit(self, scope: Any) -> list[tuple[bytes, bytes]]:
        """The client's command limit taken as service/http/guards/ratelimit.py's middleware takes
        it; the answer's fields (a refusal is raised with them)."""
        limiter = self.limiter
        rate = limiter.rates.command  # type: ignore[union-attr]
        if rate is None:
            return []
        return await limiter.admit(self.state.redis, scope, "command", rate)  # type: ignore[union-attr]


def _headers(scope: Any) -> dict[bytes, bytes] | None:
    """The headers the route reads, by name; None if one of them came twice."""
    found: dict[bytes, bytes] = {}
    for name, value in scope["headers"]:
        if name in _READ:
            if name in found:
                return None
            found[name] = value
    return found


def _replay(received: list[Any], receive: Any) -> Any:
    """`receive` with the messages already taken from it given again first."""
    pending = list(received)

    async def replayed() -> Any:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _problem(
    scope: Any, receive: Any, send: Any, exc: Exception, extra: list[tuple[bytes, bytes]]
) -> None:
    """The problem answer Litestar's exception handlers would give, with the limit's fields."""
    from litestar import Request

    handler = next(h for t, h in HANDLERS.items() if isinstance(exc, t))
    request: Request[Any, Any, Any] = Request(scope, receive)
    response = handler(request, exc)  # type: ignore[operator]
    asgi = response.to_asgi_response(None, request)
    headers_sent = False

    async def send_with(message: Any) -> None:
        nonlocal headers_sent
        if message["type"] == "http.response.start" and not headers_sent:
            headers_sent = True
            message["headers"] = [*message.get("headers", ()), *extra]
        await send(message)

    await asgi(scope, receive, send_with)
