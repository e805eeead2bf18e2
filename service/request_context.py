"""What the service learns about the request it is answering, for its log line and metrics.

The outermost layer (service/observe.py) opens one per request; the layers below fill in what
only they know (the game's kind, the seat a token names, an idempotent repeat). Timers and
bot moves run outside any request: `current()` is then None and nothing is recorded.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets
from contextvars import ContextVar

REQUEST_ID_HEADER = "x-request-id"
# What a client may send as its own id (anything else, or none, gets one made here): short,
# printable and free of anything a log line or a header could be confused by.
REQUEST_ID_PATTERN = r"^[A-Za-z0-9._~:/+=-]{1,128}$"
_REQUEST_ID = re.compile(REQUEST_ID_PATTERN)


class RequestContext:
    __slots__ = ("code", "game", "id", "kind", "repeat", "seat")

    def __init__(self, request_id: str) -> None:
        self.id = request_id
        self.game: str | None = None  # the game id named by the path
        self.kind: str | None = None  # the game's kind, once the game is read
        self.seat: int | None = None  # the seat a token named
        self.repeat = False  # answered from an earlier request's Idempotency-Key
        self.code: str | None = None  # the problem's `code` of a refusal

    def meta(self) -> dict[str, str]:
        """What the events this request writes record of it (their envelope's `meta`)."""
        return {"request": self.id}


_current: ContextVar[RequestContext | None] = ContextVar("danger_request", default=None)


def current() -> RequestContext | None:
    return _current.get()


def begin(sent: bytes | None) -> RequestContext:
    """The context of a new request: the client's id when it is one we accept, else a new
    one."""
    text = sent.decode("latin-1") if sent is not None else ""
    context = RequestContext(text if _REQUEST_ID.fullmatch(text) else new_request_id())
    _current.set(context)
    return context


class _Ids:
    """Request ids: 40 random bits drawn once per process, then a counter. Unique within the
    process and, with a fleet's thousands of processes, between them; not secret (the answer
    and the events carry them), so not worth a `getrandom` system call per request."""

    def __init__(self) -> None:
        self.renew()

    def renew(self) -> None:
        self.prefix = f"req_{secrets.randbits(40):010x}"
        self.counter = itertools.count(secrets.randbits(39))


_ids = _Ids()
os.register_at_fork(after_in_child=_ids.renew)


def new_request_id() -> str:
    return f"{_ids.prefix}{next(_ids.counter) & 0xFF_FFFF_FFFF:010x}"


def meta() -> dict[str, str] | None:
    """The envelope `meta` of events written now: the request's, or None outside one."""
    context = _current.get()
    return None if context is None else context.meta()
