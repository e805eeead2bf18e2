"""CPU-heavy reads (audit, replay, export, round summaries, long event pages) run in a pool of
worker processes, never on the event loop: an audit costs about 50 ms per 1,000 events, and
a loop held that long delays every request and timer of the process.

What crosses to a worker is the game's stored bytes and a few names; what comes back is the
answer. The pool and the queue in front of it are bounded: past `queue` waiting reads, a
request is refused with 503 `busy` at once rather than queued without end. One client holds
at most `per_client` of those places, running or waiting: beyond, its read is refused with
429 `too_many_in_flight`, and the rest of the pool stays for the other clients.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

import msgspec

from domain.kernel import Viewer
from domain.kernel import table as tables
from events.audit import audit, audit_export
from events.store import decode_envelope
from service.infra.client_shares import ClientShares
from service.infra.embedded import die_with_parent
from service.infra.errors import ApiError
from service.play.game_model import CODECS, fold_log, redact

T = TypeVar("T")
log = logging.getLogger("danger.offload")
RECENT = 256  # audits of running games kept, by game and seq


class Offload:
    def __init__(self, workers: int, queue: int, per_client: int) -> None:
        self._workers = workers
        self._pool = self._new_pool()
        self._room = queue + workers
        self._busy = 0
        self._shares = ClientShares(per_client, "audits, replays, exports and long event pages")
        # A running game's log changes with every command, but many readers ask for the audit
        # of the same seq: each is computed once.
        self._recent: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn, not fork: the parent runs an event loop and threads a fork would copy. A
        # worker dies with the service, even a killed one: no process is left behind.
        return ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=die_with_parent,
        )

    def recent(self, game_id: str, seq: int) -> bytes | None:
        return self._recent.get((game_id, seq))

    def remember(self, game_id: str, seq: int, report: bytes) -> None:
        self._recent[(game_id, seq)] = report
        while len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    def clients(self) -> int:
        """The clients holding a place now."""
        return len(self._shares)

    async def run(self, client: str, function: Any, *args: Any) -> Any:
        """`function(*args)` in a worker, on one of `client`'s places."""
        self._shares.take(client)  # its own flood is refused first: not the others' fault
        if self._busy >= self._room:
            self._shares.give(client)
            raise ApiError(
                503,
                "busy",
                "Too many audits, replays and exports are running; retry shortly.",
                headers={"Retry-After": "1"},
            )
        self._busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start new ones
            log.error("a worker of the CPU pool died; starting the pool again")
            self._pool = self._new_pool()
            raise ApiError(
                503, "busy", "A worker failed; retry shortly.", headers={"Retry-After": "1"}
            ) from None
        finally:
            self._busy -= 1
            self._shares.give(client)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


# What the workers run: module-level functions of plain arguments.


def audit_report(log: list[bytes]) -> bytes:
    """The audit of a stored log, as the JSON the API answers."""
    return msgspec.json.encode(audit([decode_envelope(raw) for raw in log]))


def audit_of_export(
    data: bytes,
    receipts: list[dict[str, Any]] | None = None,
    keys: dict[str, str] | None = None,
) -> bytes:
    """The audit of an exported log (JSON Lines), with receipts where sent, as the JSON the
    API answers."""
    return msgspec.json.encode(audit_export(data, receipts, keys))


def replay_view(
    game_id: str, log: list[bytes], secret: dict[str, str], viewer: Viewer
) -> tuple[tables.Status, Any]:
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
