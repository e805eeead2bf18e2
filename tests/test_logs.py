"""The service's log: JSON lines, and a reader that stopped reading never blocks a caller."""

from __future__ import annotations

import io
import json
import logging
import os
import threading
from collections.abc import Iterator

import pytest

from service import logs


@pytest.fixture
def configured() -> Iterator[None]:
    """The process's logging as `danger serve` sets it, and pytest's again afterwards."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        yield
    finally:
        logs.stop()
        root.handlers, root.level = handlers, level


def test_a_full_pipe_does_not_block_the_code_that_logs(configured):
    read_end, write_end = os.pipe()  # nobody reads: it is full after 64 KiB
    stream = os.fdopen(write_end, "w", buffering=1)
    logs.configure("json", stream=stream)
    log = logging.getLogger("danger.test")

    def flood() -> None:
        for n in range(5_000):
            log.info("line %d %s", n, "x" * 200)

    flooding = threading.Thread(target=flood, daemon=True)
    flooding.start()
    flooding.join(timeout=60)
    blocked = flooding.is_alive()
    with os.fdopen(read_end, "rb") as reader:
        draining = threading.Thread(target=reader.read, daemon=True)  # to the end: EOF
        draining.start()
        logs.stop()  # everything queued is written now that it is read
        stream.close()
        draining.join(timeout=60)
    assert not blocked, "logging waited for the pipe's reader"


def test_each_line_is_one_json_object_with_the_events_timestamp_form(configured):
    out = io.StringIO()
    logs.configure("json", stream=out)
    logging.getLogger("danger.test").warning("hello %s", "there")
    logs.stop()  # the queued line is written
    line = json.loads(out.getvalue().splitlines()[-1])
    assert line["message"] == "hello there" and line["level"] == "warning"
    assert line["logger"] == "danger.test"
    assert len(line["ts"]) == 24 and line["ts"].endswith("Z") and line["ts"][10] == "T"
