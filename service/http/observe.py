"""The outermost layer of every HTTP request: its id, HEAD, its log line and its metrics.

- **Request id.** `X-Request-ID` as the client sent it (when it is one we accept,
  service/infra/request_context.py) or one made here; it is in the answer's headers, in the
  request's log line, and in the `meta` of every event the request wrote, so an operator can go from
  a complaint to the request to the events.
- **HEAD** is answered wherever GET is: the request is routed as a GET and its answer's body
  is dropped (a stream's answer ends after its headers).
- **One log line per request** (logger `danger.request`, JSON by default: service/infra/logs.py)
  with the method, route, status, duration, game, seat, client and request id, and the
  problem's `code` for a refusal.
- **A client that hung up** before its answer began is logged and counted with status 499 and
  code `client_closed` (nginx's convention), whatever the service would have answered: the
  answer reached no one, and the server did not fail. A command cut off before the service
  read it whole is counted with the outcome `client_closed`; one the game decided keeps the
  outcome of its decision (an applied command was applied, whoever heard of it).

It sits outside Litestar's routing (service/assembly/app.py), so an unknown path or method is
logged, counted and given an id too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from service.http.http_protocols import transport_of
from service.http.stream_forms import HEAD_MARK
from service.infra import metrics, request_context
from service.infra.request_context import REQUEST_ID_HEADER

log = logging.getLogger("danger.request")

ASGI = Callable[[Any, Any, Any], Awaitable[None]]
_ID_HEADER = REQUEST_ID_HEADER.encode()
_PROBLEM = b"application/problem+json"
_PROBLEM_BYTES = 8192  # a problem body is a few hundred bytes; never buffer more
COMMANDS_ROUTE = "/v1/games/{game_id}/commands"
CLIENT_CLOSED = 499  # nginx's status for a request whose client left before its answer
CLIENT_CLOSED_CODE = "client_closed"
# The methods counted by name; any other a client sends (HTTP/1.1 takes any token as one) is
# counted as "other", so that no client can add series to the metrics without end.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _Code(msgspec.Struct):
    code: str | None = None


_read_code = msgspec.json.Decoder(_Code).decode


def _outcome(status: int, repeat: bool, gone: bool) -> str:
    if gone and (status == 0 or status >= 500):
        # The command never reached the game whole (its body was cut off): no decision.
        return CLIENT_CLOSED_CODE
    if status < 400:
        return "repeated" if repeat else "applied"
    return {409: "refused", 412: "stale", 503: "unavailable"}.get(
        status, "failed" if status >= 500 else "invalid"
    )


async def observe(
    scope: Any, receive: Any, send: Any, app: ASGI, client_of: Callable[[Any], str]
) -> None:
    """Answer one HTTP request through `app`, observed; `client_of` names its client."""
    started = time.perf_counter()
    headers = scope["headers"]
    sent_id = next((v for k, v in headers if k == _ID_HEADER), None)
    context = request_context.begin(sent_id)
    request_id = context.id.encode()
    head = scope["method"] == "HEAD"
    if head:
        scope = {**scope, "method": "GET", HEAD_MARK: True}  # a stream answers its head only
    status = 0
    problem: list[bytes] | None = None
    ended = False
    gone = False  # the client hung up before its answer began
    transport = transport_of(scope)  # None under a server without the service's protocols

    async def send_observed(message: Any) -> None:
        nonlocal status, problem, ended, gone
        kind = message["type"]
        if kind == "http.response.start":
            status = message["status"]
            # The server drops an answer to a closed connection without a word: the only
            # sign of a client that left while its request was worked on.
            if transport is not None and transport.is_closing():
                gone = True
            out = [(k, v) for k, v in message.get("headers", ()) if k != _ID_HEADER]
            out.append((_ID_HEADER, request_id))
            message = {**message, "headers": out}
            if status >= 400 and any(
                k == b"content-type" and v.startswith(_PROBLEM) for k, v in out
            ):
                problem = []
        elif kind == "http.response.body":
            if problem is not None and sum(map(len, problem)) < _PROBLEM_BYTES:
                problem.append(message.get("body", b""))
            if head:
                if ended:
                    return
                ended = True
                finished.set()
                message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    finished = asyncio.Event()  # HEAD: the answer's headers are out, nothing more goes

    async def receive_observed() -> Any:
        nonlocal gone
        if not head:
            message = await receive()
            if message["type"] == "http.disconnect" and not status:
                gone = True
            return message
        # A stream answering HEAD ends with its headers: the app hears the client leave.
        if not finished.is_set():
            waiting = asyncio.ensure_future(receive())
            done = asyncio.ensure_future(finished.wait())
            await asyncio.wait((waiting, done), return_when=asyncio.FIRST_COMPLETED)
            if waiting.done():
                done.cancel()
                message = waiting.result()
                if message["type"] == "http.disconnect" and not status:
                    gone = True
                return message
            waiting.cancel()
        return {"type": "http.disconnect"}

    try:
        await app(scope, receive_observed, send_observed)
    finally:
        if problem:
            with contextlib.suppress(msgspec.DecodeError):
                context.code = _read_code(b"".join(problem)).code
        seconds = time.perf_counter() - started
        _record(scope, status, gone, seconds, context, head, client_of)


def _record(
    scope: Any,
    answered: int,
    gone: bool,
    seconds: float,
    context: request_context.RequestContext,
    head: bool,
    client_of: Callable[[Any], str],
) -> None:
    """`answered`: the status the app gave (0: none); `gone`: its client had hung up."""
    status = CLIENT_CLOSED if gone else answered or 500
    if gone:
        context.code = CLIENT_CLOSED_CODE
    route = scope.get("path_template") or "unmatched"
    method = "HEAD" if head else scope["method"]
    game = (scope.get("path_params") or {}).get("game_id") or context.game
    counted = method if method in METHODS else "other"
    metrics.series(metrics.REQUESTS, route, counted, status).observe(seconds)
    if route == COMMANDS_ROUTE and method == "POST":
        outcome = _outcome(answered, context.repeat, gone)
        metrics.series(metrics.COMMANDS, context.kind or "unknown", outcome).observe(seconds)
    if not log.isEnabledFor(logging.INFO):
        return
    log.info(
        "%s %s %d",
        method,
        scope.get("path", ""),
        status,
        extra={
            "request": {
                "id": context.id,
                "method": method,
                "route": route,
                "path": scope.get("path", ""),
                "status": status,
                "ms": round(seconds * 1000, 2),
                "game": game,
                "kind": context.kind,
                "seat": context.seat,
                "code": context.code,
                "client": client_of(scope),
            }
        },
    )
