"""CPU-heavy reads (audit, replay, export, round summaries, long event pages) run in a pool of
worker processes, never on the event loop: an audit costs about 50 ms per 1,000 events, and
a loop held that long delays every request and timer of the process.

What crosses to a worker is the game's stored bytes and a few names; what comes back is the
answer. The pool and the queue in front of it are bounded: past `queue` waiting reads, a
request is refused with 503 `busy` at once rather than queued without end.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

import msgspec

from domain.kernel import Viewer
from domain.kernel import table as tables
from events.audit import audit
from events.store import decode_envelope

from .errors import ApiError
from .games import CODECS, fold_log, redact

T = TypeVar("T")


class Offload:
    def __init__(self, workers: int, queue: int) -> None:
        # spawn, not fork: the parent runs an event loop and threads a fork would copy.
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn")
        )
        self._room = queue + workers
        self._busy = 0

    async def run(self, function: Any, *args: Any) -> Any:
        if self._busy >= self._room:
            raise ApiError(
                503,
                "busy",
                "Too many audits, replays and exports are running; retry shortly.",
                headers={"Retry-After": "1"},
            )
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        finally:
            self._busy -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


# What the workers run: module-level functions of plain arguments.


def audit_report(log: list[bytes]) -> bytes:
    """The audit of a stored log, as the JSON the API answers."""
    return msgspec.json.encode(audit([decode_envelope(raw) for raw in log]))


def replay_view(
    game_id: str, log: list[bytes], secret: dict[str, str], viewer: Viewer
) -> tuple[str, Any]:
    """The game as it stood after the last event of `log`: its status and the view of it."""
    game = fold_log(game_id, log, secret)
    return game.table.status, tables.view(game.table, game.rules, viewer)


def readable(game: str, over: bool, log: list[bytes], viewer: Viewer) -> list[Any]:
    """The stored envelopes as `viewer` may read them."""
    codec = CODECS[game]
    return [redact(codec, over, decode_envelope(raw), viewer) for raw in log]


def export_lines(game: str, over: bool, log: list[bytes], viewer: Viewer) -> bytes:
    """The log as JSON Lines, as `viewer` may read it."""
    return b"".join(msgspec.json.encode(e) + b"\n" for e in readable(game, over, log, viewer))
