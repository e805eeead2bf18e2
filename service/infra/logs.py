"""The service's log: one JSON object per line by default (`DANGER_LOG_FORMAT=json`), or
plain text for a person at a terminal (`text`).

Each line has `ts` (RFC 3339 UTC with milliseconds, the format of every timestamp the
service writes), `level`, `logger` and `message`; a request's line (service/http/observe.py) adds
its fields under `request`, and an error its `exc`. Lines are written by a thread of their
own: a slow terminal or a full pipe never holds up the event loop, only the queue grows.
The thread writes what has gathered since its last write in one write, and then sleeps a
little for more to gather: under load, one system call for many requests' lines rather than
one each (a write to a pipe costs tens of microseconds on a small virtual machine, about
what a request's own work in a layer does), and no request wakes the thread.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import logging.handlers
import multiprocessing.util
import queue
import sys
import threading
from datetime import UTC, datetime
from typing import Any

import msgspec

from service.infra.clock import stamp

_encode = msgspec.json.Encoder().encode
GATHER_SECONDS = 0.05  # a line waits at most this long behind the last write


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


class Writer:
    """The thread that formats and writes the queued records, everything queued at once."""

    _STOP = object()

    def __init__(self, handler: logging.StreamHandler[Any]) -> None:
        self.handler = handler
        self.records: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="danger-log-writer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Write out what is queued and end the thread."""
        self._stopping.set()
        self.records.put(self._STOP)
        self._thread.join()

    def _run(self) -> None:
        while True:
            batch = [self.records.get()]
            with contextlib.suppress(queue.Empty):
                while True:
                    batch.append(self.records.get_nowait())
            lines, stopping = [], False
            for record in batch:
                if record is self._STOP:
                    stopping = True
                    continue
                try:
                    lines.append(self.handler.format(record) + "\n")
                except Exception:
                    self.handler.handleError(record)
            if lines:
                try:
                    self.handler.stream.write("".join(lines))
                    self.handler.flush()
                except Exception:
                    self.handler.handleError(batch[-1])
            if stopping:
                return
            # Let the next lines gather while this thread sleeps: a record put while it waits
            # on the queue wakes it (a futex call in the request's own thread), one put while
            # it sleeps costs an append. The wait is on an event, not time.sleep: a stop
            # ends it at once, and a process whose wall clock libfaketime steps (the fault
            # suite's worker) has its clock_nanosleep refused with EINVAL.
            self._stopping.wait(GATHER_SECONDS)


class ToWriter(logging.handlers.QueueHandler):
    """Hands the record itself to the writer thread: it is formatted there, not here (a
    queue within the process needs no copy made ready for pickling)."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        return record


_writer: Writer | None = None


def stop() -> None:
    """Write out what is queued and end the writer thread."""
    global _writer
    if _writer is not None:
        _writer.stop()
        _writer = None


atexit.register(stop)


def configure(
    fmt: str = "json", level: int = logging.INFO, stream: Any = None, access_log: bool = False
) -> None:
    """Route the root logger and uvicorn's through one formatter and one writer thread;
    uvicorn's access lines only with `access_log` (each request has its own line anyway:
    service/http/observe.py)."""
    global _writer
    # Neither format writes the process, the thread or its name: a record need not look
    # them up (a system call and two lookups for every request's line).
    logging.logProcesses = logging.logThreads = logging.logMultiprocessing = False
    stop()
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLines() if fmt == "json" else Text())
    _writer = Writer(handler)
    # A process that multiprocessing started (each API process of `danger serve`) ends
    # without atexit's handlers, after its finalizers (those registered once it runs): the
    # lines still gathering are written by this one.
    multiprocessing.util.Finalize(None, stop, exitpriority=0)
    root = logging.getLogger()
    root.handlers = [ToWriter(_writer.records)]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "arq"):
        named = logging.getLogger(name)
        named.handlers, named.propagate = [], access_log or name != "uvicorn.access"
