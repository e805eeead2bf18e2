"""What the service learns about the request it is answering, for its log line and metrics.

The outermost layer (service/http/observe.py) opens one per request; the layers below fill in what
only they know (the game's kind, the seat a token names, an idempotent repeat). The workers'
timers and bot moves run outside any request: `current()` is then None and nothing is
recorded (a timer a late command rings first is written inside that command's request).
"""

from __future__ import annotations

import hashlib
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
    __slots__ = ("code", "game", "id", "kind", "repeat", "seat", "sent")

    def __init__(self, request_id: str, sent: bool = False) -> None:
        self.id = request_id
        self.sent = sent  # the client's own id, not one made here
        self.game: str | None = None  # the game id named by the path
        self.kind: str | None = None  # the game's kind, once the game is read
        self.seat: int | None = None  # the seat a token named
        self.repeat = False  # answered from an earlier request's Idempotency-Key
        self.code: str | None = None  # the problem's `code` of a refusal

    def meta(self) -> dict[str, str]:
        """What the events this request writes record of it (their envelope's `meta`). An id
        the client chose is recorded as the client's: it says only what the client said, and
        another client may send the same."""
        return {"client_request": self.id} if self.sent else {"request": self.id}


_current: ContextVar[RequestContext | None] = ContextVar("danger_request", default=None)


def current() -> RequestContext | None:
    return _current.get()


def begin(sent: bytes | None) -> RequestContext:
    """The context of a new request: the client's id when it is one we accept, else a new
    one."""
    text = sent.decode("latin-1") if sent is not None else ""
    if _REQUEST_ID.fullmatch(text):
        context = RequestContext(text, sent=True)
    else:
        context = RequestContext(new_request_id())
    _current.set(context)
    return context


class _Ids:
    """Request ids: a keyed hash (BLAKE2b, 80 bits) of a per-process counter under a key drawn
    once per process, so that no id tells another (a client cannot guess the id of someone
    else's request from its own), at the cost of a hash, not a `getrandom` system call, per
    request."""

    def __init__(self) -> None:
        self.renew()

    def renew(self) -> None:
        self.key = secrets.token_bytes(32)
        self.counter = itertools.count()


_ids = _Ids()
os.register_at_fork(after_in_child=_ids.renew)


def new_request_id() -> str:
    n = next(_ids.counter).to_bytes(8, "little")
    return "req_" + hashlib.blake2b(n, key=_ids.key, digest_size=10).hexdigest()


def meta() -> dict[str, str] | None:
    """The envelope `meta` of events written now: the request's, or None outside one."""
    context = _current.get()
    return None if context is None else context.meta()
