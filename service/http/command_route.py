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

What the two routes share is defined once: the parameters' bounds (service/http/params.py),
the request and the answer (service/http/commands.py), and the middleware, which the app
hands to both (service/assembly/app.py): a command served here passes through the same
middleware, in the same order, as one the route serves.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from litestar.types import Middleware

from service.http.commands import JSON, answer, seat_command
from service.http.observe import COMMANDS_ROUTE
from service.http.params import MAX_GAME_ID, MAX_IDEMPOTENCY_KEY, MAX_PREFER, bearer
from service.http.problems import HANDLERS
from service.infra.errors import ApiError
from service.play.games import SeatCommand
from service.wire.bodies import decode
from service.wire.schemas import GameCommand

ASGI = Callable[[Any, Any, Any], Awaitable[None]]
PREFIX, SUFFIX = "/v1/games/", "/commands"
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
_JSON = [(b"content-type", JSON)]
_ASKED = "danger.command"  # the parsed request, from the route to its handler


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

    def __init__(self, max_body: int, middleware: list[Middleware]) -> None:
        self.max_body = max_body
        self.middleware = middleware
        self.app: ASGI
        self._served: ASGI = self._command
        self.served = 0  # commands answered here rather than by the route

    def beside(self, app: ASGI) -> CommandRoute:
        """This route in front of `app` (the Litestar app, whose `scope["app"]` is set), the
        middleware around it as Litestar puts it around its routes: the first outermost."""
        self.app = app
        served: ASGI = self._command
        for layer in reversed(self.middleware):
            served = layer(served)  # factories and classes alike
        self._served = served
        return self

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        game_id = game_of(scope)
        headers = _headers(scope) if game_id is not None else None
        if game_id is None or headers is None or not self._plain(headers):
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
        asked = self._parsed(received, body, length, headers, game_id)
        if asked is None:
            await self.app(scope, _replay(received, receive), send)
            return
        self.served += 1
        scope["path_template"] = COMMANDS_ROUTE  # as the router would: for the middleware,
        scope["path_params"] = {"game_id": game_id}  # the log and the metrics
        scope[_ASKED] = asked
        try:
            await self._served(scope, receive, send)
        except Exception as exc:  # refused by a middleware (a rate limit): as Litestar would
            await _problem(scope, receive, send, exc)

    async def _command(self, scope: Any, receive: Any, send: Any) -> None:
        """The handler, inside the middleware: a refusal is answered here, through the
        middleware's `send` (a rate limit's fields go on it), as Litestar's route does."""
        asked = scope.pop(_ASKED)
        try:
            state = scope["app"].state
            answered = answer(await state.service.command(asked), asked.full, state.receipts)
        except Exception as exc:
            await _problem(scope, receive, send, exc)
            return
        headers = [(k.encode(), v.encode()) for k, v in answered.headers]
        if answered.body is not None:
            # The answer's own headers first, as Litestar's route renders them.
            headers = [*headers, *_JSON, (b"content-length", str(len(answered.body)).encode())]
        await send({"type": "http.response.start", "status": answered.status, "headers": headers})
        await send({"type": "http.response.body", "body": answered.body or b"", "more_body": False})

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
        self,
        received: list[Any],
        body: bytes,
        length: int,
        headers: dict[bytes, bytes],
        game_id: str,
    ) -> SeatCommand | None:
        """The command path's request, or None where the route is to answer."""
        if received[-1]["type"] != "http.request" or len(body) != length:
            return None
        text = {k.decode(): v.decode("latin-1") for k, v in headers.items()}
        try:
            return seat_command(
                game_id,
                bearer(text.get("authorization")),
                decode(body, GameCommand),
                text.get("idempotency-key"),
                text.get("if-match"),
                text.get("prefer"),
            )
        except (ApiError, RecursionError):
            return None


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


async def _problem(scope: Any, receive: Any, send: Any, exc: Exception) -> None:
    """The problem answer Litestar's exception handlers would give."""
    from litestar import Request

    handler = next(h for t, h in HANDLERS.items() if isinstance(exc, t))
    request: Request[Any, Any, Any] = Request(scope, receive)
    response = handler(request, exc)  # type: ignore[operator]  # the handler of exc's own type
    await response.to_asgi_response(None, request)(scope, receive, send)
