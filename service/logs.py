"""The service's log: one JSON object per line by default (`DANGER_LOG_FORMAT=json`), or
plain text for a person at a terminal (`text`).

Each line has `ts` (RFC 3339 UTC with milliseconds, the format of every timestamp the
service writes), `level`, `logger` and `message`; a request's line (service/observe.py) adds
its fields under `request`, and an error its `exc`. Lines are written by a thread of their
own: a slow terminal or a full pipe never holds up the event loop, only the queue grows.
"""

from __future__ import annotations

import atexit
import logging
import logging.handlers
import queue
import sys
from datetime import UTC, datetime
from typing import Any

import msgspec

from .clock import stamp
from .config import LOG_FORMATS as FORMATS

_encode = msgspec.json.Encoder().encode


def timestamp(seconds: float) -> str:
    """RFC 3339 UTC with milliseconds: `2026-12-02T00:15:31.042Z`, as events' `at`."""
    return stamp(datetime.fromtimestamp(seconds, UTC))


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": timestamp(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request = getattr(record, "request", None)
        if request is not None:
            line["request"] = request
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return _encode(line).decode()


class Text(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        return timestamp(record.created)

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request = getattr(record, "request", None)
        if request is not None:
            text += f" {request['ms']} ms id={request['id']}"
        return text


_listener: logging.handlers.QueueListener | None = None


def stop() -> None:
    """Write out what is queued and end the writer thread."""
    global _listener
    if _listener is not None:
        _listener.stop()
        _listener = None


atexit.register(stop)


def configure(fmt: str = "json", level: int = logging.INFO, stream: Any = None) -> None:
    """Route the root logger and uvicorn's through one formatter and one writer thread."""
    global _listener
    if fmt not in FORMATS:
        raise ValueError(f"DANGER_LOG_FORMAT must be one of {', '.join(FORMATS)}, not {fmt!r}")
    stop()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else Text())
    lines: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
    _listener = logging.handlers.QueueListener(lines, handler)
    _listener.start()
    root = logging.getLogger()
    root.handlers = [logging.handlers.QueueHandler(lines)]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "arq"):
        named = logging.getLogger(name)
        named.handlers, named.propagate = [], True
