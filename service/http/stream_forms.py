"""The two forms a live stream is sent in, Server-Sent Events and NDJSON (JSON Lines, as
Lichess's streams are), and the HEAD of a stream.

A stream's messages are encoded by the hub (service/live/streams.py) in the form its reader
asked for; here the answer around them is made: its media type, and the headers that keep
proxies from buffering it. HEAD is routed as a GET (service/http/observe.py marks it): the
stream route answers it with the headers a GET would have, without opening a stream, so that
it takes no stream slot and a keep-alive client's next request finds the line free."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from litestar.background_tasks import BackgroundTask
from litestar.response import Response, Stream

NDJSON = "application/x-ndjson"
EVENT_STREAM = "text/event-stream"
HEAD_MARK = "danger.head"  # in the scope of a HEAD routed as a GET
UNBUFFERED = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def wants_lines(accept: str | None) -> bool:
    """True if the Accept header prefers NDJSON to Server-Sent Events (by its q values, then
    by its order); Server-Sent Events when it names neither."""
    if not accept or NDJSON not in accept:
        return False
    best: dict[str, tuple[float, int]] = {}
    for position, part in enumerate(accept.split(",")):
        media, *params = (piece.strip() for piece in part.split(";"))
        if media not in (NDJSON, EVENT_STREAM):
            continue
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        best.setdefault(media, (q, -position))
    lines, events = best.get(NDJSON, (0.0, 0)), best.get(EVENT_STREAM, (-1.0, 0))
    return lines[0] > 0 and lines > events


def is_head(scope: Any) -> bool:
    return bool(scope.get(HEAD_MARK))


def head_only(lines: bool) -> Response[Any]:
    """What a HEAD of a stream answers: the GET's status and headers, no stream."""
    return Response(b"", media_type=NDJSON if lines else EVENT_STREAM, headers={**UNBUFFERED})


def answer(
    messages: AsyncGenerator[Any, None], lines: bool, background: BackgroundTask
) -> Response[Any]:
    """The streamed answer around `messages` (encoded frames, or bytes)."""
    # The header, not `media_type`: a streamed answer takes the route's media type over its
    # own (Litestar's Stream.to_asgi_response), and the route's is the event stream's.
    headers = {**UNBUFFERED, "Content-Type": NDJSON if lines else EVENT_STREAM}
    return Stream(_bytes_of(messages), headers=headers, background=background)


async def _bytes_of(messages: AsyncGenerator[Any, None]) -> AsyncIterator[bytes]:
    """The hub's messages as the body's chunks (encoded in the reader's form already)."""
    async for message in messages:
        yield message if isinstance(message, bytes) else message.encode()
