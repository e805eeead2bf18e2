"""The service's log: JSON lines, and a reader that stopped reading never blocks a caller."""

from __future__ import annotations

import io
import json
import logging
import os
import threading
from collections.abc import Iterator

import pytest

from service.infra import logs


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


class CountedWrites(io.StringIO):
    """A stream that counts its writes, and holds the first until it is let go."""

    def __init__(self) -> None:
        super().__init__()
        self.writes = 0
        self.first = threading.Event()
        self.go = threading.Event()

    def write(self, text: str) -> int:
        self.writes += 1
        self.first.set()
        self.go.wait(10)
        return super().write(text)


def test_lines_logged_while_the_writer_writes_go_out_together_in_order(configured):
    out = CountedWrites()
    logs.configure("json", stream=out)
    log = logging.getLogger("danger.test")
    log.info("line 0")
    assert out.first.wait(10)  # the writer is in its first write; 999 lines queue meanwhile
    for n in range(1, 1000):
        log.info("line %d", n)
    out.go.set()
    logs.stop()
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    # Only this test's logger: a worker an earlier test left stopping may log a line meanwhile.
    messages = [r["message"] for r in records if r["logger"] == "danger.test"]
    assert messages == [f"line {n}" for n in range(1000)], "every line, in order"
    assert out.writes <= 3, f"{out.writes} writes for 1,000 lines: the queued ones together"
